"""The bounded collector every runner copies the agent's folders out with (issue 51, findings 1 and 2).

Hostile trees at modest size (thousands of entries, not millions), the caps lowered to match, show each
cap holds and collection never raises: names that are not UTF-8, control characters, a tree 1,000 levels
deep, sparse files, many files, many bytes, a time budget, symlinks, fifos and hard links. The same file is
run as a script, as the Docker and Podman collector containers run it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path

import pytest

from mlebench.execution import collector
from mlebench.execution.collector import Limits, collect, remove_tree

SMALL = Limits(max_file_bytes=1 << 20, max_tree_bytes=4 << 20, max_members=2_000, max_depth=16, secs=60)


def _hostile(logs: Path, depth: int = 1_000) -> None:
    logs.mkdir(parents=True)
    (logs / "ok.txt").write_text("kept\n")
    os.mkdir(os.fsencode(logs) + b"/bad-\xff\xfe-dir")
    with open(os.fsencode(logs) + b"/bad-\xff.log", "wb") as fh:
        fh.write(b"x")
    (logs / "tab\there").write_text("x")
    deep = logs / "deep"
    deep.mkdir()
    fd = os.open(deep, os.O_RDONLY)
    for _ in range(depth):  # by file descriptor: the path would pass PATH_MAX
        os.mkdir("d", dir_fd=fd)
        nxt = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = nxt
    os.close(fd)
    for i in range(4):
        with open(logs / f"sparse{i}.bin", "wb") as fh:
            fh.truncate(64 << 20)  # 64 MiB apparent, nothing allocated
    (logs / "link").symlink_to("/etc/passwd")
    os.mkfifo(logs / "fifo")
    os.link(logs / "ok.txt", logs / "second-link.txt")


def test_a_hostile_tree_is_collected_within_its_caps_and_the_rest_noted(tmp_path: Path) -> None:
    logs = tmp_path / "agent" / "logs"
    _hostile(logs)
    notes: list[str] = []
    t0 = time.monotonic()
    written = collect({str(logs): str(tmp_path / "out" / "logs")}, notes, SMALL)
    assert time.monotonic() - t0 < 10
    out = tmp_path / "out" / "logs"
    assert written == {"logs": 1} and (out / "ok.txt").read_text() == "kept\n"
    text = "\n".join(notes)
    assert "logs/bad-\\xff.log: a name that is not valid UTF-8, not collected" in notes
    assert "logs/bad-\\xff\\xfe-dir: a name that is not valid UTF-8, not collected" in notes
    assert "logs/tab\\there: a name holding a control character, not collected" in notes
    assert "deeper than 16 levels, not collected" in text
    assert text.count("skipped by its size, unread") == 4 and "sparse: 0 bytes allocated" in text
    assert "logs/link: symlink, not collected" in notes and "logs/fifo: a special file" in text
    assert "logs/second-link.txt: a hard link, not collected" in notes
    names = [p.relative_to(out).as_posix() for p in out.rglob("*")]
    assert all(n.encode("utf-8") for n in names)  # every collected name is valid UTF-8 (DVC can record it)
    assert max(n.count("/") for n in names) < SMALL.max_depth + 1
    # the same tree, the same notes (names sorted as bytes)
    again: list[str] = []
    collect({str(logs): str(tmp_path / "out2" / "logs")}, again, SMALL)
    assert again == notes
    remove_tree(tmp_path / "agent")  # 1,000 levels deep: shutil.rmtree recursed past Python's limit here
    assert not (tmp_path / "agent").exists()


def test_entries_bytes_and_time_are_capped(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    for i in range(3_000):
        (logs / f"f{i:05d}").write_bytes(b"")
    notes: list[str] = []
    collect({str(logs): str(tmp_path / "out")}, notes, SMALL)
    assert len(list((tmp_path / "out").iterdir())) == SMALL.max_members
    assert notes == [f"out/: more than 2000 entries; collection stopped at out/f{SMALL.max_members:05d}"]

    big = tmp_path / "big"
    big.mkdir()
    for i in range(6):
        (big / f"b{i}").write_bytes(os.urandom(1 << 20))  # 1 MiB each, 4 MiB allowed
    notes = []
    written = collect({str(big): str(tmp_path / "big-out")}, notes, replace(SMALL, max_file_bytes=2 << 20))
    assert written == {"big-out": 4} and sum(1 for n in notes if "holds more than" in n) == 2

    notes = []
    collect({str(logs): str(tmp_path / "late")}, notes, SMALL, deadline=time.monotonic() - 1)
    assert notes and "ran past its 60 s budget" in notes[0]


def test_a_sparse_file_within_the_cap_is_written_as_holes(tmp_path: Path) -> None:
    src = tmp_path / "logs"
    src.mkdir()
    with open(src / "s.bin", "wb") as fh:
        fh.write(b"head")
        fh.truncate(768 << 10)
    collect({str(src): str(tmp_path / "out")}, [], SMALL)
    copied = tmp_path / "out" / "s.bin"
    assert copied.stat().st_size == 768 << 10 and copied.read_bytes()[:4] == b"head"
    assert copied.stat().st_blocks * 512 < 256 << 10  # the host keeps what the agent's disk held


def test_notes_are_capped_and_collection_never_raises(tmp_path: Path) -> None:
    src = tmp_path / "logs"
    src.mkdir()
    for i in range(50):
        (src / f"l{i}").symlink_to("/etc/passwd")
    notes: list[str] = []
    collect({str(src): str(tmp_path / "out")}, notes, replace(SMALL, max_notes=5))
    assert len(notes) == 6 and notes[-1] == "collection: 45 more notes not shown"
    notes = []
    (tmp_path / "file").write_text("x")
    assert collect({str(tmp_path / "missing"): str(tmp_path / "o1")}, notes, SMALL) == {"o1": 0}
    collect({str(tmp_path / "file"): str(tmp_path / "o2")}, notes, SMALL)
    (tmp_path / "o3").write_text("in the way")
    collect({str(src): str(tmp_path / "o3" / "logs")}, notes, SMALL)  # no folder can be made: noted
    assert "not a folder" in notes[0] and "collection stopped (NotADirectoryError" in notes[1], notes
    (tmp_path / "o4" / "old").mkdir(parents=True)
    collect({str(src): str(tmp_path / "o4")}, [], SMALL)  # an earlier run's files do not linger
    assert not (tmp_path / "o4" / "old").exists()


def test_the_same_file_runs_as_the_containers_script(tmp_path: Path) -> None:
    logs = tmp_path / "home" / "logs"
    _hostile(logs, depth=40)
    config = {"trees": {str(logs): str(tmp_path / "out" / "logs")}, "limits": asdict(SMALL)}
    script = Path(collector.__file__).read_text(encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-I", "-c", script, json.dumps(config)], capture_output=True, text=True, check=True
    )
    notes = [json.loads(line)["note"] for line in done.stdout.splitlines()]
    host: list[str] = []
    collect({str(logs): str(tmp_path / "host" / "logs")}, host, SMALL)
    assert notes == host and (tmp_path / "out" / "logs" / "ok.txt").is_file()


def test_limits_come_from_a_setting_and_unknown_keys_are_refused() -> None:
    env = {collector.LIMITS_ENV: json.dumps({"max_members": 7, "secs": 3})}
    assert Limits.from_env(env) == Limits(max_members=7, secs=3)
    assert Limits.from_env({}) == Limits()
    with pytest.raises(ValueError, match="unknown keys \\['max_files'\\]"):
        Limits.from_env({collector.LIMITS_ENV: '{"max_files": 1}'})
