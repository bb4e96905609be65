"""The scheduler's view of DVC: the planned stages in order, which are stale, and recording one that ran.

DVC stays the judge. :meth:`Pipelines.stages` reads DVC's own stage graph (``repo.index.graph``);
:meth:`Pipelines.changed` is DVC's ``stage.changed()``, the test ``dvc repro`` applies to each stage when it
reaches it. A stage runs outside DVC (its ``cmd`` in its ``wdir``, in a worker), because ``dvc repro`` holds
the repository lock for as long as a stage's command runs, so two ``dvc repro -s`` in one checkout serialise
(measured: two 5 s stages took 22.6 s side by side). Around the command, under the lock and briefly:

- :meth:`Pipelines.begin` removes the stage's outputs (as ``dvc repro`` does) and snapshots the hashes of its
  deps and params and its command;
- :meth:`Pipelines.record` re-hashes them after the command exited and, only if nothing changed while it
  ran, saves the outputs to the cache and the run-cache and writes the stage's ``dvc.lock`` entry: what
  ``dvc repro`` writes for the same stage. A stage whose inputs moved is not recorded (and runs again).

The lock entries are DVC's own (``serialize.to_lockfile``), written by
:class:`~mlebench.scheduling.lockfiles.LockFiles` (DVC's writer re-parses and re-emits the whole file per
write: 16 s for one competition's 20-cell lock on the shared machine), atomically. Every other YAML file
DVC writes here (run-cache entries) goes through :func:`atomic_lock_writes`: beside the file, then renamed,
so a kill mid-write leaves the old file or the new one, never half of one; so does DVC's path lock file
(:func:`_rwlock_edits`), which DVC itself rewrites in place. ``params.yaml`` is parsed once
per version of it (:func:`_parsed_once`), not once per params dep of every stage DVC hashes.
"""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mlebench.scheduling.lockfiles import LockFiles, plain, write_atomically, yaml_text

KINDS = ("fetch", "prepare", "selfcheck", "audit", "run_agent", "grade", "report")
"""Stage kinds by name prefix (``run_agent-<agent>-s<seed>``), in the order a grid flows."""


@dataclass(frozen=True)
class PlannedStage:
    """One DVC stage as the scheduler dispatches it.

    ``address`` is DVC's ``<dvc.yaml path>:<name>`` (relative to the repository), ``upstream`` the
    addresses of the stages whose outputs it depends on (from DVC's graph), ``wdir`` absolute.
    """

    address: str
    name: str
    kind: str
    cmd: str
    wdir: Path
    upstream: tuple[str, ...]

    @property
    def pipeline(self) -> str:
        """The pipeline file's folder name (the competition id), or ``.`` for the root ``dvc.yaml``."""
        parent = Path(self.address.rsplit(":", 1)[0]).parent
        return parent.name or "."

    @property
    def cell(self) -> tuple[str, int] | None:
        """``(agent, seed)`` for run_agent and grade stages."""
        if self.kind not in ("run_agent", "grade"):
            return None
        agent, seed = self.name.split("-", 1)[1].rsplit("-s", 1)
        return agent, int(seed)


def kind_of(name: str) -> str:
    """Return the stage kind (one of :data:`KINDS`) a stage name begins with."""
    head = name.split("-", 1)[0]
    return head if head in KINDS else "other"


@contextmanager
def atomic_lock_writes() -> Iterator[None]:
    """Within the block, DVC writes YAML files (its ``dvc.lock`` files) to a temporary file and renames it."""
    from dvc.utils.serialize import _common

    original = _common._dump_data

    def dump(path: Any, data: Any, dumper: Any, fs: Any = None, **kwargs: Any) -> Any:
        if fs is not None and getattr(fs, "protocol", "local") not in ("local", "file"):
            return original(path, data, dumper, fs=fs, **kwargs)
        write_atomically(Path(os.fspath(path)), lambda fh: dumper(data, fh, **kwargs))
        return None

    _common._dump_data = dump
    try:
        yield
    finally:
        _common._dump_data = original


@contextmanager
def _rwlock_edits() -> Iterator[None]:
    """Within the block, DVC's path lock file is rewritten atomically, and one left unreadable starts afresh.

    The file is ``.dvc/tmp/rwlock``, which DVC edits around each stage check.

    DVC truncates that file and then writes its JSON, so a ``kill -9`` between the two (measured: a killed
    scheduler in CI) leaves it empty, and every later ``dvc`` command, ``dvc repro`` included, stops on
    "JSON structure is corrupted" until someone deletes it. Here it is written beside and renamed, under
    DVC's own guard. A file that does not parse can only be a killed writer's leftover (a live writer holds
    the guard while it writes); it is dropped with a warning, as DVC's message advises. Its entries go with
    it; a live process among them would have failed on the unreadable file all the same.
    """
    import json
    import logging
    from collections import defaultdict

    from dvc import rwlock
    from dvc.lock import make_lock

    original = rwlock._edit_rwlock

    @contextmanager
    def edit(lock_dir: str, fs: Any, hardlink: bool) -> Iterator[Any]:
        if getattr(fs, "protocol", "local") not in ("local", "file"):
            with original(lock_dir, fs, hardlink) as lock:
                yield lock
            return
        path = Path(lock_dir, rwlock.RWLOCK_FILE)
        guard = os.path.join(lock_dir, rwlock.RWLOCK_LOCK)
        with make_lock(guard, tmp_dir=lock_dir, hardlink_lock=hardlink):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except FileNotFoundError:
                data = {}
            except (json.JSONDecodeError, UnicodeDecodeError):
                logging.getLogger(__name__).warning(
                    "%s did not parse (a writer was killed mid-write); starting it afresh", path
                )
                data = {}
            lock = rwlock.SCHEMA(data)
            lock["read"] = defaultdict(list, lock["read"])
            lock["write"] = defaultdict(dict, lock["write"])
            yield lock
            write_atomically(path, lambda fh: json.dump(lock, fh))

    rwlock._edit_rwlock = edit
    try:
        yield
    finally:
        rwlock._edit_rwlock = original


@contextmanager
def _libyaml_dumps() -> Iterator[None]:
    """Within the block, DVC's YAML files (run-cache entries) are written by libyaml, not ruamel.

    DVC's pure-Python ruamel dumper took 1.2-1.6 s per run-cache entry at load 7-8 (a stage has many
    deps). DVC reads the files back with its own loader; data libyaml's safe dumper cannot hold (see
    :func:`~mlebench.scheduling.lockfiles.plain`) keeps DVC's dumper.
    """
    from dvc.utils.serialize import _yaml

    original = _yaml._dump

    def dump(data: Any, stream: Any) -> Any:
        try:
            text = yaml_text(plain(data))
        except TypeError:
            return original(data, stream)
        stream.write(text)
        return None

    _yaml._dump = dump
    try:
        yield
    finally:
        _yaml._dump = original


@contextmanager
def _hashed_once(files: dict[tuple[Any, ...], Any]) -> Iterator[None]:
    """Within the block, each dependency path is hashed once, however many stages or checks ask for it.

    DVC hashes a stage's deps when it saves them and twice more when it saves the run-cache entry
    (``_can_hash`` asks every dep for its hash, twice), and the cells of a grid share most deps (the
    code, the public split). The block is held under the repository lock, and a dep cannot change while
    it is held: nothing that writes it can be running (a stage runs only after its upstream stages were
    recorded). Each block starts with an empty memo, so a dep edited between blocks is hashed again; a
    regular file's hash is also kept across blocks in ``files`` (the caller's), by its (inode, mtime, size),
    the key DVC's own state database trusts for a file, so an edited file is hashed again.
    """
    from dvc.dependency.base import Dependency

    original = Dependency._build
    memo: dict[tuple[Any, ...], Any] = {}

    def build(self: Any, *args: Any, **kwargs: Any) -> Any:
        odb, fs_path, fs, hash_name = args[:4]
        key = (type(self), getattr(odb, "path", None), fs_path, getattr(fs, "protocol", None), hash_name,
               bool(kwargs.get("dry_run")), len(args))  # fmt: skip
        if key in memo:
            return memo[key]
        kept = files
        try:
            st = os.stat(fs_path) if getattr(fs, "protocol", None) in ("local", "file") else None
        except (OSError, TypeError, ValueError):
            st = None
        if st is not None and stat.S_ISREG(st.st_mode):
            key = (*key, st.st_ino, st.st_mtime_ns, st.st_size)
        else:
            kept = memo  # a folder: its own stat does not change when a file in it does
        if key not in kept:
            kept[key] = original(self, *args, **kwargs)
        memo[key[:7]] = kept[key]
        return kept[key]

    Dependency._build = build
    try:
        yield
    finally:
        Dependency._build = original


@contextmanager
def _tracked_once(scm: Any, seen: dict[tuple[int, int, int], set[bytes]]) -> Iterator[None]:
    """Within the block, git's index is read once per version of it to ask whether an output is tracked.

    DVC asks, for every output it saves, whether git tracks the path or anything below it (an output git
    tracks is an error), and each question re-reads and scans the whole index (about 0.05 s a time here).
    Here the index's paths and their folders are read into a set once, kept while the index file's (inode,
    mtime, size) stay the same (``seen``, the caller's, outlives the block), so an index git rewrites is
    read again; the answer is the same.
    """
    try:
        repo = scm.dulwich.repo
        index = Path(repo.index_path())  # the checkout's own index, also in a linked worktree
    except Exception:  # noqa: BLE001 - no git here (``dvc init --no-scm``): DVC asks nothing of it
        yield
        return
    original = scm.is_tracked

    def tracked() -> set[bytes] | None:
        try:
            st = index.stat()
        except OSError:
            return None
        version = (st.st_ino, st.st_mtime_ns, st.st_size)
        if version not in seen:
            names: set[bytes] = set()
            for path in repo.open_index():
                names.add(path)
                parts = path.split(b"/")
                names.update(b"/".join(parts[:i]) for i in range(1, len(parts)))
            seen.clear()
            seen[version] = names
        return seen[version]

    def is_tracked(path: str) -> bool:
        names = tracked()
        if names is None:
            return bool(original(path))
        return os.path.relpath(path, scm.root_dir).replace(os.path.sep, "/").encode() in names

    scm.is_tracked = is_tracked
    try:
        yield
    finally:
        del scm.is_tracked  # the instance attribute goes; the class's method shows again


@contextmanager
def _parsed_once(memo: dict[tuple[Any, ...], Any]) -> Iterator[None]:
    """Within the block, DVC parses each params file once per version of it, not once per stage and check.

    DVC re-reads ``params.yaml`` (ruamel, pure Python) for every params dep of every stage it hashes: three
    times per run stage, each time it is checked, snapshotted and recorded. The parse is kept by path and
    the file's (inode, mtime, size), so an edited file is read again, and each caller gets its own copy; so
    are the values a params dep selects from it.
    """
    import copy

    from dvc.dependency import param

    def kept(fs: Any, path: Any, args: tuple[Any, ...], compute: Any) -> Any:
        """``compute()``, once per version of the local file ``path`` and ``args``; a copy each call."""
        if getattr(fs, "protocol", "") not in ("local", "file"):
            return compute()
        st = os.stat(path)
        key = (os.fspath(path), st.st_ino, st.st_mtime_ns, st.st_size, *args)
        if key not in memo:
            memo[key] = compute()
        return copy.deepcopy(memo[key])

    original = param.load_path

    def load(path: Any, fs: Any, **kwargs: Any) -> Any:
        return kept(fs, path, ("load", tuple(sorted(kwargs.items()))), lambda: original(path, fs, **kwargs))

    original_read = param.read_param_file

    def read(fs: Any, path: Any, key_paths: Any = None, flatten: bool = False, **kwargs: Any) -> Any:
        # the selected values too: DVC finds each key by walking the whole tree (dpath), ~2 ms a key
        args = ("read", tuple(key_paths) if key_paths else None, flatten, tuple(sorted(kwargs.items())))
        return kept(fs, path, args, lambda: original_read(fs, path, key_paths, flatten=flatten, **kwargs))

    param.load_path = load
    param.read_param_file = read
    try:
        yield
    finally:
        param.load_path = original
        param.read_param_file = original_read


class Pipelines:
    """DVC's stages of one checkout, opened once for the scheduler's lifetime (see the module docstring).

    The stages are loaded once, from DVC's graph, and kept: the plan does not change during a run, and the
    deps' hashes are re-read from the workspace at every check, so a moved input is still seen.
    """

    def __init__(self, root: Path) -> None:
        import logging

        from dvc.repo import Repo

        logging.getLogger("dvc").setLevel(logging.WARNING)  # its per-write notices would flood the live view
        self.root = root.resolve()
        self.repo = Repo(str(self.root), _wait_for_lock=True)
        self._loaded: dict[str, Any] = {}
        self._locks = LockFiles()
        self._params: dict[tuple[Any, ...], Any] = {}
        self._tracked: dict[tuple[int, int, int], set[bytes]] = {}
        self._hashes: dict[tuple[Any, ...], Any] = {}
        self._mutex = threading.RLock()  # the scheduler records in a thread of its own

    def close(self) -> None:
        """Release DVC's handles."""
        self.repo.close()

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold DVC's repository lock (lock files written atomically) for the block, one thread at a time."""
        from dvc.repo import lock_repo

        with (
            self._mutex,
            lock_repo(self.repo),
            atomic_lock_writes(),
            _rwlock_edits(),
            _libyaml_dumps(),
            _parsed_once(self._params),
        ):
            with _hashed_once(self._hashes), _tracked_once(self.repo.scm, self._tracked):
                yield

    def stages(self) -> list[PlannedStage]:
        """Every stage of the checkout, upstream before downstream (DVC's graph, topologically sorted)."""
        import networkx as nx

        with self.locked():
            graph = self.repo.index.graph
            order = list(reversed(list(nx.topological_sort(graph))))
            out = []
            for stage in order:
                if not stage.cmd:
                    continue
                address = self._address(stage)
                self._loaded[address] = stage
                cmd = stage.cmd if isinstance(stage.cmd, str) else " && ".join(stage.cmd)
                out.append(
                    PlannedStage(
                        address=address,
                        name=stage.name,
                        kind=kind_of(stage.name),
                        cmd=cmd,
                        wdir=Path(stage.wdir),
                        upstream=tuple(sorted(self._address(s) for s in graph.successors(stage) if s.cmd)),
                    )
                )
            return out

    def changed(self, addresses: list[str]) -> dict[str, bool]:
        """Whether DVC would run each stage now (``stage.changed()``: cmd, deps, params or outs differ)."""
        with self.locked():
            return {a: bool(self._stage(a).changed()) for a in addresses}

    def begin(self, addresses: list[str], check: bool = True) -> dict[str, dict[str, Any] | None]:
        """For each stage DVC would run (all, without ``check``): remove its outputs, snapshot its inputs.

        A stage that is up to date maps to None and is left alone (``dvc repro`` skips it too).
        """
        out: dict[str, dict[str, Any] | None] = {}
        if not addresses:
            return out
        with self.locked():
            for address in addresses:
                stage = self._stage(address)
                if check and not stage.changed():
                    out[address] = None
                    continue
                out[address] = _inputs(stage)
                stage.remove_outs(ignore_remove=False, force=False)
        return out

    def record(self, finished: dict[str, dict[str, Any]]) -> dict[str, str]:
        """Write the lock entries of stages whose inputs still match their snapshot; else say what moved.

        Returns, per address, "" when recorded or the reason it was not. One lock file write per pipeline,
        through :class:`~mlebench.scheduling.lockfiles.LockFiles` (DVC's entries, written fast and atomically).
        """
        from dvc.stage.serialize import to_lockfile

        problems: dict[str, str] = {}
        with self.locked():
            by_file: dict[Path, dict[str, Any]] = {}
            for address, snapshot in finished.items():
                stage = self._stage(address)
                now = _inputs(stage)
                moved = sorted(k for k in set(now) | set(snapshot) if now.get(k) != snapshot.get(k))
                if moved:
                    problems[address] = f"inputs changed while it ran: {', '.join(moved)}"
                    continue
                try:
                    stage.save_outs()
                except Exception as exc:  # noqa: BLE001 - DVC's missing-output errors have no common base
                    problems[address] = f"outputs not recorded: {exc}"
                    continue
                stage.md5 = stage.compute_md5()
                self.repo.stage_cache.save(stage)
                stage.commit()
                lock = Path(os.path.splitext(stage.dvcfile.path)[0] + ".lock")
                by_file.setdefault(lock, {}).update(to_lockfile(stage))
                problems[address] = ""
            for lock, entries in by_file.items():
                self._locks.update(lock, entries)
        return problems

    def inputs(self, address: str) -> dict[str, Any]:
        """Return the stage's current inputs, as :meth:`begin` snapshots them."""
        with self.locked():
            return _inputs(self._stage(address))

    def _stage(self, address: str) -> Any:
        if address not in self._loaded:
            path, name = address.rsplit(":", 1)
            self._loaded[address] = self.repo.stage.load_one(path=str(self.root / path), name=name)
        return self._loaded[address]

    def _address(self, stage: Any) -> str:
        rel = Path(stage.dvcfile.path).resolve().relative_to(self.root).as_posix()
        return f"{rel}:{stage.name}"


def _inputs(stage: Any) -> dict[str, Any]:
    """Return the command and the hash of every dep and param of a stage, as DVC computes them now."""
    stage.save_deps()
    found: dict[str, Any] = {"cmd": stage.cmd}
    for dep in stage.deps:
        found[str(dep)] = dep.hash_info.to_dict() if dep.hash_info else None
    return found


__all__ = ["KINDS", "PlannedStage", "Pipelines", "atomic_lock_writes", "kind_of"]
