"""Read a competition's private answers as the grader scores them, from the files v1's prepare writes.

The answers file is read exactly as submissions are (every cell a string). Columns the declaration derives
(``submission.derived_columns``) are then added: the private files hold only what MLE-bench v1's prepare
writes, so a data directory v1 prepared is graded as it is.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mlebench_spec.declarations import Submission

from ._csv import read_csv_strings


def load_answers(private_dir: Path | str, spec: Submission) -> pd.DataFrame:
    """Return ``private_dir / spec.answers`` with the declared derived columns added.

    Raises
    ------
    ValueError
        If the file cannot be read (:class:`graders._csv.UnreadableCSV`, naming it) or lacks a column a
        derived column is copied from: the answers are ours to get right, never the agent's.

    """
    path = Path(private_dir) / spec.answers
    return with_derived(read_csv_strings(path), spec, str(path))


def with_derived(answers: pd.DataFrame, spec: Submission, where: str = "the answers") -> pd.DataFrame:
    """Return ``answers`` with each ``submission.derived_columns`` column copied from its source column.

    >>> from mlebench_spec.declarations import Submission
    >>> spec = Submission(
    ...     id_column="id", columns=["id", "predicted"], derived_columns={"predicted": "encoding"}
    ... )
    >>> with_derived(pd.DataFrame({"id": ["a"], "encoding": ["1 3"]}), spec).to_dict("records")
    [{'id': 'a', 'encoding': '1 3', 'predicted': '1 3'}]
    """
    missing = sorted({s for s in spec.derived_columns.values() if s not in answers.columns})
    if missing:
        raise ValueError(
            f"{where} lacks column(s) {missing}, which submission.derived_columns copies "
            f"({spec.derived_columns}); it has {list(answers.columns)}"
        )
    derived = {column: answers[source] for column, source in spec.derived_columns.items()}
    return answers.assign(**derived) if derived else answers


__all__ = ["load_answers", "with_derived"]
