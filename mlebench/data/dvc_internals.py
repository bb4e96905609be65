"""DVC's private internals, in one room: every patch of DVC and every private name of DVC this project uses.

DVC's public API does not reach what the scheduler needs (lock files written atomically, deps hashed once per
batch, the run-cache keys a worker's result is handed back under) nor what the prepare stage needs (its md5s
handed to DVC's state database), so the scheduler changes some of DVC's functions for the length of a
``with`` block, and both call a few private ones, pass private keywords, use DVC's internal libraries
(``dvc_data``) or rely on a layout DVC does not document (where its run-cache keeps an entry on a remote).
Each of them is here, and only here, with what DVC does and why we do it. Each is registered in
:data:`NEEDS` with what it relies on: a module attribute, with the parameters the code calls it with
(positional ones in order, then the keywords), or a text DVC's own source must still hold (a layout or a
message we read back). :func:`drift` reports what the installed DVC lacks, :func:`check` turns that into a
clear error before ``mlebench run`` touches a checkout, ``tests/test_dvc_internals.py`` fails naming the
patch, and fails when any other module of ours reaches into DVC (an AST scan).

The room sits on the data floor (:mod:`mlebench.data`), the lowest one that talks to DVC: the prepare stage
records its md5s through it, and the scheduler (above) uses the rest.

``pyproject.toml`` pins DVC to the releases the tests have run on; moving the pin means running that test
(and the scheduler's and the hand-off's tests) on the new release.
"""

from __future__ import annotations

import copy
import importlib
import inspect
import json
import logging
import os
import re
import stat
import tempfile
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import yaml

from mlebench_spec.errors import ConfigError

RUN_CACHE_HASH = "md5-dos2unix"
"""The hash DVC files run-cache entries under on a remote (DVC 2.x's md5, kept for the run-cache)."""

NEEDS: dict[str, tuple[str, ...]] = {
    "atomic_lock_writes": ("dvc.utils.serialize._common:_dump_data(path, data, dumper, fs)",),
    "rwlock_edits": (
        "dvc.rwlock:_edit_rwlock(lock_dir, fs, hardlink)",
        "dvc.rwlock:RWLOCK_FILE",
        "dvc.rwlock:RWLOCK_LOCK",
        "dvc.rwlock:SCHEMA",
        "dvc.lock:make_lock(lockfile, *, tmp_dir, hardlink_lock)",
    ),
    "links_kept_open": (
        "dvc_data.hashfile.state:State.set_link(self, path, inode, mtime)",
        "dvc_data.hashfile.state:relpath(path, start)",
        "dvc_data.hashfile.state:State.close(self)",
        "dvc.repo:Repo._reset(self)",
    ),
    "libyaml_dumps": ("dvc.utils.serialize._yaml:_dump(data, stream)",),
    "hashed_once": (
        "dvc.dependency.base:Dependency._build(self, *args)",
        "dvc.output:Output._build contains return build(*args, **kwargs)",  # what args[:4] unpacks is build's
        "dvc.output:build(odb, path, fs, name, *, dry_run)",
    ),
    "tracked_once": (
        "scmrepo.git:Git.is_tracked",
        "scmrepo.git.backend.dulwich:DulwichBackend.is_tracked(self, path)",
        "dulwich.repo:Repo.index_path(self)",
        "dulwich.repo:Repo.open_index(self)",
    ),
    "parsed_once": (
        "dvc.dependency.param:load_path(fs_path, fs)",
        "dvc.dependency.param:read_param_file(fs, path, key_paths, flatten)",
    ),
    "commands_refused": ("dvc.stage.run:cmd_run(stage, dry, run_env)",),
    "yaml_parsed_once": (
        "dvc.utils.serialize._yaml:parse_yaml(text, path, typ)",
        "dvc.utils.serialize:parse_yaml(text, path, typ)",
        "dvc.utils.strictyaml:parse_yaml(text, path, typ)",
    ),
    "run_cache_key": ("dvc.stage.cache:_can_hash(stage)", "dvc.stage.cache:_get_stage_hash(stage)"),
    "run_cache_value": (
        "dvc.stage.cache:_get_cache_hash(cache, key)",
        "dvc.stage.serialize:to_single_stage_lockfile(stage)",
    ),
    "run_cache_entry_path": ("dvc.stage.cache:StageCache._get_cache_path(self, key, value)",),
    "load_run_cache_entry": ("dvc.stage.cache:StageCache._load_cache(self, key, value)",),
    "waiting_repo": ("dvc.repo:Repo.__init__(self, root_dir, *, config, _wait_for_lock)",),
    "run_cache_remote": (
        "dvc.data_cloud:DataCloud.get_remote_odb(self, name, command, *, hash_name)",
        f'dvc.stage.cache:StageCache.push contains hash_name="{RUN_CACHE_HASH}"',
        f'dvc.stage.cache:StageCache.pull contains hash_name="{RUN_CACHE_HASH}"',
    ),
    "remote_run_cache_entry": (
        "dvc.stage.cache:StageCache._get_cache_path(self, key, value)",
        "dvc.stage.cache:StageCache.push contains self.transfer(self.repo.cache.legacy, dest_odb)",
        "dvc.stage.cache:StageCache.transfer contains rel = from_fs.relpath(src, from_odb.path)",
        "dvc.stage.cache:StageCache.transfer contains dst = to_fs.join(to_odb.path, rel)",
    ),
    "fill_from_lock": ("dvc.stage.loader:StageLoader.fill_from_lock(stage, lock_data)",),
    "not_run_cached": (
        "dvc.stage.cache:_can_hash(stage)",
        "dvc.stage.cache:_can_hash contains stage.always_changed",
        "dvc.stage.cache:_can_hash contains out.persist",
    ),
    "command_exit_code": (
        "dvc.stage.exceptions:StageCmdFailedError.__init__(self, cmd, status)",
        'dvc.stage.exceptions:StageCmdFailedError.__init__ contains f", exited with {status}"',
    ),
    "record_state_md5s": (
        "dvc_data.hashfile.hash_info:HashInfo(name, value)",
        "dvc_data.hashfile.state:State.save_many(self, items, fs)",
    ),
}
"""Per patch (or private call) of this module, by its function's name: what it needs of DVC (and of git's).

``module:attribute.path(parameters)``: the parameters are the leading names the patch passes or receives
(``*args`` as written), then, after a bare ``*``, names it passes by keyword; a release that renames or
reorders them breaks the patch as surely as one that removes the function.
``module:attribute.path contains text``: DVC's source of that function or class still holds ``text``, for
what no signature shows: a layout (where an entry lies on a remote), a hash name or a message we rely on.
"""


_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def yaml_text(data: Any) -> str:
    """Return plain ``data`` (see :func:`plain`) as block YAML, written by libyaml (keys in order)."""
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, default_flow_style=False, allow_unicode=True)


def write_atomically(path: Path, write: Callable[[IO[str]], Any], durable: bool = True) -> None:
    """Write ``path`` through ``write(stream)`` beside it, then rename: a kill leaves the old or the new.

    ``durable``: flush it to disk before the rename, so it also survives the machine going down. A file that
    lives only as long as the processes using it (DVC's path lock) needs no more than the rename: a killed
    process cannot leave half of it, and an fsync (tens of ms on a busy disk) per edit is saved.
    """
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            write(fh)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def plain(value: Any) -> Any:
    """Return the same data in plain types (DVC's entries hold OrderedDicts and ruamel scalars).

    >>> from collections import OrderedDict
    >>> plain(OrderedDict(outs=[{"path": "a", "size": 3}], x=None))
    {'outs': [{'path': 'a', 'size': 3}], 'x': None}
    """
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, bool) or value is None:
        return value
    for kind in (str, int, float):
        if isinstance(value, kind):
            return kind(value)
    raise TypeError(f"a lock entry holds a {type(value).__name__} ({value!r}), which YAML cannot hold")


def _missing(need: str) -> str:
    """Return what the installed libraries lack of one need (a signature or a ``contains``), or ""."""
    target, _, text = need.partition(" contains ")
    target, _, params = target.partition("(")
    module_name, _, attr = target.partition(":")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as exc:
        return f"module {module_name} does not import ({exc})"
    for part in attr.split("."):
        if not hasattr(obj, part):
            return f"{module_name} has no {attr}"
        obj = getattr(obj, part)
    if text:
        try:
            source = inspect.getsource(obj)
        except (OSError, TypeError):
            return f"{module_name}:{attr} has no readable source"
        return "" if text in source else f"{module_name}:{attr} no longer holds {text!r}"
    wanted = [p.strip() for p in params.rstrip(")").split(",") if p.strip()]
    if not wanted:
        return ""
    try:
        parameters = inspect.signature(obj).parameters.values()
    except (TypeError, ValueError):
        return f"{module_name}:{attr} has no readable signature"
    stars = {inspect.Parameter.VAR_POSITIONAL: "*", inspect.Parameter.VAR_KEYWORD: "**"}
    have = [stars.get(p.kind, "") + p.name for p in parameters]
    positional = wanted[: wanted.index("*")] if "*" in wanted else wanted
    keywords = wanted[len(positional) + 1 :]
    if have[: len(positional)] != positional or not set(keywords) <= set(have):
        return f"{module_name}:{attr} takes ({', '.join(have)}), the patch expects ({', '.join(wanted)}, ...)"
    return ""


def drift(needs: dict[str, tuple[str, ...]] | None = None) -> dict[str, list[str]]:
    """Return, per patch, what the installed DVC lacks of what it needs (empty lists: nothing drifted)."""
    return {name: [m for m in map(_missing, wanted) if m] for name, wanted in (needs or NEEDS).items()}


def check() -> None:
    """Raise a :class:`ConfigError` naming each patch the installed DVC no longer supports, and the fix."""
    broken = {name: problems for name, problems in drift().items() if problems}
    if broken:
        from importlib.metadata import version

        lines = "; ".join(f"{name}: {', '.join(problems)}" for name, problems in broken.items())
        raise ConfigError(
            f"the installed DVC ({version('dvc')}) lacks what mlebench's DVC patches need "
            f"(mlebench/data/dvc_internals.py): {lines}. Install the DVC range pyproject.toml pins "
            "(pip install -e .), or port the patches named here to this release"
        )


def _local(fs: Any) -> bool:
    return getattr(fs, "protocol", "local") in ("local", "file")


@contextmanager
def atomic_lock_writes(volatile: tuple[str, ...] = ()) -> Iterator[None]:
    """Within the block, DVC writes YAML files (its ``dvc.lock`` files) to a temporary file and renames it.

    DVC: ``_common._dump_data`` opens the target for writing and dumps into it, so a kill mid-write leaves
    half a file, which DVC then refuses to parse. Changed: on a local filesystem the dump goes beside the
    file and is renamed over it, so a kill leaves the old file or the new one. Files under a folder of
    ``volatile`` are not fsynced first: the run-cache's entries, which DVC itself writes under a temporary
    name and moves into place, and drops with a warning if one reads back corrupt (``_load_cache``), so a
    machine going down costs at most a cache entry; an fsync each was a sixth of recording a stage.
    """
    from dvc.utils.serialize import _common

    original = _common._dump_data
    folders = tuple(os.path.join(os.path.abspath(v), "") for v in volatile)

    def dump(path: Any, data: Any, dumper: Any, fs: Any = None, **kwargs: Any) -> Any:
        if fs is not None and not _local(fs):
            return original(path, data, dumper, fs=fs, **kwargs)
        durable = not os.path.abspath(os.fspath(path)).startswith(folders) if folders else True
        write_atomically(Path(os.fspath(path)), lambda fh: dumper(data, fh, **kwargs), durable=durable)
        return None

    _common._dump_data = dump
    try:
        yield
    finally:
        _common._dump_data = original


@contextmanager
def links_kept_open() -> Iterator[None]:
    """Within the block, DVC's record of the links it checks out goes through one open database connection.

    DVC: ``State.set_link`` notes each output it links from the cache into the workspace in a SQLite
    database (``.dvc/tmp/links``), opening it and closing it again for every output (``with self.links``);
    each close checkpoints SQLite's write-ahead log to disk: 18.6 ms a stage of the 86 ms recording took
    (measured on the shared machine, 80 cells). Changed: the entry is set through the connection left open;
    DVC closes it with the rest of its state when the repository lock is released (``Repo._reset``), so the
    log is checkpointed once per hold of the lock. Same entries, same database; a kill loses at most the
    un-checkpointed part of the log that SQLite itself would replay.
    """
    from dvc_data.hashfile import state

    original = state.State.set_link

    def set_link(self: Any, path: str, inode: int, mtime: Any) -> None:
        self.links[state.relpath(path, self.root_dir)] = (inode, mtime)

    state.State.set_link = set_link
    try:
        yield
    finally:
        state.State.set_link = original


@contextmanager
def rwlock_edits() -> Iterator[None]:
    """Within the block, DVC's path lock file is rewritten atomically, and one left unreadable starts afresh.

    DVC: ``rwlock._edit_rwlock`` guards ``.dvc/tmp/rwlock`` (edited around each stage check), truncates it
    and writes its JSON, so a ``kill -9`` between the two (measured: a killed scheduler in CI) leaves it
    empty, and every later ``dvc`` command, ``dvc repro`` included, stops on "JSON structure is corrupted"
    until someone deletes it. Changed: written beside and renamed (not fsynced: the file only matters while
    its writers live, and an fsync per edit cost a third of the recorder's time on a busy disk), under DVC's
    own guard. A file that does
    not parse can only be a killed writer's leftover (a live writer holds the guard while it writes); it is
    dropped with a warning, as DVC's message advises. Its entries go with it; a live process among them
    would have failed on the unreadable file all the same.
    """
    from dvc import rwlock
    from dvc.lock import make_lock

    original = rwlock._edit_rwlock

    @contextmanager
    def edit(lock_dir: str, fs: Any, hardlink: bool) -> Iterator[Any]:
        if not _local(fs):
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
            write_atomically(path, lambda fh: json.dump(lock, fh), durable=False)  # it lives in .dvc/tmp

    rwlock._edit_rwlock = edit
    try:
        yield
    finally:
        rwlock._edit_rwlock = original


@contextmanager
def libyaml_dumps() -> Iterator[None]:
    """Within the block, DVC's YAML files (run-cache entries) are written by libyaml, not ruamel.

    DVC: ``_yaml._dump`` writes with ruamel's pure-Python dumper, which took 1.2-1.6 s per run-cache entry
    at load 7-8 (a stage has many deps). Changed: libyaml's safe dumper writes the same data; DVC reads the
    files back with its own loader. Data libyaml cannot hold (see
    :func:`plain`) keeps DVC's dumper.
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
def hashed_once(files: dict[tuple[Any, ...], Any]) -> Iterator[None]:
    """Within the block, each dependency path is hashed once, however many stages or checks ask for it.

    DVC: ``Dependency._build`` hashes a dep each time it is asked: when a stage saves its deps and twice more
    when it saves the run-cache entry (``_can_hash`` asks every dep for its hash), and the cells of a grid
    share most deps (the code, the public split). Changed: memoised for the block, which is held under the
    repository lock, where a dep cannot change: nothing that writes it can be running (a stage runs only
    after its upstream stages were recorded). Each block starts with an empty memo, so a dep edited between
    blocks is hashed again; a regular file's hash is also kept across blocks in ``files`` (the caller's), by
    its (inode, mtime, size), the key DVC's own state database trusts for a file, so an edited file is
    hashed again.
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
def tracked_once(scm: Any, seen: dict[tuple[int, int, int], set[bytes]]) -> Iterator[None]:
    """Within the block, git's index is read once per version of it to ask whether an output is tracked.

    DVC: for every output it saves, ``scm.is_tracked`` asks whether git tracks the path or anything below it
    (an output git tracks is an error), and each question re-reads and scans the whole index (about 0.05 s a
    time here). Changed, on this ``scm`` instance only: the index's paths and their folders are read into a
    set once, kept while the index file's (inode, mtime, size) stay the same (``seen``, the caller's,
    outlives the block), so an index git rewrites is read again; the answer is the same.
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
def parsed_once(memo: dict[tuple[Any, ...], Any]) -> Iterator[None]:
    """Within the block, DVC parses each params file once per version of it, not once per stage and check.

    DVC: ``param.load_path`` and ``param.read_param_file`` re-read ``params.yaml`` (ruamel, pure Python) for
    every params dep of every stage it hashes: three times per run stage, each time it is checked,
    snapshotted and recorded, and find each selected key by walking the whole tree (dpath, ~2 ms a key).
    Changed: the parse and the selected values are kept by path and the file's (inode, mtime, size), so an
    edited file is read again, and each caller gets its own copy.
    """
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
        args = ("read", tuple(key_paths) if key_paths else None, flatten, tuple(sorted(kwargs.items())))
        return kept(fs, path, args, lambda: original_read(fs, path, key_paths, flatten=flatten, **kwargs))

    param.load_path = load
    param.read_param_file = read
    try:
        yield
    finally:
        param.load_path = original
        param.read_param_file = original_read


@contextmanager
def commands_refused(refuse: Callable[[Any], None]) -> Iterator[None]:
    """Within the block, DVC calls ``refuse(stage)`` (which raises) instead of running a stage's command.

    DVC: ``stage.reproduce(run_cache=True)`` restores a stage from a matching run-cache entry, else falls
    through to ``run.cmd_run`` and runs its command. Changed for the Ray hand-off's coordinator, which must
    only restore what a worker ran: a missing entry is an error there, never a second run on the wrong host.
    """
    from dvc.stage import run as stage_run

    original = stage_run.cmd_run

    def refused(stage: Any, dry: bool = False, run_env: Any = None) -> None:
        refuse(stage)

    stage_run.cmd_run = refused
    try:
        yield
    finally:
        stage_run.cmd_run = original


@contextmanager
def yaml_parsed_once() -> Iterator[None]:
    """Within the block, DVC parses each distinct YAML text once, and each caller gets its own copy.

    DVC: ``parse_yaml`` (imported by name into ``serialize`` and ``strictyaml`` too) re-reads ``dvc.yaml``
    and ``dvc.lock`` with ruamel's pure-Python parser every time DVC rebuilds its index, and it rebuilds it
    at every step (pull, repro, push each take and release the repository lock): one worker's stage parsed
    the same few files 70 times, most of its time outside the stage's command. Changed: keyed by the text
    itself, so a file DVC rewrote (the lock, after the stage ran) is parsed again.
    """
    from dvc.utils import serialize, strictyaml
    from dvc.utils.serialize import _yaml

    original = _yaml.parse_yaml
    memo: dict[tuple[str, str], Any] = {}

    def parse(text: str, path: Any, typ: str = "safe") -> Any:
        if (typ, text) not in memo:
            memo[(typ, text)] = original(text, path, typ=typ)
        return copy.deepcopy(memo[(typ, text)])

    modules = (_yaml, serialize, strictyaml)
    for module in modules:
        module.parse_yaml = parse  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for module in modules:
            module.parse_yaml = original  # type: ignore[attr-defined]


def run_cache_key(stage: Any) -> str | None:
    """Return the run-cache key of ``stage`` as it stands (cmd, deps, params), or None if DVC keeps none.

    DVC: ``dvc.stage.cache`` files a stage's entry under ``_get_stage_hash`` (after ``_can_hash`` agreed) and
    offers no public way to ask for it. Used by the Ray hand-off to name the entry a worker pushes and to
    compare it with the coordinator's checkout.
    """
    from dvc.stage.cache import _can_hash, _get_stage_hash

    return _get_stage_hash(stage) if _can_hash(stage) else None


def run_cache_value(stage: Any) -> str:
    """Return the name of ``stage``'s run-cache entry under its key (its lock entry's ``_get_cache_hash``)."""
    from dvc.stage.cache import _get_cache_hash
    from dvc.stage.serialize import to_single_stage_lockfile

    return _get_cache_hash(to_single_stage_lockfile(stage))


def run_cache_entry_path(repo: Any, key: str, value: str) -> str:
    """Return where this checkout's run-cache keeps entry ``key``/``value`` (``_get_cache_path``)."""
    return str(repo.stage_cache._get_cache_path(key, value))


def load_run_cache_entry(repo: Any, key: str, value: str) -> Any:
    """Read and validate run-cache entry ``key``/``value`` as DVC does (``StageCache._load_cache``)."""
    return repo.stage_cache._load_cache(key, value)


def waiting_repo(root: Path | str, remote: str = "") -> Any:
    """Open the DVC project at ``root`` (with ``remote`` as its default), waiting for its repository lock.

    DVC: ``Repo(...)`` fails at once when another process holds the lock; its private ``_wait_for_lock``
    (what its own commands pass) waits for it instead, as the scheduler and the hand-off's steps must.
    """
    from dvc.repo import Repo

    return Repo(str(root), config={"core": {"remote": remote}} if remote else None, _wait_for_lock=True)


def run_cache_remote(repo: Any, remote: str, push: bool) -> Any:
    """Return the object database of ``remote`` DVC moves run-cache entries through (``--run-cache``).

    DVC: ``StageCache.push`` and ``pull`` ask for it under the legacy hash :data:`RUN_CACHE_HASH`; the
    hand-off moves one entry, not the whole ``runs/`` tree those copy, so it asks the same.
    """
    command = "push --run-cache" if push else "fetch --run-cache"
    return repo.cloud.get_remote_odb(remote, command, hash_name=RUN_CACHE_HASH)


def remote_run_cache_entry(repo: Any, odb: Any, key: str, value: str) -> str:
    """Return where entry ``key``/``value`` lies in ``odb`` (a remote's, :func:`run_cache_remote`).

    DVC: ``StageCache.transfer`` copies each entry to the same path under the remote as under the local
    legacy cache (``runs/<key[:2]>/<key>/<value>`` today); derived here from DVC's own local path.
    """
    rel = os.path.relpath(run_cache_entry_path(repo, key, value), repo.cache.legacy.path)
    return str(odb.fs.join(odb.path, *Path(rel).parts))


def fill_from_lock(stage: Any, entry: Any) -> None:
    """Give ``stage``'s deps and outs the hashes a lock (or run-cache) entry records, as DVC's loader does."""
    from dvc.stage.loader import StageLoader

    StageLoader.fill_from_lock(stage, entry)


def not_run_cached(stage: Any) -> str:
    """Why DVC keeps no run-cache entry for ``stage`` (its rules in ``dvc.stage.cache._can_hash``), or ""."""
    if stage.always_changed:
        return "always_changed: true"
    if not stage.deps:
        return "no deps"
    if not stage.outs:
        return "no outs"
    for dep in stage.deps:
        if dep.protocol != "local":
            return f"dep {dep.def_path} is not a local path"
    for out in stage.outs:
        if out.persist:
            return f"out {out.def_path} has persist: true"
        if not out.use_cache:
            return f"out {out.def_path} has cache: false"
        if out.protocol != "local" or not out.is_in_repo:
            return f"out {out.def_path} is outside the repository"
    return ""


def command_exit_code(failed: BaseException) -> int:
    """Return the exit code a ``StageCmdFailedError`` names (DVC keeps it only in its message; 1 if none)."""
    match = re.search(r"exited with (-?\d+)", str(failed))
    return int(match.group(1)) if match else 1


def record_state_md5s(root: Path | str, md5s: dict[str, str]) -> None:
    """Store each file's md5 (by its real path) in the DVC state database of the project at ``root``.

    DVC: its state (``dvc_data``'s ``State``) maps a path's inode, mtime and size to its hash, and DVC trusts
    an entry only while those still match; ``save_many`` is how DVC itself writes many entries at once.
    """
    from dvc.repo import Repo
    from dvc_data.hashfile.hash_info import HashInfo

    repo = Repo(str(root))
    try:
        repo.state.save_many([(path, HashInfo("md5", md5), None) for path, md5 in md5s.items()], repo.fs)
    finally:
        repo.close()


__all__ = [
    "NEEDS",
    "RUN_CACHE_HASH",
    "atomic_lock_writes",
    "check",
    "command_exit_code",
    "commands_refused",
    "drift",
    "fill_from_lock",
    "hashed_once",
    "libyaml_dumps",
    "links_kept_open",
    "load_run_cache_entry",
    "not_run_cached",
    "parsed_once",
    "plain",
    "record_state_md5s",
    "remote_run_cache_entry",
    "run_cache_entry_path",
    "run_cache_key",
    "run_cache_remote",
    "run_cache_value",
    "rwlock_edits",
    "tracked_once",
    "waiting_repo",
    "write_atomically",
    "yaml_parsed_once",
    "yaml_text",
]
