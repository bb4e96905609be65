"""Entry point of the baseline agent: ``python main.py`` with the agent contract's environment.

Thread pools are capped at ``HARDWARE_CPUS`` before numpy/scikit-learn are imported, and OpenMP
threads sleep instead of spinning while they wait (``OMP_WAIT_POLICY=PASSIVE``): on a busy or
CPU-quota-limited host, spinning threads made gradient boosting 5-10x slower in our measurements.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))

from baseline import AgentEnv, run  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(run(AgentEnv.from_environ(started=_STARTED)))
