"""``mlebench run``: dispatch the planned grid's stale stages to an executor, in dependency order.

A thin scheduler, not an engine (DESIGN.md §4). DVC says what the stages are and which are stale
(:mod:`mlebench.scheduling.dvc_stages`); an existing engine runs them (:mod:`mlebench.scheduling.executors`).
The loop:

1. stop what a killed predecessor left running (the executor's ``stop_leftovers``, from the event log),
   record what it left finished but unrecorded (from the log's snapshots), and take the stages DVC would run
   (asked once per stage, at the start), plus everything downstream of them;
2. a stage is *ready* when none of its upstream stages is still to do; a ready stage DVC did not itself find
   stale, or whose upstream ran since, is checked with DVC again (one whose upstream re-ran to the same
   bytes is skipped, as ``dvc repro`` skips it); then its outputs are removed, its inputs snapshotted, and
   it is offered to the executor. Agent runs take the ``slots``; every other stage (data, grading, the
   report) takes one of the ``stage_slots`` beside them, grading first, so grading keeps pace without
   holding a run's slot;
3. a stage that exits 0 is recorded in its ``dvc.lock`` only if its inputs still match the snapshot; one that
   exits non-zero failed (never retried: the run stage records an agent's own failure and exits 0); one the
   engine lost is retried with bounded exponential backoff, and after that counts as ``infra_error``.
   Recording runs in a thread of its own, one batch at a time: the stages that finished while the previous
   batch was written are recorded together (one hold of DVC's lock, each shared dep hashed once). The loop
   meanwhile goes on collecting finished jobs and refilling freed slots with stages whose inputs are
   snapshotted already (agent runs are snapshotted when they first become ready); a stage that needs a new
   snapshot waits for the batch, since DVC is used by one thread at a time. Snapshots taken ahead for the
   next free slots, and the run-cache entries of recorded stages, wait until nothing is left to record.

Ctrl-C once: stop dispatching, let running stages finish and record them. Twice (or SIGTERM): kill them; their
outputs stay unrecorded, so DVC still sees them stale. kill -9 at any moment: the lock files are written
atomically and the event log is fsynced, so the same command again loses no finished stage and runs none
twice.
"""

from __future__ import annotations

import functools
import heapq
import json
import logging
import signal
import time
import uuid
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_futures
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mlebench.scheduling.dvc_stages import Pipelines, PlannedStage
from mlebench.scheduling.events import (
    RECOVERY_TRIES,
    EventLog,
    events_path,
    poisoned,
    read_events,
    unfinished,
    unrecorded,
)
from mlebench.scheduling.executors.base import JOB_ENV, Done, Executor, Job, Resources, Settings, parse_memory
from mlebench.scheduling.progress import Progress
from mlebench_spec.errors import ConfigError
from mlebench_spec.identity import STAGES_PACKAGE, stage_kinds
from mlebench_spec.params import Hardware
from mlebench_spec.paths import grade_path

AGENT_RUN = "run_agent"
AGENT_KINDS = frozenset({AGENT_RUN, "reproduce"})
"""The stage kinds that take the ``slots`` (the hardware profile's resources: the agent's run and the re-run
of its kept code); others take stage slots."""
FIRST = "grade"
"""The kind offered first among the others, so grading keeps pace with the runs; the rest in plan order."""
_POLL_SECS = 0.2
_RUN_CACHE_CHUNK = 8
"""Run-cache entries written per turn of the recorder when nothing waits to be recorded (each one's cost:
docs/performance.md, "Figures behind design choices")."""
_log = logging.getLogger(__name__)


def _priority(stage: PlannedStage) -> int:
    return 0 if stage.kind == FIRST else 1


def _one_fsync(step: Callable[..., None]) -> Callable[..., None]:
    """Make a loop step's events (one per stage it handles) durable together, when the step returns."""

    @functools.wraps(step)
    def batched(self: Scheduler, *args: Any, **kwargs: Any) -> None:
        with self.events.batch():
            step(self, *args, **kwargs)

    return batched


@dataclass
class Outcome:
    """What one ``mlebench run`` did: stage counts by status, cells by status, the stages that failed."""

    stages: dict[str, int] = field(default_factory=dict)
    cells: dict[str, int] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)
    recovered: list[str] = field(default_factory=list)
    interrupted: bool = False
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """No stage failed and the run was not interrupted."""
        return not self.failed and not self.interrupted


@dataclass
class _State:
    """One scheduled run's bookkeeping, kept by the scheduler's loop (the recorder thread never touches it).

    ``pending``: to do, in topological order (a dict, for removal in constant time); ``remaining``: to do,
    running, or finished and not recorded yet (what blocks downstream stages); ``waiting_on``: per pending
    stage, how many of its upstream stages are still in ``remaining``; ``ready``: the pending stages none of
    whose upstream is, as heaps by (priority, order), one for agent runs (``True``) and one for the other
    stages; ``to_record``: finished ok, waiting for the recorder; ``recording``: the batch the recorder is
    writing. Every step of a cell's way through the loop costs the same however large the grid: nothing is
    scanned per dispatch or per finished stage but the stage's own neighbours and the free slots.
    """

    by_key: dict[str, PlannedStage]
    progress: Progress
    out: Outcome
    pending: dict[str, None]
    remaining: set[str]
    downstream: dict[str, list[str]] = field(default_factory=dict)
    waiting_on: dict[str, int] = field(default_factory=dict)
    ready: dict[bool, list[tuple[int, int, str]]] = field(default_factory=lambda: {True: [], False: []})
    rank: dict[str, int] = field(default_factory=dict)
    order: dict[str, int] = field(default_factory=dict)
    newly_failed: list[str] = field(default_factory=list)
    snapshots: dict[str, dict[str, Any]] = field(default_factory=dict)
    attempts: dict[str, int] = field(default_factory=dict)
    not_before: dict[str, float] = field(default_factory=dict)
    running: dict[str, Job] = field(default_factory=dict)
    started: set[str] = field(default_factory=set)
    to_record: dict[str, dict[str, Any]] = field(default_factory=dict)
    recording: Future[dict[str, str]] | None = None


class Scheduler:
    """One scheduled run over a checkout (see the module docstring)."""

    def __init__(
        self,
        root: Path,
        executor: Executor,
        settings: Settings,
        hardware: Hardware,
        progress: bool | None = None,
    ) -> None:
        self.root = root.resolve()
        self.executor = executor
        self.settings = settings
        self.hardware = hardware
        self.session = uuid.uuid4().hex[:12]
        self.pipelines = Pipelines(self.root)
        self.events = EventLog(events_path(self.root), self.session)
        self.live = progress
        self.stopping = False
        self.aborting = False

    def run(self) -> Outcome:
        """Run every stale stage and what depends on it; return the outcome."""
        t0 = time.monotonic()
        outcome = Outcome()
        preload = getattr(self.executor, "preload", None)  # a local pool's zygote imports the stage modules
        if preload is not None and (self.root / STAGES_PACKAGE).is_dir():
            # while DVC loads the stage graph (seconds in a large grid): the runs' module, then grading's
            kinds = sorted(stage_kinds(self.root), key=lambda k: (k != AGENT_RUN, k != FIRST, k))
            preload([f"{STAGES_PACKAGE}.{kind}" for kind in kinds])
        stages = self.pipelines.stages()
        by_key = {s.address: s for s in stages}
        outcome.recovered = self._recover(by_key)
        todo = self._stale(stages)
        warm_up = getattr(self.executor, "warm_up", None)  # and any other module a stale stage runs
        if warm_up is not None:
            warm_up([(by_key[k].cmd, str(by_key[k].wdir)) for k in todo])
        self._check_fits([by_key[k] for k in todo])
        self.events.emit(
            "scheduler",
            action="start",
            executor=self.executor.name,
            stages=len(todo),
            slots=self.settings.slots,
        )
        progress = Progress(len(todo), self.executor.name, self.live)
        old = {s: signal.signal(s, self._on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
        try:
            self._loop(by_key, todo, progress, outcome)
        finally:
            for sig, handler in old.items():
                signal.signal(sig, handler)
            progress.close()
            outcome.stages = dict(progress.stages)
            outcome.cells = dict(progress.cells)
            outcome.seconds = round(time.monotonic() - t0, 3)
            self.events.emit("scheduler", action="stop", interrupted=outcome.interrupted, **outcome.stages)
            self.events.close()
            self.executor.shutdown()
            self.pipelines.close()
        print(progress.summary())
        return outcome

    def _loop(
        self, by_key: dict[str, PlannedStage], todo: list[str], progress: Progress, out: Outcome
    ) -> None:
        st = _State(by_key, progress, out, pending=dict.fromkeys(todo), remaining=set(todo))
        st.attempts = {k: 1 for k in todo}
        st.rank = {k: i for i, k in enumerate(todo)}
        for key in todo:
            ups = [u for u in by_key[key].upstream if u in st.remaining]
            st.waiting_on[key] = len(ups)
            for u in ups:
                st.downstream.setdefault(u, []).append(key)
        for key in todo:
            if not st.waiting_on[key]:
                self._make_ready(st, key)
        self._since: dict[str, float] = {}
        self._took: dict[str, float] = {}
        self._failed: set[str] = set()
        self._ran: set[str] = set()
        wake = getattr(self.executor, "wake", None)  # an engine whose wait() can be cut short
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="record") as recorder:
            while True:
                self._block(st)
                if self.aborting:
                    out.interrupted = True
                    self.executor.shutdown()
                    if st.recording is not None:  # the batch being written lands; the rest is recovered later
                        self._recorded(st, st.recording.result())
                    return
                if st.recording is not None and st.recording.done():
                    self._recorded(st, st.recording.result())
                    st.recording = None
                if not self.stopping and st.recording is None:
                    # stages that can start now take their snapshots; those taken ahead for the next free
                    # slots wait while finished stages wait to be recorded
                    self._dispatch(st, may_begin=True, ahead=not st.to_record)
                if st.recording is None and st.to_record:  # one batch: shared deps are hashed once
                    st.recording = recorder.submit(self.pipelines.record, st.to_record)
                    st.to_record = {}
                elif st.recording is None and self.pipelines.owed:  # nothing to record: the run-cache's turn
                    st.recording = recorder.submit(self._save_run_cache)
                if st.recording is not None and wake is not None:  # take the verdicts once written
                    st.recording.add_done_callback(lambda _: wake())
                if not self.stopping and st.recording is not None:
                    # while the recorder holds DVC, only stages whose inputs are snapshotted already start
                    self._dispatch(st, may_begin=False)
                if not st.running and st.recording is None and not st.to_record and not self.pipelines.owed:
                    if self.stopping or not st.pending:
                        out.interrupted = self.stopping and bool(st.pending)
                        return
                if not st.running:
                    if st.recording is not None:
                        wait_futures([st.recording], timeout=_POLL_SECS)
                    else:
                        time.sleep(_POLL_SECS)  # every pending stage waits for its backoff
                    continue
                self._collect(st, self.executor.wait(_POLL_SECS))
                if st.to_record and not self.stopping:  # refill the freed slots at once
                    self._dispatch(st, may_begin=False)
                progress.update(len(st.pending), len(st.running), self.settings.slots)

    @_one_fsync
    def _collect(self, st: _State, done: list[Done]) -> None:
        """Log the jobs that started; sort those that ended into to-record, retried and failed."""
        for key in list(st.running):
            if key not in st.started and self.executor.job_id(key):
                st.started.add(key)
                self.events.emit(
                    "started", stage=key, attempt=st.attempts[key], job_id=self.executor.job_id(key)
                )
        for d in done:
            key = d.job.key
            st.running.pop(key, None)
            st.started.discard(key)
            took = time.monotonic() - self._since.get(key, time.monotonic())
            base = dict(
                seconds=round(took, 3),
                stage=key,
                attempt=d.job.attempt,
                host=d.host,
                job_id=d.job_id,
                gpus=list(d.devices),
            )
            if d.returncode == 0:
                self.events.emit("finished", status="ok", returncode=0, **base)
                st.to_record[key] = st.snapshots.pop(key)
                self._took[key] = took
                continue
            st.snapshots.pop(key, None)
            if d.infra:
                self.events.emit("finished", status="infra_error", reason=d.infra, **base)
                if st.attempts[key] <= self.settings.retries:
                    delay = min(
                        self.settings.backoff_secs * 2 ** (st.attempts[key] - 1),
                        self.settings.backoff_max_secs,
                    )
                    st.attempts[key] += 1
                    st.not_before[key] = time.monotonic() + delay
                    st.pending[key] = None
                    self._make_ready(st, key)
                    self.events.emit(
                        "retried", stage=key, attempt=st.attempts[key], delay=delay, reason=d.infra
                    )
                else:
                    self._fail(st, st.by_key[key], "infra_error", d.infra)
            else:
                self.events.emit("finished", status="failed", returncode=d.returncode, **base)
                reason = f"exited {d.returncode}; see {d.job.log}"
                self._fail(st, st.by_key[key], "failed", reason)

    @_one_fsync
    def _recorded(self, st: _State, recorded: dict[str, str]) -> None:
        """Take the recorder's verdicts: recorded stages unblock their downstream; the others run again."""
        for key, problem in recorded.items():
            stage = st.by_key[key]
            if not problem:
                self.events.emit("recorded", stage=key)
                self._done_with(st, key)
                self._ran.add(key)
                st.progress.finished(key, "ok", self._took.pop(key, 0.0), self._cell_status(stage))
            else:
                self.events.emit("unrecorded", stage=key, reason=problem)
                if st.attempts[key] <= self.settings.retries:
                    st.attempts[key] += 1
                    st.pending[key] = None
                    self._make_ready(st, key)
                else:
                    self._fail(st, stage, "failed", problem)

    def _save_run_cache(self, most: int | None = _RUN_CACHE_CHUNK) -> dict[str, str]:
        """Write ``most`` owed run-cache entries (a few at a time: a stage finishing meanwhile waits little).

        Returns no verdicts: the stages are recorded already; an entry DVC could not write is logged.
        """
        for key, problem in self.pipelines.save_run_cache(most=most).items():
            _log.warning("%s: run-cache entry not written (%s); the stage stays recorded", key, problem)
        return {}

    def _make_ready(self, st: _State, key: str) -> None:
        """Queue a pending stage whose upstream stages are all done, by priority, then by arrival."""
        st.order[key] = st.rank[key] if key not in st.order else len(st.rank) + len(st.order)  # a retry: last
        agent = st.by_key[key].kind in AGENT_KINDS
        heapq.heappush(st.ready[agent], (_priority(st.by_key[key]), st.order[key], key))

    def _done_with(self, st: _State, key: str) -> None:
        """``key`` no longer blocks its downstream stages: those with nothing else to wait on are ready."""
        st.remaining.discard(key)
        for down in st.downstream.get(key, ()):
            st.waiting_on[down] -= 1
            if not st.waiting_on[down] and down in st.pending:
                self._make_ready(st, down)

    @_one_fsync
    def _dispatch(self, st: _State, may_begin: bool, ahead: bool = False) -> None:
        """Offer ready stages to the executor, grading first; ``may_begin``: snapshot new stages' inputs.

        Only as many stages as there are free slots are taken from the ready heaps, so a dispatch costs the
        same at 60 cells as at 6,000. With ``ahead`` too, up to a slot-count more are snapshotted ahead and
        wait, primed, for the next free slots (the next wave of runs then starts without waiting for DVC).
        """
        now = time.monotonic()
        busy = Counter(st.by_key[k].kind in AGENT_KINDS for k in st.running)
        cap = {True: self.settings.slots, False: self.settings.stage_slots}
        free = {agent: cap[agent] - busy[agent] for agent in cap}
        while True:
            chosen: list[str] = []
            later: list[tuple[int, int, str]] = []
            primed = Counter(st.by_key[k].kind in AGENT_KINDS for k in st.snapshots if k in st.pending)
            for agent, heap in st.ready.items():
                want = free[agent] + (max(0, cap[agent] - primed[agent]) if may_begin and ahead else 0)
                while want > 0 and heap:
                    item = heapq.heappop(heap)
                    key = item[2]
                    if key not in st.pending:  # dispatched, skipped or blocked since it was queued
                        continue
                    if key not in st.snapshots and not may_begin:  # the recorder holds DVC: wait for it
                        later.append(item)
                        break
                    if st.not_before.get(key, 0) > now:  # backing off after a lost job
                        later.append(item)
                        continue
                    chosen.append(key)
                    want -= 1
            fresh = [k for k in chosen if k not in st.snapshots]
            skipped = False
            if fresh:
                # a stage DVC itself found stale at the start stays stale unless an upstream stage ran since
                recheck = [
                    k
                    for k in fresh
                    if k not in self._stale_at_start or any(u in self._ran for u in st.by_key[k].upstream)
                ]
                began = self.pipelines.begin(recheck)
                began.update(self.pipelines.begin([k for k in fresh if k not in recheck], check=False))
                for key, snap in began.items():
                    if snap is None:
                        del st.pending[key]
                        self._done_with(st, key)
                        self.events.emit("skipped", stage=key, reason="up to date")
                        st.progress.finished(key, "skipped", 0.0)
                        chosen.remove(key)
                        skipped = True
                    else:
                        st.snapshots[key] = snap
            chosen.sort(key=lambda k: (_priority(st.by_key[k]), st.order[k]))
            refused = set()
            for key in chosen:
                agent = st.by_key[key].kind in AGENT_KINDS
                if free[agent] <= 0:  # primed ahead: it waits, snapshotted, for a slot
                    later.append((_priority(st.by_key[key]), st.order[key], key))
                    continue
                job = self._job(st.by_key[key], st.attempts[key])
                if agent in refused or not self.executor.submit(job):
                    refused.add(agent)  # a class's stages ask for the same resources: the rest wait too
                    later.append((_priority(st.by_key[key]), st.order[key], key))
                    continue
                self._since[key] = time.monotonic()
                del st.pending[key]
                st.running[key] = job
                free[agent] -= 1
                self.events.emit(
                    "dispatched",
                    stage=key,
                    attempt=job.attempt,
                    executor=self.executor.name,
                    job_id=self.executor.job_id(key),
                    inputs=st.snapshots[key],
                )
            for item in later:
                heapq.heappush(st.ready[st.by_key[item[2]].kind in AGENT_KINDS], item)
            if not skipped or refused:  # a skipped stage freed its slot (and maybe readied others): refill
                return

    def _job(self, stage: PlannedStage, attempt: int) -> Job:
        res = self._resources(stage)
        info = {
            "executor": self.executor.name,
            "settings": self.settings.model_dump(mode="json"),
            "stage": stage.address,
            "attempt": attempt,
            "session": self.session,
        }
        log = events_path(self.root).parent / "logs" / stage.pipeline / f"{stage.name}.log"
        env = {JOB_ENV: json.dumps(info, sort_keys=True)}
        nice = 0 if stage.kind in AGENT_KINDS else self.settings.stage_nice
        return Job(stage.address, attempt, stage.cmd, str(stage.wdir), str(log), res, env, nice)

    def _resources(self, stage: PlannedStage) -> Resources:
        if stage.kind in AGENT_KINDS:
            hw = self.hardware
            memory = parse_memory(hw.memory, "hardware.memory")
            return Resources(hw.cpus, memory, hw.gpus, hw.time_limit_secs, hw.gpu_sharing)
        s = self.settings
        return Resources(s.stage_cpus, parse_memory(s.stage_memory, "executor.stage_memory"), 0, 3600)

    def _check_fits(self, stages: list[PlannedStage]) -> None:
        for stage in stages:
            problem = self.executor.problem(self._resources(stage))
            if problem:
                raise ConfigError(f"{stage.address} cannot run on executor {self.executor.name!r}: {problem}")

    def _stale(self, stages: list[PlannedStage]) -> list[str]:
        todo: list[str] = []
        marked: set[str] = set()
        self._stale_at_start: set[str] = set()
        for stage in stages:  # topological order: upstream first
            if any(u in marked for u in stage.upstream):
                marked.add(stage.address)
                todo.append(stage.address)
            elif self.pipelines.changed([stage.address])[stage.address]:
                marked.add(stage.address)
                todo.append(stage.address)
                self._stale_at_start.add(stage.address)
        return todo

    def _recover(self, by_key: dict[str, PlannedStage]) -> list[str]:
        """Record stages a killed run left finished but unrecorded, if their inputs still match."""
        events = read_events(self.events.path)
        running = {k: j for k, j in unfinished(events).items() if k in by_key}
        if running:  # a killed predecessor's jobs: stopped before anything is dispatched again
            stopped = self.executor.stop_leftovers(sorted(set(running.values())))
            for key, job in running.items():
                self.events.emit(
                    "skipped",
                    stage=key,
                    job_id=job,
                    reason="left running by a killed run",
                    stopped=job in stopped,
                )
        for key in poisoned(events):  # its recording killed earlier runs: given up, it runs again
            if key in by_key:
                reason = f"recording it stopped the scheduler {RECOVERY_TRIES} times; it runs again"
                self.events.emit("unrecorded", stage=key, reason=reason, recovered=True)
        leftover = {k: v for k, v in unrecorded(events).items() if k in by_key}
        if not leftover:
            return []
        stale = self.pipelines.changed(list(leftover))
        todo = {k: v for k, v in leftover.items() if stale[k]}
        with self.events.batch():  # durable before the attempt: a crash in it is counted
            for key in todo:
                self.events.emit("recovering", stage=key)
        done = []
        for key, problem in self.pipelines.record(todo).items() if todo else []:
            if problem:
                self.events.emit("unrecorded", stage=key, reason=problem, recovered=True)
            else:
                self.events.emit("recorded", stage=key, recovered=True)
                done.append(key)
        self._save_run_cache(most=None)
        return done

    def _fail(self, st: _State, stage: PlannedStage, status: str, reason: str) -> None:
        st.out.failed[stage.address] = f"{status}: {reason}"
        self._failed.add(stage.address)
        st.newly_failed.append(stage.address)
        st.progress.finished(
            stage.address, status, 0.0, "infra_error" if status == "infra_error" and stage.cell else ""
        )
        # its downstream stages stay blocked: `remaining` keeps the key

    def _block(self, st: _State) -> None:
        """Drop pending stages downstream of a failed one (transitively): they cannot run this time."""
        if not st.newly_failed:
            return
        blocked: set[str] = set()
        todo = list(st.newly_failed)
        st.newly_failed.clear()
        while todo:
            for down in st.downstream.get(todo.pop(), ()):
                if down in st.pending and down not in blocked:
                    blocked.add(down)
                    todo.append(down)
        for key in sorted(blocked, key=st.rank.__getitem__):  # in the plan's order
            del st.pending[key]
            self._failed.add(key)
            self.events.emit("skipped", stage=key, reason="an upstream stage failed")
            st.progress.finished(key, "blocked", 0.0)

    def _cell_status(self, stage: PlannedStage) -> str:
        ident = stage.identity
        if ident.cell is None or ident.competition is None or ident.kind != "grade":
            return ""
        path = grade_path(ident.agent, ident.competition, ident.seed, self.root)
        try:
            return str(json.loads(path.read_text(encoding="utf-8"))["status"])
        except (OSError, ValueError, KeyError):
            return "unknown"

    def _on_signal(self, signum: int, _frame: Any) -> None:
        if signum == signal.SIGTERM or self.stopping:
            self.aborting = True
        else:
            self.stopping = True
            print(
                "\ninterrupt: no new stages; running ones finish and are recorded (Ctrl-C again to kill them)"
            )


__all__ = ["Outcome", "Scheduler"]
