"""The scheduler's live terminal view: stages queued, running and finished, cells by status, elapsed, ETA.

With a terminal it is a ``rich`` live table refreshed in place; without one (CI logs, pipes) a plain line
per finished stage, so logs stay readable.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from typing import Any


class Progress:
    """Counts the scheduler reports, rendered live (see the module docstring)."""

    def __init__(self, total: int, executor: str, live: bool | None = None) -> None:
        self.total = total
        self.executor = executor
        self.t0 = time.monotonic()
        self.queued, self.running, self.done = total, 0, 0
        self.stages: Counter[str] = Counter()
        self.cells: Counter[str] = Counter()
        self.durations: list[float] = []
        self.slots = 1
        self._live: Any = None
        if live if live is not None else sys.stdout.isatty():
            from rich.live import Live

            self._live = Live(self._table(), refresh_per_second=4, transient=False)
            self._live.start()

    def update(self, queued: int, running: int, slots: int) -> None:
        """Take new queue and running counts."""
        self.queued, self.running, self.slots = queued, running, max(1, slots)
        self._refresh()

    def finished(self, label: str, status: str, seconds: float, cell_status: str = "") -> None:
        """Count a stage that ended with ``status`` (ok, failed, infra_error, skipped, blocked)."""
        self.done += 1
        self.stages[status] += 1
        if cell_status:
            self.cells[cell_status] += 1
        if status == "ok":
            self.durations.append(seconds)
        if self._live is None:
            extra = f" → cell {cell_status}" if cell_status else ""
            print(f"[{self._clock()}] {self.done}/{self.total} {label}: {status} ({seconds:.1f} s){extra}")
        self._refresh()

    def close(self) -> None:
        """Stop the live view, leaving its last frame."""
        if self._live is not None:
            self._live.update(self._table())
            self._live.stop()

    def eta(self) -> float | None:
        """Seconds left: mean stage time × stages left ÷ parallelism (None before any stage finished)."""
        if not self.durations:
            return None
        mean = sum(self.durations) / len(self.durations)
        return mean * (self.queued + self.running / 2) / self.slots

    def summary(self) -> str:
        """One line: stage and cell counts by status, elapsed time."""
        stages = ", ".join(f"{k} {v}" for k, v in sorted(self.stages.items())) or "none"
        cells = ", ".join(f"{k} {v}" for k, v in sorted(self.cells.items())) or "none"
        return f"stages: {stages}; cells: {cells}; {self._clock()} elapsed on {self.executor}"

    def _refresh(self) -> None:
        if self._live is not None:
            self._live.update(self._table())

    def _clock(self) -> str:
        secs = int(time.monotonic() - self.t0)
        return f"{secs // 3600:d}:{secs // 60 % 60:02d}:{secs % 60:02d}"

    def _table(self) -> Any:
        from rich.table import Table

        table = Table(title=f"mlebench run — {self.executor}", show_header=False)
        eta = self.eta()
        table.add_row(
            "stages", f"{self.queued} queued · {self.running} running · {self.done}/{self.total} done"
        )
        table.add_row("by status", ", ".join(f"{k} {v}" for k, v in sorted(self.stages.items())) or "-")
        table.add_row("cells", ", ".join(f"{k} {v}" for k, v in sorted(self.cells.items())) or "-")
        table.add_row("elapsed", self._clock())
        table.add_row("estimated left", f"{eta:.0f} s" if eta is not None else "-")
        return table
