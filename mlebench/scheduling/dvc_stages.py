"""The scheduler's view of DVC: the planned stages in order, which are stale, and recording one that ran.

DVC stays the judge. :meth:`Pipelines.stages` reads DVC's own stage graph (``repo.index.graph``);
:meth:`Pipelines.changed` is DVC's ``stage.changed()``, the test ``dvc repro`` applies to each stage when it
reaches it. A stage runs outside DVC (its ``cmd`` in its ``wdir``, in a worker), because ``dvc repro`` holds
the repository lock for as long as a stage's command runs, so two ``dvc repro -s`` in one checkout serialise
(measured: docs/performance.md, "Figures behind design choices"). Around the command, under the lock and
briefly:

- :meth:`Pipelines.begin` removes the stage's outputs (as ``dvc repro`` does) and snapshots the hashes of its
  deps and params and its command;
- :meth:`Pipelines.record` re-hashes them after the command exited and, only if nothing changed while it
  ran, saves the outputs to the cache and writes the stage's ``dvc.lock`` entry; its run-cache entry follows
  when nothing waits to be recorded (:meth:`Pipelines.save_run_cache`): what ``dvc repro`` writes for the
  same stage. A stage whose inputs moved is not recorded (and runs again).

The lock entries are DVC's own (``serialize.to_lockfile``), written by
:class:`~mlebench.scheduling.lockfiles.LockFiles` (DVC's writer re-parses and re-emits the whole file per
write), atomically. While DVC's lock is held
(:meth:`Pipelines.locked`) DVC runs with the patches of :mod:`~mlebench.data.dvc_internals`: every
other YAML file it writes, and its path lock file, written beside and renamed; ``params.yaml`` parsed once per
version of it; each shared dep hashed once per batch; its link database kept open while the lock is held.
That module is the only one that reaches into DVC's private names.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mlebench.data import dvc_internals as dvc_private
from mlebench.execution.collector import remove_tree
from mlebench.scheduling.lockfiles import LockFiles
from mlebench_spec.identity import StageIdentity


@dataclass(frozen=True)
class PlannedStage:
    """One DVC stage as the scheduler dispatches it.

    ``address`` is DVC's ``<dvc.yaml path>:<name>`` (relative to the repository), ``upstream`` the
    addresses of the stages whose outputs it depends on (from DVC's graph), ``wdir`` absolute. ``identity``
    is what the plan recorded for it (``meta.identity`` in its ``dvc.yaml``), or a bare ``other`` for a
    stage the plan did not write.
    """

    address: str
    name: str
    identity: StageIdentity
    cmd: str
    wdir: Path
    upstream: tuple[str, ...]

    @property
    def kind(self) -> str:
        """The stage's kind: a module of ``stages/`` (``other`` for a stage not planned by mlebench)."""
        return self.identity.kind

    @property
    def pipeline(self) -> str:
        """The pipeline file's folder under ``pipelines/`` (where the stage's log goes), ``.`` at the root."""
        parent = Path(self.address.rsplit(":", 1)[0]).parent
        return parent.relative_to("pipelines").as_posix() if parent.parts[:1] == ("pipelines",) else "."

    @property
    def cell(self) -> tuple[str, int] | None:
        """``(agent, seed)`` for a cell's stages (run, grade, integrity), as the plan recorded them."""
        return self.identity.cell


OTHER = StageIdentity("other")
"""The identity of a stage whose ``dvc.yaml`` entry records none (not written by ``mlebench plan``)."""


class Pipelines:
    """DVC's stages of one checkout, opened once for the scheduler's lifetime (see the module docstring).

    The stages are loaded once, from DVC's graph, and kept: the plan does not change during a run, and the
    deps' hashes are re-read from the workspace at every check, so a moved input is still seen.
    """

    def __init__(self, root: Path) -> None:
        import logging

        dvc_private.check()  # a DVC release outside the pinned range fails here, naming the patch it breaks
        logging.getLogger("dvc").setLevel(logging.WARNING)  # its per-write notices would flood the live view
        self.root = root.resolve()
        self.repo = dvc_private.waiting_repo(self.root)
        self._loaded: dict[str, Any] = {}
        self._locks = LockFiles()
        self._params: dict[tuple[Any, ...], Any] = {}
        self._tracked: dict[tuple[int, int, int], set[bytes]] = {}
        self._hashes: dict[tuple[Any, ...], Any] = {}
        self._mutex = threading.RLock()  # the scheduler records in a thread of its own
        self._owed: dict[str, None] = {}  # recorded, run-cache entry not written yet (in record order)

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
            dvc_private.atomic_lock_writes(volatile=(self.repo.stage_cache.cache_dir,)),
            dvc_private.links_kept_open(),
            dvc_private.rwlock_edits(),
            dvc_private.libyaml_dumps(),
            dvc_private.parsed_once(self._params),
        ):
            with (
                dvc_private.hashed_once(self._hashes),
                dvc_private.tracked_once(self.repo.scm, self._tracked),
            ):
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
                        identity=StageIdentity.from_meta(stage.meta, address) or OTHER,
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
                try:
                    stage.remove_outs(ignore_remove=False, force=False)
                except RecursionError:  # a tree too deep for DVC (an older run's): ours has no limit
                    for output in stage.outs:
                        remove_tree(output.fs_path)
                    stage.remove_outs(ignore_remove=False, force=False)
        return out

    def record(self, finished: dict[str, dict[str, Any]]) -> dict[str, str]:
        """Write the lock entries of stages whose inputs still match their snapshot; else say what moved.

        Returns, per address, "" when recorded or the reason it was not. One lock file write per pipeline,
        through :class:`~mlebench.scheduling.lockfiles.LockFiles` (DVC's entries, written fast, atomically).
        """
        from dvc.stage.serialize import to_lockfile

        problems: dict[str, str] = {}
        with self.locked():
            by_file: dict[Path, dict[str, Any]] = {}
            for address, snapshot in finished.items():
                # whatever a stage's outputs hold (a name DVC cannot encode, a tree too deep for it), DVC's
                # failure is this stage's problem, never the batch's nor the scheduler's
                try:
                    stage = self._stage(address)
                    now = _inputs(stage)
                    moved = sorted(k for k in set(now) | set(snapshot) if now.get(k) != snapshot.get(k))
                    if moved:
                        problems[address] = f"inputs changed while it ran: {', '.join(moved)}"
                        continue
                    try:
                        stage.save_outs()
                    except Exception as exc:  # noqa: BLE001 - DVC's missing-output errors have no common base
                        problems[address] = f"outputs not recorded: {_said(exc)}"
                        continue
                    stage.md5 = stage.compute_md5()
                    stage.commit()
                    lock = Path(os.path.splitext(stage.dvcfile.path)[0] + ".lock")
                    by_file.setdefault(lock, {}).update(to_lockfile(stage))
                except Exception as exc:  # noqa: BLE001 - RecursionError, UnicodeError, DVC's own
                    problems[address] = f"not recorded: {_said(exc)}"
                    continue
                problems[address] = ""
            if by_file:
                self._locks.update_many(by_file)
            self._owed.update((a, None) for a, problem in problems.items() if not problem)
        return problems

    @property
    def owed(self) -> int:
        """How many recorded stages still owe their run-cache entry (see :meth:`save_run_cache`)."""
        return len(self._owed)

    def save_run_cache(self, most: int | None = None) -> dict[str, str]:
        """Write the run-cache entries of stages :meth:`record` recorded (the ``most`` oldest): failures.

        ``dvc repro`` saves a stage's run-cache entry as it records it; the scheduler leaves it for a moment
        when nothing waits to be recorded (an entry is a large share of a stage's recording, and a wave of
        runs finishing together waited for every one of them: docs/performance.md, "Figures behind design
        choices"). The entry only lets ``dvc repro`` elsewhere
        restore the stage instead of running it; nothing reads it back here, and a stage whose entry is
        lost (the scheduler killed in between) is recorded all the same. Returns address → why its entry
        was not written, for those that failed (DVC writes none for some stages, without failing).
        """
        problems: dict[str, str] = {}
        with self.locked():
            owed = list(self._owed)[:most]
            for address in owed:
                del self._owed[address]
                try:
                    self.repo.stage_cache.save(self._stage(address))
                except Exception as exc:  # noqa: BLE001 - the stage stays recorded whatever DVC raises here
                    problems[address] = f"{type(exc).__name__}: {exc}"
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


def _said(exc: BaseException) -> str:
    """Return an exception as one bounded line (a RecursionError's or a path's text can be long)."""
    text = f"{type(exc).__name__}: {exc}".replace("\n", " ")
    return text if len(text) <= 500 else text[:500] + "..."


def _inputs(stage: Any) -> dict[str, Any]:
    """Return the command and the hash of every dep and param of a stage, as DVC computes them now."""
    stage.save_deps()
    found: dict[str, Any] = {"cmd": stage.cmd}
    for dep in stage.deps:
        found[str(dep)] = dep.hash_info.to_dict() if dep.hash_info else None
    return found


__all__ = ["OTHER", "PlannedStage", "Pipelines"]
