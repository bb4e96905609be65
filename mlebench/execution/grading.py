"""Grade a finished cell where its runner says (on this host, or in a grader container) and build its record.

Where grading runs is an explicit registry, :data:`GRADERS`: ``host`` scores in this process, ``docker`` in
a fresh grader container that alone mounts the answers (:mod:`mlebench.execution.docker.grading`), and
``podman`` in the same grader container run by rootless Podman (:mod:`mlebench.execution.podman`). A cell is
graded where its runner (``runner`` in run.json) grades, unless the caller asks for another grader. The
grading record is then built once, from the run record, the outcome and the lineage
(:func:`mlebench.reporting.records.grade_record`).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path

from mlebench.execution.runners import RUNNERS, runner_class
from mlebench.execution.snapshots import SUBMISSION, read_snapshot, snapshot_dirs
from mlebench.reporting.records import (
    GradeOutcome,
    GradeRecord,
    RunRecord,
    grade_record,
    read_run_json,
    snapshot_grade,
)
from mlebench_spec.cell import Cell
from mlebench_spec.datadir import checked_answers
from mlebench_spec.declarations import load_competition
from mlebench_spec.errors import DataError
from mlebench_spec.manifest import split_sha256
from mlebench_spec.params import DockerSettings
from mlebench_spec.paths import private_dir

Grader = Callable[[Cell, RunRecord | None, DockerSettings, str], tuple[GradeOutcome, dict[str, str]]]
"""Score a cell somewhere in a grading mode; return the outcome and where it ran (``grader_runner`` and
its facts)."""


def _grade_on_host(
    cell: Cell, run: RunRecord | None, settings: DockerSettings, mode: str
) -> tuple[GradeOutcome, dict[str, str]]:
    from mlebench.execution.scoring import score_cell  # the graders and pandas, only where they score

    return score_cell(cell, mode), {"grader_runner": "host"}


def _grade_in_docker(
    cell: Cell, run: RunRecord | None, settings: DockerSettings, mode: str
) -> tuple[GradeOutcome, dict[str, str]]:
    from mlebench.execution.docker.grading import grade_in_container  # the engine's code, only where used

    return grade_in_container(cell, run, settings, mode)


def _grade_in_podman(
    cell: Cell, run: RunRecord | None, settings: DockerSettings, mode: str
) -> tuple[GradeOutcome, dict[str, str]]:
    from mlebench.execution.docker.grading import grade_in_container
    from mlebench.execution.podman import PODMAN

    return grade_in_container(cell, run, settings, mode, engine=PODMAN)


GRADERS: dict[str, Grader] = {
    "docker": _grade_in_docker,
    "host": _grade_on_host,
    "podman": _grade_in_podman,
}


def grade_cell(
    cell: Cell, settings: DockerSettings | None = None, grader: str = "", mode: str = "v1"
) -> GradeRecord:
    """Grade one finished cell and return its record (the caller writes it).

    ``grader`` overrides where grading runs (a key of :data:`GRADERS`); by default the runner that ran the
    cell decides, and a cell without a usable run.json is graded on the host. ``settings`` default to the
    ones the run recorded (a Docker run records its own). The answers are checked against the prepared
    split's manifest first, wherever grading runs: a changed answers file is refused (DataError, naming it).
    Answers from a data directory of the user's own (``data.dir``; MLE-bench v1's has no manifest) are
    checked when a manifest is there and graded with a warning when not. ``mode`` is ``grading.mode``
    (``v1`` or ``strict``, :data:`graders.grade.MODES`).
    """
    own = cell.private == private_dir(cell.competition_id, cell.root)
    checked_answers(cell.competition_id, cell.private, from_data_dir=not own)
    data, problem = read_run_json(cell.run_dir)
    name = str((data or {}).get("runner"))
    runner = runner_class(name) if name in RUNNERS else None
    run = None
    if data is not None:
        try:
            run = (runner.record if runner else RunRecord).from_json(data)
        except TypeError as exc:
            problem = f"{cell.run_dir / 'run.json'} is not a run record ({exc})"
    where = grader or (runner.grader if runner else "host")
    recorded = (data or {}).get("docker") or {}
    recorded = {k: v for k, v in recorded.items() if k in DockerSettings.model_fields}
    chosen = settings or DockerSettings.model_validate(recorded)
    outcome, facts = GRADERS[where](cell, run, chosen, mode)
    comp = load_competition(cell.competition_id, cell.root)
    record = grade_record(cell, comp, run, outcome, facts, problem)
    snapshots = grade_snapshots(cell, run, GRADERS[where], chosen, mode)
    return dataclasses.replace(record, snapshots=snapshots) if snapshots else record


def grade_planned(cell: Cell, mode: str = "v1") -> GradeRecord:
    """Grade a cell as its competition says: its run's submission, or its re-run's (``rerun:``).

    A competition graded on a re-run of the agent's kept code (the next data version) is graded on what the
    reproduce stage's re-run wrote on the hidden inputs (``reproductions/<agent>/<id>/<seed>/run``), against
    the answers, by :func:`grade_cell`. A cell whose code declared no way to re-run is
    ``invalid_submission``; a re-run that failed keeps its status (``agent_error``, ``agent_timeout``, ...);
    both give the reason, naming the re-run.
    """
    rerun = load_competition(cell.competition_id, cell.root).rerun
    if rerun is None:
        return grade_cell(cell, mode=mode)
    path = cell.reproduction_dir / "reproduction.json"
    try:
        reproduction = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(
            f"{path} is missing: {cell.competition_id} is graded on a re-run of the agent's code "
            "(rerun: in its competition.yaml), which the reproduce stage writes; run it first"
        ) from None
    again = dataclasses.replace(
        cell, run_dir=cell.reproduction_dir / "run", public=rerun.inputs_dir(cell.private)
    )
    record = grade_cell(again, mode=mode)
    # What the agent declared, spent and ran under is its run's; the split is the competition's (the hidden
    # inputs the re-run saw are in public_seen_by_agent_sha256, and within private_sha256).
    ran = read_run_json(cell.run_dir)[0] or {}
    record = dataclasses.replace(
        record,
        disclosures=ran.get("disclosures") or {},
        usage=ran.get("usage") or {},
        hardware=ran.get("hardware") or record.hardware,
        lineage=dataclasses.replace(record.lineage, public_sha256=split_sha256(cell.public)),
    )
    where = f"the re-run of code/ on the next data version ({rerun.inputs})"
    if reproduction.get("verdict") == "not_declared":
        return dataclasses.replace(
            record,
            status="invalid_submission",
            reason=f"{where} did not happen: {reproduction.get('reason') or 'no command declared'}",
        )
    if record.status != "ok":
        return dataclasses.replace(record, reason=f"{where}: {record.status}: {record.reason}")
    return record


def grade_snapshots(
    cell: Cell, run: RunRecord | None, grader: Grader, settings: DockerSettings, mode: str
) -> list[dict]:
    """Grade each any-time snapshot of the cell as its final submission is graded (same grader and mode).

    Each snapshot folder stands in for the run directory (it holds only ``submission.csv``, when one was
    copied), so the grader scores exactly that file; the entries come from
    :func:`mlebench.reporting.records.snapshot_grade`, by mark.
    """
    out = []
    for folder in snapshot_dirs(cell.run_dir):
        outcome, _ = grader(dataclasses.replace(cell, run_dir=folder), run, settings, mode)
        out.append(snapshot_grade(read_snapshot(folder).to_json(), outcome, folder / SUBMISSION, cell.root))
    return out


def grade_image_sources(root: Path) -> list[str]:
    """Checkout files of every image a grader builds: what a grade stage depends on."""
    from mlebench.execution.docker.grading import image_sources

    return image_sources(root)
