"""A runner that exists only for the tests: it "runs" an agent by copying the public sample submission.

It is the whole cost of a new runner — this file plus one line in the registry
(:data:`mlebench.execution.runners.RUNNERS`) — and nothing else in the code base changes.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from mlebench.reporting.records import RunRecord
from mlebench_spec.cell import Cell
from mlebench_spec.files import utc_now
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
        cell.run_dir.mkdir(parents=True, exist_ok=True)
        started = utc_now()
        shutil.copyfile(cell.public / "sample_submission.csv", cell.run_dir / "submission.csv")
        return RunRecord.for_cell(
            cell,
            self.name,
            status="ok",
            exit_code=0,
            started_at=started,
            finished_at=utc_now(),
            submission_exists=True,
        )
