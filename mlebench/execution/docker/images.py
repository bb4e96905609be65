"""The three images, built through the docker SDK and tagged by a content hash of their build context.

- ``mlebench-env:<hash>`` — the base environment (``environment/Dockerfile``): Debian, Python and the
  libraries every agent gets, the unprivileged ``agent`` account, the contract's folders and the
  ``validate`` command with exactly the modules it imports (validation, never metrics or answers), and
  MLE-bench v1's interfaces to it (the ``agent-entry`` that serves ``localhost:5000/validate``,
  ``/home/validate_submission.sh``). Its
  ``FROM`` is the ``docker.base_image`` setting.
- ``mlebench-agent-<name>:<hash>`` — one per agent (``agents/<name>/Dockerfile``), ``FROM`` the env image.
- ``mlebench-grader:<hash>`` — the env image plus exactly the modules the grading entry point imports
  (``environment/grader.Dockerfile``).

A context's hash covers every file's relative path and bytes, the Dockerfile, the build args and the
parent image's id, so an image is rebuilt exactly when something that goes into it changed, and an existing
tag is reused without a build. Build contexts are assembled from explicit file lists, never from the whole
checkout, so ``data/`` (and the answers in it) can never be sent to the engine. The module lists are
derived from the code's imports (:func:`mlebench_spec.sources.closure`), so an image holds what its entry
point runs and nothing else — no authoring tool, and no metric in an agent's image.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import tarfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from mlebench.execution.docker.engine import InfraError, with_retries
from mlebench_spec.errors import ConfigError
from mlebench_spec.hashing import sha256_json
from mlebench_spec.params import AgentConfig, DockerSettings
from mlebench_spec.sources import closure

if TYPE_CHECKING:
    import docker

ENVIRONMENT = "environment"
ENV_REPO = "mlebench-env"
GRADER_REPO = "mlebench-grader"
AGENT_REPO_PREFIX = "mlebench-agent-"
ENV_FILES = (
    "Dockerfile",
    "requirements.txt",
    "validate",
    "validate.py",
    "agent-entry",
    "validate_submission.sh",
)
VALIDATOR = "environment/validate.py"
"""The in-container ``validate`` command: the env image holds it and exactly the modules it imports."""
GRADER_ENTRY = "mlebench.execution.docker.grade_entry"
"""What a grader container runs: the grader image holds exactly the modules it imports."""
CA_ENV_VARS = ("MLEBENCH_BUILD_CA_CERT", "PIP_CERT")
_TAG_CHARS = re.compile(r"[^a-z0-9._-]+")
_BUILD_LOG_TAIL = 40


@dataclass(frozen=True)
class ImageRef:
    """A built (or reused) image: its tag, its content-addressed id and how it was obtained."""

    tag: str
    id: str
    context_sha256: str
    built: bool
    seconds: float

    def lineage(self) -> dict[str, str]:
        """Return what run.json and grading records keep of an image."""
        return {"tag": self.tag, "id": self.id, "context_sha256": self.context_sha256}


@dataclass
class BuildContext:
    """The files sent to the engine, by relative POSIX path: either a host file or literal bytes."""

    files: dict[str, Path | bytes] = field(default_factory=dict)

    def add_file(self, rel: str, path: Path) -> None:
        """Add one host file under ``rel``."""
        if not path.is_file():
            raise ConfigError(f"{path} is missing: it is part of an image build context")
        self.files[rel] = path

    def add_tree(self, prefix: str, folder: Path) -> None:
        """Add every regular file under ``folder``, skipping caches and links."""
        if not folder.is_dir():
            raise ConfigError(f"{folder} is missing: it is part of an image build context")
        for item in sorted(folder.rglob("*")):
            rel = item.relative_to(folder)
            if "__pycache__" in rel.parts or item.suffix == ".pyc" or item.is_symlink() or not item.is_file():
                continue
            self.files[f"{prefix}/{rel.as_posix()}" if prefix else rel.as_posix()] = item

    def sha256(self, extra: dict[str, object]) -> str:
        """Hash of every file's path and bytes plus ``extra`` (Dockerfile name, build args, parent id)."""
        manifest = {rel: hashlib.sha256(self._bytes(rel)).hexdigest() for rel in sorted(self.files)}
        return sha256_json({"files": manifest, "extra": extra})

    def tar(self) -> io.BytesIO:
        """Return the context as a tar with fixed owners and times (equal inputs give equal bytes)."""
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
            for rel in sorted(self.files):
                data = self._bytes(rel)
                info = tarfile.TarInfo(rel)
                info.size, info.mtime, info.mode = len(data), 0, 0o755 if self._executable(rel) else 0o644
                tar.addfile(info, io.BytesIO(data))
        buf.seek(0)
        return buf

    def _bytes(self, rel: str) -> bytes:
        src = self.files[rel]
        return src if isinstance(src, bytes) else src.read_bytes()

    def _executable(self, rel: str) -> bool:
        src = self.files[rel]
        return not isinstance(src, bytes) and os.access(src, os.X_OK)


def env_image(client: docker.DockerClient, settings: DockerSettings, root: Path) -> ImageRef:
    """Return the base environment image for ``settings.base_image``, building it if its tag is new."""
    base_id = base_image_id(client, settings.base_image)
    ctx = env_context(root)
    ctx.files["build-ca.pem"] = build_ca_bundle()
    args = {"BASE_IMAGE": settings.base_image}
    return ensure_image(
        client, ENV_REPO, ctx, "Dockerfile", args, parent_id=base_id, retries=settings.infra_retries
    )


def env_context(root: Path) -> BuildContext:
    """Return the env image's build context: ``environment/`` files plus the modules ``validate`` imports."""
    ctx = BuildContext()
    for name in ENV_FILES:
        ctx.add_file(name, root / ENVIRONMENT / name)
    for rel in closure([VALIDATOR], root):
        if rel != VALIDATOR:
            ctx.add_file(f"validator/{rel}", root / rel)
    return ctx


def grader_context(root: Path) -> BuildContext:
    """Return the grader image's build context: its Dockerfile plus the modules grading imports."""
    ctx = BuildContext()
    ctx.add_file("Dockerfile", root / ENVIRONMENT / "grader.Dockerfile")
    for rel in closure([GRADER_ENTRY], root):
        ctx.add_file(rel, root / rel)
    return ctx


def context_sources(ctx: BuildContext, root: Path) -> list[str]:
    """Return the checkout files (POSIX, relative) a build context is made of: what an image depends on."""
    base = root.resolve()
    return sorted(
        src.resolve().relative_to(base).as_posix() for src in ctx.files.values() if isinstance(src, Path)
    )


def agent_image(
    client: docker.DockerClient, name: str, agent: AgentConfig, env: ImageRef, root: Path, retries: int
) -> ImageRef:
    """Return one agent's image: ``agents/<name>/Dockerfile`` built ``FROM`` the env image."""
    folder = (root / agent.path).resolve()
    if not (folder / "Dockerfile").is_file():
        raise ConfigError(
            f"agent {name!r}: {folder / 'Dockerfile'} is missing; the Docker runner builds the agent's "
            "image from it (copy agents/dummy/Dockerfile), or set runner: local"
        )
    ctx = BuildContext()
    ctx.add_tree("", folder)
    return ensure_image(
        client,
        AGENT_REPO_PREFIX + _TAG_CHARS.sub("-", name.lower()).strip("-._"),
        ctx,
        "Dockerfile",
        {"ENV_IMAGE": env.tag},
        parent_id=env.id,
        retries=retries,
    )


def grader_image(client: docker.DockerClient, env: ImageRef, root: Path, retries: int) -> ImageRef:
    """Return the grading image: the env image plus the modules of this checkout that grading runs."""
    ctx = grader_context(root)
    return ensure_image(
        client, GRADER_REPO, ctx, "Dockerfile", {"ENV_IMAGE": env.tag}, parent_id=env.id, retries=retries
    )


def ensure_image(
    client: docker.DockerClient,
    repo: str,
    ctx: BuildContext,
    dockerfile: str,
    buildargs: dict[str, str],
    parent_id: str,
    retries: int,
) -> ImageRef:
    """Reuse ``repo:<context hash>`` when it exists, else build it (engine failures retried, bounded)."""
    import docker.errors

    digest = ctx.sha256({"dockerfile": dockerfile, "buildargs": buildargs, "parent_id": parent_id})
    tag = f"{repo}:{digest[:16]}"
    t0 = time.monotonic()
    try:
        return ImageRef(
            tag, client.images.get(tag).id, digest, built=False, seconds=round(time.monotonic() - t0, 3)
        )
    except docker.errors.ImageNotFound:
        pass

    def build() -> str:
        try:
            image, _ = client.images.build(
                fileobj=ctx.tar(),
                custom_context=True,
                dockerfile=dockerfile,
                tag=tag,
                buildargs=buildargs,
                rm=True,
                forcerm=True,
                pull=False,
                labels={"mlebench.context_sha256": digest},
            )
        except docker.errors.BuildError as exc:
            tail = "".join(
                str(line.get("stream", line.get("error", "")))
                for line in list(exc.build_log)[-_BUILD_LOG_TAIL:]
            )
            raise InfraError(f"building {tag} failed: {exc.msg}\n{tail}") from exc
        return image.id

    image_id = with_retries(build, f"building image {tag}", retries)
    return ImageRef(tag, image_id, digest, built=True, seconds=round(time.monotonic() - t0, 3))


def build_ca_bundle() -> bytes:
    """Extra CA certificates pip needs inside image builds on this machine (a TLS-inspecting proxy).

    Taken from the file ``MLEBENCH_BUILD_CA_CERT`` names, else the one ``PIP_CERT`` names (pip on this host
    needs it, so pip inside the build does too); empty when neither is set, which changes nothing.
    """
    for var in CA_ENV_VARS:
        value = os.environ.get(var, "").strip()
        if value:
            path = Path(value)
            if not path.is_file():
                raise ConfigError(
                    f"{var}={value}: no such file (it should hold PEM CA certificates for image builds)"
                )
            return path.read_bytes()
    return b""


def base_image_id(client: docker.DockerClient, name: str) -> str:
    """Return the id of the base image ``name``, pulled if absent; a clear ConfigError if it cannot be."""
    import docker.errors

    try:
        return client.images.get(name).id
    except docker.errors.ImageNotFound:
        pass
    try:
        return client.images.pull(name).id
    except docker.errors.DockerException as exc:
        raise ConfigError(
            f"base image {name!r} is not in the Docker engine and cannot be pulled ({exc}). "
            f"Offline, build it locally with `sudo environment/bootstrap_base.sh {name}`; "
            "with registry access, set docker.base_image in conf/config.yaml to a pullable image "
            "such as debian:bookworm-slim."
        ) from None
