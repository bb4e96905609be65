"""Stages on workers without a shared disk: run in the worker's own clone, back through DVC's run-cache.

DESIGN.md §4; the ``ray`` executor with ``shared_disk: false``.

Three steps, each done by DVC's own machinery:

1. the coordinator (:class:`Coordinator`, built once per ``mlebench run``) refuses a checkout whose
   uncommitted changes could not reach a worker, and hands each task what its clone needs: the git commit to
   check out, the files that may legitimately differ from it (``params.yaml``, the ``dvc.yaml`` files, and the
   ``dvc.lock`` files of the stage's pipeline and of its upstream stages, as they are at dispatch), and the
   URLs of the DVC remotes. Upstream outputs recorded before this run are pushed first
   (:meth:`Coordinator.push_inputs`); those made during it were pushed by the worker that made them;
2. the worker (:func:`work`, inside the engine's task) claims one of its clones
   (``<worker_checkout>/<repository>/clone-N``: one per task running on the host, all sharing one DVC cache),
   checks out that commit, pulls the stage's inputs (each from its own remote), runs the stage as
   ``dvc repro -s`` does (DVC restores it from the clone's run-cache instead when it can), then pushes its
   outputs (each to its own remote: private answers stay on theirs) and its run-cache entry. Nothing is
   written to the coordinator's checkout;
3. the coordinator (:meth:`Coordinator.receive`) fetches that run-cache entry and the outputs it names,
   checks that DVC derives the same run-cache key from the coordinator's own cmd, deps and params (naming
   what differs if not), and has DVC reproduce the stage as ``dvc repro -s`` does, which restores it from
   the run-cache. DVC's command runner is switched off for that call, so a stage that would not restore
   fails the hand-off instead of running on the coordinator. The scheduler then records the stage as it
   does for every executor (re-hashing its inputs, and writing DVC's own lock entry for it).

What differs from the commands this mirrors (``dvc repro --pull -s``, ``dvc push --run-cache``,
``dvc fetch --run-cache``): only the one run-cache entry travels each way, because DVC's run-cache transfer
copies every entry under ``runs/`` each time (a cost per stage that grows with the grid), and
``repro --pull`` both pulls that whole tree and, restoring, pulls outputs from the default remote only (an
output with ``remote: answers`` would be looked for in the wrong place). Neither side has DVC rewrite the
lock file: the worker's is thrown away, and the coordinator's is written by the scheduler (DVC's writer
re-parses and re-emits the whole file, see :mod:`~mlebench.scheduling.lockfiles`). DVC's own run-cache key
and entries, remote file systems, pull, push and restore do the rest.

Every DVC step runs in a child process (``python -m mlebench.scheduling.executors.handoff``) under the reaper
a stage command runs under, so DVC's in-process state never mixes with the scheduler's, and nothing outlives
the process that started it. Each step that fails says which step and why (:class:`HandoffError`).
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mlebench.data import dvc_internals as dvc_private
from mlebench.scheduling.executors.base import run_command
from mlebench_spec.errors import ConfigError

SHIPPED = frozenset({"params.yaml", "dvc.yaml", "dvc.lock", ".gitignore"})
"""File names a task may carry uncommitted: the generated params and pipelines, and the files DVC writes."""

DEFAULT_CHECKOUT = "~/.cache/mlebench/worker-checkouts"
_LOG_LIMIT = 8 * 1024 * 1024
_MODULE = "mlebench.scheduling.executors.handoff"


class HandoffError(Exception):
    """A hand-off step failed; ``step`` names it (``"pull the inputs"``, ``"push the run-cache entry"``)."""

    def __init__(self, step: str, message: str, returncode: int | None = None) -> None:
        super().__init__(message)
        self.step = step
        self.returncode = returncode
        """When the stage's own command failed: its exit code."""


def _say(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')} hand-off] {text}", flush=True)


@contextmanager
def _step(name: str) -> Iterator[None]:
    """Within the block, any error is this step's :class:`HandoffError` (one from deeper down is kept)."""
    _say(name)
    try:
        yield
    except HandoffError:
        raise
    except Exception as exc:  # noqa: BLE001 - DVC, git and file systems raise many unrelated types
        found = _in_chain(exc, HandoffError)
        if found is not None:
            raise found from exc
        raise HandoffError(name, _describe(exc)) from exc


def _in_chain(exc: BaseException | None, kind: type) -> Any:
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, kind):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


def _describe(exc: BaseException) -> str:
    """Return the messages along ``exc``'s chain (DVC often wraps the telling one), or its type."""
    parts: list[str] = []
    seen, one = set(), exc
    while one is not None and id(one) not in seen:
        seen.add(id(one))
        text = str(one).strip()
        if text and text not in parts:
            parts.append(text)
        one = one.__cause__ or one.__context__
    return ": ".join(parts)[:2000] or type(exc).__name__


def _git(args: list[str], cwd: Path) -> str:
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if proc.returncode:
        raise RuntimeError(f"git {' '.join(args)} (in {cwd}): {(proc.stderr or proc.stdout).strip()}")
    return proc.stdout


def _address(stage: Any, root: Path) -> str:
    rel = Path(stage.dvcfile.path).resolve().relative_to(root).as_posix()
    return f"{rel}:{stage.name}"


def _target(stage: Any, root: Path) -> str:
    """Return how DVC names ``stage`` on a command line: ``<dvc.yaml>:<name>``, or a ``.dvc`` file's path."""
    if stage.cmd:
        return _address(stage, root)
    return Path(stage.dvcfile.path).resolve().relative_to(root).as_posix()


def _lockfile(address: str) -> str | None:
    """Return the lock file of a pipeline stage's address (None for a ``.dvc`` file, which holds its own)."""
    if ":" not in address:
        return None
    return os.path.splitext(address.rsplit(":", 1)[0])[0] + ".lock"


@dataclass
class Coordinator:
    """The coordinator's side of the hand-off for one ``mlebench run`` (see the module docstring)."""

    root: Path
    prefix: str
    """Where the DVC project sits inside the git repository ("" at its top)."""
    revision: str
    git_url: str
    checkout: str
    remote: str
    remotes: dict[str, dict[str, Any]]
    """Each remote's settings a worker may be told (URL, endpoint, region, profile): never its keys."""
    generated: tuple[str, ...]
    """Files named in :data:`SHIPPED` that differ from the commit (relative to ``root``)."""
    upstream: dict[str, tuple[str, ...]]
    """Each stage's upstream stages (and ``.dvc`` files), as DVC names them on a command line."""
    sent: set[str] = field(default_factory=set)
    """Stages whose outputs are known to be on the remotes: handed back by a worker, or pushed here."""

    @classmethod
    def open(cls, root: Path, git_url: str = "", checkout: str = "", remote: str = "") -> Coordinator:
        """Check the checkout can be handed to workers; read its commit, DVC remotes and stage graph."""
        root = root.resolve()
        where = "executor.shared_disk=false"
        try:
            top = Path(_git(["rev-parse", "--show-toplevel"], root).strip()).resolve()
            revision = _git(["rev-parse", "--verify", "HEAD^{commit}"], root).strip()
        except (RuntimeError, OSError) as exc:
            raise ConfigError(
                f"{where}: workers clone the coordinator's git commit, and {root} has none ({exc})"
            ) from None
        prefix = root.relative_to(top).as_posix() if root != top else ""
        if checkout and not os.path.isabs(os.path.expanduser(checkout)):
            raise ConfigError(f"{where}: executor.worker_checkout must be an absolute path, not {checkout!r}")
        if checkout and Path(os.path.expanduser(checkout)).resolve().is_relative_to(root):
            raise ConfigError(f"{where}: executor.worker_checkout {checkout} is inside this checkout")
        generated, refused = cls._uncommitted(top, prefix)
        if refused:
            shown = ", ".join(refused[:12]) + (f" and {len(refused) - 12} more" if len(refused) > 12 else "")
            raise ConfigError(
                f"{where}: workers check out commit {revision[:12]}, so these uncommitted changes would "
                f"not reach them: {shown}. Commit them (or remove or ignore untracked files); only "
                "params.yaml, dvc.yaml, dvc.lock and .gitignore files travel with each task."
            )
        remotes, default, upstream = cls._read_dvc(root, where)
        remote = remote or default
        if not remote:
            raise ConfigError(f"{where}: results travel through a DVC remote: set executor.remote")
        if remote not in remotes:
            raise ConfigError(f"{where}: {remote!r} is not a DVC remote here (remotes: {sorted(remotes)})")
        return cls(
            root=root,
            prefix=prefix,
            revision=revision,
            git_url=git_url or str(top),
            checkout=checkout,
            remote=remote,
            remotes=remotes,
            generated=tuple(generated),
            upstream=upstream,
        )

    @staticmethod
    def _uncommitted(top: Path, prefix: str) -> tuple[list[str], list[str]]:
        """Split what ``git status`` lists into files a task can carry and changes it cannot."""
        listing = _git(["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames"], top)
        shipped, refused = [], []
        for entry in filter(None, listing.split("\0")):
            status, path = entry[:2], entry[3:]
            inside = not prefix or path.startswith(prefix + "/")
            if inside and Path(path).name in SHIPPED:
                shipped.append(path[len(prefix) + 1 :] if prefix else path)
            else:
                refused.append(f"{status.strip()} {path}")
        return sorted(shipped), refused

    @staticmethod
    def _read_dvc(
        root: Path, where: str
    ) -> tuple[dict[str, dict[str, Any]], str, dict[str, tuple[str, ...]]]:
        from dvc.repo import Repo

        from mlebench.data.remotes import shareable_settings

        with Repo(str(root)) as repo:
            remotes = shareable_settings(repo.config["remote"])
            default = str(repo.config["core"].get("remote", "") or "")
            graph = repo.index.graph
            upstream: dict[str, tuple[str, ...]] = {}
            problems = []
            for stage in graph:
                if not stage.cmd:
                    continue
                address = _address(stage, root)
                upstream[address] = tuple(sorted(_target(s, root) for s in graph.successors(stage)))
                why = dvc_private.not_run_cached(stage)
                if why:
                    problems.append(f"{address} ({why})")
        if problems:
            raise ConfigError(
                f"{where}: each stage comes back through DVC's run-cache, which DVC keeps only for stages "
                "with local deps and cached outs, none persistent or always changed: "
                + "; ".join(sorted(problems))
            )
        return remotes, default, upstream

    def spec(self, key: str, cmd: str) -> dict[str, Any]:
        """Return what a worker needs to run stage ``key`` (``cmd``: the command it should find there)."""
        locks = {_lockfile(a) for a in (key, *self.upstream.get(key, ()))}
        files = {}
        for rel in sorted({*self.generated, *(lock for lock in locks if lock)}):
            path = self.root / rel
            files[rel] = path.read_text(encoding="utf-8") if path.is_file() else None
        return {
            "stage": key,
            "cmd": cmd,
            "revision": self.revision,
            "git_url": self.git_url,
            "prefix": self.prefix,
            "checkout": self.checkout,
            "remote": self.remote,
            "remotes": self.remotes,
            "files": files,
        }

    def unsent(self, key: str) -> list[str]:
        """Return the upstream stages of ``key`` whose outputs may not be on the remotes yet."""
        return [u for u in self.upstream.get(key, ()) if u not in self.sent]

    def push_inputs(self, key: str, upstream: list[str], log: str, on_start: Callable | None = None) -> None:
        """Push every output of ``key``'s ``upstream`` stages from this checkout's cache, each to its remote.

        Every one, not only those ``key`` reads: the stages count as sent from then on, and a later stage may
        need another of their outputs (a grade stage, the private answers a run stage never reads).
        """
        self._child(["push-inputs", *upstream], log, on_start)

    def receive(self, key: str, entry: dict[str, str], log: str, on_start: Callable | None = None) -> None:
        """Fetch a worker's run-cache entry and outputs; DVC restores ``key`` as ``dvc repro -s`` does."""
        self._child(["receive", key, entry["key"], entry["value"]], log, on_start)

    def _child(self, args: list[str], log: str, on_start: Callable | None) -> None:
        fd, result = tempfile.mkstemp(prefix="mlebench-handoff-", suffix=".json")
        os.close(fd)
        try:
            cmd = shlex.join(
                [sys.executable, "-m", _MODULE, *args, "--remote", self.remote, "--result", result]
            )
            ran = run_command(cmd, str(self.root), log, {}, on_start)
            outcome = _read_json(Path(result))
        finally:
            Path(result).unlink(missing_ok=True)
        if not outcome:
            raise HandoffError(args[0], f"the hand-off process exited {ran['returncode']} without a result")
        if not outcome["ok"]:
            raise HandoffError(outcome["step"], outcome["error"])


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        return json.loads(path.read_text(encoding="utf-8")) or None
    except (OSError, ValueError):
        return None


def _write_json(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}")
    tmp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(tmp, path)


def _base(spec: dict[str, Any]) -> Path:
    """Return the folder of this host's clones of the spec's repository (one per git URL), and their cache."""
    slug = hashlib.sha256(spec["git_url"].encode()).hexdigest()[:12]
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", spec["git_url"].rstrip("/").rsplit("/", 1)[-1])[:40]
    return Path(os.path.expanduser(spec["checkout"] or DEFAULT_CHECKOUT)) / f"{name}-{slug}"


def work(spec: dict[str, Any], env: dict[str, str]) -> dict[str, Any]:
    """On the worker: run the spec's stage in a clone of this host and push the result (see the module).

    Returns :func:`~mlebench.scheduling.executors.base.run_command`'s fields, ``result`` (the child's outcome:
    ``ok``, the run-cache ``key`` and ``value``, or the failed ``step``, ``error`` and, when the stage's
    command failed, its ``returncode``; None if the child died first) and ``log`` (its output).
    """
    base = _base(spec)
    (base / "logs").mkdir(parents=True, exist_ok=True)
    name = uuid.uuid4().hex[:12]
    paths = {k: base / "logs" / f"{name}.{k}" for k in ("spec", "result", "log")}
    paths["spec"].write_text(json.dumps(spec), encoding="utf-8")
    try:
        cmd = shlex.join(
            [sys.executable, "-m", _MODULE, "work", str(paths["spec"]), "--result", str(paths["result"])]
        )
        ran = run_command(cmd, str(base), str(paths["log"]), env)
        result = _read_json(paths["result"])
        with open(paths["log"], "rb") as fh:
            size = fh.seek(0, os.SEEK_END)
            fh.seek(max(0, size - _LOG_LIMIT))
            text = fh.read().decode("utf-8", "replace")
        if size > _LOG_LIMIT:
            text = f"[... the first {size - _LOG_LIMIT} bytes of the worker's log are left out]\n{text}"
    finally:
        for path in paths.values():
            path.unlink(missing_ok=True)
    return {**ran, "result": result, "log": text}


@contextmanager
def _claim(base: Path) -> Iterator[Path]:
    """Hold the first clone of ``base`` no other task on this host holds (a lock the OS drops with us)."""
    n = 0
    while True:
        fh = open(base / f"clone-{n}.lock", "a")  # noqa: SIM115 - held for the whole block
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fh.close()
            n += 1
            continue
        try:
            yield base / f"clone-{n}"
        finally:
            fh.close()
        return


def _has_commit(clone: Path, revision: str) -> bool:
    args = ["git", "cat-file", "-e", f"{revision}^{{commit}}"]
    return subprocess.run(args, cwd=clone, capture_output=True).returncode == 0


def _check_out(clone: Path, spec: dict[str, Any]) -> Path:
    """Bring ``clone`` to the spec's commit plus its shipped files; return the DVC project's folder in it."""
    url, revision = spec["git_url"], spec["revision"]
    with _step(f"clone {url}"):
        if not (clone / ".git").is_dir():
            shutil.rmtree(clone, ignore_errors=True)
            _git(["clone", "--quiet", "--no-checkout", url, str(clone)], clone.parent)
    with _step(f"fetch commit {revision[:12]}"):
        if not _has_commit(clone, revision):
            fetched = subprocess.run(["git", "fetch", "--quiet", "--no-tags", url, revision], cwd=clone)
            if fetched.returncode or not _has_commit(clone, revision):
                _git(["fetch", "--quiet", url, "+refs/heads/*:refs/remotes/origin/*"], clone)
            if not _has_commit(clone, revision):
                raise HandoffError(
                    f"fetch commit {revision[:12]}",
                    f"commit {revision} is not in {url}: push it there (workers check out this commit)",
                )
    with _step(f"check out commit {revision[:12]}"):
        _git(
            ["-c", "advice.detachedHead=false", "checkout", "--quiet", "--force", "--detach", revision], clone
        )
        # remove files earlier tasks shipped; ignored files (outputs DVC checks out) stay for reuse
        _git(["clean", "--quiet", "-d", "--force"], clone)
    root = (clone / spec["prefix"]) if spec["prefix"] else clone
    with _step("write the shipped files"):
        for rel, text in spec["files"].items():
            path = (root / rel).resolve()
            if not path.is_relative_to(root.resolve()):
                raise HandoffError("write the shipped files", f"{rel} is outside the clone")
            if text is None:
                path.unlink(missing_ok=True)
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
    return root


def _configure(root: Path, base: Path, spec: dict[str, Any]) -> None:
    """Point the clone's DVC at the host's shared cache and at the coordinator's remotes (config.local).

    The remotes' keys are this host's own (its global DVC config, AWS profiles or environment), never the
    coordinator's: a host without the answers' key cannot pull or push the answers.
    """
    from dvc.config import Config

    with _step("configure DVC in the clone"):
        with Config(dvc_dir=str(root / ".dvc")).edit("local") as conf:
            conf.setdefault("cache", {})["dir"] = str(base / "cache")
            conf.setdefault("core", {})["remote"] = spec["remote"]
            for name, settings in spec["remotes"].items():
                conf.setdefault("remote", {}).setdefault(name, {}).update(settings)


def _output_deps(repo: Any, stage: Any) -> list[str]:
    """Return the stage's deps that are outputs of other stages (paths relative to the project)."""
    from dvc.dependency import ParamsDependency
    from dvc.exceptions import OutputNotFoundError

    found = []
    for dep in stage.deps:
        if isinstance(dep, ParamsDependency):
            continue
        try:
            repo.find_outs_by_path(dep.fs_path, strict=False)
        except OutputNotFoundError:
            continue
        found.append(os.path.relpath(dep.fs_path, repo.root_dir))
    return found


def _load(repo: Any, address: str) -> Any:
    path, name = address.rsplit(":", 1)
    return repo.stage.load_one(path=os.path.join(repo.root_dir, path), name=name)


def _exit_code(exc: BaseException) -> int | None:
    """Return the exit code of a stage command DVC saw fail (in ``exc``'s chain), else None."""
    from dvc.stage.exceptions import StageCmdFailedError

    failed = _in_chain(exc, StageCmdFailedError)
    return None if failed is None else dvc_private.command_exit_code(failed)


def _transfer_outs(repo: Any, stage: Any, remote: str, push: bool) -> None:
    """Push (or pull) the objects of the stage's outputs, each to (from) its own remote, else ``remote``."""
    for out in stage.outs:
        for odb, objs in out.get_used_objs(push=push, remote=remote).items():
            if not objs:
                continue
            move = repo.cloud.push if push else repo.cloud.pull
            done = move(objs, odb=odb) if odb is not None else move(objs, remote=remote)
            if done.failed:
                where = out.remote or remote
                raise HandoffError(
                    "push the outputs" if push else "fetch the outputs",
                    f"{len(done.failed)} file(s) of {out.def_path} could not be "
                    + (f"pushed to remote {where!r}" if push else f"found on remote {where!r}"),
                )


def _work(spec: dict[str, Any]) -> dict[str, Any]:
    from dvc.repo import Repo, lock_repo

    base = _base(spec)
    base.mkdir(parents=True, exist_ok=True)
    address = spec["stage"]
    with _claim(base) as clone:
        _say(f"{address} in {clone}")
        root = _check_out(clone, spec)
        _configure(root, base, spec)
        os.chdir(root)
        with _step("open the clone's DVC project"):
            repo = Repo(str(root))
        with repo:
            with _step("load the stage"):
                stage = _load(repo, address)
                cmd = stage.cmd if isinstance(stage.cmd, str) else " && ".join(stage.cmd)
                if cmd != spec["cmd"]:
                    raise HandoffError(
                        "load the stage",
                        f"the clone's {address} runs {cmd!r}, the coordinator's {spec['cmd']!r}",
                    )
            with _step("check the remotes' credentials"):
                from mlebench.data.remotes import require_credentials

                used = {out.remote or spec["remote"] for out in stage.outs}
                for dep in _output_deps(repo, stage):
                    found = repo.find_outs_by_path(os.path.join(repo.root_dir, dep), strict=False)
                    used |= {o.remote or spec["remote"] for o in found}
                require_credentials(repo.config["remote"], sorted(used))
            with _step("pull the inputs"):
                targets = _output_deps(repo, stage)
                if targets:
                    repo.pull(targets=targets, force=True)
            with _step("run the stage (as dvc repro -s does)"), lock_repo(repo):
                try:
                    stage.reproduce(run_cache=True)  # DVC may restore it from this host's run-cache instead
                except Exception as exc:
                    code = _exit_code(exc)
                    if code is not None:
                        raise HandoffError("run the stage", f"its command exited {code}", code) from exc
                    raise
                stage.save()  # deps and outs as they are now, and the run-cache entry (DVC's own, if it ran)
            with _step("push the outputs"):
                _transfer_outs(repo, stage, spec["remote"], push=True)
            with _step("push the run-cache entry"):
                key = dvc_private.run_cache_key(stage)
                if key is None:
                    raise HandoffError("push the run-cache entry", f"DVC keeps no entry for {address}")
                value = dvc_private.run_cache_value(stage)
                odb = dvc_private.run_cache_remote(repo, spec["remote"], push=True)
                target = dvc_private.remote_run_cache_entry(repo, odb, key, value)
                odb.fs.makedirs(odb.fs.parent(target), exist_ok=True)
                odb.fs.put_file(dvc_private.run_cache_entry_path(repo, key, value), target)
                _say(f"pushed run-cache entry {key[:12]}/{value[:12]}")
    return {"key": key, "value": value}


def _push_inputs(root: Path, upstream: list[str], remote: str) -> dict[str, Any]:
    with dvc_private.waiting_repo(root, remote) as repo:
        with _step(f"push the outputs of {', '.join(upstream)}, recorded before this run"):
            repo.push(targets=upstream)
    return {}


def _refuse(stage: Any) -> None:
    """Refuse, on the coordinator, where DVC would run a stage's command (see ``commands_refused``)."""
    raise HandoffError(
        "restore the stage from the run-cache",
        f"DVC would run {stage.addressing}'s command on the coordinator: no run-cache entry matches its "
        "cmd, deps and params here",
    )


def _differences(entry: dict[str, Any], stage: Any) -> list[str]:
    """Return what differs between a run-cache entry and the stage here: cmd, dep hashes, params."""
    from dvc.stage.serialize import to_single_stage_lockfile

    mine = to_single_stage_lockfile(stage)
    out = []
    if entry.get("cmd") != mine.get("cmd"):
        out.append(f"cmd (worker {entry.get('cmd')!r}, here {mine.get('cmd')!r})")
    theirs = {d["path"]: d.get("md5") for d in entry.get("deps", [])}
    ours = {d["path"]: d.get("md5") for d in mine.get("deps", [])}
    for path in sorted(set(theirs) | set(ours)):
        if theirs.get(path) != ours.get(path):
            out.append(f"dep {path} (worker {theirs.get(path)}, here {ours.get(path)})")
    for file in sorted(set(entry.get("params", {})) | set(mine.get("params", {}))):
        a, b = entry.get("params", {}).get(file, {}), mine.get("params", {}).get(file, {})
        out.extend(f"param {file}:{k}" for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k))
    return out


def _receive(root: Path, address: str, key: str, value: str, remote: str) -> dict[str, Any]:
    from dvc.repo import lock_repo

    with dvc_private.waiting_repo(root, remote) as repo:
        with _step(f"fetch run-cache entry {key[:12]}/{value[:12]} from {remote}"):
            odb = dvc_private.run_cache_remote(repo, remote, push=False)
            local = Path(dvc_private.run_cache_entry_path(repo, key, value))
            local.parent.mkdir(parents=True, exist_ok=True)
            tmp = local.with_name(f".{local.name}.{uuid.uuid4().hex[:8]}")
            odb.fs.get_file(dvc_private.remote_run_cache_entry(repo, odb, key, value), str(tmp))
            os.replace(tmp, local)  # now the newest entry under its key, the one DVC restores from
            entry = dvc_private.load_run_cache_entry(repo, key, value)
            if not entry:
                raise HandoffError("fetch the run-cache entry", f"DVC cannot read entry {key}/{value}")
        with _step("fetch the outputs"):
            stage = _load(repo, address)
            dvc_private.fill_from_lock(stage, entry)  # the entry's hashes; this checkout's remote: per out
            _transfer_outs(repo, stage, remote, push=False)
        with lock_repo(repo):
            with _step("compare the run-cache key with this checkout's cmd, deps and params"):
                stage = _load(repo, address)
                stage.save_deps()
                here = dvc_private.run_cache_key(stage)
                if here != key:
                    differs = _differences(entry, stage) or ["nothing DVC reports (its key still differs)"]
                    raise HandoffError(
                        "compare the run-cache key",
                        f"the worker ran {address} on other inputs than this checkout's: "
                        + "; ".join(differs),
                    )
            with (
                _step("restore the stage from the run-cache (as dvc repro -s does)"),
                dvc_private.commands_refused(_refuse),
            ):
                for out in stage.outs:  # restore what the worker made, not outputs an older lock entry names
                    out.clear()
                stage.reproduce(run_cache=True)
    return {}


def main(argv: list[str] | None = None) -> int:
    """``python -m mlebench.scheduling.executors.handoff work|push-inputs|receive ...``: one hand-off side."""
    import logging

    parser = argparse.ArgumentParser(prog=f"python -m {_MODULE}", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="side", required=True)
    w = sub.add_parser("work", help="on a worker: run a stage in this host's clone, push its result")
    w.add_argument("spec", type=Path)
    p = sub.add_parser("push-inputs", help="on the coordinator: push the outputs of stages recorded earlier")
    p.add_argument("upstream", nargs="+")
    r = sub.add_parser("receive", help="on the coordinator: fetch a worker's result, restore and record it")
    r.add_argument("stage")
    r.add_argument("key")
    r.add_argument("value")
    for one in (w, p, r):
        one.add_argument("--result", type=Path, required=True, help="where to write the outcome (JSON)")
    for one in (p, r):
        one.add_argument("--remote", required=True)
    args = parser.parse_args(argv)

    logging.getLogger("dvc").setLevel(logging.INFO)  # DVC logs to stdout/stderr on its own (set up on import)
    try:
        dvc_private.check()
        with dvc_private.yaml_parsed_once():
            if args.side == "work":
                done = _work(json.loads(args.spec.read_text(encoding="utf-8")))
            elif args.side == "push-inputs":
                done = _push_inputs(Path.cwd().resolve(), args.upstream, args.remote)
            else:
                done = _receive(Path.cwd().resolve(), args.stage, args.key, args.value, args.remote)
        outcome: dict[str, Any] = {"ok": True, **done}
    except HandoffError as exc:
        _say(f"failed at '{exc.step}': {exc}")
        outcome = {"ok": False, "step": exc.step, "error": str(exc), "returncode": exc.returncode}
    except Exception as exc:  # noqa: BLE001 - a bug or an error outside any step: still a result to report
        import traceback

        traceback.print_exc(file=sys.stdout)
        outcome = {"ok": False, "step": args.side, "error": _describe(exc), "returncode": None}
    _write_json(args.result, outcome)
    return 0 if outcome["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
