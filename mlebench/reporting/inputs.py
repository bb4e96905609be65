"""What the report reads, typed: the plan's report inputs and the data :func:`~.report.aggregate` aggregates.

``mlebench plan`` writes the part of the report's inputs only the plan knows (which agents, whether the plan
has integrity stages and reproduce stages, so their files are the report's deps) into the report stage's
``dvc.yaml`` entry, beside its identity (``meta.report``: :meth:`ReportInputs.meta`); the rest are the
stage's params. The report stage and ``mlebench report`` read both back with :meth:`ReportInputs.planned`:
nothing parses the stage's command. ``meta`` is not hashed by DVC, and needs not be: each field changes the
stage's deps or params too (an agent its grade files, integrity and reproduce their files and params).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mlebench_spec.errors import ConfigError
from mlebench_spec.params import stage_params
from mlebench_spec.paths import repo_root
from mlebench_spec.yamlio import load_yaml

__all__ = ["ReportData", "ReportInputs"]


@dataclass(frozen=True)
class ReportInputs:
    """The report of one plan: its agents, competition set, seeds, settings, and what the plan checks."""

    agents: tuple[str, ...]
    competition_set: str
    competitions: tuple[str, ...]
    seeds: tuple[int, ...]
    pad_missing: bool = False
    count_flagged: bool = False
    integrity: bool = False
    """The plan has integrity stages: each cell's verdict is read (else every cell is ``unchecked``)."""
    reproduce: str = ""
    """``reproduce.headline`` (``all`` or ``reproduced``) when the plan reproduces cells, else ``""``."""

    @staticmethod
    def params(reproduce: bool) -> list[str]:
        """Return the params the report stage declares (and reads): ``reproduce`` with reproduce stages."""
        return ["competition_set", "seeds", "report", *(["reproduce"] if reproduce else [])]

    @staticmethod
    def meta(agents: list[str], integrity: bool, reproduce: bool) -> dict[str, Any]:
        """Return what the plan records in the report stage's ``meta.report`` (see the module docstring)."""
        return {"report": {"agents": list(agents), "integrity": integrity, "reproduce": reproduce}}

    @classmethod
    def planned(cls, root: Path | None = None) -> ReportInputs:
        """Read the report's inputs as planned: the root ``dvc.yaml``'s ``meta.report``, its params."""
        base = root or repo_root()
        pipeline = base / "dvc.yaml"
        stage = (
            (((load_yaml(pipeline) or {}).get("stages") or {}).get("report") or {})
            if pipeline.is_file()
            else {}
        )
        planned = (stage.get("meta") or {}).get("report")
        try:
            agents = [str(a) for a in planned["agents"]]
            integrity, reproduce = planned["integrity"], planned["reproduce"]
            if not agents or not isinstance(integrity, bool) or not isinstance(reproduce, bool):
                raise ValueError(planned)
        except (KeyError, TypeError, ValueError):
            raise ConfigError(
                f"{pipeline}: the report stage records no report inputs (meta.report: agents, integrity, "
                f"reproduce; found {planned!r}): run `mlebench plan`"
            ) from None
        params = stage_params(cls.params(reproduce), base)
        return cls(
            agents=tuple(agents),
            competition_set=params["competition_set"]["name"],
            competitions=tuple(params["competition_set"]["ids"]),
            seeds=tuple(params["seeds"]),
            pad_missing=params["report"]["pad_missing"],
            count_flagged=params["report"]["count_flagged"],
            integrity=integrity,
            reproduce=params["reproduce"]["headline"] if reproduce else "",
        )


@dataclass(frozen=True)
class ReportData:
    """Everything :func:`~mlebench.reporting.report.aggregate` aggregates (see it for each field).

    The first six fields are the cells' records and the plan's shape; the rest default to none.
    """

    records: list[dict[str, Any]]
    agents: list[str]
    competition_ids: list[str]
    seeds: list[int]
    set_name: str
    complexity: dict[str, str]
    leaks: dict[str, list[str]] | None = None
    pad_missing: bool = False
    declared: dict[str, int] | None = None
    snapshots: list[dict[str, Any]] | None = None
    thresholds: dict[str, str] | None = None
    verdicts: dict[tuple[str, str, int], dict[str, Any]] | None = None
    count_flagged: bool = False
    reproductions: dict[tuple[str, str, int], dict[str, Any]] | None = None
    reproduced_only: bool = False
