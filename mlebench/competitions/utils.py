"""MLE-bench v1's helpers for competition graders and prepares (``mlebench.competitions.utils``).

Forks that add competitions to v1 write their ``grade.py`` with these: frames to one-hot columns, the inputs
of log loss, accuracy and AUROC after v1's checks, RLE masks, the ids in a TFRecord file. Each has v1's
signature and meaning, errors included: a submission that cannot be graded raises
:class:`~mlebench.grade_helpers.InvalidSubmissionError`, a malformed answers frame or RLE string an
``AssertionError`` (v1's graders catch that one around ``rle_decode`` and turn it into an invalid
submission). RLE and TFRecord work is this project's (:mod:`graders.rle`, :mod:`mlebench.data.tfrecord`:
no TensorFlow needed).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from scipy.special import softmax

from mlebench.grade_helpers import InvalidSubmissionError
from mlebench.utils import get_logger

logger = get_logger(__name__)

__all__ = [
    "df_to_one_hot",
    "get_ids_from_tf_records",
    "is_one_hot_encoded",
    "one_hot_dfs_to_log_loss_inputs",
    "prepare_for_accuracy_metric",
    "prepare_for_auroc_metric",
    "rle_decode",
    "rle_encode",
    "rles_to_masks",
]


def df_to_one_hot(df: pd.DataFrame, id_column: str, target_column: str, classes: list[str]) -> pd.DataFrame:
    """Return ``id_column`` and one 0/1 column per class (1 where the row's ``target_column`` is that class).

    The frame keeps ``df``'s index. A label outside ``classes`` gets a column of its own after them, as v1's
    cell-by-cell assignment adds one.
    """
    labels = df[target_column]
    extra = [label for label in pd.unique(labels) if label not in set(classes)]
    out = pd.DataFrame({id_column: df[id_column]}, index=df.index)
    for label in [*classes, *extra]:
        out[label] = (labels == label).astype(np.int64)
    return out


def is_one_hot_encoded(xs: np.ndarray) -> bool:
    """Whether the 2-D array holds only 0 and 1 with every row summing to 1."""
    assert isinstance(xs, np.ndarray), f"Expected a NumPy array, got {type(xs)}."
    assert xs.ndim == 2, f"Expected a 2D array, got {xs.ndim}D."
    return bool(((xs == 0) | (xs == 1)).all() and np.allclose(xs.sum(axis=-1), 1))


def one_hot_dfs_to_log_loss_inputs(
    submission_one_hot: pd.DataFrame,
    answers_one_hot: pd.DataFrame,
    id_column: str = "id",
    apply_softmax: bool = True,
) -> dict:
    """Return ``{"y_true", "y_pred"}`` arrays for log loss from two one-hot frames, rows paired by id.

    The submission needs every answers column (InvalidSubmissionError otherwise) and the same ids (an
    AssertionError otherwise); its other columns are ignored. With ``apply_softmax``, predictions that are
    not one-hot already go through a softmax over each row.
    """
    missing = set(answers_one_hot.columns) - set(submission_one_hot.columns)
    if missing:
        raise InvalidSubmissionError(
            "The submission DataFrame is missing some columns required by the `answers` DataFrame. "
            f"Missing columns: {missing}."
        )
    if id_column not in submission_one_hot.columns:
        raise InvalidSubmissionError(f"Submission is missing id column '{id_column}'.")
    assert id_column in answers_one_hot.columns, f"Answers is missing id column '{id_column}'."
    columns = list(answers_one_hot.columns)
    submission = submission_one_hot[columns].sort_values(by=id_column).reset_index(drop=True)
    answers = answers_one_hot.sort_values(by=id_column).reset_index(drop=True)
    different = set(submission[id_column]) ^ set(answers[id_column])
    assert submission[id_column].tolist() == answers[id_column].tolist(), (
        f"The {id_column} values of the submission and the answers differ after sorting "
        f"({len(different)} differ); both must have the same {id_column} values."
    )
    y_true = answers.drop(columns=[id_column]).to_numpy()
    y_pred = submission.drop(columns=[id_column]).to_numpy()
    if apply_softmax:
        if is_one_hot_encoded(y_pred):
            logger.warning("apply_softmax is set but the submission is one-hot already: no softmax applied.")
        else:
            y_pred = softmax(y_pred, axis=-1)
    return {"y_true": y_true, "y_pred": y_pred}


def rle_decode(rle_string: str, height: int, width: int) -> np.ndarray:
    """Decode a 1-based, column-major RLE string into a boolean ``(height, width)`` mask.

    A blank string is the empty mask. Starts must be ascending and positive, lengths positive, runs must not
    overlap (an AssertionError names the problem); a run reaching past the last pixel is cut there, as v1's
    decoder does.
    """
    from graders.rle import parse_rles, runs_to_flat_masks

    assert isinstance(rle_string, str), f"Expected a string, but got {type(rle_string)}: {rle_string}"
    assert isinstance(height, int), f"Expected an integer, but got {type(height)}: {height}"
    assert isinstance(width, int), f"Expected an integer, but got {type(width)}: {width}"
    runs = parse_rles([rle_string])
    assert not runs.problems, f"Malformed RLE string {rle_string!r}: {runs.problems.get(0)}"
    pixels = height * width
    flat = runs_to_flat_masks(runs.clipped(np.array([pixels])), pixels)[0]
    return flat.reshape(width, height).T


def rle_encode(x: np.ndarray, fg_val: int = 1) -> list[int]:
    """Encode the pixels of ``x`` (2-D) equal to ``fg_val`` as ``[start, length, ...]``, 1-based by column."""
    from graders.rle import rle_encode as encode

    text = encode(np.asarray(x) == fg_val)
    return [int(value) for value in text.split()]


def rles_to_masks(
    rl_encodings: list[str], image_heights: list[int], image_widths: list[int]
) -> list[np.ndarray]:
    """Decode each RLE string with its image's height and width (:func:`rle_decode`)."""
    return [
        rle_decode(rle, height=height, width=width)
        for rle, height, width in zip(rl_encodings, image_heights, image_widths, strict=False)
    ]


def get_ids_from_tf_records(tf_record_path: Path, id_feature: str = "image_name") -> list[str]:
    """Return the ``id_feature`` (its first bytes value, UTF-8) of each ``tf.train.Example`` in the file."""
    from mlebench.data.tfrecord import decode_example, read_records

    ids = []
    for payload in read_records(Path(tf_record_path)):
        feature = decode_example(payload)[id_feature]
        ids.append(bytes(feature.values[0]).decode("utf-8"))
    return ids


def prepare_for_accuracy_metric(
    submission: pd.DataFrame, answers: pd.DataFrame, target_column: str, id_column: str
) -> dict:
    """Return ``{"y_true", "y_pred"}`` of ``target_column``, both frames sorted by id, after v1's checks.

    The submission must have as many rows as the answers, both columns, and the same ids.
    """
    assert target_column in answers.columns, f"Answers must have a `{target_column}` column"
    assert id_column in answers.columns, f"Answers must have a `{id_column}` column"
    if len(submission) != len(answers):
        raise InvalidSubmissionError("Submission must have the same length as the answers.")
    for column in (target_column, id_column):
        if column not in submission.columns:
            raise InvalidSubmissionError(f"Submission must have a `{column}` column")
    submission, answers = submission.sort_values(id_column), answers.sort_values(id_column)
    if (submission[id_column].to_numpy() != answers[id_column].to_numpy()).any():
        raise InvalidSubmissionError(f"Submission and Answers `{id_column}`'s do not match")
    return {"y_true": answers[target_column].to_numpy(), "y_pred": submission[target_column].to_numpy()}


def prepare_for_auroc_metric(
    submission: pd.DataFrame, answers: pd.DataFrame, id_col: str, target_col: str
) -> dict:
    """Return ``{"y_true", "y_score"}`` for ROC AUC, both frames sorted by id, after v1's checks.

    The submission must have both columns, as many rows as the answers, numeric probabilities in [0, 1]
    and the same ids.
    """
    assert id_col in answers.columns, f"answers dataframe should have an {id_col} column"
    assert target_col in answers.columns, f"answers dataframe should have a {target_col} column"
    for column in (id_col, target_col):
        if column not in submission.columns:
            raise InvalidSubmissionError(f"Submission should have an {column} column")
    if len(submission) != len(answers):
        raise InvalidSubmissionError("Submission and answers should have the same number of rows")
    try:
        pd.to_numeric(submission[target_col])
    except ValueError:
        raise InvalidSubmissionError(
            f"Expected {target_col} column to be numeric, got {submission[target_col].dtype} instead"
        ) from None
    if submission[target_col].min() < 0 or submission[target_col].max() > 1:
        raise InvalidSubmissionError(
            f"Submission {target_col} column should contain probabilities, between 0 and 1 inclusive"
        )
    submission, answers = submission.sort_values(id_col), answers.sort_values(id_col)
    if (submission[id_col].to_numpy() != answers[id_col].to_numpy()).any():
        raise InvalidSubmissionError(f"Submission and answers should have the same {id_col} values")
    return {"y_true": answers[target_col].to_numpy(), "y_score": submission[target_col].to_numpy()}
