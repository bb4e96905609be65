"""Golden cases for ``mean_angular_error`` (expected values from independent v1-style reference code)."""

import pytest

from ._golden import check, load

CASES = load("mean_angular_error")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    check("mean_angular_error", case)


def test_millions_of_rows_in_threaded_slices_score_as_one_pass():
    """The metric sums slices of 2**20 rows over threads; the mean is v1's one-pass formula's."""
    import numpy as np
    import pandas as pd

    from graders._threads import chunked_sum
    from graders.metrics.mean_angular_error import mean_angular_error

    rng = np.random.default_rng(0)
    n = 2_500_000  # three slices
    a1, a2 = rng.uniform(0, 2 * np.pi, n), rng.uniform(0, 2 * np.pi, n)
    z1, z2 = rng.uniform(0, np.pi, n), rng.uniform(0, np.pi, n)
    x1, y1, w1 = np.cos(a1) * np.sin(z1), np.sin(a1) * np.sin(z1), np.cos(z1)
    x2, y2, w2 = np.cos(a2) * np.sin(z2), np.sin(a2) * np.sin(z2), np.cos(z2)
    expected = np.mean(np.abs(np.arccos(np.clip(x1 * x2 + y1 * y2 + w1 * w2, -1, 1))))
    truth = pd.DataFrame({"azimuth": a1, "zenith": z1})
    got = mean_angular_error(truth, pd.DataFrame({"azimuth": a2, "zenith": z2}))
    assert got == pytest.approx(expected, rel=1e-12)
    counts = np.arange(100)
    assert chunked_sum(lambda rows: float(counts[rows].sum()), 100, rows=7) == counts.sum()
    assert chunked_sum(lambda rows: float(counts[rows].sum()), 100, rows=1000) == counts.sum()
