"""The env image's v1 build option, without an engine (environment/Dockerfile, docs/v1-compatibility.md).

v1's ``INSTALL_HEAVY_DEPENDENCIES``: the package set is ``environment/requirements-heavy.txt`` alone, checked
here against what ``../shared/spec/mlebench-harness.md`` says of v1's (its count and every pin it names); the
setting ``docker.install_heavy_dependencies`` reaches the build as that build arg and gives the image its own
tag; and the Dockerfile's step is run by bash with ``conda`` and ``apt-get`` recording what they were asked,
so its three installs (the file, then ``tensorflow[and-cuda]`` and the torch packages at the file's pins) are
checked without downloading gigabytes. The image itself is built in tests/docker (light) and once by hand
(heavy, docs/performance.md).
"""

from __future__ import annotations

import io
import re
import subprocess
import tarfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from mlebench.execution.docker import images
from mlebench.execution.docker.engine import in_ci
from mlebench.execution.docker.images import dockerfile_instructions, env_image
from mlebench_spec.params import DockerSettings

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = ROOT / "environment" / "Dockerfile"
HEAVY = ROOT / "environment" / "requirements-heavy.txt"
ARG = "INSTALL_HEAVY_DEPENDENCIES"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)$")


def harness_spec() -> str:
    """Return v1's harness facts (``../shared/spec/mlebench-harness.md`` beside the checkout or above it)."""
    for parent in ROOT.parents:
        spec = parent / "shared" / "spec" / "mlebench-harness.md"
        if spec.is_file():
            return spec.read_text(encoding="utf-8")
    message = "../shared/spec/mlebench-harness.md (MLE-bench v1's harness facts) is not beside the checkout"
    if in_ci():
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def heavy_pins() -> dict[str, str]:
    """``requirements-heavy.txt`` as ``{name: version}``; every line that is not a comment is an exact pin."""
    pins = {}
    for line in HEAVY.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            match = PIN.match(line.strip())
            assert match, f"requirements-heavy.txt: {line!r} is not an exact pin (name==version)"
            pins[match[1].lower()] = match[2]
    return pins


def spec_heavy_section() -> str:
    """Return the spec's paragraph on the build arg, up to the next numbered layer."""
    text = harness_spec()
    start = text.index(f"**`{ARG}`**")
    return text[start : text.index("\n6. ", start)]


def test_the_heavy_set_is_v1s_as_the_spec_gives_it() -> None:
    section = " ".join(spec_heavy_section().split())
    assert "default `true`" in section  # v1's default; ours is false (documented)
    count = int(re.search(r"(\d+) pinned packages", section)[1])
    pins = heavy_pins()
    assert len(pins) == count, f"the spec says {count} pins, requirements-heavy.txt has {len(pins)}"
    listed = section[section.index("e.g.") : section.index("plus many smaller libs")]
    named = re.findall(r"([a-z][a-z0-9-]*) (\d[\w.]*)", listed)
    assert len(named) >= 30, named  # the spec's examples, each with its version
    for name, version in named:
        assert name in pins, f"the spec names {name} {version}; requirements-heavy.txt lacks it"
        assert pins[name] == version or pins[name].startswith(version + "."), (name, version, pins[name])
    smaller = section[section.index("plus many smaller libs") : section.index("…")]
    for name in re.findall(r"[a-z][a-z0-9-]+", smaller.replace("plus many smaller libs", "")):
        assert name in pins or f"scikit-{name}" in pins, f"the spec names {name}; the file lacks it"
    for name in ("librosa",):  # named without a version
        assert name in pins
    tf_again = re.search(r"`tensorflow\[and-cuda\]==([\d.]+)`", section)[1]
    assert pins["tensorflow"].startswith(tf_again)


def fake_engine() -> tuple[Any, list[dict[str, Any]]]:
    """Return an engine that has the base image and no env image, and the list of builds it was asked for."""
    import docker.errors

    builds: list[dict[str, Any]] = []

    def get(name: str) -> Any:
        if name.startswith(images.ENV_REPO + ":"):
            raise docker.errors.ImageNotFound(name)
        return SimpleNamespace(id="sha256:" + "b" * 64, tag=lambda *a, **k: True)

    def build(**kwargs: Any) -> tuple[Any, list[Any]]:
        builds.append(kwargs)
        image_id = f"sha256:{len(builds):064x}"
        return SimpleNamespace(id=image_id), []

    images_api = SimpleNamespace(get=get, build=build)
    return SimpleNamespace(images=images_api), builds


def test_the_setting_reaches_the_build_as_v1s_arg_and_gives_its_own_tag(monkeypatch) -> None:
    monkeypatch.setattr(images, "answer_to_v1_name", lambda client, ref: None)
    client, builds = fake_engine()
    light = env_image(client, DockerSettings(), ROOT)
    heavy = env_image(client, DockerSettings(install_heavy_dependencies=True), ROOT)
    assert [b["buildargs"][ARG] for b in builds] == ["false", "true"]
    assert light.tag != heavy.tag and light.tag.startswith("mlebench-env:")
    with tarfile.open(fileobj=io.BytesIO(builds[1]["fileobj"].getvalue())) as tar:
        assert tar.extractfile("requirements-heavy.txt").read() == HEAVY.read_bytes()
    args = [i for _, i in dockerfile_instructions(DOCKERFILE.read_text()) if i.startswith("ARG ")]
    assert f"ARG {ARG}=false" in args  # a plain `docker build environment/` stays light too
    assert DockerSettings().install_heavy_dependencies is False  # the embedded default
    conf = (ROOT / "conf" / "config.yaml").read_text()
    assert re.search(r"(?m)^  install_heavy_dependencies: false$", conf)


def heavy_step() -> str:
    """Return the Dockerfile's RUN instruction that reads the build arg (continuations joined)."""
    instructions = dockerfile_instructions(DOCKERFILE.read_text())
    steps = [i for _, i in instructions if i.startswith("RUN ") and ARG in i]
    assert len(steps) == 1, steps
    return steps[0][len("RUN ") :]


def run_heavy_step(tmp_path: Path, value: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """Run the step with ``conda`` and ``apt-get`` stubs that record their arguments; return its calls."""
    calls = tmp_path / "calls"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(parents=True)
    for tool in ("conda", "apt-get"):
        stub = bin_dir / tool
        stub.write_text(f'#!/bin/sh\necho "{tool} $*" >> {calls}\n')
        stub.chmod(0o755)
    script = heavy_step().replace("/opt/conda/bin/conda", str(bin_dir / "conda"))
    script = script.replace("/opt/mlebench/requirements-heavy.txt", str(HEAVY))
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", ARG: value}
    done = subprocess.run(["bash", "-c", script], env=env, capture_output=True, text=True, check=False)
    return done, calls.read_text().splitlines() if calls.exists() else []


def test_the_heavy_step_installs_the_file_then_tensorflow_and_torch_again_at_its_pins(tmp_path) -> None:
    pins = heavy_pins()
    done, calls = run_heavy_step(tmp_path, "true")
    assert done.returncode == 0, done.stderr
    conda = [c for c in calls if c.startswith("conda ")]
    torch = " ".join(f"{n}=={pins[n]}" for n in ("torch", "torchaudio", "torchtext", "torchvision"))
    assert conda == [
        f"conda run -n agent pip install -r {HEAVY}",
        f"conda run -n agent pip install tensorflow[and-cuda]=={pins['tensorflow']}",
        f"conda run -n agent pip install {torch}",
        "conda clean -afy",
    ], calls
    assert any("build-essential" in c for c in calls if c.startswith("apt-get install"))
    done, calls = run_heavy_step(tmp_path / "off", "false")
    assert done.returncode == 0 and calls == [], calls
    done, calls = run_heavy_step(tmp_path / "typo", "yes")
    assert done.returncode == 2 and calls == [] and f"{ARG} must be true or false, not 'yes'" in done.stderr
