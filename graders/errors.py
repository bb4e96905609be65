"""The one error a submission can cause: it is invalid, for reasons the agent can read and fix."""

from __future__ import annotations

from collections.abc import Iterable


class InvalidSubmission(Exception):
    """A submission that cannot be scored, with every reason found.

    Validation collects all problems before raising, so one message tells the agent everything to fix.
    An invalid submission is an expected outcome (``status: invalid_submission``), never a grader bug.

    Parameters
    ----------
    reasons
        One human-readable sentence per problem, each naming the column, id or value at fault.

    Examples
    --------
    >>> err = InvalidSubmission(["missing columns: 'label'", "wrong number of rows: expected 3, got 2"])
    >>> str(err)
    "missing columns: 'label'; wrong number of rows: expected 3, got 2"
    >>> err.reasons[0]
    "missing columns: 'label'"

    """

    def __init__(self, reasons: Iterable[str] | str) -> None:
        self.reasons: list[str] = [reasons] if isinstance(reasons, str) else list(reasons)
        if not self.reasons:
            raise ValueError("InvalidSubmission needs at least one reason")
        super().__init__("; ".join(self.reasons))
