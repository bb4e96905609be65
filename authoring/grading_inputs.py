"""Grading inputs for the benchmark: synthetic private answers and a plausible submission, at any size.

Each Kaggle competition's ``fixture.py`` defines, beside ``make_download``::

    def grading_inputs(comp: Competition, size: RealSize, rng: numpy.random.Generator) -> GradingInputs: ...

It returns answers laid out like the prepared private answers (``comp.submission.answers_layout``) and a
noisy but valid submission, at ``size``: the competition's declared ``real_size``, or :func:`scaled` from
it. ``benchmarks/grading.py`` writes them and times reading, validating and scoring them.

This module holds the kinds most competitions are built from (labels, binary scores, regression,
probabilities, score columns, label sets, rankings, text); :mod:`authoring.synthetic` holds the smaller
pieces (id columns, numbers as text, words, masks as RLE). Every random choice comes from ``rng``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from authoring.synthetic import ids, mutate, subset_noise, text, vocabulary, word_sequences
from mlebench_spec.declarations import Competition, RealSize

__all__ = [
    "GradingInputs",
    "assemble",
    "binary",
    "label_sets",
    "labels",
    "normalized_tokens",
    "probabilities",
    "ranking",
    "regression",
    "scaled",
    "score_columns",
    "sentences",
    "single",
    "units",
]


@dataclass
class GradingInputs:
    """One competition's synthetic answers and submission, and any metric arguments the size changes."""

    answers: pd.DataFrame
    submission: pd.DataFrame
    metric_args: dict = field(default_factory=dict)
    """Overrides of the declared metric arguments (where a smaller scale shrinks an image)."""


def scaled(size: RealSize, scale: float, floor: int = 1) -> RealSize:
    """Return ``size`` at ``scale``: rows scaled (at least ``floor``), or whole images shrunk in area."""
    if size.test_images:
        images = [(max(1, int(h * scale**0.5)), max(1, int(w * scale**0.5))) for h, w in size.test_images]
        return size.model_copy(update={"test_images": images})
    rows = max(min(floor, size.test_rows), int(size.test_rows * scale))
    return size.model_copy(update={"test_rows": rows})


def units(rows: int, per_unit: int) -> int:
    """Count the whole units (sequences, breaths, studies) of ``per_unit`` rows in ``rows`` (at least 1)."""
    return max(1, rows // per_unit)


def assemble(
    comp: Competition,
    row_ids: np.ndarray,
    truth: dict[str, np.ndarray],
    pred: dict[str, np.ndarray],
    rng: np.random.Generator,
    answer_only: dict[str, np.ndarray] | None = None,
) -> GradingInputs:
    """Answers (id, targets, answer-only columns) and a shuffled submission (id, targets).

    A target the grader derives from another answers column (``submission.derived_columns``) is stored
    under that column's name, as the prepared private answers hold it.
    """
    id_column = comp.submission.id_column
    extra = answer_only or {}
    derived = comp.submission.derived_columns
    stored = {derived.get(c, c): v for c, v in truth.items() if derived.get(c, c) not in extra}
    answers = pd.DataFrame({id_column: row_ids, **stored, **extra})
    submission = pd.DataFrame({id_column: row_ids, **pred})
    return GradingInputs(answers, submission.iloc[rng.permutation(len(submission))].reset_index(drop=True))


def single(comp: Competition, truth: np.ndarray, pred: np.ndarray) -> tuple[dict, dict]:
    """Map the one target column of ``comp`` to its true and predicted values."""
    column = comp.submission.target_columns[0]
    return {column: truth}, {column: pred}


def labels(
    comp: Competition, n: int, classes: np.ndarray, rng: np.random.Generator, p_right: float = 0.8
) -> GradingInputs:
    """Kinds ``labels`` / ``integer_labels``: a class per row, right with probability ``p_right``."""
    truth = classes[rng.integers(0, len(classes), n)]
    pred = np.where(rng.random(n) < p_right, truth, classes[rng.integers(0, len(classes), n)])
    return assemble(comp, ids("r", n), *single(comp, truth, pred), rng)


def binary(comp: Competition, n: int, rng: np.random.Generator, unbounded: bool = False) -> GradingInputs:
    """Kinds ``binary_probability`` / ``binary_score``: 0/1 answers, noisy scores (any real if unbounded)."""
    truth = (rng.random(n) < 0.3).astype(int)
    score = np.clip(0.3 * truth + 0.7 * rng.random(n), 0, 1)
    score = rng.normal(truth, 1.0) if unbounded else score
    return assemble(comp, ids("r", n), *single(comp, truth.astype(str), text(score)), rng)


def regression(
    comp: Competition, row_ids: np.ndarray, truth: np.ndarray, noise: float, rng: np.random.Generator
) -> GradingInputs:
    """Kind ``regression``: the truth plus Gaussian noise (rounded to whole numbers if the truth is)."""
    pred = truth + rng.normal(0, noise, len(truth))
    if np.issubdtype(truth.dtype, np.integer):
        pred = np.clip(np.rint(pred), truth.min(), truth.max()).astype(int)
        return assemble(comp, row_ids, *single(comp, truth.astype(str), pred.astype(str)), rng)
    return assemble(comp, row_ids, *single(comp, text(truth), text(pred)), rng)


def probabilities(comp: Competition, n: int, rng: np.random.Generator, soft: bool = False) -> GradingInputs:
    """Kind ``probabilities``: one-hot (or soft vote) answers, softmax predictions summing to 1 exactly."""
    columns = comp.submission.target_columns
    k = len(columns)
    label = rng.integers(0, k, n)
    truth = np.eye(k)[label]
    if soft:
        truth = rng.dirichlet(np.ones(k), n)
        label = truth.argmax(axis=1)
    logits = rng.normal(0, 1, (n, k))
    logits[np.arange(n), label] += 2.0
    pred = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    return assemble(
        comp,
        ids("r", n),
        {c: text(truth[:, j], 4) for j, c in enumerate(columns)},
        {c: text(pred[:, j], 17) for j, c in enumerate(columns)},  # full precision keeps sums at 1
        rng,
    )


def score_columns(
    comp: Competition, n: int, rng: np.random.Generator, p_positive: float = 0.2, graded: bool = False
) -> GradingInputs:
    """Kind ``numeric_columns``: 0/1 labels (or ratings in [0, 1] if ``graded``) per column, noisy scores."""
    columns = comp.submission.target_columns
    shape = (n, len(columns))
    truth = rng.integers(0, 5, shape) / 4 if graded else (rng.random(shape) < p_positive).astype(int)
    pred = np.clip(truth + rng.normal(0, 0.4, shape), 0, 1)
    cells = (lambda x: text(x, 4)) if graded else (lambda x: x.astype(str))
    return assemble(
        comp,
        ids("r", n),
        {c: cells(truth[:, j]) for j, c in enumerate(columns)},
        {c: text(pred[:, j], 4) for j, c in enumerate(columns)},
        rng,
    )


def label_sets(
    comp: Competition, n: int, vocab: np.ndarray, per_row: tuple[int, int], rng: np.random.Generator
) -> GradingInputs:
    """Kind ``text`` for tag sets: ``per_row`` items per row, predictions a noisy superset."""
    rows = [list(vocab[rng.integers(0, len(vocab), k)]) for k in rng.integers(per_row[0], per_row[1] + 1, n)]
    truth = np.array([" ".join(r) for r in rows], dtype=object)
    return assemble(comp, ids("r", n), *single(comp, truth, subset_noise(rows, vocab, rng, 0.7)), rng)


def ranking(
    comp: Competition,
    n: int,
    vocab: np.ndarray,
    relevant: tuple[int, int],
    k: int,
    rng: np.random.Generator,
) -> GradingInputs:
    """Kind ``text`` for MAP@k: a set of relevant items per row, ``k`` ranked guesses, some of them right."""
    rows = [
        list(vocab[rng.integers(0, len(vocab), m)]) for m in rng.integers(relevant[0], relevant[1] + 1, n)
    ]
    truth = np.array([" ".join(r) for r in rows], dtype=object)
    guesses = vocab[rng.integers(0, len(vocab), (n, k))]
    hit = rng.random(n) < 0.4
    guesses[hit, rng.integers(0, k, hit.sum())] = [r[0] for r, h in zip(rows, hit, strict=True) if h]
    pred = np.array([" ".join(g) for g in guesses], dtype=object)
    return assemble(comp, ids("r", n), *single(comp, truth, pred), rng)


def sentences(comp: Competition, n: int, words: tuple[int, int], rng: np.random.Generator) -> GradingInputs:
    """Kind ``text``: ``words`` word sequences (sentences, spans, answers); predictions with a few typos."""
    truth = word_sequences(rng, vocabulary(rng, 20_000), n, *words)
    return assemble(comp, ids("", n), *single(comp, truth, mutate(truth, rng, 3, "etaoin ")), rng)


def normalized_tokens(comp: Competition, n: int, rng: np.random.Generator) -> GradingInputs:
    """Text normalization: ``{sentence}_{token}`` rows, mostly unchanged words, some spelled-out numbers.

    Twenty tokens per sentence; predictions are 97% right (the rest say ``123``).
    """
    vocab = vocabulary(rng, 50_000, 1, 12)
    truth = vocab[np.minimum(rng.zipf(1.3, n) - 1, len(vocab) - 1)]
    spelled = rng.random(n) < 0.1
    truth[spelled] = "one hundred twenty three"
    pred = np.where(rng.random(n) < 0.97, truth, "123")
    sentence, token = np.divmod(np.arange(n), 20)
    row_ids = (
        pd.Series(sentence).astype(str).str.cat(pd.Series(token).astype(str), sep="_").to_numpy(dtype=object)
    )
    return assemble(comp, row_ids, *single(comp, truth, pred), rng)
