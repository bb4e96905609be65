"""A runner that exists only for the tests: it "runs" an agent by copying the public sample submission.

It is the whole cost of a new runner — this file plus one line in the registry
(:data:`mlebench.execution.runners.RUNNERS`) — and nothing else in the code base changes.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from mlebench.reporting.records import RunRecord
from mlebench_spec.cell import Cell
from mlebench_spec.files import utc_now
from mlebench_spec.hashing import sha256_json, sha256_tree
from mlebench_spec.params import DockerSettings


class EchoRunner:
    """Submit the sample submission; grade on the host."""

    name = "echo"
    grader = "host"
    record = RunRecord

    def __init__(self, settings: DockerSettings) -> None:
        self.settings = settings

    def problem(self) -> str | None:
        """Return None: it runs anywhere."""
        return None

    @staticmethod
    def image_sources(root: Path) -> list[str]:
        """Return no files: it builds no image."""
        return []

    def run(self, cell: Cell) -> RunRecord:
        """Copy ``sample_submission.csv`` from the public split as the cell's submission."""
        agent, hardware = cell.running()
        cell.run_dir.mkdir(parents=True, exist_ok=True)
        started = utc_now()
        shutil.copyfile(cell.public / "sample_submission.csv", cell.run_dir / "submission.csv")
        return RunRecord(
            competition_id=cell.competition_id,
            agent=cell.agent,
            seed=cell.seed,
            runner=self.name,
            status="ok",
            exit_code=0,
            started_at=started,
            finished_at=utc_now(),
            agent_seconds=0.0,
            time_limit_secs=hardware.time_limit_secs,
            hardware=hardware.model_dump(),
            limits_enforced=[],
            submission_exists=True,
            extraction_notes=[],
            agent_sha256=sha256_tree(cell.root / agent.path),
            config_sha256=sha256_json(cell.config(self.name)),
            public_sha256=sha256_tree(cell.public),
            python=sys.version.split()[0],
        )
