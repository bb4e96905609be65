"""Cross-check our prepare against MLE-bench v1's prepare on the same raw files, file by file.

For each Kaggle competition, its ``fixture.py`` download is written once and copied twice, byte for byte:
v1's ``prepare(raw, public, private)`` for the competition (the ``preparer`` its ``config.yaml`` names) runs
on one copy in a separate process (v1's package shares our top-level name, so it never enters this one),
and our :func:`mlebench.data.prepare.prepare_competition` on the other, with the competition's own
declaration (not the fixture's ``SPLIT`` overrides: v1 has none). Every file under ``public/`` and
``private/`` that either side writes is then compared (``public/description.md`` is left out: v1 writes it
outside ``prepare``, from its own text):

- bytes identical;
- else equal as tables or values: CSV/TSV parsed as text cells, parquet as typed columns, JSON (and JSON
  lines) as values, all order-sensitive, with the reason the bytes differ (CSV quoting, line endings,
  JSON formatting, parquet writer, ...);
- else, for an archive (zip, tar, 7z), equal member by member: the same member files, each compared in
  the same way (so an archive inside an archive is opened too), with the reason (archive metadata);
- else a difference, with the first few concrete differences (a row and column, a member, a size).

A difference in a file that one of the competition's ``known_issues`` of kind ``prepare_deviation`` names
(``files``: globs relative to the prepared folder) is a documented deviation; any other makes the
competition *differs*. Each competition gets one verdict: ``identical``, ``table-equal``, ``documented
deviation only``, ``differs``, ``v1 cannot run`` (v1's prepare raised: its error is kept) or ``ours cannot
run``. The table is printed (``--markdown`` writes it too, ``--json`` every file's result); the exit code
is 1 when any competition differs or ours cannot run.

v1's code is read from the checkout given as the first argument (a scratch folder outside this repository);
nothing of it is copied here. v1 ran on pandas 2, and two of its prepares read TFRecord ids with
TensorFlow; install those into folders of their own and pass them as ``--v1-pythonpath`` (only v1's process
sees them).

Usage: ``python benchmarks/v1_prepare_crosscheck.py /path/to/v1-checkout [--only ID ...] [--json out]
[--markdown out.md] [--v1-pythonpath DIRS]``.
"""

from __future__ import annotations

import argparse
import fnmatch
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from authoring.kaggle_standin import write_fixture_download  # noqa: E402
from mlebench.data.prepare import prepare_competition  # noqa: E402
from mlebench.data.tfrecord import decode_example, read_records  # noqa: E402
from mlebench_spec.declarations import Competition, all_competition_ids, load_competition  # noqa: E402

IDENTICAL, EQUAL, DIFFERS = "identical", "equal", "differs"
MAX_DIFFS = 5
SKIPPED = ("public/description.md",)
"""Files our prepare writes that v1 writes outside its ``prepare`` (so not compared)."""

_V1_WORKER = r"""
import json, sys, traceback
from pathlib import Path
import yaml
sys.path.insert(0, sys.argv[1])
import mlebench
assert Path(mlebench.__file__).resolve().is_relative_to(Path(sys.argv[1]).resolve()), mlebench.__file__
from mlebench.utils import import_fn
served = json.loads(sys.argv[5])
if served:  # files v1 downloads from elsewhere than Kaggle: answered from the fixture, nothing else reached
    import io, requests, requests.adapters
    def send(self, request, **kwargs):
        if request.url not in served:
            raise requests.ConnectionError(f"no network here, and the fixture has no file for {request.url}")
        response = requests.Response()
        response.status_code, response.url, response.request = 200, request.url, request
        response.raw = io.BytesIO(Path(served[request.url]).read_bytes())
        return response
    requests.adapters.HTTPAdapter.send = send
config = yaml.safe_load(open(Path(sys.argv[1]) / "mlebench" / "competitions" / sys.argv[2] / "config.yaml"))
raw, out = Path(sys.argv[3]), Path(sys.argv[4])
(out / "public").mkdir(parents=True)
(out / "private").mkdir(parents=True)
try:
    import_fn(config["preparer"])(raw=raw, public=out / "public", private=out / "private")
except BaseException as exc:
    lines = traceback.format_exc().strip().splitlines()
    print(json.dumps({"error": f"{type(exc).__name__}: {str(exc)[:400]}", "trace": lines[-8:]}))
else:
    print(json.dumps({"error": None}))
"""


@dataclass
class FileResult:
    """How one file (or archive member) of ours compares with v1's."""

    status: str  # identical | equal | differs
    reason: str = ""
    diffs: list[str] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------------------
# Comparisons: pure functions of a file's name and the two files' bytes.


def compare_file(name: str, ours: bytes, v1: bytes) -> FileResult:
    """Compare one file's two versions: bytes, else as a table/values/archive by its name's suffix."""
    if ours == v1:
        return FileResult(IDENTICAL)
    kind = file_kind(name)
    try:
        if kind in ("csv", "tsv"):
            return compare_csv(ours, v1, sep="\t" if kind == "tsv" else ",")
        if kind == "parquet":
            return compare_parquet(ours, v1)
        if kind in ("json", "jsonl"):
            return compare_json(ours, v1, lines=kind == "jsonl")
        if kind in ("zip", "tar", "7z"):
            return compare_archives(kind, ours, v1)
        if kind == "tfrecord":
            return compare_tfrecords(ours, v1)
    except Exception as exc:  # noqa: BLE001 - an unreadable file is a difference, named
        return FileResult(DIFFERS, f"cannot be read as {kind}", [f"{type(exc).__name__}: {str(exc)[:200]}"])
    return FileResult(DIFFERS, "bytes differ", [f"{len(ours)} bytes (ours) vs {len(v1)} (v1)"])


def file_kind(name: str) -> str:
    """Return the comparison a file gets from its name: csv, tsv, parquet, json(l), zip, tar, 7z, bytes."""
    lower = name.lower()
    for suffixes, kind in (
        ((".csv",), "csv"),
        ((".tsv",), "tsv"),
        ((".parquet",), "parquet"),
        ((".json",), "json"),
        ((".jsonl",), "jsonl"),
        ((".zip",), "zip"),
        ((".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz"), "tar"),
        ((".7z",), "7z"),
        ((".tfrec", ".tfrecord", ".tfrecords"), "tfrecord"),
    ):
        if lower.endswith(suffixes):
            return kind
    return "bytes"


def compare_csv(ours: bytes, v1: bytes, sep: str = ",") -> FileResult:
    """Compare two CSV files as tables of text cells (header, row order and every cell as written)."""
    a = pd.read_csv(io.BytesIO(ours), sep=sep, dtype=str, keep_default_na=False)
    b = pd.read_csv(io.BytesIO(v1), sep=sep, dtype=str, keep_default_na=False)
    diffs = table_diffs(a, b)
    if diffs:
        return FileResult(DIFFERS, "table differs", diffs)
    return FileResult(EQUAL, _text_reason(ours, v1))


def _text_reason(ours: bytes, v1: bytes) -> str:
    """Why two text tables with equal cells differ in bytes."""
    if ours.replace(b"\r\n", b"\n") == v1.replace(b"\r\n", b"\n"):
        return "line endings"
    if ours.rstrip(b"\r\n") == v1.rstrip(b"\r\n"):
        return "final newline"
    if ours.replace(b'"', b"") == v1.replace(b'"', b""):
        return "CSV quoting"
    return "CSV formatting"


def compare_parquet(ours: bytes, v1: bytes) -> FileResult:
    """Compare two parquet files as typed tables (columns, dtypes, row order and values)."""
    a, b = pd.read_parquet(io.BytesIO(ours)), pd.read_parquet(io.BytesIO(v1))
    diffs = table_diffs(a, b)
    dtypes = [
        f"column {c}: dtype {a[c].dtype} (ours) vs {b[c].dtype} (v1)"
        for c in a.columns
        if c in b.columns and a[c].dtype != b[c].dtype
    ]
    if diffs or dtypes:
        return FileResult(DIFFERS, "table differs", (dtypes + diffs)[:MAX_DIFFS])
    if not a.index.equals(b.index):
        return FileResult(DIFFERS, "table differs", ["the stored index differs"])
    return FileResult(EQUAL, "parquet writer")


def table_diffs(a: pd.DataFrame, b: pd.DataFrame) -> list[str]:
    """Return the first few differences between table ``a`` (ours) and ``b`` (v1): columns, length, cells."""
    if list(a.columns) != list(b.columns):
        return [f"columns {list(a.columns)[:12]} (ours) vs {list(b.columns)[:12]} (v1)"]
    diffs = [f"{len(a)} rows (ours) vs {len(b)} (v1)"] if len(a) != len(b) else []
    if not diffs and not a.astype(str).equals(b.astype(str)) and _rows(a) == _rows(b):
        diffs = ["the same rows in another order"]
    n = min(len(a), len(b))
    left, right = a.iloc[:n].reset_index(drop=True), b.iloc[:n].reset_index(drop=True)
    for column in a.columns:
        x, y = left[column], right[column]
        try:
            same = ((x == y) | (x.isna() & y.isna())).astype(bool)
        except (TypeError, ValueError):  # cells holding arrays: compare what they print as
            same = x.astype(str) == y.astype(str)
        if not bool(same.all()):
            for row in same[~same].index[: MAX_DIFFS - len(diffs)]:
                diffs.append(f"row {row} column {column}: {_show(x[row])} (ours) vs {_show(y[row])} (v1)")
        if len(diffs) >= MAX_DIFFS:
            break
    return diffs


def _show(value: object) -> str:
    """Show a cell as a difference names it: text quoted, numbers plain."""
    return repr(value) if isinstance(value, str) else str(value)


def _rows(frame: pd.DataFrame) -> list[tuple]:
    """Return a table's rows as sorted tuples of text (to tell a reordering from other changes)."""
    return sorted(map(tuple, frame.astype(str).to_numpy().tolist()))


def compare_json(ours: bytes, v1: bytes, lines: bool = False) -> FileResult:
    """Compare two JSON (or JSON-lines) files as values (dict key order ignored, list order kept)."""
    if lines:
        a = [json.loads(line) for line in ours.splitlines() if line.strip()]
        b = [json.loads(line) for line in v1.splitlines() if line.strip()]
    else:
        a, b = json.loads(ours), json.loads(v1)
    if a == b:
        return FileResult(EQUAL, "JSON formatting")
    return FileResult(DIFFERS, "values differ", value_diffs(a, b, "$"))


def value_diffs(a: object, b: object, where: str) -> list[str]:
    """Return the first few places where JSON values ``a`` (ours) and ``b`` (v1) differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        diffs = (
            [
                f"{where}: keys only in ours {sorted(set(a) - set(b))[:5]}, only in v1 "
                f"{sorted(set(b) - set(a))[:5]}"
            ]
            if set(a) != set(b)
            else []
        )
        for key in a:
            if key in b and a[key] != b[key]:
                diffs += value_diffs(a[key], b[key], f"{where}.{key}")
            if len(diffs) >= MAX_DIFFS:
                break
        return diffs[:MAX_DIFFS]
    if isinstance(a, list) and isinstance(b, list):
        diffs = [f"{where}: {len(a)} items (ours) vs {len(b)} (v1)"] if len(a) != len(b) else []
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            if x != y:
                diffs += value_diffs(x, y, f"{where}[{i}]")
            if len(diffs) >= MAX_DIFFS:
                break
        return diffs[:MAX_DIFFS]
    return [f"{where}: {str(a)[:60]!r} (ours) vs {str(b)[:60]!r} (v1)"]


def archive_members(kind: str, data: bytes) -> dict[str, bytes]:
    """Return the member files (directory entries left out) of a zip, tar or 7z archive, by name, in order."""
    if kind == "zip":
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return {i.filename: archive.read(i) for i in archive.infolist() if not i.is_dir()}
    if kind == "tar":
        with tarfile.open(fileobj=io.BytesIO(data)) as archive:
            return {m.name: archive.extractfile(m).read() for m in archive.getmembers() if m.isfile()}
    if kind == "7z":
        import py7zr

        with tempfile.TemporaryDirectory(prefix="crosscheck-7z-") as tmp:
            with py7zr.SevenZipFile(io.BytesIO(data)) as archive:
                archive.extractall(tmp)
            root = Path(tmp)
            return {
                p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
            }
    raise ValueError(f"not an archive kind: {kind}")


def compare_archives(kind: str, ours: bytes, v1: bytes) -> FileResult:
    """Compare two archives member by member: the same member names, each member compared in turn."""
    a, b = archive_members(kind, ours), archive_members(kind, v1)
    diffs = []
    only_ours, only_v1 = sorted(set(a) - set(b)), sorted(set(b) - set(a))
    if only_ours or only_v1:
        diffs.append(
            f"{len(a)} members (ours) vs {len(b)} (v1); only in ours {only_ours[:3]}, "
            f"only in v1 {only_v1[:3]}"
        )
    reasons = set()
    for name in a:
        if name in b:
            result = compare_file(name, a[name], b[name])
            if result.status == DIFFERS:
                diffs += [f"member {name}: {d}" for d in result.diffs or [result.reason]]
            elif result.status == EQUAL:
                reasons.add(result.reason)
        if len(diffs) >= MAX_DIFFS:
            break
    if diffs:
        return FileResult(DIFFERS, "members differ", diffs[:MAX_DIFFS])
    return FileResult(EQUAL, ", ".join(sorted({f"{kind} metadata", *reasons})))


def compare_tfrecords(ours: bytes, v1: bytes) -> FileResult:
    """Compare two TFRecord files record by record, as decoded tf.train.Example features."""
    with tempfile.TemporaryDirectory(prefix="crosscheck-tfrec-") as tmp:
        records = []
        for side, data in (("ours", ours), ("v1", v1)):
            path = Path(tmp) / side
            path.write_bytes(data)
            records.append([decode_example(r) for r in read_records(path)])
    a, b = records
    diffs = [f"{len(a)} records (ours) vs {len(b)} (v1)"] if len(a) != len(b) else []
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            only_ours, only_v1 = sorted(set(x) - set(y)), sorted(set(y) - set(x))
            changed = sorted(k for k in set(x) & set(y) if x[k] != y[k])
            diffs.append(
                f"record {i}: features only in ours {only_ours}, only in v1 {only_v1}, other values {changed}"
            )
        if len(diffs) >= MAX_DIFFS:
            break
    if diffs:
        return FileResult(DIFFERS, "records differ", diffs)
    return FileResult(EQUAL, "TFRecord encoding")


def compare_trees(ours: Path, v1: Path) -> dict[str, FileResult]:
    """Every file under ``public/`` and ``private/`` of either prepared folder, compared (by its path)."""
    names = set()
    for root in (ours, v1):
        for part in ("public", "private"):
            names |= {p.relative_to(root).as_posix() for p in (root / part).rglob("*") if p.is_file()}
    results = {}
    for name in sorted(names - set(SKIPPED)):
        a, b = ours / name, v1 / name
        if not b.is_file():
            results[name] = FileResult(DIFFERS, "only ours writes it", [f"{a.stat().st_size} bytes"])
        elif not a.is_file():
            results[name] = FileResult(DIFFERS, "only v1 writes it", [f"{b.stat().st_size} bytes"])
        else:
            results[name] = compare_file(name, a.read_bytes(), b.read_bytes())
    return results


def deviation_globs(comp: Competition) -> list[str]:
    """Return the prepared files the declaration lets differ from v1's (kind prepare_deviation)."""
    return [g for issue in comp.known_issues if issue.kind == "prepare_deviation" for g in issue.files]


def verdict(results: dict[str, FileResult], globs: list[str]) -> tuple[str, list[str]]:
    """One competition's verdict from its files' results, and its notes (reasons, differences)."""
    differs = {n: r for n, r in results.items() if r.status == DIFFERS}
    undocumented = {n: r for n, r in differs.items() if not any(fnmatch.fnmatch(n, g) for g in globs)}
    if undocumented:
        notes = [
            f"{n}: {r.reason}" + (f" ({'; '.join(r.diffs[:3])})" if r.diffs else "")
            for n, r in list(undocumented.items())[:MAX_DIFFS]
        ]
        if len(undocumented) > MAX_DIFFS:
            notes.append(f"... {len(undocumented) - MAX_DIFFS} more files differ")
        return "differs", notes
    unused = [g for g in globs if not any(fnmatch.fnmatch(n, g) for n in differs)]
    stale = [f"declared deviation {g} matches no differing file" for g in unused]
    if differs:
        return "documented deviation only", [f"{n}: {r.reason}" for n, r in differs.items()][:3] + stale
    reasons = sorted({r.reason for r in results.values() if r.status == EQUAL})
    if reasons:
        return "table-equal", reasons + stale
    return "identical", stale


# ---------------------------------------------------------------------------------------------------------
# Running both prepares.


def run_v1(
    v1_root: Path, cid: str, raw: Path, out: Path, v1_path: str, timeout: float, served: dict[str, str]
) -> str | None:
    """Run v1's prepare for ``cid`` on ``raw`` into ``out/{public,private}``; return its error, or None.

    ``served`` maps the URLs of files v1 downloads itself (our ``source.extra_files``) to local files: v1's
    ``requests`` calls get those, and a connection error for any other URL.
    """
    env = {**os.environ, "PYTHONPATH": v1_path}
    try:
        worker = subprocess.run(
            [sys.executable, "-c", _V1_WORKER, str(v1_root), cid, str(raw), str(out), json.dumps(served)],
            capture_output=True,
            text=True,
            cwd=out.parent,
            timeout=timeout,
            env=env,
        )
    except subprocess.TimeoutExpired:
        return f"timed out after {timeout:.0f}s"
    lines = worker.stdout.strip().splitlines()
    if worker.returncode or not lines:
        return f"v1's process failed (exit {worker.returncode}): {worker.stderr.strip()[-600:]}"
    return json.loads(lines[-1])["error"]


def check(cid: str, v1_root: Path, v1_path: str, timeout: float) -> dict:
    """Prepare one competition both ways from the same fixture download and compare the outputs."""
    comp = load_competition(cid)
    record: dict = {"competition": cid}
    with tempfile.TemporaryDirectory(prefix=f"prep-crosscheck-{cid}-") as tmp:
        work = Path(tmp)
        write_fixture_download(comp, work / "download")
        shutil.copytree(work / "download", work / "raw-v1")
        shutil.copytree(work / "download", work / "raw-ours")
        served = {}
        for extra in getattr(comp.source, "extra_files", []):  # v1 downloads these itself, not from Kaggle
            (work / "served").mkdir(exist_ok=True)
            served[extra.url] = str(shutil.move(work / "raw-v1" / extra.name, work / "served" / extra.name))
        started = time.perf_counter()
        error = run_v1(v1_root, cid, work / "raw-v1", work / "v1", v1_path, timeout, served)
        record["v1_seconds"] = round(time.perf_counter() - started, 2)
        started = time.perf_counter()
        try:
            prepare_competition(comp, work / "raw-ours", work / "ours")
            ours_error = None
        except Exception as exc:  # noqa: BLE001 - our failure is this competition's verdict
            ours_error = f"{type(exc).__name__}: {str(exc)[:400]}"
        record["ours_seconds"] = round(time.perf_counter() - started, 2)
        if error is not None:
            record.update(verdict="v1 cannot run", notes=[error], files={})
            if ours_error:
                record["notes"].append(f"ours fails too: {ours_error}")
            return record
        if ours_error is not None:
            record.update(verdict="ours cannot run", notes=[ours_error], files={})
            return record
        results = compare_trees(work / "ours", work / "v1")
    record["verdict"], record["notes"] = verdict(results, deviation_globs(comp))
    record["files"] = {n: asdict(r) for n, r in results.items() if r.status != IDENTICAL}
    record["file_count"] = len(results)
    return record


VERDICTS = (
    "identical",
    "table-equal",
    "documented deviation only",
    "differs",
    "v1 cannot run",
    "ours cannot run",
)
FAILING = ("differs", "ours cannot run")


def markdown(records: list[dict]) -> str:
    """Return the table of verdicts, with a count per verdict."""
    counts = {v: sum(r["verdict"] == v for r in records) for v in VERDICTS}
    lines = [
        f"{len(records)} competitions: " + ", ".join(f"{n} {v}" for v, n in counts.items() if n),
        "",
        "| competition | verdict | files | notes |",
        "| --- | --- | --- | --- |",
    ]
    for r in records:
        notes = "; ".join(r["notes"]).replace("|", "\\|").replace("\n", " ")
        lines.append(f"| {r['competition']} | {r['verdict']} | {r.get('file_count', '')} | {notes[:700]} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Cross-check the chosen competitions, print the table, and fail when any differs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("v1_checkout", type=Path, help="a scratch folder holding MLE-bench v1's source")
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--json", type=Path, help="write every competition's record here")
    parser.add_argument("--markdown", type=Path, help="write the table here")
    parser.add_argument("--v1-pythonpath", default="", help="PYTHONPATH for v1's process only")
    parser.add_argument("--timeout", type=float, default=900, help="seconds for one v1 prepare")
    args = parser.parse_args(argv)
    if not (args.v1_checkout / "mlebench" / "registry.py").is_file():
        parser.error(f"{args.v1_checkout} does not hold v1's mlebench/registry.py")
    kaggle = [c for c in all_competition_ids() if load_competition(c).source.kind == "kaggle"]
    unknown = sorted(set(args.only or []) - set(kaggle))
    if unknown:
        parser.error(f"not Kaggle competitions of this project: {', '.join(unknown)}")
    records = []
    for cid in args.only or kaggle:
        record = check(cid, args.v1_checkout.resolve(), args.v1_pythonpath, args.timeout)
        records.append(record)
        print(
            f"{cid}: {record['verdict']} (v1 {record['v1_seconds']}s, ours {record['ours_seconds']}s)"
            + "".join(f"\n    {n}" for n in record["notes"]),
            flush=True,
        )
        if args.json:
            args.json.write_text(json.dumps(records, indent=1), encoding="utf-8")
    table = markdown(records)
    print("\n" + table)
    if args.markdown:
        args.markdown.write_text(table, encoding="utf-8")
    return int(any(r["verdict"] in FAILING for r in records))


if __name__ == "__main__":
    raise SystemExit(main())
