"""Entry point of the baseline agent: ``python main.py`` with the agent contract's environment.

Thread pools are capped at ``HARDWARE_CPUS`` before numpy/scikit-learn are imported, and OpenMP
threads sleep instead of spinning while they wait (``OMP_WAIT_POLICY=PASSIVE``): on a busy or
CPU-quota-limited host, spinning threads made gradient boosting 5-10x slower in our measurements.
OpenBLAS's threads likewise go to sleep after 2**4 cycles instead of 2**28 (``OPENBLAS_THREAD_TIMEOUT=4``):
on a loaded 2-core host, movielens-genres took 52 s with them spinning and 16 s without (same bytes), and
the agent's worker processes (:mod:`baseline.parallel`) would otherwise spin against each other.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

_STARTED = time.monotonic()  # before the heavy imports, so the time budget counts them

_CPUS = os.environ.get("HARDWARE_CPUS", "").strip()
if _CPUS.isdigit() and int(_CPUS) > 0:
    for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "LOKY_MAX_CPU_COUNT"):
        os.environ.setdefault(_var, _CPUS)
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "4")

sys.path.insert(0, str(Path(__file__).resolve().parent))

from baseline import AgentEnv, run  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(run(AgentEnv.from_environ(started=_STARTED)))
