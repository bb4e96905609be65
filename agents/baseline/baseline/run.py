"""The agent's whole run: read the contract, infer the task, train, write the submission and notes."""

from __future__ import annotations

import json
import logging
import shutil
import sys
import time
import traceback
from pathlib import Path

import numpy as np
import pandas as pd

from .data import load_public
from .detect import TargetSpec, TaskSpec, detect_task
from .env import AgentEnv, Options
from .operations import solve_operations
from .segmentation import segment
from .seq2seq import transduce
from .submission import build_submission, write_submission
from .tabular import build_frames, fit_predict

log = logging.getLogger("baseline")
AGENT_ROOT = Path(__file__).resolve().parent.parent


def setup_logging(logs_dir: Path) -> None:
    """Log to ``LOGS_DIR/agent.log`` and to stderr."""
    logs_dir.mkdir(parents=True, exist_ok=True)
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(message)s", "%H:%M:%S")
    log.setLevel(logging.INFO)
    log.handlers.clear()
    for handler in (
        logging.FileHandler(logs_dir / "agent.log", encoding="utf-8"),
        logging.StreamHandler(sys.stderr),
    ):
        handler.setFormatter(fmt)
        log.addHandler(handler)


def save_code(code_dir: Path) -> None:
    """Copy the agent's own source (main.py, the package, requirements, README) into ``CODE_DIR``.

    The copy re-runs as it is: ``python main.py`` in ``CODE_DIR`` with the contract's variables writes the
    submission again (the reproduce stage, declared as ``reproduce`` in conf/agent/baseline.yaml). Run from
    there, the source already is the kept code, and nothing is copied.
    """
    code_dir.mkdir(parents=True, exist_ok=True)
    if AGENT_ROOT.resolve() == code_dir.resolve():
        return
    for name in ("main.py", "requirements.txt", "README.md"):
        if (AGENT_ROOT / name).is_file():
            shutil.copyfile(AGENT_ROOT / name, code_dir / name)
    shutil.copytree(
        AGENT_ROOT / "baseline",
        code_dir / "baseline",
        dirs_exist_ok=True,
        ignore=shutil.ignore_patterns("__pycache__"),
    )


def _constant(spec: TargetSpec, train: pd.DataFrame, n: int) -> np.ndarray:
    known = train[spec.name].dropna()
    value = known.mode().iloc[0] if len(known) else ""
    log.info("target %s: predicting the most frequent training value %r", spec.name, value)
    return np.asarray([value] * n, dtype=object)


def predict_target(
    env: AgentEnv, options: Options, data, task: TaskSpec, spec: TargetSpec, frames, decisions: dict
) -> tuple[dict, dict]:
    """Dispatch one target to the right learner; return submission columns and a report.

    ``decisions``: the task's model selections so far (see :func:`baseline.tabular.fit_predict`).
    """
    test_ids = data.test[task.id_col].astype(str)
    if spec.kind == "segmentation":
        train = data.train.dropna(subset=[task.id_col])
        keys = train[task.id_col].astype(str)
        usable = keys.isin(data.train_images.keys()).to_numpy()
        paths = [data.train_images[k] for k in keys[usable]]
        rles = train[spec.name][usable].tolist()
        encoded, dice = segment(
            paths,
            rles,
            [data.test_images[k] for k in test_ids],
            options,
            env.seed,
            options.worker_count(env.cpus),
        )
        return {spec.name: np.asarray(encoded, dtype=object)}, {
            "metric": "dice",
            "scores": {"pixel_hgb": dice},
        }
    if spec.kind == "seq2seq":
        train = data.train.dropna(subset=[spec.input_col, spec.name])
        if len(train) > options.seq_max_train_rows:
            train = train.sample(options.seq_max_train_rows, random_state=env.seed)
        preds, scores = transduce(
            train[spec.input_col].astype(str).tolist(),
            train[spec.name].astype(str).tolist(),
            data.test[spec.input_col].fillna("").astype(str).tolist(),
            options.seq_order,
            options.seq_align_iterations,
            options.holdout_fraction,
            env.seed,
            options.worker_count(env.cpus),
        )
        return {spec.name: np.asarray(preds, dtype=object)}, {"metric": "exact_match", "scores": scores}
    if spec.kind == "constant":
        return {spec.name: _constant(spec, data.train, len(data.test))}, {"metric": None, "scores": {}}
    return fit_predict(env, options, task, spec, frames, decisions)


def solve(env: AgentEnv, options: Options, data, task: TaskSpec) -> tuple[pd.DataFrame, dict]:
    """Train and predict every target with ``options``; return the submission frame and the reports."""
    needs_frames = any(s.kind in ("binary", "multiclass", "regression") for s in task.targets)
    frames = build_frames(data, task, options) if needs_frames else None
    columns, reports, decisions = {}, {}, {}
    for spec in task.targets:
        cols, report = predict_target(env, options, data, task, spec, frames, decisions)
        columns.update(cols)
        reports[spec.name] = report
    return build_submission(data.sample, data.test[task.id_col], columns), reports


def run(env: AgentEnv) -> int:
    """Run the agent end to end; return the process exit code."""
    setup_logging(env.logs_dir)
    options, unknown = Options.from_kwargs(env.kwargs)
    log.info(
        "baseline agent: competition %r, seed %d, %d cpu(s), memory %r, time limit %ss",
        env.competition_id,
        env.seed,
        env.cpus,
        env.memory,
        env.time_limit_secs or "none",
    )
    log.info("AGENT_KWARGS %s; options %s", json.dumps(env.kwargs, sort_keys=True), options.as_dict())
    if unknown:
        log.warning("ignored unknown AGENT_KWARGS keys: %s", unknown)
    save_code(env.code_dir)
    np.random.seed(env.seed)
    try:
        operations = solve_operations(env.data_dir)
        if operations is not None:
            submission, report = operations
            path = write_submission(submission, env.submission_dir)
            log.info(
                "wrote %s (%d rows, operations task: %s) after %.1fs",
                path,
                len(submission),
                report["method"],
                env.elapsed(),
            )
            summary = {
                "competition_id": env.competition_id,
                "seed": env.seed,
                "task_mode": "operations",
                "validation": report,
                "elapsed_secs": round(env.elapsed(), 2),
            }
            (env.logs_dir / "summary.json").write_text(
                json.dumps(summary, indent=2, default=str), encoding="utf-8"
            )
            return 0
        data = load_public(env.data_dir)
        log.info(
            "public files: train %s, test %s, sample %s, aux tables %s, images train/test %d/%d",
            data.train.shape,
            data.test.shape,
            data.sample.shape,
            [p.name for p in data.aux],
            len(data.train_images),
            len(data.test_images),
        )
        task = detect_task(data)
        log.info("task: id column %r, mode %s, temporal column %r", task.id_col, task.mode, task.temporal_col)
        for spec in task.targets:
            log.info(
                "target %r: kind %s, output %s, metric %s, log_target %s (%s)",
                spec.name,
                spec.kind,
                spec.output,
                spec.metric,
                spec.log_target,
                spec.reason,
            )
        if options.early_submission:
            early, _ = solve(env, options.quick(), data, task)
            path = write_submission(early, env.submission_dir)
            log.info("wrote the early submission %s after %.1fs", path, env.elapsed())
            time.sleep(max(0.0, options.early_hold_secs))
        submission, reports = solve(env, options, data, task)
        path = write_submission(submission, env.submission_dir)
        log.info(
            "wrote %s (%d rows, columns %s) after %.1fs",
            path,
            len(submission),
            list(submission.columns),
            env.elapsed(),
        )
        summary = {
            "competition_id": env.competition_id,
            "seed": env.seed,
            "task_mode": task.mode,
            "targets": {
                s.name: {"kind": s.kind, "output": s.output, "reason": s.reason} for s in task.targets
            },
            "validation": reports,
            "elapsed_secs": round(env.elapsed(), 2),
        }
        (env.logs_dir / "summary.json").write_text(
            json.dumps(summary, indent=2, default=str), encoding="utf-8"
        )
        return 0
    except Exception:  # noqa: BLE001 - the traceback goes to the agent log, the runner sees the exit code
        log.error("agent failed:\n%s", traceback.format_exc())
        return 1
