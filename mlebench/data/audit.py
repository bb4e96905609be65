"""The leak audit: after prepare, check that nothing in ``public/`` reveals the private answers.

Three generic probes, each over every public file:

- **copies**: a public file byte-identical to a private one;
- **answer values**: a public CSV with the id column whose other columns, joined on id, reproduce an
  answer column for most test ids (whatever the column is called);
- **labels in paths**: a public file named after a test id whose path also spells that id's label
  (``test/cat/123.jpg``).

A finding is *known* when a declared known issue with ``leak: flagged`` lists its file (``files`` globs,
relative to the prepared folder): MLE-bench v1 keeps some leaks because fixing them would change its
split, and reports mark those competitions instead.
"""

from __future__ import annotations

import fnmatch
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from graders.answers import with_derived
from mlebench_spec.declarations import Competition
from mlebench_spec.hashing import sha256_file

__all__ = ["Finding", "audit", "audit_report", "known_leaks"]

MIN_ROWS = 20  # fewer joined test ids than this say nothing either way
AGREEMENT = 0.95  # share of joined test ids on which a public column must equal an answer column
CSV_BYTES_LIMIT = 2 << 30  # larger public CSVs are read in chunks of rows, only the id and candidate columns
_CHUNK_ROWS = 1_000_000


@dataclass(frozen=True)
class Finding:
    """One way a public file may reveal answers."""

    probe: str  # "copy", "answer-values" or "label-in-path"
    file: str  # relative to the prepared folder, e.g. "public/test.csv"
    detail: str
    known: bool = False


def audit(comp: Competition, public: Path, private: Path) -> list[Finding]:
    """Run every probe on ``public`` against ``private``; return the findings, known ones marked."""
    path = private / comp.submission.answers
    answers = with_derived(pd.read_csv(path, dtype=str, keep_default_na=False), comp.submission, str(path))
    files = sorted(p for p in public.rglob("*") if p.is_file())
    # The hidden next version (``rerun:``) carries the same description as public/ by construction.
    same = {comp.rerun.inputs_dir(private) / "description.md"} if comp.rerun else set()
    findings = _copies(files, public, private, same) + _label_paths(comp, files, public, answers)
    for path in files:
        if path.suffix.lower() == ".csv":
            findings += _answer_values(comp, path, public, answers)
    globs = [g for issue in comp.known_issues if issue.leak == "flagged" for g in issue.files]
    return [
        Finding(f.probe, f.file, f.detail, known=any(fnmatch.fnmatch(f.file, g) for g in globs))
        for f in findings
    ]


def audit_report(comp: Competition, public: Path, private: Path) -> dict[str, Any]:
    """Return the audit as a JSON-ready record: findings, and the declared known leaks."""
    findings = audit(comp, public, private)
    return {
        "competition_id": comp.id,
        "ok": not any(not f.known for f in findings),
        "findings": [asdict(f) for f in findings],
        "known_leaks": [
            {"summary": i.summary, "leak": i.leak, "reference": i.reference}
            for i in comp.known_issues
            if i.leak != "no"
        ],
    }


def known_leaks(record: dict[str, Any]) -> list[str]:
    """Return the leaks an :func:`audit_report` record says the public data keeps (flagged, not fixed)."""
    notes = [leak["summary"].strip() for leak in record["known_leaks"] if leak["leak"] == "flagged"]
    notes += [f"{f['file']}: {f['detail']}" for f in record["findings"] if f["known"]]
    return notes


def _rel(path: Path, public: Path) -> str:
    return "public/" + path.relative_to(public).as_posix()


def _copies(files: list[Path], public: Path, private: Path, exempt: set[Path]) -> list[Finding]:
    secret = {}
    for path in private.rglob("*"):
        if path.is_file() and path.stat().st_size > 0 and path not in exempt:
            secret.setdefault(path.stat().st_size, []).append(path)
    found = []
    for path in files:
        same_size = secret.get(path.stat().st_size, [])
        if not same_size:
            continue
        digest = sha256_file(path)
        for other in same_size:
            if sha256_file(other) == digest:
                name = "private/" + other.relative_to(private).as_posix()
                found.append(Finding("copy", _rel(path, public), f"byte-identical to {name}"))
    return found


def _answer_values(comp: Competition, path: Path, public: Path, answers: pd.DataFrame) -> list[Finding]:
    spec = comp.submission
    id_col = spec.id_column
    header = pd.read_csv(path, nrows=0, dtype=str).columns
    if id_col not in header:
        return []
    targets = {c: answers[c] for c in spec.target_columns if _informative(answers[c])}
    if not targets:
        return []
    truth = answers.drop_duplicates(id_col).set_index(id_col)
    agree: dict[tuple[str, str], list[int]] = {}
    for chunk in _chunks(path):
        joined = chunk.drop_duplicates(id_col).merge(
            truth, left_on=id_col, right_index=True, how="inner", suffixes=("", "\0answer")
        )
        if joined.empty:
            continue
        for column in chunk.columns:
            if column == id_col:
                continue
            for target in targets:
                answer = joined[target + "\0answer" if target in chunk.columns else target]
                equal = _same(joined[column], answer)
                tally = agree.setdefault((column, target), [0, 0])
                tally[0] += int(equal.sum())
                tally[1] += len(joined)
    found = []
    for (column, target), (equal, total) in agree.items():
        if total >= MIN_ROWS and equal >= AGREEMENT * total:
            found.append(
                Finding(
                    "answer-values",
                    _rel(path, public),
                    f"column {column!r} equals the answers' {target!r} for {equal} of {total} test ids",
                )
            )
    return found


def _chunks(path: Path):
    kwargs: dict[str, Any] = {"dtype": str, "keep_default_na": False}
    if path.stat().st_size <= CSV_BYTES_LIMIT:
        yield pd.read_csv(path, **kwargs)
    else:
        yield from pd.read_csv(path, chunksize=_CHUNK_ROWS, **kwargs)


def _informative(values: pd.Series) -> bool:
    """Tell whether a chance match cannot explain agreement: no value covers AGREEMENT of the column."""
    counts = values.value_counts(normalize=True)
    return len(counts) > 1 and counts.iloc[0] < AGREEMENT


def _same(left: pd.Series, right: pd.Series) -> np.ndarray:
    """Cell-wise equality as text, or as numbers when both sides parse (``1`` equals ``1.0``)."""
    a, b = left.to_numpy(dtype=str), right.to_numpy(dtype=str)
    equal = a == b
    x = pd.to_numeric(left, errors="coerce").to_numpy()
    y = pd.to_numeric(right, errors="coerce").to_numpy()
    numeric = ~np.isnan(x) & ~np.isnan(y)
    equal[numeric] = np.isclose(x[numeric], y[numeric], rtol=1e-9, atol=0)
    return equal & (b != "")


def _label_paths(comp: Competition, files: list[Path], public: Path, answers: pd.DataFrame) -> list[Finding]:
    spec = comp.submission
    if len(spec.target_columns) != 1:
        return []
    labels = answers.drop_duplicates(spec.id_column).set_index(spec.id_column)[spec.target_columns[0]]
    textual = labels[labels.str.len().ge(2) & pd.to_numeric(labels, errors="coerce").isna()]
    if textual.empty:
        return []
    by_stem = {p.stem: p for p in files}
    named = [(i, by_stem[i], lab) for i, lab in textual.items() if i in by_stem]
    hits = [
        (i, p)
        for i, p, lab in named
        if lab.lower() in {part.lower() for part in p.relative_to(public).parent.parts}
        or lab.lower() in p.stem.lower().replace(i.lower(), "")
    ]
    if len(named) >= MIN_ROWS and len(hits) >= 0.5 * len(named):
        example = _rel(hits[0][1], public)
        return [
            Finding(
                "label-in-path",
                example,
                f"{len(hits)} of {len(named)} public files named after a test id spell its label in the path",
            )
        ]
    return []
