"""A sleep agent for scheduler tests and benchmarks: waits ``kwargs.secs`` s, then submits the sample."""

from __future__ import annotations

from pathlib import Path

MAIN = '''"""Sleep agent: wait AGENT_KWARGS.secs seconds, then copy the sample submission."""
import json, os, shutil, time
from pathlib import Path

secs = float(json.loads(os.environ.get("AGENT_KWARGS") or "{}").get("secs", 1))
time.sleep(secs)
data = Path(os.environ["DATA_DIR"])
shutil.copyfile(data / "sample_submission.csv", Path(os.environ["SUBMISSION_DIR"]) / "submission.csv")
(Path(os.environ["LOGS_DIR"]) / "agent.log").write_text(
    f"slept {secs} s; CUDA_VISIBLE_DEVICES={os.environ.get('CUDA_VISIBLE_DEVICES', '')}\\n"
)
'''


def add_sleep_agent(repo: Path, secs: float) -> None:
    """Write ``agents/sleep`` and ``conf/agent/sleep.yaml`` into the checkout copy ``repo``."""
    folder = repo / "agents" / "sleep"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "main.py").write_text(MAIN)
    (folder / "requirements.txt").write_text("")
    (repo / "conf" / "agent" / "sleep.yaml").write_text(
        f"sleep:\n  path: agents/sleep\n  command: [python, main.py]\n  kwargs: {{secs: {secs}}}\n"
        "  disclosures: {models: [], uses_test_feedback: false, web_search: false}\n"
    )
