"""Code similarity between a run's code and the competition's reference notebooks (copydetect).

Each reference notebook (converted to Python, in ``data/kernels/<id>/``) is fingerprinted with copydetect's
winnowed k-grams over tokenised code (names and literals normalised, comments dropped), and so is all of the
agent's code in ``code/`` taken together. A notebook's similarity is the share of its fingerprints that the
agent's code holds: 1.0 for a verbatim copy, high for a lightly edited one, low for code written
independently even when it uses the same libraries. The run is flagged when its top similarity reaches the
threshold (``integrity.plagiarism_threshold``). MLE-bench v1 compared with Dolos and set no threshold.
"""

from __future__ import annotations

import io
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mlebench.integrity.checks import CheckResult
from mlebench.integrity.run_view import RunView

NOISE_TOKENS = 25
"""k: matches shorter than this many tokens are ignored (copydetect's default noise threshold)."""
GUARANTEE_TOKENS = 30
"""Matches at least this long are always found (copydetect's default); sets the winnowing window."""
TOP = 5
MANIFEST = "manifest.json"
_CODE_SUFFIXES = (".py", ".ipynb")


@dataclass(frozen=True)
class Similarity:
    """How much of one reference notebook the agent's code reproduces."""

    notebook: str
    similarity: float


def references(folder: Path) -> dict[str, str]:
    """Return the reference notebooks in ``folder`` (:mod:`mlebench.data.kernels`): ``owner/slug`` → code."""
    manifest = folder / MANIFEST
    if not manifest.is_file():
        return {}
    entries = json.loads(manifest.read_text(encoding="utf-8"))["kernels"]
    return {
        e["ref"]: (folder / e["file"]).read_text(encoding="utf-8")
        for e in entries
        if e.get("file") and (folder / e["file"]).is_file()
    }


def similarities(run: RunView, refs: dict[str, str]) -> list[Similarity]:
    """Every reference's similarity with the agent's code, highest first (ties by name)."""
    agent = "\n\n".join(f.text for f in run.code if Path(f.path).suffix.lower() in _CODE_SUFFIXES)
    if not agent.strip() or not refs:
        return [Similarity(ref, 0.0) for ref in sorted(refs)]
    agent_fp = _fingerprint(agent, "agent.py")
    out = []
    for ref, code in sorted(refs.items()):
        out.append(Similarity(ref, round(_share(_fingerprint(code, "reference.py"), agent_fp), 4)))
    return sorted(out, key=lambda s: (-s.similarity, s.notebook))


def plagiarism(run: RunView, refs: dict[str, str], threshold: float) -> tuple[dict[str, Any], CheckResult]:
    """Return ``integrity.json``'s ``plagiarism`` entry (``{"top", "threshold"}``) and its check."""
    ranked = similarities(run, refs)
    top = [{"notebook": s.notebook, "similarity": s.similarity} for s in ranked[:TOP]]
    over = [s for s in ranked if s.similarity >= threshold]
    evidence = [f"similarity {s.similarity:.2f} with notebook {s.notebook}" for s in over[:TOP]]
    check = CheckResult("plagiarism", bool(over), evidence, {"references": len(refs), "threshold": threshold})
    return {"top": top, "threshold": threshold}, check


def _fingerprint(code: str, name: str) -> Any:
    from copydetect import CodeFingerprint

    logging.getLogger("copydetect").setLevel(logging.ERROR)
    win = GUARANTEE_TOKENS - NOISE_TOKENS + 1
    return CodeFingerprint(name, NOISE_TOKENS, win, fp=io.StringIO(code))


def _share(reference: Any, agent: Any) -> float:
    """Share of the reference's fingerprints present in the agent's code (0 for an empty reference)."""
    if not reference.hashes:
        return 0.0
    return len(reference.hashes & agent.hashes) / len(reference.hashes)
