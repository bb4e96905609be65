"""Adapter around AIDE (``aideml`` on PyPI): AIDE's own agent, search and prompts, driven step by step.

AIDE's ``Agent`` drafts, debugs and improves single-file solutions and reviews each run through a function
call (``submit_review``); its ``Interpreter`` runs them in a workspace whose ``./input`` links to
``$DATA_DIR``. This adapter does what AIDE's command line does (``aide.run``) without its full-screen
display, and adds what the benchmark needs: a time limit (aideml has none), the best solution kept at any
time (after each step whose node is the best good one so far, its ``submission.csv`` is copied to
``$SUBMISSION_DIR`` and its code to ``$CODE_DIR/solution.py``), and usage accounting.

Options (``AGENT_KWARGS``): ``model`` (AIDE's ``agent.code.model``), ``feedback_model``
(``agent.feedback.model``), ``base_url`` (an OpenAI-compatible ``.../v1``), ``api_key_env`` (the variable
holding the key, default ``OPENAI_API_KEY``), ``steps`` (``agent.steps``), ``time_limit_secs`` (0: a margin
below ``$TIME_LIMIT_SECS``), ``exec_timeout_secs`` (``exec.timeout``, cut to the time left), and ``aide``:
any other key of AIDE's config as a nested mapping (e.g. ``{agent: {search: {num_drafts: 2}}}``).

Endpoint: aideml sends model names it takes for OpenAI's own (``gpt-*``, ``o<digit>-*``) to the Responses
API and every other name, when ``OPENAI_BASE_URL`` is set, to chat completions. The adapter sets
``OPENAI_BASE_URL`` to ``base_url`` and points aideml's fixed OpenAI address at it too, so both go to the
configured endpoint and nowhere else.

Usage: counted at the adapter, by wrapping the ``openai`` SDK's ``chat.completions.create`` and
``responses.create`` that aideml calls: every request that returned is counted with the usage the endpoint
reported. Written to ``$LOGS_DIR/usage.json`` after every step (format in README.md).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

_STARTED = time.monotonic()
USAGE_FORMAT = "mlebench-usage/1"
NOTE = """ADAPTER NOTES
------

- Competition: {competition}.
- Your code runs in a workspace: the data is in ./input; write the test predictions to
  ./working/submission.csv. The best solution's submission is copied to the graded location for you.
- The run stops after {steps} steps or {seconds} seconds, whichever comes first.

COMPETITION INSTRUCTIONS
------

"""
REPRODUCE = """#!/bin/sh
# Re-run AIDE's best solution (solution.py) as AIDE ran it: a workspace with the public data in ./input and
# the predictions in ./working/submission.csv, which is then copied to $SUBMISSION_DIR/submission.csv.
set -eu
work=$(mktemp -d)
ln -s "$DATA_DIR" "$work/input"
mkdir "$work/working"
cp solution.py "$work/solution.py"
(cd "$work" && python solution.py)
cp "$work/working/submission.csv" "$SUBMISSION_DIR/submission.csv"
"""


class Usage:
    """Requests and tokens of every call the openai SDK made, by model."""

    def __init__(self) -> None:
        self.models: dict[str, dict[str, int]] = {}
        self.unreported = 0
        self.failed = 0

    def wrap(self, cls: type, prompt: str, completion: str) -> None:
        """Count every call of ``cls.create`` (``prompt``/``completion``: the usage fields' names)."""
        original = cls.create

        def create(inner: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                response = original(inner, *args, **kwargs)
            except Exception:
                self.failed += 1
                raise
            row = self.models.setdefault(
                str(kwargs.get("model", "?")), {"requests": 0, "prompt_tokens": 0, "completion_tokens": 0}
            )
            row["requests"] += 1
            usage = getattr(response, "usage", None)
            if usage is None:
                self.unreported += 1
            else:
                row["prompt_tokens"] += int(getattr(usage, prompt, 0) or 0)
                row["completion_tokens"] += int(getattr(usage, completion, 0) or 0)
            return response

        cls.create = create

    def write(self, logs: Path) -> None:
        """Write ``usage.json`` atomically."""
        total = {
            k: sum(m[k] for m in self.models.values())
            for k in ("requests", "prompt_tokens", "completion_tokens")
        }
        record = {
            "format": USAGE_FORMAT,
            "counted_at": "adapter",
            **total,
            "unreported_requests": self.unreported,
            "failed_requests": self.failed,
            "models": self.models,
        }
        tmp = logs / "usage.json.tmp"
        tmp.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        tmp.replace(logs / "usage.json")


def main() -> int:
    """Run AIDE for the configured steps or time; exit 0 when a submission was kept."""
    kwargs = json.loads(os.environ.get("AGENT_KWARGS") or "{}")
    dirs = {
        k: Path(os.environ[k]) for k in ("DATA_DIR", "SUBMISSION_DIR", "CODE_DIR", "LOGS_DIR", "AGENT_DIR")
    }
    limit = float(
        kwargs.get("time_limit_secs") or max(10.0, int(os.environ.get("TIME_LIMIT_SECS", "3600")) * 0.95 - 30)
    )
    steps = int(kwargs.get("steps", 20))
    os.environ["OPENAI_BASE_URL"] = str(kwargs.get("base_url", "https://api.openai.com/v1"))
    os.environ["OPENAI_API_KEY"] = (
        os.environ.get(str(kwargs.get("api_key_env", "OPENAI_API_KEY")), "") or "none"
    )

    from aide.agent import Agent
    from aide.backend import backend_openai
    from aide.interpreter import Interpreter
    from aide.journal import Journal
    from aide.utils.config import _load_cfg, load_task_desc, prep_agent_workspace, prep_cfg, save_run
    from omegaconf import OmegaConf
    from openai.resources.chat.completions import Completions
    from openai.resources.responses import Responses

    usage = Usage()
    usage.wrap(Completions, "prompt_tokens", "completion_tokens")
    usage.wrap(Responses, "input_tokens", "output_tokens")
    backend_openai.OPENAI_BASE_URL = os.environ["OPENAI_BASE_URL"]

    work = dirs["AGENT_DIR"] / "aide"
    work.mkdir(parents=True, exist_ok=True)
    instructions = Path(os.environ.get("INSTRUCTIONS_FILE", "/home/instructions.txt"))
    task = work / "task.md"
    task.write_text(
        (instructions.read_text(encoding="utf-8") + "\n" if instructions.is_file() else "")
        + NOTE.format(competition=os.environ.get("COMPETITION_ID", "?"), steps=steps, seconds=int(limit))
        + (dirs["DATA_DIR"] / "description.md").read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    overrides = {
        "data_dir": str(dirs["DATA_DIR"]),
        "desc_file": str(task),
        "log_dir": str(dirs["LOGS_DIR"]),
        "workspace_dir": str(work / "workspaces"),
        "exp_name": "run",
        "copy_data": False,
        "preprocess_data": False,  # the data is a read-only mount and nothing in it needs unpacking
        "generate_report": False,
        "agent": {
            "steps": steps,
            "code": {"model": kwargs.get("model", "gpt-4o-mini-2024-07-18")},
            "feedback": {
                "model": kwargs.get("feedback_model", kwargs.get("model", "gpt-4o-mini-2024-07-18"))
            },
        },
        "exec": {"timeout": int(kwargs.get("exec_timeout_secs", 3600))},
    }
    base = _load_cfg(use_cli_args=False)
    cfg = prep_cfg(
        OmegaConf.merge(base, OmegaConf.create(overrides), OmegaConf.create(kwargs.get("aide") or {}))
    )
    prep_agent_workspace(cfg)
    journal = Journal()
    agent = Agent(task_desc=load_task_desc(cfg), cfg=cfg, journal=journal)
    interpreter = Interpreter(cfg.workspace_dir, **OmegaConf.to_container(cfg.exec))
    working = Path(cfg.workspace_dir) / "working"
    print(f"aide adapter: {steps} steps, {limit:.0f} s, model {cfg.agent.code.model}", flush=True)
    try:
        while len(journal) < steps:
            left = limit - (time.monotonic() - _STARTED)
            if left < 5:
                print(
                    f"aide adapter: time limit of {limit:.0f} s reached after {len(journal)} steps",
                    flush=True,
                )
                break
            interpreter.timeout = max(1, int(min(cfg.exec.timeout, left)))
            (working / "submission.csv").unlink(missing_ok=True)
            agent.step(exec_callback=interpreter.run)
            save_run(cfg, journal)
            node = journal.nodes[-1]
            kept = node is journal.get_best_node() and (working / "submission.csv").is_file()
            if kept:
                tmp = dirs["SUBMISSION_DIR"] / ".submission.csv.tmp"
                shutil.copyfile(working / "submission.csv", tmp)
                tmp.replace(dirs["SUBMISSION_DIR"] / "submission.csv")
                (dirs["CODE_DIR"] / "solution.py").write_text(node.code, encoding="utf-8")
                (dirs["CODE_DIR"] / "reproduce.sh").write_text(REPRODUCE, encoding="utf-8")
            state = "buggy" if node.is_buggy else f"metric {node.metric.value}"
            print(f"aide adapter: step {node.step} ({node.stage_name}): {state}; kept: {kept}", flush=True)
            usage.write(dirs["LOGS_DIR"])
    finally:
        interpreter.cleanup_session()
        usage.write(dirs["LOGS_DIR"])
    return 0 if (dirs["SUBMISSION_DIR"] / "submission.csv").is_file() else 1


if __name__ == "__main__":
    sys.exit(main())
