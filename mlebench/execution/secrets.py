"""An agent's API key: read from the runner's environment at run time, kept out of everything a run leaves.

The agent config names the variable (``api_key_env``); only that variable reaches the agent, under the same
name. Its value is never written by the runner, and whatever the agent wrote or printed (its output log,
``code/``, ``logs/``, the submission) has every occurrence replaced by ``[redacted: NAME]`` before the run
record is made, so run.json, the grading record, DVC's cache and the report never hold it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from mlebench_spec.errors import ConfigError
from mlebench_spec.params import AgentConfig

MIN_SECRET_CHARS = 8
"""A shorter value would be redacted wherever those few bytes happen to occur, so it is refused."""


@dataclass(frozen=True)
class Secret:
    """The API key an agent gets: the variable's name and its value (never printed by ``repr``)."""

    name: str
    value: str

    def __repr__(self) -> str:
        return f"Secret(name={self.name!r}, value=<redacted>)"

    @property
    def mark(self) -> str:
        """What replaces the value wherever it is found."""
        return f"[redacted: {self.name}]"

    def env(self) -> dict[str, str]:
        """Return the one variable the agent's environment gets."""
        return {self.name: self.value}

    def redact(self, text: str) -> str:
        """``text`` with every occurrence of the value replaced."""
        return text.replace(self.value, self.mark)


@dataclass(frozen=True)
class Secrets:
    """Several values redacted together: an agent's API key and a v1 agent's ``${{ secrets.NAME }}`` values.

    ``variables`` is what the agent's environment gets of them (the key under its own name; a v1 agent's
    variables are set from its config, :mod:`mlebench.execution.v1_agents`).
    """

    items: tuple[Secret, ...]
    variables: tuple[tuple[str, str], ...] = ()

    def __repr__(self) -> str:
        return f"Secrets(names={[s.name for s in self.items]!r}, values=<redacted>)"

    def env(self) -> dict[str, str]:
        """Return the variables the agent's environment gets."""
        return dict(self.variables)

    def redact(self, text: str) -> str:
        """``text`` with every value replaced (longest first, so none is left half-redacted)."""
        for secret in sorted(self.items, key=lambda s: -len(s.value)):
            text = secret.redact(text)
        return text


def agent_secret(agent: AgentConfig, agent_name: str) -> Secret | None:
    """Return the key the agent's ``api_key_env`` names, read now; None when it names none.

    Raises
    ------
    ConfigError
        If the variable is unset, empty or too short to redact safely.

    """
    if agent.api_key_env is None:
        return None
    value = os.environ.get(agent.api_key_env, "")
    if not value.strip():
        raise ConfigError(
            f"agent {agent_name!r}: api_key_env names {agent.api_key_env}, which is not set (or empty) "
            "in the runner's environment: export it before running"
        )
    if len(value) < MIN_SECRET_CHARS:
        raise ConfigError(
            f"agent {agent_name!r}: the value of {agent.api_key_env} is shorter than {MIN_SECRET_CHARS} "
            "characters, too short to redact from the run's outputs without damaging them"
        )
    return Secret(agent.api_key_env, value)


def redact_tree(folder: Path, secret: Secret) -> list[str]:
    """Replace the value in every file (and file name) under ``folder``; return what was changed.

    Each changed file is rewritten beside itself and renamed into place, so a crash leaves the old file or
    the redacted one. Links are never followed (extraction never makes any).
    """
    value, mark = secret.value.encode(), secret.mark.encode()
    changed: list[str] = []
    for path in sorted(folder.rglob("*"), key=lambda p: len(p.parts), reverse=True):
        if path.is_symlink() or not path.is_file():
            continue
        data = path.read_bytes()
        if value in data:
            tmp = path.with_name(f".{path.name}.redact-{os.getpid()}")
            tmp.write_bytes(data.replace(value, mark))
            tmp.replace(path)
            changed.append(secret.redact(path.relative_to(folder).as_posix()))
    for path in sorted(folder.rglob("*"), key=lambda p: len(p.parts), reverse=True):  # names, deepest first
        if secret.value in path.name:
            path.rename(path.with_name(secret.redact(path.name).replace("/", "_")))
            changed.append(f"name of {secret.redact(path.relative_to(folder).as_posix())}")
    return changed


def redact_run(out: Path, secret: Secret | Secrets, notes: list[str]) -> list[str]:
    """Redact a run dir (:func:`redact_tree`); return ``notes`` redacted, plus one saying what changed."""
    items = secret.items if isinstance(secret, Secrets) else (secret,)
    for one in sorted(items, key=lambda s: -len(s.value)):
        changed = redact_tree(out, one)
        notes = [one.redact(n) for n in notes]
        if changed:
            notes.append(f"{one.mark} in {len(changed)} output(s): {', '.join(changed[:20])}")
    return notes
