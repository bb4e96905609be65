"""The v1 prepare cross-check's comparisons, on small made-up files (no v1 source needed)."""

from __future__ import annotations

import importlib.util
import io
import sys
import tarfile
import zipfile
from pathlib import Path

import pandas as pd
import py7zr

from mlebench.data.tfrecord import bytes_feature, encode_example, int64_feature, write_records
from mlebench_spec.declarations import KnownIssue, load_competition

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location(
    "v1_prepare_crosscheck", ROOT / "benchmarks" / "v1_prepare_crosscheck.py"
)
crosscheck = importlib.util.module_from_spec(_spec)
sys.modules["v1_prepare_crosscheck"] = crosscheck
_spec.loader.exec_module(crosscheck)


def _zip(members: dict[str, bytes], compression: int = zipfile.ZIP_STORED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


def _tar(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return out.getvalue()


def _parquet(frame: pd.DataFrame, **kwargs) -> bytes:
    out = io.BytesIO()
    frame.to_parquet(out, **kwargs)
    return out.getvalue()


def test_byte_identical_files_are_identical() -> None:
    data = b"id,label\n1,a\n2,b\n"
    assert crosscheck.compare_file("x.csv", data, data).status == "identical"
    assert crosscheck.compare_file("img.png", b"\x89PNG", b"\x89PNG").status == "identical"


def test_csv_differing_only_in_quoting_is_equal_with_the_reason() -> None:
    result = crosscheck.compare_file(
        "a.csv", b'id,text\n1,"hello"\n2,"x, y"\n', b'id,text\n1,hello\n2,"x, y"\n'
    )
    assert (result.status, result.reason) == ("equal", "CSV quoting")
    crlf = crosscheck.compare_file("a.csv", b"id,v\r\n1,2\r\n", b"id,v\n1,2\n")
    assert (crlf.status, crlf.reason) == ("equal", "line endings")


def test_csv_cells_compare_as_written_text() -> None:
    """``12`` and ``12.0`` are other cells; a row difference names its row and column."""
    result = crosscheck.compare_file("a.csv", b"id,w\n1,12\n2,5\n", b"id,w\n1,12.0\n2,5\n")
    assert result.status == "differs"
    assert result.diffs == ["row 0 column w: '12' (ours) vs '12.0' (v1)"]


def test_csv_row_order_and_columns_matter() -> None:
    ours, v1 = b"id,v\n1,a\n2,b\n", b"id,v\n2,b\n1,a\n"
    result = crosscheck.compare_file("a.csv", ours, v1)
    assert result.status == "differs" and "row 0 column id: '1' (ours) vs '2' (v1)" in result.diffs
    assert result.diffs[0] == "the same rows in another order"
    changed = crosscheck.compare_file("a.csv", ours, b"id,v\n2,b\n1,c\n")
    assert "the same rows in another order" not in changed.diffs
    extra = crosscheck.compare_file("a.csv", ours, b"id,v,extra\n1,a,x\n2,b,y\n")
    assert extra.status == "differs" and extra.diffs[0].startswith("columns ['id', 'v'] (ours)")
    short = crosscheck.compare_file("a.csv", ours, b"id,v\n1,a\n")
    assert short.status == "differs" and short.diffs == ["2 rows (ours) vs 1 (v1)"]


def test_tsv_is_parsed_with_tabs() -> None:
    result = crosscheck.compare_file("t.tsv", b'a\tb\n"1"\t2\n', b"a\tb\n1\t2\n")
    assert result.status == "equal"


def test_parquet_from_other_writers_is_equal_and_a_value_change_is_not() -> None:
    frame = pd.DataFrame({"id": ["a", "b", "c"], "y": [0.5, 1.5, None]})
    snappy, plain = _parquet(frame, compression="snappy"), _parquet(frame, compression=None)
    assert snappy != plain
    result = crosscheck.compare_file("t.parquet", snappy, plain)
    assert (result.status, result.reason) == ("equal", "parquet writer")
    changed = crosscheck.compare_file("t.parquet", snappy, _parquet(frame.assign(y=[0.5, 2.5, None])))
    assert changed.status == "differs" and changed.diffs == ["row 1 column y: 1.5 (ours) vs 2.5 (v1)"]
    retyped = crosscheck.compare_file("t.parquet", snappy, _parquet(frame.astype({"y": "float32"})))
    assert retyped.status == "differs" and "dtype" in retyped.diffs[0]


def test_json_formatting_and_values() -> None:
    result = crosscheck.compare_file("a.json", b'{"a": [1, 2], "b": 1}', b'{"b":1,"a":[1,2]}')
    assert (result.status, result.reason) == ("equal", "JSON formatting")
    changed = crosscheck.compare_file("a.json", b'{"a": [1, 2]}', b'{"a": [2, 1]}')
    assert changed.status == "differs" and changed.diffs[0] == "$.a[0]: '1' (ours) vs '2' (v1)"
    lines = crosscheck.compare_file("a.jsonl", b'{"a": 1}\n{"a": 2}\n', b'{"a":1}\n{"a":2}')
    assert lines.status == "equal"


def test_zip_with_equal_members_is_equal_and_one_with_other_members_differs() -> None:
    members = {"x/1.txt": b"one", "x/2.csv": b"id\n1\n"}
    stored, deflated = _zip(members), _zip(members, zipfile.ZIP_DEFLATED)
    assert stored != deflated
    assert crosscheck.compare_file("a.zip", stored, deflated).status == "equal"
    changed = crosscheck.compare_file("a.zip", stored, _zip({"x/1.txt": b"ONE", "x/2.csv": b"id\n1\n"}))
    assert changed.status == "differs" and changed.diffs == ["member x/1.txt: 3 bytes (ours) vs 3 (v1)"]
    moved = crosscheck.compare_file("a.zip", stored, _zip({"1.txt": b"one", "2.csv": b"id\n1\n"}))
    assert moved.status == "differs" and "only in ours ['x/1.txt', 'x/2.csv']" in moved.diffs[0]


def test_archive_members_compare_as_tables_and_nested_archives_are_opened() -> None:
    inner_ours, inner_v1 = _zip({"a.csv": b'id\n"1"\n'}), _zip({"a.csv": b"id\n1\n"})
    result = crosscheck.compare_file("a.tar", _tar({"in.zip": inner_ours}), _tar({"in.zip": inner_v1}))
    assert result.status == "equal" and "CSV quoting" in result.reason
    bad = crosscheck.compare_file(
        "a.tar", _tar({"in.zip": inner_ours}), _tar({"in.zip": _zip({"a.csv": b"id\n2\n"})})
    )
    assert bad.status == "differs" and bad.diffs[0].startswith("member in.zip: member a.csv: row 0 column id")


def test_seven_zip_members(tmp_path: Path) -> None:
    def seven(folder: str, payload: bytes) -> bytes:
        src = tmp_path / folder
        src.mkdir()
        (src / "f.bin").write_bytes(payload)
        out = tmp_path / f"{folder}.7z"
        with py7zr.SevenZipFile(out, "w") as archive:
            archive.write(src / "f.bin", "f.bin")
        return out.read_bytes()

    a, b = seven("a", b"same"), seven("b", b"diff")
    assert crosscheck.compare_file("x.7z", a, b).status == "differs"


def test_unreadable_table_is_a_named_difference() -> None:
    result = crosscheck.compare_file("a.parquet", b"not parquet", b"also not")
    assert result.status == "differs" and result.reason == "cannot be read as parquet"


def test_trees_and_verdicts(tmp_path: Path) -> None:
    ours, v1 = tmp_path / "ours", tmp_path / "v1"
    for root in (ours, v1):
        (root / "public").mkdir(parents=True)
        (root / "private").mkdir()
        (root / "public" / "train.csv").write_text("id,y\n1,2\n")
    (ours / "public" / "description.md").write_text("ours only, never compared")
    (ours / "private" / "answers.csv").write_text('id,y\n"3",4\n')
    (v1 / "private" / "answers.csv").write_text("id,y\n3,4\n")
    results = crosscheck.compare_trees(ours, v1)
    assert sorted(results) == ["private/answers.csv", "public/train.csv"]
    assert crosscheck.verdict(results, []) == ("table-equal", ["CSV quoting"])
    (v1 / "public" / "extra.txt").write_text("v1 only")
    results = crosscheck.compare_trees(ours, v1)
    assert results["public/extra.txt"].reason == "only v1 writes it"
    assert crosscheck.verdict(results, [])[0] == "differs"
    assert crosscheck.verdict(results, ["public/*.txt"]) == (
        "documented deviation only",
        ["public/extra.txt: only v1 writes it"],
    )
    (v1 / "public" / "extra.txt").unlink()
    assert crosscheck.verdict(crosscheck.compare_trees(ours, v1), ["public/gone.csv"])[1][-1] == (
        "declared deviation public/gone.csv matches no differing file"
    )
    same = {"a": crosscheck.FileResult("identical")}
    assert crosscheck.verdict(same, []) == ("identical", [])


def test_prepare_deviations_come_from_the_declaration() -> None:
    comp = load_competition("spaceship-titanic")
    issue = KnownIssue(summary="x", kind="prepare_deviation", files=["private/test.csv"])
    other = KnownIssue(summary="y", files=["public/train.csv"])
    comp = comp.model_copy(update={"known_issues": [issue, other]})
    assert crosscheck.deviation_globs(comp) == ["private/test.csv"]


def test_tfrecords_compare_record_by_record(tmp_path: Path) -> None:
    def records(name: str, with_target: bool) -> bytes:
        examples = []
        for i in range(3):
            features = {"image_name": bytes_feature(f"img{i}".encode())}
            if with_target:
                features["target"] = int64_feature(i % 2)
            examples.append(encode_example(features))
        write_records(tmp_path / name, examples)
        return (tmp_path / name).read_bytes()

    ours, v1 = records("ours.tfrec", False), records("v1.tfrec", True)
    result = crosscheck.compare_file("t.tfrec", ours, v1)
    assert result.status == "differs"
    assert result.diffs[0] == "record 0: features only in ours [], only in v1 ['target'], other values []"
    assert crosscheck.compare_file("t.tfrec", v1, records("again.tfrec", True)).status == "identical"
