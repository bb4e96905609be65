"""The strict CSV reader (:mod:`graders._csv`): a quote-free file is parsed from disk, any other as bytes."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import graders._csv as reader
from graders._csv import UnreadableCSV, read_csv_strings

ROWS = 120_000  # about 2 MB: the first MiB alone holds no quote


def _rows(n: int = ROWS) -> list[str]:
    return [f"{i},{i * 0.5},w{i % 97}" for i in range(n)]


def _write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "f.csv"
    path.write_text("id,x,word\n" + "\n".join(lines) + "\n")
    return path


def _as_bytes(path: Path) -> pd.DataFrame:
    """Return what the bytes reader alone makes of the file."""
    frame = reader._read_with_arrow(path.read_bytes())
    assert frame is not None
    return frame


def test_a_file_without_quotes_reads_as_its_bytes_do(tmp_path: Path, monkeypatch) -> None:
    path = _write(tmp_path, _rows())
    calls = []
    monkeypatch.setattr(reader, "_read_with_arrow", lambda data: calls.append(len(data)))
    frame = read_csv_strings(path)
    assert not calls  # read from disk, never as a whole bytes object
    monkeypatch.undo()
    pd.testing.assert_frame_equal(frame, _as_bytes(path))
    assert frame["x"].iloc[3] == "1.5" and frame["word"].iloc[-1] == f"w{(ROWS - 1) % 97}"


def test_a_quote_past_the_first_mebibyte_is_still_read_as_a_quote(tmp_path: Path) -> None:
    path = _write(tmp_path, [*_rows(), '7,"1,5",w'])
    frame = read_csv_strings(path)
    assert frame.shape == (ROWS + 1, 3) and frame["x"].iloc[-1] == "1,5"
    pd.testing.assert_frame_equal(frame, _as_bytes(path))


def test_an_unterminated_quote_past_the_first_mebibyte_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, [*_rows(), '7,8,"w', "9,10,w"])
    with pytest.raises(UnreadableCSV, match="could not be parsed as CSV"):
        read_csv_strings(path)


@pytest.mark.parametrize(
    "tail",
    [
        "1,2",  # a short row
        "1,2,3,4",  # a long row
        "1,2,\xff",  # not UTF-8
    ],
)
def test_a_bad_row_past_the_first_mebibyte_gets_the_careful_readers_reason(tmp_path: Path, tail: str) -> None:
    path = tmp_path / "f.csv"
    path.write_bytes(("id,x,word\n" + "\n".join(_rows()) + "\n").encode() + tail.encode("latin-1") + b"\n")
    with pytest.raises(UnreadableCSV, match=f"row {ROWS + 1}|byte 0xff"):
        read_csv_strings(path)


def test_small_files_are_parsed_under_the_starting_mmap_threshold(tmp_path: Path, monkeypatch) -> None:
    """A small file is parsed under 128 KiB and leaves the threshold at 32 MiB; a large one changes none."""
    calls: list[tuple[int, int]] = []
    monkeypatch.setattr(reader, "_MALLOPT", lambda parameter, value: calls.append((parameter, value)))
    monkeypatch.delenv("MALLOC_MMAP_THRESHOLD_", raising=False)
    path = _write(tmp_path, _rows(10))
    read_csv_strings(path)
    assert calls == [(-3, 128 << 10), (-3, 32 << 20)]
    ragged = tmp_path / "ragged.csv"
    ragged.write_text("id,x\n1,2,3\n")
    with pytest.raises(UnreadableCSV, match="header's 2 fields"):  # left at 32 MiB after a refusal too
        read_csv_strings(ragged)
    assert calls == [(-3, 128 << 10), (-3, 32 << 20)] * 2
    calls.clear()
    monkeypatch.setattr(reader, "_THREADED", path.stat().st_size)  # the same file, now "large"
    read_csv_strings(path)
    monkeypatch.setenv("MALLOC_MMAP_THRESHOLD_", "65536")  # the caller's own choice wins
    monkeypatch.setattr(reader, "_THREADED", 16 << 20)
    read_csv_strings(path)
    assert calls == []
