"""``mlebench bundle``: one agent's graded grid packed as a leaderboard submission, with a manifest of hashes.

Layout of a bundle (a folder, or the same as a deterministic ``.tar.gz``)::

    manifest.json                      sha256 of every other file; what was truncated or left out
    submission.json                    agent, plan (set, seeds, runner), config, claimed figures and row
    hardware.json  disclosures.json    the profile the cells ran under; models, test feedback, web search
    run_group_experiments.csv          MLE-bench's experiment_id,run_group listing
    runs/<agent>_seed<S>/grading_report.json     MLE-bench v1 grading report, one per seed (run group)
    cells/<competition>/<seed>/        grade.json (the record with lineage), run.json, submission.csv,
                                       integrity.json (when checked), reproduction.json and
                                       reproduction/ (the re-run's submission.csv, run.json and
                                       grade.json, when reproduced), code/ and logs, capped per cell; a
                                       competition graded on a re-run (``rerun:``) carries the re-run's
                                       run.json, submission.csv, code/ and logs, which its grade is of

The figures and the leaderboard row count cells as the report's headline does
(:func:`mlebench.reporting.verdicts.counted`): unisolated cells are left out (listed in
``unisolated_cells``), flagged ones count as no medal unless ``report.count_flagged``.

Submissions are never capped: re-grading needs them whole. Logs beyond the cap keep their last bytes;
code files that do not fit are left out. Either way the original's size and sha256 stay in the manifest.
``disclosures.json`` is what the agent config declares (every plan's agents must: models,
uses_test_feedback, web_search). ``submission.json``'s ``process`` (when the plan reproduces cells) is the
agent's process section: reproduction verdicts, deltas, re-run cost and what its code is like
(:func:`mlebench.reporting.reproduction.process_section`); under ``reproduce.headline: reproduced`` the
figures count a medal only where the agent's code reproduced it.
"""

from __future__ import annotations

import gzip
import json
import shutil
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mlebench.reporting.reproduction import RECORD, counted_reproduced, process_section
from mlebench.reporting.stats import agent_figures, leaderboard_row
from mlebench.reporting.v1 import entry, grading_report
from mlebench.reporting.verdicts import counted, is_isolated, load_verdict
from mlebench_spec.declarations import load_competition
from mlebench_spec.errors import ConfigError
from mlebench_spec.files import replace_dir, staging_dir, utc_now, write_json, write_text
from mlebench_spec.hashing import sha256_file
from mlebench_spec.params import Plan
from mlebench_spec.paths import grade_path, integrity_path, repo_root, reproduction_dir, run_dir

FORMAT = "mlebench-dvc bundle 1"
MANIFEST = "manifest.json"
INTEGRITY = "integrity.json"
RERUN = "reproduction"
"""The cell's sub-folder holding its reproduction's re-run: submission.csv, run.json, grade.json."""


@dataclass(frozen=True)
class Caps:
    """Per-cell size limits, in bytes, for what a bundle carries besides the submission."""

    log_bytes: int = 1 << 20
    code_bytes: int = 4 << 20


def run_group(agent: str, seed: int) -> str:
    """Name the run group (folder under ``runs/``) of one agent's seed."""
    return f"{agent}_seed{seed}"


def build_bundle(
    plan: Plan,
    agent: str,
    out: Path,
    root: Path | None = None,
    caps: Caps = Caps(),
    experiment_id: str | None = None,
) -> dict[str, Any]:
    """Bundle ``agent``'s cells of ``plan`` at ``out`` (a folder or a ``.tar.gz``); return submission.json."""
    base = root or repo_root()
    if agent not in plan.agent:
        raise ConfigError(f"agent {agent!r} is not in params.yaml (planned: {', '.join(plan.agent)})")
    ids, seeds = plan.competition_set.ids, plan.seeds
    with tempfile.TemporaryDirectory(dir=out.parent if out.parent.is_dir() else None) as tmp:
        staging = Path(tmp) / "bundle"
        notes: dict[str, dict[str, dict[str, Any]]] = {"truncated": {}, "omitted": {}}
        records, missing = [], []
        verdicts: dict[tuple[str, int], dict[str, Any]] = {}
        again: dict[tuple[str, str, int], dict[str, Any]] = {}
        for cid in ids:
            for seed in seeds:
                path = grade_path(agent, cid, seed, base)
                if not path.is_file():
                    missing.append({"competition_id": cid, "seed": seed})
                    continue
                records.append(json.loads(path.read_text(encoding="utf-8")))
                graded = _graded_run(records[-1], agent, cid, seed, base)
                _copy_cell(path, graded, staging, f"cells/{cid}/{seed}", caps, notes)
                verdict = integrity_path(agent, cid, seed, base)
                verdicts[(cid, seed)] = load_verdict(verdict)
                if verdict.is_file():
                    shutil.copyfile(verdict, staging / "cells" / cid / str(seed) / INTEGRITY)
                reproduced = reproduction_dir(agent, cid, seed, base) / RECORD
                if plan.reproduce.enabled and reproduced.is_file():
                    again[(agent, cid, seed)] = json.loads(reproduced.read_text(encoding="utf-8"))
                    shutil.copyfile(reproduced, staging / "cells" / cid / str(seed) / RECORD)
                    _copy_rerun(reproduced.parent, staging / "cells" / cid / str(seed) / RERUN)
        for seed in seeds:
            entries = [
                entry(r, f"cells/{r['competition_id']}/{seed}/submission.csv")
                for r in records
                if r["seed"] == seed
            ]
            if entries:
                report = grading_report(sorted(entries, key=lambda e: e["competition_id"]))
                write_json(staging / "runs" / run_group(agent, seed) / "grading_report.json", report)
        config = plan.agent[agent]
        complexity = {c: load_competition(c, base).complexity for c in ids}
        flagged_count = plan.report.count_flagged
        headline_records = [
            c
            for r in records
            if (c := counted(r, verdicts[(r["competition_id"], r["seed"])], flagged_count)) is not None
        ]
        if plan.reproduce.enabled and plan.reproduce.headline == "reproduced":
            headline_records = [
                counted_reproduced(r, again.get((agent, r["competition_id"], r["seed"])))
                for r in headline_records
            ]
        figures = agent_figures(headline_records, agent, complexity, ids, plan.report.pad_missing)
        disclosures = config.disclosures.model_dump() if config.disclosures else {}  # a plan requires them
        hardware = {
            "profile": plan.hardware.model_dump(),
            "recorded": _distinct(r.get("hardware") for r in records),
        }
        submission = {
            "format": FORMAT,
            "agent": agent,
            "experiment_id": experiment_id or agent,
            "competition_set": {"name": plan.competition_set.name, "ids": ids},
            "seeds": seeds,
            "runner": plan.runner,
            "runners_recorded": sorted({str(r.get("runner")) for r in records}),
            "agent_config": config.model_dump(mode="json"),
            "disclosures": disclosures,
            "integrity_settings": plan.integrity.model_dump(mode="json"),
            "pad_missing": plan.report.pad_missing,
            "count_flagged": flagged_count,
            "unisolated_cells": [
                {"competition_id": r["competition_id"], "seed": r["seed"]}
                for r in records
                if not is_isolated(r)
            ],
            "flagged_cells": [
                {"competition_id": cid, "seed": seed, "flags": v["flags"]}
                for (cid, seed), v in sorted(verdicts.items())
                if v["verdict"] == "flagged"
            ],
            **(
                {
                    "process": {
                        **process_section(again, [agent])["agents"].get(agent, {}),
                        "headline": plan.reproduce.headline,
                    }
                }
                if plan.reproduce.enabled
                else {}
            ),
            "figures": figures,
            "leaderboard_row": leaderboard_row(figures),
            "missing_cells": missing,
            "caps": {"log_bytes": caps.log_bytes, "code_bytes": caps.code_bytes},
            "git_revisions": sorted({str((r.get("lineage") or {}).get("git_revision")) for r in records}),
            "created_at": utc_now(),
        }
        write_json(staging / "submission.json", submission)
        write_json(staging / "hardware.json", hardware)
        write_json(staging / "disclosures.json", disclosures)
        groups = [run_group(agent, s) for s in seeds if (staging / "runs" / run_group(agent, s)).is_dir()]
        csv = "experiment_id,run_group\n" + "".join(f"{submission['experiment_id']},{g}\n" for g in groups)
        write_text(staging / "run_group_experiments.csv", csv)
        write_json(staging / MANIFEST, {"format": FORMAT, "files": file_hashes(staging), **notes})
        _publish(staging, out)
    return submission


def _copy_rerun(folder: Path, dest: Path) -> None:
    """Copy what re-deriving a reproduction verdict needs: the re-run's submission, run and grading record."""
    for rel, name in (
        ("run/submission.csv", "submission.csv"),
        ("run/run.json", "run.json"),
        ("grade.json", "grade.json"),
    ):
        src = folder / rel
        if src.is_file() and not src.is_symlink():
            dest.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest / name)


def file_hashes(folder: Path) -> dict[str, str]:
    """sha256 of every regular file under ``folder`` except the manifest, by POSIX relative path."""
    return {
        p.relative_to(folder).as_posix(): sha256_file(p)
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink() and p.relative_to(folder).as_posix() != MANIFEST
    }


def _graded_run(record: dict[str, Any], agent: str, cid: str, seed: int, root: Path) -> Path:
    """Return the folder whose submission the record graded: the run's, or its re-run's (``rerun:``)."""
    again = reproduction_dir(agent, cid, seed, root) / "run"
    graded = (root / str(record.get("submission_path") or "")).parent
    return again if graded == again else run_dir(agent, cid, seed, root)


def _copy_cell(
    record: Path, run: Path, staging: Path, prefix: str, caps: Caps, notes: dict[str, dict[str, Any]]
) -> None:
    """Copy one cell's record, run.json and submission whole, its code and logs within the caps."""
    dest = staging / prefix
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(record, dest / "grade.json")
    for name in ("run.json", "submission.csv"):
        if (run / name).is_file() and not (run / name).is_symlink():
            shutil.copyfile(run / name, dest / name)
    if not run.is_dir():
        return
    files = [p for p in sorted(run.rglob("*")) if p.is_file() or p.is_symlink()]
    code = [p for p in files if p.relative_to(run).parts[0] == "code"]
    logs = [
        p
        for p in files
        if p not in code and p.relative_to(run).as_posix() not in ("run.json", "submission.csv")
    ]
    _copy_capped(code, run, dest, prefix, caps.code_bytes, notes, truncate=False)
    _copy_capped(logs, run, dest, prefix, caps.log_bytes, notes, truncate=True)


def _copy_capped(
    files: list[Path],
    run: Path,
    dest: Path,
    prefix: str,
    budget: int,
    notes: dict[str, dict[str, Any]],
    truncate: bool,
) -> None:
    """Copy files while the budget lasts; beyond it, keep a log's tail or leave a code file out."""
    for path in files:
        rel = path.relative_to(run).as_posix()
        key = f"{prefix}/{rel}"
        if path.is_symlink():
            notes["omitted"][key] = {"reason": f"a symlink to {path.readlink()}"}
            continue
        size = path.stat().st_size
        original = {"bytes": size, "sha256": sha256_file(path)}
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if size <= budget:
            shutil.copyfile(path, target)
            budget -= size
        elif truncate and budget > 0:
            with path.open("rb") as fh:
                fh.seek(size - budget)
                target.write_bytes(fh.read())
            notes["truncated"][key] = {**original, "kept": f"the last {budget} bytes"}
            budget = 0
        else:
            notes["omitted"][key] = {**original, "reason": "over the per-cell size cap"}


def _distinct(values: Any) -> list[Any]:
    seen: list[Any] = []
    for value in values:
        if value not in seen:
            seen.append(value)
    return seen


def _publish(staging: Path, out: Path) -> None:
    if out.name.endswith((".tar.gz", ".tgz")):
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(f".{out.name}.tmp")
        with tmp.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as gz:
            with tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar:
                for path in sorted(staging.rglob("*")):
                    info = tar.gettarinfo(path, arcname=path.relative_to(staging).as_posix())
                    info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
                    info.mode = 0o755 if path.is_dir() else 0o644
                    if path.is_file():
                        with path.open("rb") as fh:
                            tar.addfile(info, fh)
                    else:
                        tar.addfile(info)
        tmp.replace(out)
        return
    target = staging_dir(out)
    target.rmdir()
    shutil.move(staging, target)
    replace_dir(target, out)
