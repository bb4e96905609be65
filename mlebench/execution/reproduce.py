"""Re-run the code an agent kept, by the command it declared, and grade what it writes (process evaluation).

After a cell's run, :func:`reproduce_cell` starts the agent's kept ``code/`` afresh under the runner that ran
the cell (same agent image and hardware profile under ``docker``/``podman``; a fresh workspace under
``sandbox``/``local``): the public split read-only, no network and no API key whatever the agent's policy,
the kept code's source files and declared inputs (:mod:`mlebench.execution.reproduce_inputs`: tables,
pickles, arrays, archives and other data stay behind, so the code trains again from the public split) copied
into an otherwise empty ``$CODE_DIR`` (:attr:`mlebench_spec.cell.Cell.code_from`), and
the declared command run there under its own time limit (``reproduce.time_fraction`` of the profile's).
The re-run's submission is graded by :func:`mlebench.execution.grading.grade_cell`, the route every cell's
grade takes, and compared with the original's (:func:`mlebench.reporting.reproduction.judge`). Every kept
file is also matched against the original submission (:func:`mlebench.integrity.stash.stashed_files`):
the record's ``stashed``.

How the code says it re-runs (:func:`declared_command`), first match wins:

1. ``reproduce: [argv]`` in the agent's config (``conf/agent/<name>.yaml``), run in ``$CODE_DIR``;
2. ``code/reproduce.sh``, which the agent wrote: ``sh reproduce.sh``;
3. the default for v1-style agents that keep one script: exactly one ``*.py`` in ``code/``'s top level,
   run as ``python <it>.py``;
4. otherwise the cell is ``not_declared`` and nothing runs.

A competition graded on a re-run (``rerun:`` in its declaration: the next data version) is re-run on its
hidden inputs (``rerun.inputs``, mounted as ``DATA_DIR`` in place of the public split) and graded against
its answers; there is no original grade to compare with, so a re-run that writes a valid submission is
``reproduced``. Its grade stage then scores that re-run (:func:`mlebench.execution.grading.grade_planned`).
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import json
import shutil
import tempfile
from pathlib import Path

from mlebench.execution.code_quality import code_quality
from mlebench.execution.grading import grade_cell
from mlebench.execution.reproduce_inputs import left_out_note, stage_inputs
from mlebench.execution.runners import get_runner
from mlebench.integrity.stash import read_answers, stashed_files
from mlebench.reporting.reproduction import ReproductionRecord, judge
from mlebench_spec.cell import Cell
from mlebench_spec.declarations import load_competition
from mlebench_spec.errors import ConfigError, DataError
from mlebench_spec.files import utc_now
from mlebench_spec.hashing import sha256_tree
from mlebench_spec.params import AgentConfig, DockerSettings, ReproduceSettings

SCRIPT = "reproduce.sh"
DEFAULT = "default: the one *.py in code/"
RUN_SUBDIR = "run"
GRADE_FILE = "grade.json"


def declared_command(code_dir: Path, agent: AgentConfig) -> tuple[list[str], str]:
    """Return the argv that re-runs the kept code (in ``$CODE_DIR``) and who declared it ([], "": none)."""
    if agent.reproduce:
        return list(agent.reproduce), "agent config"
    if (code_dir / SCRIPT).is_file() and not (code_dir / SCRIPT).is_symlink():
        return ["sh", SCRIPT], f"code/{SCRIPT}"
    scripts = (
        sorted(p for p in code_dir.glob("*.py") if p.is_file() and not p.is_symlink())
        if code_dir.is_dir()
        else []
    )
    if len(scripts) == 1:
        return ["python", scripts[0].name], DEFAULT
    return [], ""


def sampled(agent: str, competition_id: str, seed: int, fraction: float) -> bool:
    """Whether the cell is among the ``fraction`` reproduced: a stable hash, so more keeps what fewer had.

    >>> sampled("baseline", "titanic-lite", 0, 1.0)
    True
    >>> sum(sampled("a", f"c{i}", 0, 0.25) for i in range(400)) in range(70, 131)
    True
    """
    digest = hashlib.sha256(f"{agent}/{competition_id}/{seed}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < fraction


def reproduction_cell(
    cell: Cell,
    command: list[str],
    time_limit_secs: int,
    out: Path | None = None,
    code: Path | None = None,
    data: Path | None = None,
) -> Cell:
    """Return the cell that re-runs ``cell``'s kept code: its code, the declared command, no network or key.

    The re-run goes to ``<out>/run`` (``out`` defaults to the cell's reproduction folder); its ``$CODE_DIR``
    starts as ``code`` (what :func:`mlebench.execution.reproduce_inputs.stage_inputs` gave it; default: all
    of the kept ``code/``); its ``DATA_DIR`` is ``data`` (default: the cell's public split).
    """
    agent, hardware = cell.running()
    wrapped = ["sh", "-c", 'cd "$CODE_DIR" && exec "$@"', "reproduce", *command]
    rerun = agent.model_copy(
        update={"command": wrapped, "network": "none", "endpoints": [], "api_key_env": None, "reproduce": []}
    )
    return dataclasses.replace(
        cell,
        run_dir=(out or cell.reproduction_dir) / RUN_SUBDIR,
        public=data or cell.public,
        agent_config=rerun,
        hardware=hardware.model_copy(update={"time_limit_secs": time_limit_secs}),
        snapshots=type(cell.snapshots)(),
        code_from=code
        or (cell.run_dir / "code" if (cell.run_dir / "code").is_dir() else None),  # none: empty
    )


def reproduce_cell(
    cell: Cell,
    settings: ReproduceSettings,
    docker: DockerSettings,
    mode: str = "v1",
    *,
    grade_path: Path | None = None,
    out: Path | None = None,
) -> ReproductionRecord:
    """Re-run the cell's kept code and grade it; return the reproduction record (the caller writes it).

    ``cell`` is the planned cell with its agent config, hardware and answers (``private``); its run and
    grading record (``grade_path``, default the cell's) must exist. The re-run and its grading record go to
    ``out`` (default the cell's reproduction folder), which is emptied first. A runner that cannot run here is
    a ConfigError naming it.
    """
    agent, hardware = cell.running()
    folder = out or cell.reproduction_dir
    graded_at = grade_path or cell.grade_path
    run = _read(cell.run_dir / "run.json", "run record", "the run_agent stage")
    data = next_version(cell)
    original = {} if data else _read(graded_at, "grading record", "the grade stage")
    code_dir = cell.run_dir / "code"
    command, declared_by = declared_command(code_dir, agent)
    limit = max(1, int(hardware.time_limit_secs * settings.time_fraction))
    _clear(folder)
    base = {
        "competition_id": cell.competition_id,
        "agent": cell.agent,
        "seed": cell.seed,
        "original_score": original.get("score"),
        "run_seconds": run.get("agent_seconds"),
        "time_limit_secs": limit,
        "command": command,
        "declared_by": declared_by,
        "tolerance": settings.tolerance.model_dump(),
        "is_lower_better": original.get("is_lower_better"),
        "runner": str(run.get("runner", "")),
        "code_quality": code_quality(code_dir, declared_by),
        "stashed": stashed_files(
            code_dir, read_answers(cell.run_dir / "submission.csv"), base=cell.run_dir
        ).to_json(),
    }
    lineage = {"original": _original_lineage(cell, original, code_dir, graded_at)}
    if not command:
        return ReproductionRecord(
            **base,
            verdict="not_declared",
            status="",
            score=None,
            delta=None,
            seconds=None,
            reason="no reproduce command in the agent config, no code/reproduce.sh and not exactly one *.py "
            "in code/ (docs/agents.md, Reproduction)",
            created_at=utc_now(),
            lineage=lineage,
        )
    runner = get_runner(base["runner"], docker)
    problem = runner.problem()
    if problem:
        raise ConfigError(
            f"{cell.label}: the reproduce stage re-runs the cell under its own runner {runner.name!r}, which "
            f"cannot run here: {problem}; run it where the cell ran, or turn reproduce.enabled off"
        )
    with tempfile.TemporaryDirectory(prefix=".inputs-", dir=folder) as staged:
        given = Path(staged) / "code"
        base["inputs"] = stage_inputs(code_dir, given, agent.reproduce_inputs, _header(cell.run_dir))
        rerun = reproduction_cell(cell, command, limit, folder, code=given, data=data)
        record = runner.run(rerun)
    record.write(rerun.run_dir)
    graded = grade_cell(rerun, mode=mode)
    graded.write(folder / GRADE_FILE)
    again = graded.to_json()
    lower = bool(again.get("is_lower_better"))
    verdict, delta = judge(
        True,
        again["status"],
        original.get("score"),
        again.get("score"),
        lower,
        settings.tolerance.worse,
        settings.tolerance.better,
        compare=data is None,
    )
    lineage["reproduction"] = {**again["lineage"], "code_sha256": sha256_tree(code_dir)}
    if data:
        lineage["reproduction"]["inputs"] = data.relative_to(cell.private.parent).as_posix()
    written = lineage["reproduction"].get("submission_sha256")
    return ReproductionRecord(
        **{**base, "is_lower_better": lower},
        verdict=verdict,
        status=again["status"],
        score=again.get("score"),
        delta=delta,
        identical=None if written is None else written == lineage["original"].get("submission_sha256"),
        seconds=record.agent_seconds,
        reason="; ".join(
            r
            for r in (again.get("reason") or "", left_out_note(base["inputs"]) if verdict == "failed" else "")
            if r
        ),
        created_at=utc_now(),
        lineage=lineage,
    )


def next_version(cell: Cell) -> Path | None:
    """Return the hidden inputs of a competition graded on a re-run (``rerun.inputs``); None: public."""
    rerun = load_competition(cell.competition_id, cell.root).rerun
    return rerun.inputs_dir(cell.private) if rerun else None


def _original_lineage(cell: Cell, original: dict, code_dir: Path, graded_at: Path) -> dict:
    kept = original.get("lineage") or {}
    picked = ("submission_sha256", "agent_sha256", "config_sha256", "public_sha256", "agent_image_id")
    return {
        **{k: kept[k] for k in picked if k in kept},
        "code_sha256": sha256_tree(code_dir) if code_dir.is_dir() else None,
        "grade_record": None  # graded on the re-run: no grade of the run to compare with
        if not original
        else graded_at.relative_to(cell.root).as_posix()
        if graded_at.is_relative_to(cell.root)
        else str(graded_at),
    }


def _header(run_dir: Path) -> list[str] | None:
    """Return the run's submission header (a submission-shaped kept file starts so), None without one."""
    path = run_dir / "submission.csv"
    if not path.is_file() or path.is_symlink():
        return None
    with path.open(newline="", encoding="utf-8", errors="replace") as fh:
        return next(csv.reader([fh.readline(65536)]), None)


def _read(path: Path, what: str, stage: str) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(f"{path} is missing: the reproduce stage needs the cell's {what} ({stage})") from None
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}: not a {what} ({exc})") from None


def _clear(folder: Path) -> None:
    if folder.is_symlink():
        folder.unlink()
    elif folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)


__all__ = ["declared_command", "next_version", "reproduce_cell", "reproduction_cell", "sampled"]
