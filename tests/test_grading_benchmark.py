"""The grading benchmark charges a grader for its worker processes (v1's kuzushiji grades in a pool)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("grading_benchmark", ROOT / "benchmarks" / "grading.py")
grading = importlib.util.module_from_spec(_spec)
sys.modules["grading_benchmark"] = grading
_spec.loader.exec_module(grading)

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

# A grading process that writes its report as the harness's scripts do; with a worker, the worker (forked,
# so it shares the parent's pages) fills 64 MiB of its own and holds them a while.
_GRADER = """
import json, os, sys, time
from pathlib import Path
worker = sys.argv[2] == "worker"
if worker:
    pid = os.fork()
    if pid == 0:
        held = bytearray(64 << 20)
        held[:: 4096] = b"x" * len(range(0, 64 << 20, 4096))
        time.sleep(0.5)
        os._exit(0)
    os.waitpid(pid, 0)
hwm = next(l for l in open("/proc/self/status") if l.startswith("VmHWM:")).split()[1]
Path(sys.argv[1]).write_text(json.dumps({"kib": int(hwm), "value": 1.0}))
"""


def _run(tmp_path: Path, mode: str) -> grading.Run:
    out = tmp_path / "out.json"
    return grading.run_process([sys.executable, "-c", _GRADER, str(out), mode], tmp_path, out)


def test_a_workers_private_pages_are_added_to_its_parents(tmp_path: Path) -> None:
    alone, pooled = _run(tmp_path, "alone"), _run(tmp_path, "worker")
    assert not alone.error and not pooled.error
    assert alone.phases["tree_kib"] == 0  # never had a child: its own VmHWM stands
    assert alone.mib == alone.phases["kib"] / 1024
    assert pooled.phases["tree_kib"] > pooled.phases["kib"]
    assert pooled.mib - pooled.phases["kib"] / 1024 > 60  # the worker's 64 MiB, not its shared pages
    assert pooled.mib < pooled.phases["kib"] / 1024 + 64 + 16  # nor the parent's pages twice


def test_a_grader_that_fails_reports_its_last_line(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    run = grading.run_process([sys.executable, "-c", "raise SystemExit('no answers here')"], tmp_path, out)
    assert run.error == "no answers here"
    assert run.mib != run.mib  # NaN: nothing measured
