"""Scripted model conversations for the LLM agents' tests, handing over the solutions in agents/llm_scripts.

The solution code is data (``tests/agents/llm_scripts/<competition>.py``, written for AIDE's workspace:
data in ``./input``, predictions to ``./working/submission.csv``); these builders wrap it in the replies
each agent's protocol expects, for :class:`authoring.llm_standin.StandinLLM`'s ``conversations``.

- toolcall: ``write_file`` the solution, ``run`` it (after linking ``input`` to ``$DATA_DIR``, copying the
  predictions to ``$SUBMISSION_DIR``), ``validate``, ``finish``.
- AIDE: a first draft with a bug (it reads a file that does not exist), AIDE's review through its
  ``submit_review`` function call, a debug step with the working solution, and its review. Each review reads
  the execution output AIDE sends: a traceback makes it a bug, otherwise it reports the metric the script
  printed, so AIDE's journal holds what the code really measured.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

SCRIPTS = Path(__file__).resolve().parent / "agents" / "llm_scripts"
RUN = (
    'ln -sfn "$DATA_DIR" input && mkdir -p working && python solution.py '
    '&& cp working/submission.csv "$SUBMISSION_DIR/submission.csv"'
)
LOWER_IS_BETTER = {"titanic-lite": False, "chicago-ridership": True}
_PRINTED = re.compile(r"validation \w+: (\d+\.\d+)")


def solution(competition_id: str) -> str:
    """Return the scripted solution's code for a competition."""
    return (SCRIPTS / f"{competition_id}.py").read_text(encoding="utf-8")


def toolcall_turns(competition_id: str) -> list[Any]:
    """Return the toolcall agent's conversation: write, run, validate, finish."""
    return [
        {
            "content": "I will write a first solution.",
            "tool_calls": [
                {
                    "name": "write_file",
                    "arguments": {"path": "solution.py", "content": solution(competition_id)},
                }
            ],
        },
        {
            "content": None,
            "tool_calls": [{"name": "run", "arguments": {"command": RUN, "timeout_secs": 600}}],
        },
        {"content": None, "tool_calls": [{"name": "validate", "arguments": {}}]},
        {
            "content": "Done.",
            "tool_calls": [{"name": "finish", "arguments": {"summary": "scripted solution"}}],
        },
    ]


def aide_turns(competition_id: str) -> list[Any]:
    """Return AIDE's conversation: buggy draft, review, debug with the working solution, review."""
    code = solution(competition_id)
    buggy = code.replace("input/train.csv", "input/training.csv", 1)
    assert buggy != code, "the scripted solution must read input/train.csv"
    plan = "Engineer a few features from the table and fit a linear model; report a hold-out metric."
    fix = "The training file is input/train.csv, not input/training.csv; read the right file."
    review = _reviewer(LOWER_IS_BETTER[competition_id])
    return [f"{plan}\n\n```python\n{buggy}```\n", review, f"{fix}\n\n```python\n{code}```\n", review]


def _reviewer(lower_is_better: bool) -> Any:
    def review(messages: list[dict[str, Any]]) -> dict[str, Any]:
        prompt = "\n".join(str(m.get("content") or "") for m in messages)
        output = prompt.split("Execution output", 1)[-1]
        printed = _PRINTED.findall(output)
        bug = "Traceback" in output or not printed
        arguments = {
            "is_bug": bug,
            "summary": "The script failed; see the traceback."
            if bug
            else "The script ran and printed its metric.",
            "metric": None if bug else float(printed[-1]),
            "lower_is_better": lower_is_better,
        }
        return {"content": None, "tool_calls": [{"name": "submit_review", "arguments": arguments}]}

    return review
