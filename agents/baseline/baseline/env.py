"""The agent contract as seen from inside the agent: environment variables and options.

The runner sets ``DATA_DIR``, ``SUBMISSION_DIR``, ``CODE_DIR``, ``LOGS_DIR``, ``COMPETITION_ID``,
``SEED``, ``TIME_LIMIT_SECS``, ``HARDWARE_CPUS``, ``HARDWARE_MEMORY`` and ``AGENT_KWARGS`` (a JSON
object). :class:`Options` holds the tunable sizes; every field can be overridden through
``AGENT_KWARGS`` and unknown keys are reported rather than silently ignored.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path


@dataclass(frozen=True)
class Options:
    """Tunable sizes and switches of the baseline (override any of them through ``AGENT_KWARGS``).

    Attributes:
        max_train_rows: Rows of ``train.csv`` used for tabular/text tasks (random subsample above).
        holdout_fraction: Share of training rows held out for the internal validation score.
        cv_folds: Folds for model selection when the training set is small (< ``cv_below_rows``).
        cv_below_rows: Use k-fold CV instead of one holdout below this many rows.
        hgb_max_iter: Upper bound on boosting iterations (early stopping may stop sooner).
        hgb_learning_rate: Boosting learning rate.
        tfidf_max_features: Vocabulary cap for each TF-IDF vectoriser (word and char).
        char_ngrams_max_chars: Skip the char n-gram vectoriser when the text exceeds this many chars.
        image_max_side: Images larger than this (either side) are downsampled for pixel features.
        seg_max_pixels: Pixels sampled to train the per-pixel segmentation model.
        seg_max_train_images: Images used to train the segmentation model.
        seq_max_train_rows: Pairs used to fit the sequence-to-sequence model.
        seq_align_iterations: Hard-EM iterations of the character/token aligner.
        seq_order: Order of the joint (character, chunk) n-gram model.
        select_models: Compare candidate models on the internal validation split and keep the best
            (otherwise use the default candidate, see :func:`baseline.models.make_candidates`).
        select_first_targets: Targets of one kind and metric that each run their own model selection;
            further ones (a multi-label task has tens of labels on one feature set) reuse the choice the
            most of those made, fitting only it (0: every target selects).
        early_submission: First write a quick submission (the same pipeline on a small sample, few
            boosting iterations, no model selection), then the tuned one over it: so a runner's any-time
            snapshots see an early and a later submission. Off by default.
        early_hold_secs: Seconds to wait after the early submission before training the tuned model.
        workers: Processes that fit independent models side by side (folds, candidates, the
            segmenter's two fits, the sequence model's predictions): 0 (default) means
            ``HARDWARE_CPUS``, 1 fits everything in the agent's process. The submission is the same
            bytes either way (see :mod:`baseline.parallel`).
        parallel_refit_secs: A blend's two final fits run in two workers only when their validation
            fits took this long together (starting workers cost about 0.1 s on a loaded 2-core host;
            a reused model choice, as the later labels of a multi-label task make, refits in-process).


    """

    max_train_rows: int = 60000
    holdout_fraction: float = 0.2
    cv_folds: int = 5
    cv_below_rows: int = 2000
    hgb_max_iter: int = 300
    hgb_learning_rate: float = 0.06
    tfidf_max_features: int = 100000
    char_ngrams_max_chars: int = 8_000_000
    image_max_side: int = 32
    seg_max_pixels: int = 250000
    seg_max_train_images: int = 2000
    seq_max_train_rows: int = 50000
    seq_align_iterations: int = 4
    seq_order: int = 4
    select_models: bool = True
    select_first_targets: int = 3
    early_submission: bool = False
    early_hold_secs: float = 0.0
    workers: int = 0
    parallel_refit_secs: float = 1.0

    @classmethod
    def from_kwargs(cls, kwargs: dict) -> tuple["Options", list[str]]:
        """Build options from ``AGENT_KWARGS``; return them and the list of ignored (unknown) keys."""
        known = {f.name: f for f in fields(cls)}
        values, unknown = {}, []
        for key, value in kwargs.items():
            if key not in known:
                unknown.append(key)
                continue
            default = getattr(cls, key)
            values[key] = type(default)(value) if not isinstance(default, bool) else _as_bool(value)
        return cls(**values), unknown

    def quick(self) -> "Options":
        """Return the early submission's options: small samples, few iterations, the default model."""
        return replace(
            self,
            max_train_rows=min(self.max_train_rows, 2000),
            hgb_max_iter=min(self.hgb_max_iter, 20),
            tfidf_max_features=min(self.tfidf_max_features, 5000),
            seg_max_pixels=min(self.seg_max_pixels, 20000),
            seg_max_train_images=min(self.seg_max_train_images, 50),
            seq_max_train_rows=min(self.seq_max_train_rows, 2000),
            seq_align_iterations=1,
            select_models=False,
        )

    def worker_count(self, cpus: int) -> int:
        """Return the processes to use on ``cpus`` CPUs: ``workers``, or ``cpus`` when it is 0."""
        return self.workers if self.workers > 0 else cpus

    def as_dict(self) -> dict:
        """Return the options as a plain dict (for the log)."""
        return asdict(self)


def _as_bool(value: object) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in {"1", "true", "yes", "on"}
    return bool(value)


@dataclass(frozen=True)
class AgentEnv:
    """Everything the runner hands to the agent."""

    data_dir: Path
    submission_dir: Path
    code_dir: Path
    logs_dir: Path
    competition_id: str
    seed: int
    time_limit_secs: int
    cpus: int
    memory: str
    kwargs: dict = field(default_factory=dict)
    started: float = field(default_factory=time.monotonic)

    @classmethod
    def from_environ(cls, environ: dict | None = None, started: float | None = None) -> "AgentEnv":
        """Read the contract from ``environ`` (default: ``os.environ``); missing paths are errors.

        ``started`` is the ``time.monotonic()`` reading taken when the process began (default: now).
        """
        env = dict(os.environ if environ is None else environ)
        missing = [n for n in ("DATA_DIR", "SUBMISSION_DIR", "CODE_DIR", "LOGS_DIR") if not env.get(n)]
        if missing:
            raise SystemExit(f"baseline agent: environment variables not set: {', '.join(missing)}")
        raw_kwargs = env.get("AGENT_KWARGS") or "{}"
        try:
            kwargs = json.loads(raw_kwargs)
        except json.JSONDecodeError as err:
            raise SystemExit(
                f"baseline agent: AGENT_KWARGS is not valid JSON ({err}): {raw_kwargs!r}"
            ) from err
        if not isinstance(kwargs, dict):
            raise SystemExit(f"baseline agent: AGENT_KWARGS must be a JSON object, got {raw_kwargs!r}")
        return cls(
            data_dir=Path(env["DATA_DIR"]),
            submission_dir=Path(env["SUBMISSION_DIR"]),
            code_dir=Path(env["CODE_DIR"]),
            logs_dir=Path(env["LOGS_DIR"]),
            competition_id=env.get("COMPETITION_ID", ""),
            seed=int(env.get("SEED") or 0),
            time_limit_secs=int(float(env.get("TIME_LIMIT_SECS") or 0)),
            cpus=max(1, int(env.get("HARDWARE_CPUS") or os.cpu_count() or 1)),
            memory=env.get("HARDWARE_MEMORY", ""),
            kwargs=kwargs,
            started=time.monotonic() if started is None else started,
        )

    def elapsed(self) -> float:
        """Seconds since the agent started."""
        return time.monotonic() - self.started

    def time_left(self) -> float:
        """Seconds left before the runner's time limit (infinite when no limit is set)."""
        if self.time_limit_secs <= 0:
            return float("inf")
        return self.time_limit_secs - self.elapsed()
