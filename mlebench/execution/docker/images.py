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

from mlebench.execution.contract import ENVIRONMENT, VALIDATOR
from mlebench.execution.docker.engine import InfraError, with_retries
from mlebench_spec.errors import ConfigError
from mlebench_spec.hashing import sha256_json
from mlebench_spec.params import AgentConfig, DockerSettings
from mlebench_spec.sources import closure

if TYPE_CHECKING:
    import docker

ENV_REPO = "mlebench-env"
GRADER_REPO = "mlebench-grader"
AGENT_REPO_PREFIX = "mlebench-agent-"
ENV_FILES = (
    "Dockerfile",
    "requirements.txt",
    "requirements-agent.txt",
    "requirements-heavy.txt",
    "conda",
    "validate",
    "validate.py",
    "agent-entry",
    "validate_submission.sh",
)
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
    args = {
        "BASE_IMAGE": settings.base_image,
        "INSTALL_HEAVY_DEPENDENCIES": str(settings.install_heavy_dependencies).lower(),
    }
    ref = ensure_image(
        client, ENV_REPO, ctx, "Dockerfile", args, parent_id=base_id, retries=settings.infra_retries
    )
    answer_to_v1_name(client, ref)
    return ref


def answer_to_v1_name(client: docker.DockerClient, env: ImageRef) -> None:
    """Tag the env image ``mlebench-env:latest`` too: the name v1 agent Dockerfiles build ``FROM``.

    The engine then resolves ``FROM mlebench-env`` locally (Podman as ``localhost/mlebench-env``), never
    from a registry. The last env image built or reused holds the name; a v1 agent's build re-tags it first.
    """
    with_retries(lambda: client.images.get(env.id).tag(ENV_REPO, "latest"), f"tagging {env.tag}", 2)


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
    if agent.v1 is not None:
        return v1_agent_image(client, name, agent, env, folder, retries)
    _check_start(name, agent, folder)
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
        owner=folder / "Dockerfile",
    )


def _check_start(name: str, agent: AgentConfig, folder: Path) -> None:
    """Check that a command running a script of the agent's folder (``./start.sh``) finds it, executable."""
    first = agent.command[0]
    if not first.startswith("./"):
        return
    script = folder / first[2:]
    if not script.is_file():
        raise ConfigError(f"agent {name!r}: its command runs {first}, but {script} is missing")
    if not os.access(script, os.X_OK):
        raise ConfigError(
            f"agent {name!r}: its command runs {first}, but {script} is not executable: "
            f"`chmod +x {script}` (or start it as `bash {first[2:]}`)"
        )


V1_FINISH = b"""ARG V1_IMAGE
FROM ${V1_IMAGE}
USER root
ARG START
RUN test -f "$START" || { echo "the image holds no start script at $START" >&2; exit 1; }
RUN chown -R 1000:1000 /home/agent
"""
"""The layer over a v1 agent's own image: its files in /home/agent become the agent user's (v1's entrypoint
makes /home writable when the container starts, as root; ours starts as the agent), and its start script
must be where v1's runner runs it."""


def v1_agent_image(
    client: docker.DockerClient, name: str, agent: AgentConfig, env: ImageRef, folder: Path, retries: int
) -> ImageRef:
    """Build a v1 agent's image as v1 does: its folder as context, its Dockerfile, ``FROM mlebench-env``.

    With v1's build args (:data:`mlebench.execution.v1_agents.BUILD_ARGS`); then :data:`V1_FINISH` on top.
    A Dockerfile that fails to build is the agent's config error, named with its line, never retried.
    """
    from mlebench.execution.v1_agents import BUILD_ARGS

    v1 = agent.v1
    assert v1 is not None
    dockerfile = folder / v1.dockerfile
    if not dockerfile.is_file():
        raise ConfigError(
            f"{v1.config}: agent {name!r} (v1 id {v1.id!r}): the Dockerfile {dockerfile} is missing"
        )
    ctx = BuildContext()
    ctx.add_tree("", folder)
    answer_to_v1_name(client, env)  # the FROM of this build, whichever env image was tagged last
    repo = AGENT_REPO_PREFIX + _TAG_CHARS.sub("-", name.lower()).strip("-._")
    own = ensure_image(
        client,
        repo + "-v1",
        ctx,
        v1.dockerfile,
        dict(BUILD_ARGS),
        parent_id=env.id,
        retries=retries,
        owner=dockerfile,
    )
    finish = BuildContext({"Dockerfile": V1_FINISH})
    start = agent.command[1]
    try:
        return ensure_image(
            client,
            repo,
            finish,
            "Dockerfile",
            {"V1_IMAGE": own.tag, "START": start},
            parent_id=own.id,
            retries=retries,
            owner=Path(v1.config.rpartition(":")[0]),
        )
    except ConfigError as exc:
        raise ConfigError(f"{v1.config}: agent {name!r} (v1 id {v1.id!r}): {exc}") from None


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
    owner: Path | None = None,
) -> ImageRef:
    """Reuse ``repo:<context hash>`` when it exists, else build it (engine failures retried, bounded).

    ``owner``: the user's Dockerfile the image is built from (an agent's). A step of it that fails is then
    a :class:`ConfigError` naming the file and line, never retried; without one (the env and grader images,
    ours) a failed build is an engine failure, retried.
    """
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
            log = [str(line.get("stream", line.get("error", ""))) for line in list(exc.build_log)]
            tail = "".join(log[-_BUILD_LOG_TAIL:])
            if owner is not None:
                raise ConfigError(
                    f"{failed_step(owner, ''.join(log))}: building the agent's image {tag} failed there: "
                    f"{exc.msg.strip()}\n{tail}"
                ) from None
            raise InfraError(f"building {tag} failed: {exc.msg}\n{tail}") from exc
        return image.id

    image_id = with_retries(build, f"building image {tag}", retries)
    return ImageRef(tag, image_id, digest, built=True, seconds=round(time.monotonic() - t0, 3))


_STEP = re.compile(r"(?im)^\s*step\s+(\d+)/\d+\s*:\s*(.*?)\s*$")


def failed_step(dockerfile: Path, log: str) -> str:
    """``file:line`` of the Dockerfile instruction a build log's last step names (just the file if none).

    Docker's builder logs ``Step 5/8 : RUN ...``, Podman's ``STEP 5/8: RUN ...``: the instruction is found
    by its text (whitespace aside), else by its number.
    """
    steps = _STEP.findall(log)
    try:
        text = dockerfile.read_text(encoding="utf-8")
    except OSError:
        return str(dockerfile)
    if not steps:
        return str(dockerfile)
    number, shown = int(steps[-1][0]), " ".join(steps[-1][1].split())
    instructions = dockerfile_instructions(text)
    for line, instruction in instructions:
        if instruction == shown or (len(shown) > 20 and instruction.startswith(shown[:60])):
            return f"{dockerfile}:{line}"
    if 0 < number <= len(instructions):
        return f"{dockerfile}:{instructions[number - 1][0]}"
    return str(dockerfile)


def dockerfile_instructions(text: str) -> list[tuple[int, str]]:
    r"""Each instruction of a Dockerfile with the line it starts on, continuations joined, comments left out.

    >>> dockerfile_instructions("FROM x\n# note\nRUN a \\\n  && b\n")
    [(1, 'FROM x'), (3, 'RUN a && b')]
    """
    out: list[tuple[int, str]] = []
    start, parts = 0, []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not parts and (not line or line.startswith("#")):
            continue
        if parts and line.startswith("#"):
            continue
        if not parts:
            start = number
        continued = line.endswith("\\")
        parts.append(line[:-1] if continued else line)
        if not continued:
            out.append((start, " ".join(" ".join(parts).split())))
            parts = []
    if parts:
        out.append((start, " ".join(" ".join(parts).split())))
    return out


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
