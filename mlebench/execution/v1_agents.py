"""MLE-bench v1 agent folders as agents of the grid, unchanged (docs/v1-compatibility.md).

A v1 agents folder (v1's own ``agents/`` or a fork's) holds ``config.yaml`` files, each declaring agent ids
with ``start`` (the start script) and ``dockerfile`` (both relative to the agents folder), and optional
``kwargs`` with ``kwargs_type``, ``env_vars`` and ``privileged``. This module reads them as v1's registry
does (every ``**/config.yaml``; YAML anchors and ``<<:`` merges; values ``${{ secrets.NAME }}`` read from the
host's environment) and turns an id into an :class:`~mlebench_spec.params.AgentConfig` the plan holds:

- the folder is the Dockerfile's (v1 builds it with that folder as context, ``FROM mlebench-env`` and the
  build args :data:`BUILD_ARGS`), so the agent's image is built from its own files;
- the command is v1's: ``bash $AGENT_DIR/<start>`` with the kwargs as arguments, ``--key value`` for
  ``argparse`` and ``key=value`` for ``omegaconf``;
- ``env_vars`` are given to the container; secret references stay unresolved in the plan and are read from
  the runner's environment only when the cell runs (:func:`runtime`), then redacted from everything the run
  keeps, as API keys are (:mod:`mlebench.execution.secrets`).

Every problem (an unknown id, a missing start script or Dockerfile, ``privileged``, a secret that is not
set) is a :class:`ConfigError` naming the ``config.yaml`` and line it comes from.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mlebench.execution.secrets import MIN_SECRET_CHARS, Secret
from mlebench_spec.errors import ConfigError
from mlebench_spec.params import RESERVED_ENV, AgentConfig, V1Agent

BUILD_ARGS = {
    "SUBMISSION_DIR": "/home/submission",
    "LOGS_DIR": "/home/logs",
    "CODE_DIR": "/home/code",
    "AGENT_DIR": "/home/agent",
}
"""v1's ``agents/.shared_env``: the build args of every v1 agent image, and the folders of its container."""
SECRET = re.compile(r"\$\{\{\s*secrets\.(\w+)\s*\}\}")
"""v1's reference to a host environment variable; as in v1, a value that starts with one is replaced whole."""
KWARGS_TYPES = ("argparse", "omegaconf")


@dataclass(frozen=True)
class Declared:
    """One id as a ``config.yaml`` declares it: the file, the line of its key, and its (merged) mapping."""

    id: str
    file: Path
    line: int
    body: dict[str, Any]

    @property
    def where(self) -> str:
        """``file:line`` of the id's key."""
        return f"{self.file}:{self.line}"

    def line_of(self, key: str) -> str:
        """``file:line`` of one of the id's keys (that of the id when the key comes from a merge)."""
        lc = getattr(self.body, "lc", None)
        try:
            return f"{self.file}:{lc.key(key)[0] + 1}" if lc is not None else self.where
        except (KeyError, TypeError):
            return self.where


def declared(agents_dir: Path) -> dict[str, Declared]:
    """Every id the ``config.yaml`` files under ``agents_dir`` declare (v1's registry: the first file wins).

    Files are read in sorted order, so which one wins a duplicated id does not depend on the file system.
    """
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    if not agents_dir.is_dir():
        raise ConfigError(
            f"v1_agents: {agents_dir} is not a folder (a v1 agents folder with config.yaml files)"
        )
    found: dict[str, Declared] = {}
    for path in sorted(agents_dir.glob("**/config.yaml")):
        try:
            contents = YAML(typ="rt", pure=True).load(path.read_text(encoding="utf-8"))
        except (YAMLError, OSError) as exc:
            raise ConfigError(f"{path}: not readable YAML: {exc}") from None
        if not isinstance(contents, dict):
            continue
        for key, body in contents.items():
            if isinstance(key, str) and key not in found and isinstance(body, dict) and "start" in body:
                found[key] = Declared(key, path, contents.lc.key(key)[0] + 1, body)
    return found


def find(agents_dir: Path, agent_id: str) -> Declared:
    """Return the declaration of ``agent_id``; a ConfigError naming the files searched when there is none."""
    known = declared(agents_dir)
    if agent_id not in known:
        files = sorted({str(d.file) for d in known.values()}) or [f"no config.yaml under {agents_dir}"]
        raise ConfigError(
            f"v1_agents: no config.yaml under {agents_dir} declares the id {agent_id!r} (ids there: "
            f"{', '.join(sorted(known)) or 'none'}; files: {', '.join(files)})"
        )
    return known[agent_id]


def agent_name(agent_id: str) -> str:
    """Return the grid's name for a v1 id: ``/`` (v1's ``aide/dev``) becomes ``-`` (names are path parts)."""
    return agent_id.replace("/", "-")


def agent_config(agents_dir: Path, agent_id: str, root: Path, disclosures: dict[str, Any]) -> AgentConfig:
    """Return the AgentConfig that runs ``agent_id`` of ``agents_dir``.

    Its folder is written relative to ``root``. Checked as v1's registry checks it, and more strictly where
    v1 would fail only later (a start script outside the image, an unknown ``kwargs_type``).
    """
    decl = find(agents_dir, agent_id)
    body = decl.body
    for key in ("start", "dockerfile"):
        if not isinstance(body.get(key), str):
            raise ConfigError(f"{decl.where}: agent {agent_id!r} has no `{key}` (v1 requires it)")
    start, dockerfile = agents_dir / body["start"], agents_dir / body["dockerfile"]
    if not dockerfile.is_file():
        raise ConfigError(
            f"{decl.line_of('dockerfile')}: agent {agent_id!r}: the Dockerfile {dockerfile} is missing"
        )
    if not start.is_file():
        raise ConfigError(f"{decl.line_of('start')}: agent {agent_id!r}: the start script {start} is missing")
    context = dockerfile.parent
    try:
        start_in = start.resolve().relative_to(context.resolve()).as_posix()
    except ValueError:
        raise ConfigError(
            f"{decl.line_of('start')}: agent {agent_id!r}: the start script {start} is outside the "
            f"Dockerfile's folder {context}, the image's build context, so the image cannot hold it"
        ) from None
    if body.get("privileged", False) is not False:
        raise ConfigError(
            f"{decl.line_of('privileged')}: agent {agent_id!r} asks for a privileged container, which this "
            "project never starts (it would give the agent root on the host, and the isolation every score "
            "relies on would be gone); v1 ran only OpenHands so, for Docker-in-Docker. Remove `privileged`."
        )
    kwargs = dict(body.get("kwargs") or {})
    kwargs_type = body.get("kwargs_type")
    if kwargs and kwargs_type is None:
        raise ConfigError(
            f"{decl.line_of('kwargs')}: agent {agent_id!r} has kwargs but no kwargs_type (v1 requires one)"
        )
    if kwargs_type is not None and kwargs_type not in KWARGS_TYPES:
        raise ConfigError(
            f"{decl.line_of('kwargs_type')}: agent {agent_id!r}: kwargs_type {kwargs_type!r} is neither "
            "argparse nor omegaconf (v1 would pass no arguments at all)"
        )
    env_vars = {str(k): _text(v) for k, v in dict(body.get("env_vars") or {}).items()}
    for name in env_vars:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise ConfigError(
                f"{decl.line_of('env_vars')}: agent {agent_id!r}: {name!r} is not a variable name"
            )
    command = ["bash", f"{BUILD_ARGS['AGENT_DIR']}/{start_in}"]
    if kwargs_type == "argparse":
        command += [part for key, value in kwargs.items() for part in (f"--{key}", _text(value))]
    elif kwargs_type == "omegaconf":
        command += [f"{key}={_text(value)}" for key, value in kwargs.items()]
    return AgentConfig(
        path=_shown(context, root),
        command=command,
        disclosures=disclosures,
        v1=V1Agent(
            id=agent_id,
            config=f"{_shown(decl.file, root)}:{decl.line}",
            dockerfile=dockerfile.name,
            env_vars=env_vars,
        ),
    )


def _text(value: Any) -> str:
    """Return a YAML value as v1 hands it on (``str()``: ``True``, ``500``, ``0.5``)."""
    return str(value)


def _shown(path: Path, root: Path) -> str:
    """``path`` relative to ``root`` (``../`` where it lies beside it), absolute only on another tree."""
    try:
        return Path(os.path.relpath(path.resolve(), root.resolve())).as_posix()
    except ValueError:
        return path.resolve().as_posix()


@dataclass(frozen=True)
class Runtime:
    """What a v1 agent's container gets when the cell runs: variables, command, the secrets in them."""

    env: dict[str, str]
    command: list[str]
    secrets: tuple[Secret, ...]


def runtime(agent: AgentConfig, agent_label: str, root: Path) -> Runtime:
    """Resolve a v1 agent's ``${{ secrets.NAME }}`` references from this process's environment.

    Variables the runner sets itself (the contract's folders, ``TIME_LIMIT_SECS``, ...) keep the runner's
    value. An unset or too short secret is a ConfigError naming the config.yaml line that refers to it.
    """
    v1 = agent.v1
    if v1 is None:
        return Runtime({}, list(agent.command), ())
    secrets: dict[str, Secret] = {}

    def resolve(value: str) -> str:
        match = SECRET.match(value)
        if not match:
            return value
        name = match.group(1)
        found = os.environ.get(name)
        if found is None or not found.strip():
            raise ConfigError(
                f"{_line_naming(v1.config, root, name)}: agent {agent_label!r} (v1 id {v1.id!r}) needs the "
                f"secret {name}, which is not set (or empty) in the runner's environment: export it"
            )
        if len(found) < MIN_SECRET_CHARS:
            raise ConfigError(
                f"{_line_naming(v1.config, root, name)}: the value of {name} is shorter than "
                f"{MIN_SECRET_CHARS} characters, too short to redact from the run's outputs safely"
            )
        secrets[name] = Secret(name, found)
        return found

    def argument(part: str) -> str:
        key, eq, value = part.partition("=")
        if eq and not SECRET.match(part) and SECRET.match(value):  # omegaconf's key=${{ secrets.NAME }}
            return f"{key}={resolve(value)}"
        return resolve(part)

    env = {k: resolve(v) for k, v in v1.env_vars.items() if k.upper() not in RESERVED_ENV}
    return Runtime(env, [argument(part) for part in agent.command], tuple(secrets.values()))


def _line_naming(config: str, root: Path, name: str) -> str:
    """``file:line`` of the first line of the config.yaml that refers to the secret ``name``."""
    file, _, line = config.rpartition(":")
    path = Path(file) if Path(file).is_absolute() else root / file
    try:
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if re.search(rf"secrets\.{re.escape(name)}\b", text):
                return f"{file}:{number}"
    except OSError:
        pass
    return config
