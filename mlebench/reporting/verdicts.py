"""What gates a medal: a cell's isolation (from its grading record) and its integrity verdict.

A cell's verdict comes from its ``integrity.json`` (:func:`mlebench_spec.paths.integrity_path`, written by
the integrity stage): ``clean`` or ``flagged``, with the flagged checks and their evidence, or
``unchecked`` with a ``reason`` when the checks ran past their time budget; without one it is
``unchecked`` (no reason). :func:`counted` decides how a graded cell enters a headline or a leaderboard
row:

- an ``unisolated`` cell (no container: the agent could read the answers) never counts — it is left out,
  as if not graded;
- a ``flagged`` cell keeps its score but counts as no medal, unless ``report.count_flagged`` is true;
- a cell whose checks ran past their budget (``unchecked`` with a reason) counts as a flagged one: an agent
  must not keep its medal by making the checks slow;
- ``clean`` and never-checked cells count as graded.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mlebench_spec.errors import DataError

VERDICTS = ("clean", "flagged", "unchecked")
MEDALS = ("any_medal", "gold_medal", "silver_medal", "bronze_medal")
UNCHECKED: dict[str, Any] = {"verdict": "unchecked", "flags": [], "checked_at": None}


def load_verdict(path: Path) -> dict[str, Any]:
    """Read one cell's integrity.json as ``{verdict, flags: [{check, evidence}], checked_at}``.

    A missing file is ``unchecked``; a file that is not a verdict is a DataError naming it.
    """
    if not path.is_file():
        return dict(UNCHECKED)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        verdict = data["verdict"]
        checks = list(data.get("checks") or [])
        flags = [
            {"check": str(c["check"]), "evidence": list(c.get("evidence") or [])}
            for c in checks
            if c["flagged"]
        ]
        fetched = next(
            (
                (c.get("details") or {}).get("fetched")
                for c in checks
                if c.get("check") == "egress_log" and (c.get("details") or {}).get("fetched")
            ),
            None,
        )
    except (json.JSONDecodeError, KeyError, TypeError, UnicodeDecodeError) as exc:
        raise DataError(f"{path}: not an integrity verdict ({type(exc).__name__}: {exc})") from None
    if verdict not in VERDICTS:
        raise DataError(f"{path}: verdict {verdict!r} is not one of {', '.join(VERDICTS)}")
    if verdict == "unchecked":
        reason = str(data.get("reason") or "the integrity checks did not finish")
        flags.append({"check": "unchecked", "evidence": [reason]})
        return {"verdict": verdict, "flags": flags, "checked_at": data.get("checked_at"), "reason": reason}
    for key in ("plagiarism", "judge"):
        section = data.get(key)
        if isinstance(section, dict) and section.get("flagged"):
            flags.append({"check": key, "evidence": list(section.get("evidence") or [])})
    found = {"verdict": verdict, "flags": flags, "checked_at": data.get("checked_at")}
    return {**found, "fetched": fetched} if fetched else found


EGRESS_HOSTS = 10
"""Hosts the report lists per agent (the busiest by bytes)."""


def egress_fetched(verdicts: list[Mapping[str, Any]]) -> dict[str, Any] | None:
    """Return what an agent's proxied cells fetched, summed over ``verdicts`` (None: no cell went out).

    Each verdict's ``fetched`` is the integrity stage's reading of the cell's proxy log
    (:func:`mlebench.integrity.checks.egress_summary`): requests, bytes to the agent, refusals, connections
    the proxy could not inspect, per host.
    """
    keys = ("requests", "bytes", "refused", "uninspected")
    found = [v["fetched"] for v in verdicts if v.get("fetched")]
    if not found:
        return None
    hosts: dict[str, dict[str, int]] = {}
    for f in found:
        for host, counts in (f.get("hosts") or {}).items():
            entry = hosts.setdefault(host, dict.fromkeys(keys, 0))
            for k in keys:
                entry[k] += int(counts.get(k, 0))
    busiest = sorted(hosts.items(), key=lambda kv: (-kv[1]["bytes"], -kv[1]["requests"], kv[0]))
    return {
        "cells": len(found),
        **{k: sum(int(f.get(k, 0)) for f in found) for k in keys},
        "hosts": dict(busiest[:EGRESS_HOSTS]),
        "host_count": len(hosts),
    }


def is_isolated(record: Mapping[str, Any]) -> bool:
    """Whether a grading record says its agent ran isolated (a record that does not say is not)."""
    return record.get("isolation") == "isolated"


def counted(
    record: Mapping[str, Any], verdict: Mapping[str, Any] | None, count_flagged: bool = False
) -> Mapping[str, Any] | None:
    """Return the record as a headline counts it: None when unisolated, medals off when flagged.

    >>> rec = {"isolation": "isolated", "any_medal": True, "gold_medal": True, "silver_medal": False,
    ...        "bronze_medal": False, "score": 0.9}
    >>> flagged = {"verdict": "flagged"}
    >>> no_medal, as_scored = counted(rec, flagged), counted(rec, flagged, count_flagged=True)
    >>> no_medal["any_medal"], no_medal["score"], as_scored["any_medal"]
    (False, 0.9, True)
    >>> counted({**rec, "isolation": "unisolated"}, None) is None
    True
    """
    if not is_isolated(record):
        return None
    state = verdict or UNCHECKED
    if (state["verdict"] == "flagged" or state.get("reason")) and not count_flagged:
        return {**record, **dict.fromkeys(MEDALS, False)}
    return record
