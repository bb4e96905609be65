"""What a planned stage is: its kind, competition, agent and seed, recorded once, in the plan.

``mlebench plan`` writes each stage's :class:`StageIdentity` into its ``dvc.yaml`` entry (DVC's ``meta:``
field, which DVC keeps with the stage but never hashes, so it makes nothing stale) and derives the stage's
name and command from it; the scheduler reads it back from DVC's stage (``stage.meta``), and the stage
receives it as its command's arguments. Nothing parses a stage name, a command or a folder name back into
who a stage is.

The kinds are the stage modules themselves (:func:`stage_kinds`): ``stages/<kind>.py``.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mlebench_spec.errors import ConfigError

STAGES_PACKAGE = "stages"


def stage_kinds(root: Path) -> tuple[str, ...]:
    """Return the stage kinds: the modules of ``stages/`` (each one a DVC stage's entry point), sorted."""
    folder = root / STAGES_PACKAGE
    kinds = tuple(sorted(p.stem for p in folder.glob("*.py") if not p.stem.startswith("_")))
    if not kinds:
        raise ConfigError(f"{folder}: no stage modules (stages/<kind>.py) found; is {root} the repository?")
    return kinds


@dataclass(frozen=True)
class StageIdentity:
    """One planned stage: its kind (a module of ``stages/``) and, as it applies, competition, agent, seed."""

    kind: str
    competition: str | None = None
    agent: str | None = None
    seed: int | None = None

    def __post_init__(self) -> None:
        if (self.agent is None) != (self.seed is None):
            raise ConfigError(
                f"stage {self.kind}: a cell has both an agent and a seed ({self.agent}, {self.seed})"
            )
        if self.agent is not None and self.competition is None:
            raise ConfigError(
                f"stage {self.kind}: a cell ({self.agent}, seed {self.seed}) needs a competition"
            )

    @property
    def cell(self) -> tuple[str, int] | None:
        """``(agent, seed)`` for a stage of one cell (run, grade, integrity), else None."""
        return None if self.agent is None or self.seed is None else (self.agent, self.seed)

    @property
    def name(self) -> str:
        """The DVC stage name: the kind, and ``-<agent>-s<seed>`` for a cell's stage."""
        return self.kind if self.cell is None else f"{self.kind}-{self.agent}-s{self.seed}"

    def command(self, *extra: str) -> str:
        """Return the stage's command: its module, given this identity (and ``extra``) as arguments."""
        args = [f"python -m {STAGES_PACKAGE}.{self.kind}"]
        if self.competition is not None:
            args.append(f"--competition {shlex.quote(self.competition)}")
        if self.cell is not None:
            args.append(f"--agent {shlex.quote(str(self.agent))} --seed {self.seed}")
        return " ".join([*args, *extra])

    def meta(self) -> dict[str, Any]:
        """Return the ``meta:`` of the stage's ``dvc.yaml`` entry: this identity, the fields that apply."""
        fields = {"kind": self.kind, "competition": self.competition, "agent": self.agent, "seed": self.seed}
        return {"identity": {k: v for k, v in fields.items() if v is not None}}

    @classmethod
    def from_meta(cls, meta: Any, where: str) -> StageIdentity | None:
        """Read the identity a stage's ``meta:`` holds (None when it holds none: a stage not planned here)."""
        data = meta.get("identity") if isinstance(meta, dict) else None
        if data is None:
            return None
        try:
            seed = data.get("seed")
            return cls(
                kind=str(data["kind"]),
                competition=None if data.get("competition") is None else str(data["competition"]),
                agent=None if data.get("agent") is None else str(data["agent"]),
                seed=None if seed is None else int(seed),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ConfigError(
                f"{where}: meta.identity {data!r} is not a stage identity ({exc}); re-run `mlebench plan`"
            ) from None


__all__ = ["StageIdentity", "stage_kinds"]
