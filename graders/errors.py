"""The one error a submission can cause: it is invalid, for reasons the agent can read and fix."""

from __future__ import annotations

from collections.abc import Iterable

MAX_REASON = 1000
"""The longest reason kept whole; a submitted field can be megabytes long, its reason must not be."""


class InvalidSubmission(Exception):
    """A submission that cannot be scored, with every reason found.

    Validation collects all problems before raising, so one message tells the agent everything to fix.
    An invalid submission is an expected outcome (``status: invalid_submission``), never a grader bug.

    Parameters
    ----------
    reasons
        One human-readable sentence per problem, each naming the column, id or value at fault. A reason
        longer than :data:`MAX_REASON` characters (one quoting a huge submitted value) keeps its start
        and end and says how much was cut.

    Examples
    --------
    >>> err = InvalidSubmission(["missing columns: 'label'", "wrong number of rows: expected 3, got 2"])
    >>> str(err)
    "missing columns: 'label'; wrong number of rows: expected 3, got 2"
    >>> err.reasons[0]
    "missing columns: 'label'"

    """

    def __init__(self, reasons: Iterable[str] | str) -> None:
        self.reasons: list[str] = [_clip(r) for r in ([reasons] if isinstance(reasons, str) else reasons)]
        if not self.reasons:
            raise ValueError("InvalidSubmission needs at least one reason")
        super().__init__("; ".join(self.reasons))


def _clip(reason: str) -> str:
    """Return ``reason``, or its start and end around a note of how many characters were cut."""
    if len(reason) <= MAX_REASON:
        return reason
    head, tail = MAX_REASON * 3 // 5, MAX_REASON // 5
    return f"{reason[:head]} [... {len(reason) - head - tail} characters cut ...] {reason[-tail:]}"
