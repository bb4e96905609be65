"""Each of MLE-bench v1's departures from a metric's definition is a metric of its own, never a flag.

The v1-faithful function keeps the metric's name (what competitions declare); the corrected one is registered
as ``<name>_fixed``. Neither takes an option that changes which of the two it is, and asking for one that
does not exist names the metrics there are (STYLE 2.5: "a flag never changes what a metric is").
"""

import inspect

import pytest

from graders.registry import METRICS, get_metric, metric_arg_problems

FIXED = sorted(name for name in METRICS if name.endswith("_fixed"))


def test_the_ten_v1_departures_each_have_a_corrected_metric():
    assert len(FIXED) == 10


@pytest.mark.parametrize("fixed", FIXED)
def test_a_v1_departure_and_its_correction_are_two_registered_metrics(fixed):
    base = fixed.removesuffix("_fixed")
    v1, corrected = get_metric(base), get_metric(fixed)
    assert v1.fn is not corrected.fn
    assert (v1.kind, v1.higher_is_better, v1.layout) == (
        corrected.kind,
        corrected.higher_is_better,
        corrected.layout,
    )
    for metric in (v1, corrected):
        assert "variant" not in inspect.signature(metric.fn).parameters
    wrong = f"metric {base!r}: got an unexpected keyword argument 'variant'"
    required = {  # the metric's own required options, so the only problem left is the flag
        name: 1
        for name, p in inspect.signature(v1.fn).parameters.items()
        if p.kind is p.KEYWORD_ONLY and p.default is p.empty
    }
    assert metric_arg_problems(base, {**required, "variant": "fixed"}) == [wrong]
    with pytest.raises(KeyError, match=f"unknown metric '{base}_v2' \\(known: .*{fixed}"):
        get_metric(f"{base}_v2")
