"""One cell of the grid — agent × competition × seed — built once and passed whole to runners and graders."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mlebench_spec.params import AgentConfig, Hardware, SnapshotSettings, TextSettings
from mlebench_spec.paths import (
    grade_path,
    integrity_path,
    private_dir,
    public_dir,
    repo_root,
    reproduction_dir,
    run_dir,
)


@dataclass(frozen=True)
class Cell:
    """Everything a runner or a grader needs to know about one cell.

    Attributes
    ----------
    competition_id, agent, seed
        What the cell is: the agent's name is a key of ``params.yaml``'s ``agent``.
    root
        The checkout (competitions/, the agent folders, the image sources).
    public, private
        The prepared split the agent sees and the answers it never sees.
    run_dir
        Where the run leaves ``submission.csv``, ``code/``, ``logs/`` and ``run.json``.
    agent_config, hardware
        How to run the agent and under what limits; grading does not need them (None there).
    texts
        Whose general instructions the agent gets (``descriptions`` in ``params.yaml``; default ours).
    snapshots
        When the runner copies the submission while the agent runs (``snapshots``; default: never).
    code_from
        A folder the runner copies into ``CODE_DIR`` before the agent starts (the kept code of an earlier
        run, for the reproduce stage); None (the default): ``CODE_DIR`` starts empty.

    """

    competition_id: str
    agent: str
    seed: int
    root: Path
    public: Path
    private: Path
    run_dir: Path
    agent_config: AgentConfig | None = None
    hardware: Hardware | None = None
    texts: TextSettings = TextSettings()
    snapshots: SnapshotSettings = SnapshotSettings()
    code_from: Path | None = None

    @classmethod
    def planned(
        cls,
        competition_id: str,
        agent: str,
        seed: int,
        root: Path | None = None,
        agent_config: AgentConfig | None = None,
        hardware: Hardware | None = None,
        texts: TextSettings | None = None,
        snapshots: SnapshotSettings | None = None,
    ) -> Cell:
        """Build the cell at its usual places (``data/prepared/<id>``, ``runs/<agent>/<id>/<seed>``)."""
        base = root or repo_root()
        return cls(
            competition_id=competition_id,
            agent=agent,
            seed=seed,
            root=base,
            public=public_dir(competition_id, base),
            private=private_dir(competition_id, base),
            run_dir=run_dir(agent, competition_id, seed, base),
            agent_config=agent_config,
            hardware=hardware,
            texts=texts or TextSettings(),
            snapshots=snapshots or SnapshotSettings(),
        )

    @classmethod
    def from_params(
        cls,
        competition_id: str,
        agent: str,
        seed: int,
        params: dict[str, Any],
        snapshots: SnapshotSettings | None = None,
    ) -> Cell:
        """Build the planned cell with its agent's config, hardware and description settings from ``params``.

        ``params`` is a stage's view of ``params.yaml`` (:func:`mlebench_spec.params.stage_params` of
        ``agent.<agent>``, ``hardware`` and ``descriptions``), as the run and reproduce
        stages read it.
        """
        return cls.planned(
            competition_id,
            agent,
            seed,
            agent_config=AgentConfig.model_validate(params[f"agent.{agent}"]),
            hardware=Hardware.model_validate(params["hardware"]),
            texts=TextSettings.model_validate(params["descriptions"]),
            snapshots=snapshots,
        )

    @property
    def grade_path(self) -> Path:
        """Where the cell's grading record goes."""
        return grade_path(self.agent, self.competition_id, self.seed, self.root)

    @property
    def integrity_path(self) -> Path:
        """Where the cell's integrity verdict goes (``integrity/<agent>/<id>/<seed>/integrity.json``)."""
        return integrity_path(self.agent, self.competition_id, self.seed, self.root)

    @property
    def reproduction_dir(self) -> Path:
        """Where the cell's reproduction goes (``reproductions/<agent>/<id>/<seed>/``)."""
        return reproduction_dir(self.agent, self.competition_id, self.seed, self.root)

    @property
    def label(self) -> str:
        """``agent/competition/seed N``, for messages."""
        return f"{self.agent}/{self.competition_id}/seed {self.seed}"

    def config(self, runner: str, **extra: object) -> dict:
        """Return the cell's resolved configuration under ``runner``, as its lineage records it."""
        agent, hardware = self.running()
        return {
            "agent": agent.model_dump(),
            "hardware": hardware.model_dump(),
            "runner": runner,
            "seed": self.seed,
            **({"snapshots": self.snapshots.model_dump()} if self.snapshots.enabled else {}),
            **extra,
        }

    def running(self) -> tuple[AgentConfig, Hardware]:
        """Return the agent config and hardware profile, which a cell that is to be run must have."""
        if self.agent_config is None or self.hardware is None:
            raise ValueError(f"{self.label}: a cell to run needs its agent config and hardware profile")
        return self.agent_config, self.hardware
