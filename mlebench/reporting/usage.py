"""Model usage of a cell: read from the agent's usage file, priced, and summed per agent for the report.

An agent that calls a model writes ``$LOGS_DIR/usage.json`` (``logs/usage.json`` in the run directory once
collected), the format ``mlebench-usage/1``::

    {"format": "mlebench-usage/1", "counted_at": "agent" | "adapter" | "proxy",
     "requests": 4, "prompt_tokens": 5120, "completion_tokens": 830,
     "models": {"<model>": {"requests": ..., "prompt_tokens": ..., "completion_tokens": ...}}}

``requests``, ``prompt_tokens`` and ``completion_tokens`` (non-negative integers) are required; ``models``
(the same three per model) and any other key are optional. After the run the runner reads it
(:func:`read_usage`) into run.json's ``usage``: the three counts, ``counted_at``, ``models`` and, when the
agent config sets ``prices`` (per 1,000 prompt and completion tokens), ``cost`` with the prices used. A
missing file is no usage (``{}``); a malformed one is a warning on stderr and ``usage.problem`` in
run.json, never a failed cell. The grading record carries ``usage`` on, and the report sums it per agent
(:func:`sum_usage`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

USAGE_FILE = "logs/usage.json"
USAGE_FORMAT = "mlebench-usage/1"
COUNTS = ("requests", "prompt_tokens", "completion_tokens")
MAX_BYTES = 1024 * 1024


def read_usage(run_dir: Path, prices: dict[str, Any] | None = None) -> dict[str, Any]:
    """Return the cell's usage from ``run_dir/logs/usage.json``, priced with ``prices`` when given.

    ``prices``: ``{"prompt_per_1k": float, "completion_per_1k": float, "currency": str}``. Returns ``{}``
    without a usage file and ``{"problem": why}`` (after a warning) for a malformed one.
    """
    path = run_dir / USAGE_FILE
    if not path.is_file() or path.is_symlink():
        return {}
    try:
        if path.stat().st_size > MAX_BYTES:
            raise ValueError(f"larger than {MAX_BYTES} bytes")
        usage = _checked(json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, UnicodeDecodeError) as exc:  # JSONDecodeError is a ValueError
        problem = f"{USAGE_FILE}: {exc}; its usage is not counted"
        print(f"WARNING: {run_dir}: {problem}", file=sys.stderr)
        return {"problem": problem}
    if prices:
        cost = (
            usage["prompt_tokens"] / 1000 * prices["prompt_per_1k"]
            + usage["completion_tokens"] / 1000 * prices["completion_per_1k"]
        )
        usage.update(cost=round(cost, 6), prices=dict(prices))
    return usage


def sum_usage(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Sum the ``usage`` of grading records: cells with usage, the counts and the cost where priced.

    ``cost`` is the sum over the priced cells (``priced_cells`` of them, in ``currency`` when they agree);
    ``problems`` counts cells whose usage file was malformed.
    """
    rows = [r.get("usage") or {} for r in records]
    counted = [u for u in rows if u and "problem" not in u]
    total: dict[str, Any] = {"cells": len(counted), **{k: sum(u[k] for u in counted) for k in COUNTS}}
    priced = [u for u in counted if "cost" in u]
    total["priced_cells"] = len(priced)
    total["cost"] = round(sum(u["cost"] for u in priced), 6) if priced else None
    currencies = {u["prices"].get("currency", "") for u in priced}
    total["currency"] = currencies.pop() if len(currencies) == 1 else ("mixed" if currencies else "")
    total["problems"] = sum(1 for u in rows if "problem" in u)
    return total


def _checked(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    if data.get("format", USAGE_FORMAT) != USAGE_FORMAT:
        raise ValueError(f"format {data.get('format')!r} is not {USAGE_FORMAT!r}")
    out: dict[str, Any] = {k: _count(data, k, "") for k in COUNTS}
    out["counted_at"] = str(data.get("counted_at", "agent"))
    models = data.get("models", {})
    if not isinstance(models, dict):
        raise ValueError("`models` is not an object")
    out["models"] = {}
    for name, row in models.items():
        if not isinstance(row, dict):
            raise ValueError(f"models[{name!r}] is not an object")
        out["models"][str(name)] = {k: _count(row, k, f"models[{name!r}].") for k in COUNTS}
    return out


def _count(data: dict[str, Any], key: str, where: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{where}{key} must be a non-negative integer, got {value!r}")
    return value
