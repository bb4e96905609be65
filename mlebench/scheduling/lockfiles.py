"""Writing stages' entries into their ``dvc.lock`` files, fast, atomically, as DVC's own writer would.

DVC's writer (``Lockfile.dump_stages``) re-reads the whole lock file with ruamel's round-trip parser and
re-emits all of it with ruamel's pure-Python emitter on every call. A competition's lock file holds every
cell's run and grade entry, each listing the files its stage imports, and one such write took the scheduler
most of its time while its slots sat idle (measured: docs/performance.md, "Figures behind design choices").

:class:`LockFiles` writes the same data: each entry is DVC's own ``serialize.to_lockfile(stage)``, merged
as DVC merges it (``schema`` first in a new file, then ``stages``; an entry replaced in place by name, a
new one appended). It keeps each file as its header plus one block of text per stage, so a write emits
only the entries that changed (libyaml) and joins the rest. A file is split into blocks only when it has
DVC's block layout (``schema``/``stages`` at the top, one two-space-indented key per stage) and the blocks
name exactly the stages a full parse finds; otherwise the whole file is parsed and re-emitted. A file that
changed under us is read again. The text is the same YAML document DVC writes; only where a long line
folds may differ from ruamel's output.

Every write goes to a temporary file beside the lock, is fsynced and renamed over it: a kill mid-write
leaves the old lock or the new one, never half of one. A batch's files (:meth:`LockFiles.update_many`) are
fsynced together, from a few threads, before any is renamed: the filesystem's journal then commits them in
one go instead of one commit per file (measured: docs/performance.md, "Figures behind design choices").
"""

from __future__ import annotations

import os
import re
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from mlebench.data.dvc_internals import plain, yaml_text

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_HEADER = "schema: '2.0'\nstages:\n"
_STAGE_KEY = re.compile(r"  ([^\s#'\"][^:]*):\n")


@dataclass
class _Blocks:
    """One lock file as text: what precedes the stages, then stage name → its entry's text."""

    signature: tuple[int, int, int]
    header: str
    stages: dict[str, str] = field(default_factory=dict)


class LockFiles:
    """The ``dvc.lock`` files one process writes, each kept as text blocks between writes."""

    def __init__(self) -> None:
        self._files: dict[Path, _Blocks] = {}

    def update(self, path: Path, entries: dict[str, Any]) -> None:
        """Set ``entries`` (stage name → lock entry, as ``serialize.to_lockfile`` returns) in ``path``."""
        self.update_many({path: entries})

    def update_many(self, updates: dict[Path, dict[str, Any]]) -> None:
        """:meth:`update` each file; all are written and fsynced before the first is renamed into place."""
        texts: dict[Path, tuple[_Blocks, dict[str, str], str]] = {}
        for path, entries in updates.items():
            blocks = self._load(path)
            stages = dict(blocks.stages)
            for name, entry in plain(entries).items():
                stages[name] = _indent(yaml_text({name: entry}))
            texts[path] = (blocks, stages, blocks.header + "".join(stages.values()))
        try:
            write_all_atomically({path: text for path, (_, _, text) in texts.items()})
        except BaseException:
            for path in texts:
                self._files.pop(path, None)  # a file may hold either version: read it again next time
            raise
        for path, (blocks, stages, _) in texts.items():
            self._files[path] = _Blocks(_signature(path), blocks.header, stages)

    def _load(self, path: Path) -> _Blocks:
        try:
            sig = _signature(path)
        except FileNotFoundError:
            return _Blocks((0, 0, 0), _HEADER)
        cached = self._files.get(path)
        if cached and cached.signature == sig:
            return cached
        text = path.read_text(encoding="utf-8")
        data = yaml.load(text, Loader=_Loader) or {}
        if not isinstance(data, dict) or not isinstance(data.get("stages", {}), dict):
            raise ValueError(f"{path}: not a lock file DVC wrote (no 'stages' mapping at the top)")
        split = _split(text)
        if split is None or list(split[1]) != list(data.get("stages", {})):
            # not DVC's block layout: start from the parsed data, re-emitted as blocks
            rest = {k: v for k, v in data.items() if k != "stages"} or {"schema": "2.0"}
            header = yaml_text(rest) + "stages:\n"
            split = (header, {n: _indent(yaml_text({n: e})) for n, e in data.get("stages", {}).items()})
        return _Blocks(sig, *split)


def _split(text: str) -> tuple[str, dict[str, str]] | None:
    """Cut DVC's block-style lock text into its header and one text block per stage, or None."""
    head, sep, body = text.partition("\nstages:\n")
    if not sep or any(line and not line.startswith(" ") for line in body.splitlines()):
        return None
    if not head.startswith("schema:") or any(line.startswith(" ") for line in head.splitlines()):
        return None
    header = head + sep
    stages: dict[str, str] = {}
    name = ""
    for line in body.splitlines(keepends=True):
        match = _STAGE_KEY.fullmatch(line)
        if match:
            name = match.group(1)
            stages[name] = line
        elif not name or not line.startswith("    "):
            return None
        else:
            stages[name] += line
    return header, stages


def _indent(text: str) -> str:
    return "".join(f"  {line}" if line.strip() else line for line in text.splitlines(keepends=True))


def write_all_atomically(texts: dict[Path, str], threads: int = 8) -> None:
    """Write each file's text beside it and fsync them all (``threads`` at a time), then rename each.

    A kill or a failure leaves every file old or new, never half; one that fails leaves the others untouched
    (nothing is renamed until every temporary file is on disk).
    """
    if not texts:  # a batch none of whose stages could be recorded: nothing to write
        return
    temps: dict[Path, str] = {}
    try:
        for path, text in texts.items():
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
            temps[path] = tmp
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
        if len(temps) == 1:
            _fsync_path(next(iter(temps.values())))
        else:
            with ThreadPoolExecutor(max_workers=min(threads, len(temps))) as pool:
                list(pool.map(_fsync_path, temps.values()))
        while temps:
            path, tmp = next(iter(temps.items()))
            os.replace(tmp, path)
            del temps[path]
    finally:
        for tmp in temps.values():
            Path(tmp).unlink(missing_ok=True)


def _fsync_path(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _signature(path: Path) -> tuple[int, int, int]:
    st = path.stat()
    return (st.st_ino, st.st_mtime_ns, st.st_size)


__all__ = ["LockFiles", "write_all_atomically"]
