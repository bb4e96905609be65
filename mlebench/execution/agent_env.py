"""The sandboxed agent's own Python: a venv of the agent's requirements, never the project's environment.

The Docker and Podman runners give an agent the env image's venv (``environment/requirements.txt``) and
what its own Dockerfile installs (``agents/<name>/requirements.txt``); nothing of the host. The sandbox
runner gives the same from this host's base interpreter, in two layers, each a venv built once and kept
by a content hash (as images are tagged by their build context's hash):

- ``base-<hash>``: ``environment/requirements.txt`` installed into a fresh venv of the base interpreter
  (the hash covers the file's bytes, the interpreter's path and version);
- ``agent-<hash>``: the agent's ``requirements.txt`` installed into a venv that sees the base layer (a
  ``.pth`` file), when the agent has one (the hash covers the base layer's hash and the file's bytes).

Both are built under :func:`cache_dir` (``MLEBENCH_AGENT_ENVS``, else ``~/.cache/mlebench/agent-envs``),
under a lock, and marked complete last, so an interrupted build is redone, never used. A built environment
is refused (:class:`ConfigError`, naming both) when it holds a distribution that an embedded competition's
declaration fetches its source data from (``source.kind: package``), or any file whose bytes are one of
those source files (found by size, then sha256, whatever the file's name or package): an agent never gets a
competition's data by way of its own packages. :func:`data_files` derives those files from the
declarations, for this check and for the tests that prove no runner's agent can reach them.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import re
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from mlebench_spec.declarations import PackageSource, all_competition_ids, load_competition
from mlebench_spec.errors import ConfigError
from mlebench_spec.hashing import sha256_json

ENV_REQUIREMENTS = "environment/requirements.txt"
CACHE_ENV = "MLEBENCH_AGENT_ENVS"
COMPLETE = ".complete"
FORMAT = 1
INSTALL_TIMEOUT = 1800


@dataclass(frozen=True)
class DataFile:
    """One source file of an embedded competition: where the declaration fetches it, and its bytes."""

    competition_id: str
    distribution: str
    module: str
    path: str
    sha256: str


@dataclass(frozen=True)
class AgentEnv:
    """The agent's environment: its layers (venv folders, base first) and the one on ``PATH``."""

    layers: tuple[Path, ...]
    key: str

    @property
    def venv(self) -> Path:
        """The venv the agent runs (its ``bin/python`` is the agent's interpreter)."""
        return self.layers[-1]

    def lineage(self) -> dict[str, str]:
        """Return what run.json keeps of it."""
        return {"key": self.key, "layers": ",".join(p.name for p in self.layers)}


def data_files(root: Path) -> list[DataFile]:
    """Return every embedded competition's declared source files (``source.kind: package``)."""
    found = []
    for cid in all_competition_ids(root):
        source = load_competition(cid, root).source
        if isinstance(source, PackageSource):
            for item in source.files:
                found.append(DataFile(cid, source.distribution, source.module, item.path, item.sha256))
    return found


def normalized(name: str) -> str:
    """Return a distribution name as package indexes compare them.

    >>> normalized("Ruamel_YAML"), normalized("scikit.learn")
    ('ruamel-yaml', 'scikit-learn')
    """
    return re.sub(r"[-_.]+", "-", name).lower()


def cache_dir() -> Path:
    """Return where agent environments are kept (``MLEBENCH_AGENT_ENVS``, else the user's cache)."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "mlebench" / "agent-envs"


def base_interpreter() -> Path:
    """Return the host's base interpreter (the one the project's own venv, if any, was made from)."""
    name = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for folder in (Path(sys.base_prefix) / "bin", Path(sys._base_executable).parent):  # noqa: SLF001
        if (folder / name).is_file():
            return (folder / name).resolve()
    return Path(sys._base_executable).resolve()  # noqa: SLF001


def base_site_packages() -> list[Path]:
    """Return the base interpreter's own site-packages folders (what is there is not the agent's)."""
    found = []
    for key in ("purelib", "platlib"):
        path = sysconfig.get_path(key, vars={"base": sys.base_prefix, "platbase": sys.base_prefix})
        found.append(Path(path))
    for extra in ("/usr/lib/python3/dist-packages", "/usr/local/lib"):
        found += (
            sorted(Path(extra).glob("python3*/dist-packages")) if extra.endswith("lib") else [Path(extra)]
        )
    return sorted({p.resolve() for p in found if p.is_dir()})


def agent_env(root: Path, agent_dir: Path) -> AgentEnv:
    """Return the agent's environment, building its layers when they are not built yet (see the module)."""
    python = base_interpreter()
    requirements = root / ENV_REQUIREMENTS
    base_key = sha256_json(
        {
            "format": FORMAT,
            "python": str(python),
            "version": sys.version,
            "env": requirements.read_bytes().hex(),
        }
    )
    base = cache_dir() / f"base-{base_key[:16]}"
    _build(base, python, requirements, None, root)
    own = agent_dir / "requirements.txt"
    if not own.is_file() or not _requirement_lines(own):
        return AgentEnv((base,), base_key)
    key = sha256_json({"base": base_key, "agent": own.read_bytes().hex()})
    layer = cache_dir() / f"agent-{key[:16]}"
    _build(layer, python, own, base, root)
    return AgentEnv((base, layer), key)


def _requirement_lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.split("#")[0].strip()]


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / f".{folder.name}.lock", "w") as fh:  # noqa: PTH123
        fcntl.flock(fh, fcntl.LOCK_EX)
        yield


def _build(folder: Path, python: Path, requirements: Path, below: Path | None, root: Path) -> None:
    """Build one layer at ``folder`` (its final path: venv scripts name it) unless it is complete."""
    if (folder / COMPLETE).is_file():
        return
    with _locked(folder):
        if (folder / COMPLETE).is_file():
            return
        if folder.exists():
            subprocess.run(["rm", "-rf", str(folder)], check=True)  # noqa: S603,S607 - a failed build's leftovers
        _run([str(python), "-m", "venv", str(folder)], f"make the venv {folder}")
        if below is not None:  # the layer sees the base layer's packages (pip counts them as installed)
            (_site(folder) / "mlebench-base-layer.pth").write_text(f"{_site(below)}\n", encoding="utf-8")
        pip = [str(folder / "bin" / "python"), "-m", "pip", "install", "--no-input", "-r", str(requirements)]
        _run(pip, f"install {requirements} into {folder}")
        _refuse_data(folder, requirements, root)
        (folder / COMPLETE).write_text(sha256_json({"requirements": requirements.read_bytes().hex()}) + "\n")


def _site(venv: Path) -> Path:
    return next((venv / "lib").glob("python3*/site-packages"))


def _run(command: list[str], what: str) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    proc = subprocess.run(command, capture_output=True, text=True, env=env, timeout=INSTALL_TIMEOUT)  # noqa: S603
    if proc.returncode != 0:
        tail = "\n".join(line for line in proc.stderr.splitlines() if "is ignored" not in line)[-1500:]
        raise ConfigError(f"the sandbox could not {what} (the agent's own Python): {tail}")


def _refuse_data(venv: Path, requirements: Path, root: Path) -> None:
    """Refuse a layer that holds a competition's source data: by distribution, then by content."""
    files = data_files(root)
    dists = {normalized(f.distribution): f.competition_id for f in files}
    site = _site(venv)
    for info in site.glob("*.dist-info"):
        name = normalized(info.name.removesuffix(".dist-info").rsplit("-", 1)[0])
        if name in dists:
            raise ConfigError(
                f"{requirements} installs {name}, the package competition {dists[name]!r} fetches its "
                f"source data from (competitions/{dists[name]}/competition.yaml): no agent's environment "
                "may hold a competition's data; remove it from the requirements"
            )
    hit = find_data(venv, files)
    if hit:
        path, item = hit[0]
        raise ConfigError(
            f"{requirements} installs {path}, whose bytes are {item.competition_id}'s source file "
            f"{item.path} (from {item.distribution}): no agent's environment may hold a competition's data"
        )


def find_data(folder: Path, files: list[DataFile]) -> list[tuple[Path, DataFile]]:
    """Return the files under ``folder`` whose bytes are a declared source file (by size, then sha256)."""
    by_hash = {f.sha256: f for f in files if f.sha256}
    known = [_declared_size(f, folder) for f in files]
    sizes = set() if None in known else set(known)  # a size not known here: every file is hashed
    found = []
    for dirpath, _dirs, names in os.walk(folder):
        for name in names:
            path = Path(dirpath) / name
            try:
                if path.is_symlink() or (sizes and path.stat().st_size not in sizes):
                    continue
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError:
                continue
            if digest in by_hash:
                found.append((path, by_hash[digest]))
    return found


def _declared_size(item: DataFile, folder: Path) -> int | None:
    """Return a declared file's size where this interpreter has its package (None when it has none)."""
    package = _package_folder(item.module)
    path = package / item.path if package is not None else None
    return path.stat().st_size if path is not None and path.is_file() else None


def bwrap_args(env: AgentEnv, root: Path) -> list[str]:
    """Return the ``bwrap`` options that give a sandbox the agent's Python at ``/opt/venv``, nothing of ours.

    The base interpreter's prefix is bound read-only with its own site-packages hidden (an empty tmpfs over
    each), then the agent's layers at their own paths, and ``/opt/venv`` links to the top one. Any folder
    where this host's interpreter finds an embedded competition's source package that lies in what is bound
    (``/usr``, the base prefix) is hidden too.
    """
    base = Path(sys.base_prefix).resolve()
    bound = [Path("/usr")]
    args: list[str] = []
    if not base.is_relative_to("/usr"):
        args += ["--ro-bind", str(base), str(base)]
        bound.append(base)
    hidden = [p for p in base_site_packages() if any(p.is_relative_to(b) for b in bound)]
    for item in data_files(root):
        folder = _package_folder(item.module)
        if folder is not None and any(folder.is_relative_to(b) for b in bound):
            hidden.append(folder)
    for folder in sorted(set(hidden)):
        if not any(folder.is_relative_to(h) and folder != h for h in hidden):
            args += ["--tmpfs", str(folder)]
    for layer in env.layers:
        args += ["--ro-bind", str(layer), str(layer)]
    return [*args, "--symlink", str(env.venv), "/opt/venv"]


def _package_folder(module: str) -> Path | None:
    import importlib.util

    spec = importlib.util.find_spec(module) if "." not in module else None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]).resolve()
