"""The two records of a cell — ``run.json`` and the grading record — as typed values, each built in one place.

A runner builds one :class:`RunRecord` (or a subclass with its own facts) and writes it once; the grade stage
builds one :class:`GradeRecord` from the run record, the graders' outcome and the lineage, and writes it once.
Both go through :func:`mlebench_spec.files.write_json`, so a kill mid-write never leaves half a record. A
cell's status is decided in one place, :func:`cell_status`.

Grading record fields (MLE-bench's ``CompetitionReport``, in its order): ``competition_id``, ``score``
(rounded to 5 decimals; null when there is no valid submission), ``gold_threshold``, ``silver_threshold``,
``bronze_threshold``, ``median_threshold``, ``any_medal``, ``gold_medal``, ``silver_medal``, ``bronze_medal``,
``above_median`` (strict), ``submission_exists``, ``valid_submission``, ``is_lower_better``, ``created_at``
(UTC, ISO 8601), ``submission_path`` (relative to the repository).

Ours on top:
- ``status``: exactly one of :data:`STATUSES`. Agent and infrastructure outcomes take precedence over the
  submission's: a timed-out agent whose partial submission is valid is ``agent_timeout`` and its score and
  medals still count, as MLE-bench grades whatever submission exists. A submission.csv the runner refused to
  collect (a symlink, a folder, a file over the size bound) makes the cell ``invalid_submission``.
- ``reason``: why the submission is invalid, or what failed; ``traceback`` for a ``grader_error``.
- ``agent``, ``seed``, ``hardware`` (the profile), ``runner``, ``competition_version``.
- ``isolation``: ``isolated`` (the agent ran in a container that never held the answers) or
  ``unisolated``, with ``isolation_reason`` (e.g. the local runner: the agent could read the answers,
  reach the network and the Docker socket). An unisolated cell is graded for a quick look but never counts
  in a headline or a leaderboard row.
- ``disclosures``: what the agent's config declares (models, uses_test_feedback, web_search), from run.json.
- ``usage`` (only when the run reported any): requests, prompt and completion tokens and the cost where
  prices are configured, from run.json (:mod:`mlebench.reporting.usage`).
- ``lineage`` (:class:`Lineage`): sha256 of the public split, the private answers, the submission, the agent
  folder, the resolved cell config, the grader code (``graders/``) and the competition folder's declaration
  and leaderboard; the git revision when available; where grading ran; the runner's own facts (image ids,
  network); ``texts``, the task texts the agent read (their source, ``ours`` or ``mlebench``, and hashes).
- ``timings`` (:class:`Timings`): agent start/finish and seconds (from ``run.json``), grading seconds.
- ``snapshots`` (only when the runner took any-time snapshots): one entry per mark, graded as the final
  submission is (:func:`snapshot_grade`).
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from graders.result import GradeResult, mode_fields, report_fields
from mlebench_spec.cell import Cell
from mlebench_spec.declarations import Competition
from mlebench_spec.files import utc_now
from mlebench_spec.hashing import sha256_file, sha256_json, sha256_tree
from mlebench_spec.manifest import split_sha256
from mlebench_spec.network import NetworkPolicy

STATUSES = (
    "ok",
    "invalid_submission",
    "no_submission",
    "agent_timeout",
    "agent_error",
    "infra_error",
    "grader_error",
)
AGENT_FAILURES = ("agent_timeout", "agent_error", "infra_error")
R = TypeVar("R", bound="RunRecord")


@dataclass(frozen=True)
class RunRecord:
    """What ``run.json`` holds for one cell.

    status: ``ok`` (the agent exited 0), ``agent_error`` (non-zero exit), ``agent_timeout`` (killed at the
    wall-clock limit), ``infra_error`` (the runner could not run it). ``submission_exists`` says whether a
    regular ``submission.csv`` was collected; ``extraction_notes`` lists what was refused while copying out
    (symlinks, oversize files). Hashes are sha256 of the agent folder, of the resolved cell config (agent +
    hardware + runner + seed) and of the public split the agent saw. ``reason`` says why the agent failed,
    when the runner knows more than the exit code. ``runner_requested`` and ``runner_note`` are written only
    when ``runner: auto`` fell back to another runner, and say why.
    """

    competition_id: str
    agent: str
    seed: int
    runner: str
    status: str
    exit_code: int | None
    started_at: str
    finished_at: str
    agent_seconds: float
    time_limit_secs: int
    hardware: dict
    limits_enforced: list[str]
    submission_exists: bool
    extraction_notes: list[str]
    agent_sha256: str
    config_sha256: str
    public_sha256: str
    python: str
    reason: str = ""
    runner_requested: str = ""
    runner_note: str = ""
    executor: dict = field(default_factory=dict)
    """Set when ``mlebench run`` dispatched the cell: the executor, its settings, the job, host and GPUs."""
    texts: dict = field(default_factory=dict)
    """The texts the agent read (:func:`mlebench_spec.texts.text_lineage`): source, git blob ids, sha256."""
    disclosures: dict = field(default_factory=dict)
    """What the agent config declares (models, uses_test_feedback, web_search); empty if it declares none."""
    usage: dict = field(default_factory=dict)
    """The agent's model usage from its usage file (:mod:`mlebench.reporting.usage`); written when any."""
    submission_sha256: str = ""
    """The sha256 of the submission.csv the runner collected (empty: none), for verify-bundle to check."""
    network_policy: NetworkPolicy | None = None
    """The agent's network policy as the runner held it, with its route (:mod:`mlebench_spec.network`)."""

    def __post_init__(self) -> None:
        if isinstance(self.network_policy, (dict, str)):  # as run.json holds it
            object.__setattr__(self, "network_policy", NetworkPolicy.from_json(self.network_policy))

    @classmethod
    def for_cell(
        cls: type[R],
        cell: Cell,
        runner: str,
        *,
        status: str,
        started_at: str,
        finished_at: str,
        exit_code: int | None = None,
        agent_seconds: float = 0.0,
        limits_enforced: list[str] | None = None,
        submission_exists: bool = False,
        extraction_notes: list[str] | None = None,
        config: dict | None = None,
        python: str = "",
        **facts: Any,
    ) -> R:
        """Return the record of ``cell`` run by ``runner``: the fields every runner fills, from the cell.

        The cell gives its ids, hardware, time limit and hashes (agent folder, resolved config: ``config``,
        else ``cell.config(runner)``, public split); ``python`` defaults to this interpreter's version;
        ``facts`` are the runner's own fields (its record type's).
        """
        agent, hardware = cell.running()
        return cls(
            competition_id=cell.competition_id,
            agent=cell.agent,
            seed=cell.seed,
            runner=runner,
            status=status,
            exit_code=exit_code,
            started_at=started_at,
            finished_at=finished_at,
            agent_seconds=agent_seconds,
            time_limit_secs=hardware.time_limit_secs,
            hardware=hardware.model_dump(),
            limits_enforced=list(limits_enforced or []),
            submission_exists=submission_exists,
            extraction_notes=list(extraction_notes or []),
            agent_sha256=sha256_tree((cell.root / agent.path).resolve()),
            config_sha256=sha256_json(cell.config(runner) if config is None else config),
            public_sha256=split_sha256(cell.public),
            python=python or sys.version.split()[0],
            **facts,
        )

    def policy(self) -> NetworkPolicy | None:
        """Return the network policy the record holds (typed field, else an older record's name), or None."""
        return self.network_policy or NetworkPolicy.recorded(asdict(self))

    def to_json(self) -> dict[str, Any]:
        """Return the record as ``run.json`` holds it (fallback fields only when there was a fallback)."""
        data = asdict(self)
        if self.network_policy is None:
            data.pop("network_policy")
        else:
            data["network_policy"] = self.network_policy.to_json()
        if not self.submission_sha256:
            data.pop("submission_sha256")
        if not self.usage:
            data.pop("usage")
        if not self.runner_requested:
            data.pop("runner_requested")
            data.pop("runner_note")
        if not self.executor:
            data.pop("executor")
        if not self.disclosures:
            data.pop("disclosures")
        return data

    @classmethod
    def from_json(cls: type[R], data: dict[str, Any]) -> R:
        """Read a record written by :meth:`to_json` (keys of other record types are ignored)."""
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})

    def write(self, out: Path) -> None:
        """Write ``out/run.json`` atomically: the one place run records are written."""
        from mlebench_spec.files import write_json

        write_json(out / "run.json", self.to_json())

    def rejected_submission(self) -> str:
        """Why a submission.csv that existed was not collected (empty when none was refused)."""
        return next((n for n in self.extraction_notes if n.startswith("submission.csv:")), "")

    def lineage(self) -> dict[str, str]:
        """Return what the runner adds to the grading record's lineage (image ids, network): none here."""
        return {}

    def unisolated(self) -> str:
        """Why the agent was not isolated from the answers ("" when it was): runners without a container."""
        return (
            f"the {self.runner} runner ran the agent without a container: it could read the answers, reach "
            "the network and the Docker socket"
        )

    def failure(self) -> str:
        """Why the agent's part failed, for the grading record's reason ("" when it did not)."""
        if self.status == "agent_timeout":
            return f"agent killed at the time limit of {self.time_limit_secs} s"
        if self.status == "agent_error":
            return f"agent exited with code {self.exit_code}"
        if self.status == "infra_error":
            return self.reason or "infrastructure failure"
        return ""


@dataclass(frozen=True)
class GradeOutcome:
    """What grading one submission gave: the graders' typed result, or the traceback of a grader that raised.

    ``result`` is None exactly when the grader raised (``status`` ``grader_error``); ``submission_exists``
    then says whether a file was there. ``grade_seconds`` is measured by the caller around the grading call.
    """

    result: GradeResult | None
    grade_seconds: float
    mode: str = "v1"
    traceback: str = ""
    submission_exists: bool = False

    @classmethod
    def grader_error(cls, traceback: str, seconds: float, submission_exists: bool, mode: str) -> GradeOutcome:
        """Build the outcome of a grader that raised: no score, no medal, the traceback kept."""
        return cls(None, round(seconds, 3), mode, traceback, submission_exists)

    @property
    def status(self) -> str:
        """The submission's status (:data:`graders.result.Status`), or ``grader_error``."""
        return self.result.status if self.result is not None else "grader_error"

    @property
    def reason(self) -> str:
        """Why the submission was not scored ("" when it was)."""
        return self.result.reason if self.result is not None else "the grader raised an exception"

    @property
    def score(self) -> float | None:
        """The score, or None when there is none."""
        return self.result.score if self.result is not None else None

    def collected_refused(self) -> GradeOutcome:
        """Return this outcome for a submission.csv the runner refused to collect: it existed, invalid."""
        if self.result is None:
            return self
        return dataclasses.replace(
            self, result=dataclasses.replace(self.result, submission_exists=True, valid_submission=False)
        )

    def fields(self) -> dict[str, Any]:
        """Return the graded fields: MLE-bench's (:func:`graders.result.report_fields`), then the mode's."""
        return {**report_fields(self.result, self.submission_exists), **mode_fields(self.mode, self.result)}

    def to_json(self) -> dict[str, Any]:
        """As the grader container hands it back to the host; :meth:`from_json` reads it."""
        data = asdict(self)
        data["result"] = self.result.to_json() if self.result is not None else None
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GradeOutcome:
        """Read what :meth:`to_json` wrote."""
        result = data.get("result")
        return cls(**{**data, "result": GradeResult.from_json(result) if result is not None else None})


@dataclass(frozen=True)
class Lineage:
    """Content hashes that tie a score to exactly what produced it (see the module docstring)."""

    public_sha256: str
    private_sha256: str
    submission_sha256: str | None
    agent_sha256: str | None
    config_sha256: str | None
    grader_sha256: str
    competition_sha256: str
    public_seen_by_agent_sha256: str | None
    git_revision: str | None
    grader_runner: str
    extra: dict[str, str] = field(default_factory=dict)
    """What the runner (image ids, network) and the grader (its image) add."""
    texts: dict[str, str] = field(default_factory=dict)
    """The task texts the agent read, from its run record (``source``: ``ours`` or ``mlebench``)."""

    def to_json(self) -> dict[str, Any]:
        """Flat, as the record holds it: the runner's and grader's entries after the common ones."""
        data = asdict(self)
        return {**{k: v for k, v in data.items() if k != "extra"}, **self.extra}


@dataclass(frozen=True)
class Timings:
    """When the agent ran and how long grading took."""

    agent_started_at: str | None
    agent_finished_at: str | None
    agent_seconds: float | None
    grade_seconds: float


@dataclass(frozen=True)
class GradeRecord:
    """One cell's grading record: MLE-bench's report fields, status, lineage and timings."""

    competition_id: str
    outcome: GradeOutcome
    """The graders' typed result (or the grader's traceback), as graded; its fields follow the id."""
    created_at: str
    submission_path: str
    status: str
    reason: str
    traceback: str
    agent: str
    seed: int
    hardware: dict
    runner: str
    competition_version: int
    lineage: Lineage
    timings: Timings
    isolation_reason: str = "no usable run record: how the agent ran is unknown"
    """Why the cell is ``unisolated``; empty when it is isolated."""
    disclosures: dict = field(default_factory=dict)
    snapshots: list = field(default_factory=list)
    """The graded any-time snapshots (:func:`snapshot_grade`), by mark; written only when there are any."""
    usage: dict = field(default_factory=dict)
    """The run's model usage (run.json's ``usage``), written when the run reported any."""

    def to_json(self) -> dict[str, Any]:
        """Return the record as written: MLE-bench's fields first, in their order, then ours."""
        data = graded_entry(
            self.competition_id, self.outcome, self.created_at, self.submission_path, self.status, self.reason
        )
        if self.traceback:
            data["traceback"] = self.traceback
        data.update(
            agent=self.agent,
            seed=self.seed,
            hardware=self.hardware,
            runner=self.runner,
            isolation="unisolated" if self.isolation_reason else "isolated",
            isolation_reason=self.isolation_reason,
            disclosures=self.disclosures,
            competition_version=self.competition_version,
            lineage=self.lineage.to_json(),
            timings=asdict(self.timings),
        )
        if self.snapshots:
            data["snapshots"] = list(self.snapshots)
        if self.usage:
            data["usage"] = self.usage
        return data

    def write(self, path: Path) -> None:
        """Write the record atomically: the one place grading records are written."""
        from mlebench_spec.files import write_json

        write_json(path, self.to_json())


def graded_entry(
    competition_id: str,
    outcome: GradeOutcome,
    created_at: str,
    submission_path: str,
    status: str,
    reason: str,
) -> dict[str, Any]:
    """Lay out a graded submission as grading records and ``mlebench grade`` write it: the one place.

    MLE-bench's report fields in its order (id, :func:`graders.result.report_fields`, time, path), with the
    grading mode after the graded fields, then ``status`` and ``reason``.
    """
    return {
        "competition_id": competition_id,
        **outcome.fields(),
        "created_at": created_at,
        "submission_path": submission_path,
        "status": status,
        "reason": reason,
    }


def cell_status(run: RunRecord | None, outcome: GradeOutcome, run_problem: str = "") -> tuple[str, str]:
    """Decide the cell's one status and reason from its run (None: no usable run.json) and grading.

    A grader bug is ``grader_error``. Otherwise the agent's failure (timeout, error, infrastructure) wins,
    its reason followed by the submission's; a refused submission.csv makes "no submission" invalid; else
    the submission's own status.
    """
    if outcome.status == "grader_error":
        return outcome.status, outcome.reason
    rejected = run.rejected_submission() if run is not None else ""
    refused = f"submission rejected when collected: {rejected}" if rejected else ""
    if run is None or run.status in AGENT_FAILURES:
        text = run.failure() if run is not None else run_problem
        reason = f"{text}; submission: {outcome.reason}" if outcome.reason else text
        return ("infra_error" if run is None else run.status), (f"{reason}; {refused}" if refused else reason)
    if outcome.status == "no_submission" and refused:
        return "invalid_submission", refused
    return outcome.status, outcome.reason


def grade_record(
    cell: Cell,
    comp: Competition,
    run: RunRecord | None,
    outcome: GradeOutcome,
    grader: dict[str, str],
    run_problem: str = "",
) -> GradeRecord:
    """Build the cell's grading record: the one place it is assembled.

    ``grader`` says where grading ran: ``grader_runner`` (``host`` or ``docker``) and, for a grader
    container, its image. ``run_problem`` says why ``run`` is None.
    """
    submission = cell.run_dir / "submission.csv"
    status, reason = cell_status(run, outcome, run_problem)
    if status == "invalid_submission" and outcome.status == "no_submission":
        outcome = outcome.collected_refused()
    lineage = Lineage(
        public_sha256=split_sha256(cell.public),
        private_sha256=split_sha256(cell.private),
        submission_sha256=sha256_file(submission)
        if submission.is_file() and not submission.is_symlink()
        else None,
        agent_sha256=run.agent_sha256 if run else None,
        config_sha256=run.config_sha256 if run else None,
        grader_sha256=sha256_tree(cell.root / "graders"),
        competition_sha256=competition_hash(comp, cell.root),
        public_seen_by_agent_sha256=run.public_sha256 if run else None,
        git_revision=_git_revision(cell.root),
        grader_runner=grader["grader_runner"],
        extra={**{k: v for k, v in grader.items() if k != "grader_runner"}, **(run.lineage() if run else {})},
        texts=run.texts if run else {},
    )
    return GradeRecord(
        competition_id=comp.id,
        outcome=outcome,
        created_at=utc_now(),
        submission_path=_rel(submission, cell.root),
        status=status,
        reason=reason,
        traceback=outcome.traceback,
        agent=cell.agent,
        seed=cell.seed,
        hardware=run.hardware if run else {},
        runner=run.runner if run else "unknown",
        competition_version=comp.version,
        lineage=lineage,
        timings=Timings(
            agent_started_at=run.started_at if run else None,
            agent_finished_at=run.finished_at if run else None,
            agent_seconds=run.agent_seconds if run else None,
            grade_seconds=outcome.grade_seconds,
        ),
        **(
            {"isolation_reason": run.unisolated(), "disclosures": run.disclosures, "usage": run.usage}
            if run
            else {}
        ),
    )


def read_run_json(run_dir: Path) -> tuple[dict[str, Any] | None, str]:
    """``run.json`` as a dict, or None and why it could not be read."""
    path = run_dir / "run.json"
    try:
        return json.loads(path.read_text(encoding="utf-8")), ""
    except (FileNotFoundError, json.JSONDecodeError):
        return None, f"{path} is missing or unreadable"


def competition_hash(comp: Competition, root: Path) -> str:
    """Hash of a competition folder's declaration and leaderboard: the lineage's ``competition_sha256``."""
    folder = root / "competitions" / comp.id
    parts = {
        name: sha256_file(folder / name)
        for name in ("competition.yaml", comp.leaderboard)
        if (folder / name).is_file()
    }
    return sha256_json(parts)


def _git_revision(root: Path) -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def _rel(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


def snapshot_grade(
    snapshot: dict[str, Any], outcome: GradeOutcome, submission: Path, root: Path
) -> dict[str, Any]:
    """Build one graded any-time snapshot: the one place its entry in ``snapshots`` is assembled.

    ``snapshot`` is the runner's ``snapshot.json`` (``mark_secs``, ``elapsed_secs``, ``taken_at``,
    ``submission``: copied, missing or refused, ``notes``, ``submission_sha256``); ``outcome`` is its
    submission graded as the final one is (same grader, same mode). The entry holds the mark and times, then
    ``status`` and ``reason`` (``no_submission`` when none existed yet; ``invalid_submission`` when the copy
    was refused, with the runner's reason), then the graders' result fields (score, thresholds, medals, ...),
    the submission's path and sha256, and ``grade_seconds``.
    """
    status, reason = outcome.status, outcome.reason
    if snapshot["submission"] == "missing" and status == "no_submission":
        reason = f"the agent had written no submission.csv by {snapshot['mark_secs']} s"
    if snapshot["submission"] == "refused" and status != "grader_error":
        status = "invalid_submission"
        reason = "submission rejected when collected: " + "; ".join(snapshot.get("notes") or [])
        outcome = outcome.collected_refused()
    return {
        "mark_secs": snapshot["mark_secs"],
        "elapsed_secs": snapshot["elapsed_secs"],
        "taken_at": snapshot["taken_at"],
        "status": status,
        "reason": reason,
        **outcome.fields(),
        "submission_path": _rel(submission, root),
        "submission_sha256": snapshot.get("submission_sha256"),
        "grade_seconds": outcome.grade_seconds,
        **({"traceback": outcome.traceback} if outcome.traceback else {}),
    }
