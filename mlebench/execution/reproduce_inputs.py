"""What a re-run gets of the kept ``code/``: source files, recognised by content, and declared inputs.

A re-run must train again from the public split, so it does not get what the agent kept beside its code
(answers typed in, fetched once under egress or written by the run itself would otherwise re-run as they
are). :func:`stage_inputs` copies into a fresh folder, for the runner to seed ``$CODE_DIR`` with:

- every **source file**: text (UTF-8, no control bytes) of at most :data:`MAX_SOURCE_FILE_BYTES`, in all at
  most :data:`MAX_SOURCE_TOTAL_BYTES`, that is none of: a table (delimited text: most lines split into the
  same number of fields), numeric data (more than :data:`MAX_NUMBERS` number literals, and more of them than
  words), an encoded blob (long unbroken lines), or submission-shaped (its first line names the submission's
  id column and a prediction column). Names and suffixes are not looked at: a ``.py`` holding a table is left
  out, a ``.txt`` holding code is given;
- every file matched by a glob the agent **declares** (``reproduce_inputs`` in ``conf/agent/<name>.yaml``,
  relative to ``code/``: pretrained weights, a vocabulary), whatever its content or size.

Everything else is left out (pickles, numpy arrays, archives, compressed streams, parquet, feather, HDF5,
SQLite and other binaries are never source; a notebook is judged by its code cells), each with the reason;
the reproduction record lists what was given and what was left out (:func:`stage_inputs`' return), and a
re-run that then fails says so.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path, PurePosixPath
from typing import Any

from mlebench.data.notebooks import notebook_code

MAX_SOURCE_FILE_BYTES = 1024 * 1024
"""The largest file given as source."""
MAX_SOURCE_TOTAL_BYTES = 16 * 1024 * 1024
"""Source given in all (files in path order until this is reached; the rest left out)."""
MAX_NUMBERS = 500
"""Number literals a source file may hold beyond its words."""
_TABLE_LINES = 20
_LONG_LINE = 4096
_BLOB_LINE = 60
_BLOB_LINES = 16
_MAGIC = (
    (b"\x93NUMPY", "a numpy array"),
    (b"PK\x03\x04", "a zip archive"),
    (b"\x1f\x8b", "gzip-compressed data"),
    (b"BZh", "bz2-compressed data"),
    (b"\xfd7zXZ\x00", "xz-compressed data"),
    (b"\x28\xb5\x2f\xfd", "zstd-compressed data"),
    (b"PAR1", "a parquet table"),
    (b"ARROW1", "a feather/arrow table"),
    (b"\x89HDF\r\n\x1a\n", "an HDF5 file"),
    (b"SQLite format 3\x00", "an SQLite database"),
)
_CONTROL = re.compile(rb"[\x00-\x08\x0e-\x1f]")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_NUMBER_START = frozenset("0123456789+-.")


def data_kind(data: bytes, submission_header: list[str] | None = None) -> str:
    r"""Return why ``data`` (a file's bytes) is not source ("" when it is source).

    >>> data_kind(b"import csv\nprint('hello, world')\n")
    ''
    >>> data_kind(b"\x80\x04\x95...")
    'a pickle'
    >>> data_kind(b"PassengerId,Survived\n892,0\n", ["PassengerId", "Survived"])
    'submission-shaped (its first line names the id column PassengerId and a prediction column)'
    """
    if data[:1] == b"\x80" and data[1:2] in (b"\x02", b"\x03", b"\x04", b"\x05"):
        return "a pickle"
    for magic, kind in _MAGIC:
        if data.startswith(magic):
            return kind
    if data[257:262] == b"ustar":
        return "a tar archive"
    if _CONTROL.search(data):
        return "binary (control bytes)"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "binary (not UTF-8 text)"
    if text.lstrip().startswith("{") and '"cells"' in text:
        text = notebook_code(text)  # a notebook is judged by its code cells, not its outputs
    lines = text.splitlines()
    if submission_header and len(submission_header) > 1 and lines:
        first = [f.strip().strip("\"'") for f in re.split(r"[,\t;|]", lines[0])]
        if submission_header[0] in first and any(c in first for c in submission_header[1:]):
            return (
                f"submission-shaped (its first line names the id column {submission_header[0]} and a "
                "prediction column)"
            )
    table = _table(lines)
    if table:
        return table
    words = _WORD.findall(text)
    numbers = sum(1 for w in words if w[0] in _NUMBER_START)
    if numbers > MAX_NUMBERS and numbers > len(words) - numbers:
        return f"numeric data ({numbers} number literals against {len(words) - numbers} words)"
    if any(len(line) > _LONG_LINE for line in lines):
        return f"an encoded blob (a line over {_LONG_LINE} characters)"
    unbroken = sum(1 for line in lines if len(line) >= _BLOB_LINE and not any(c.isspace() for c in line))
    if unbroken >= _BLOB_LINES:
        return f"an encoded blob ({unbroken} unbroken lines of {_BLOB_LINE}+ characters)"
    return ""


def _table(lines: list[str]) -> str:
    """Name a table: 20+ non-empty lines, 80% of them splitting into the same 2+ fields by one delimiter."""
    rows = [line for line in lines[:5000] if line.strip()]
    if len(rows) < _TABLE_LINES:
        return ""
    for delimiter, name in ((",", "comma"), ("\t", "tab"), (";", "semicolon"), ("|", "bar")):
        counts = Counter(line.count(delimiter) for line in rows)
        fields, seen = counts.most_common(1)[0]
        if fields >= 1 and seen >= 0.8 * len(rows):
            return f"a table ({seen} of {len(rows)} lines split by {name} into {fields + 1} fields)"
    return ""


def declared_files(code_dir: Path, globs: list[str]) -> tuple[set[Path], list[str]]:
    """Return the regular files under ``code_dir`` the globs match, and the globs that matched none."""
    found: set[Path] = set()
    unmatched = []
    for pattern in globs:
        hits = {p for p in code_dir.glob(pattern) if p.is_file() and not p.is_symlink()}
        hits = {p for p in hits if p.resolve().is_relative_to(code_dir.resolve())}
        if not hits:
            unmatched.append(pattern)
        found |= hits
    return found, unmatched


def stage_inputs(
    code_dir: Path, dest: Path, globs: list[str], submission_header: list[str] | None = None
) -> dict[str, Any]:
    """Copy what the re-run gets of ``code_dir`` into ``dest`` (made); return the record's ``inputs``.

    ``inputs``: ``declared`` (the agent's globs), ``unmatched`` (globs that matched no kept file), ``given``
    (``[{path, bytes, declared}]``: source, or declared) and ``left_out`` (``[{path, bytes, reason}]``), paths
    relative to the run folder (``code/...``). Symlinks and special files are neither (never kept).
    """
    dest.mkdir(parents=True, exist_ok=True)
    given: list[dict[str, Any]] = []
    left_out: list[dict[str, Any]] = []
    declared, unmatched = declared_files(code_dir, globs) if code_dir.is_dir() else (set(), list(globs))
    total = 0
    files = (
        sorted(p for p in code_dir.rglob("*") if p.is_file() and not p.is_symlink())
        if code_dir.is_dir()
        else []
    )
    for path in files:
        rel = path.relative_to(code_dir)
        size = path.stat().st_size
        entry = {"path": f"code/{rel.as_posix()}", "bytes": size}
        if path in declared:
            reason = ""
        elif size > MAX_SOURCE_FILE_BYTES:
            reason = f"over {MAX_SOURCE_FILE_BYTES} bytes, the most a source file may have"
        elif total + size > MAX_SOURCE_TOTAL_BYTES:
            reason = f"past {MAX_SOURCE_TOTAL_BYTES} bytes of source in all"
        else:
            with path.open("rb") as fh:
                reason = data_kind(fh.read(MAX_SOURCE_FILE_BYTES), submission_header)
        if reason:
            left_out.append({**entry, "reason": reason})
            continue
        if path not in declared:
            total += size
        target = dest / PurePosixPath(rel.as_posix())
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        given.append({**entry, "declared": path in declared})
    return {"declared": list(globs), "unmatched": unmatched, "given": given, "left_out": left_out}


def left_out_note(inputs: dict[str, Any], limit: int = 8) -> str:
    """Return the sentence a failed re-run's reason ends with when files were left out ("" when none were)."""
    left = inputs.get("left_out") or []
    if not left:
        return ""
    named = ", ".join(f"{e['path']} ({e['reason']})" for e in left[:limit])
    more = f" and {len(left) - limit} more" if len(left) > limit else ""
    return (
        f"the re-run got source files only and left out {named}{more}: it must train again from the public "
        "split; declare inputs it needs (e.g. pretrained weights) in the agent's reproduce_inputs "
        "(docs/agents.md#reproduction)"
    )


__all__ = [
    "MAX_NUMBERS",
    "MAX_SOURCE_FILE_BYTES",
    "MAX_SOURCE_TOTAL_BYTES",
    "data_kind",
    "declared_files",
    "left_out_note",
    "stage_inputs",
]
