"""Submission kinds, the validation table beside the metric registry, and what validation imports."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from graders import inputs as inputs_module
from graders import metrics
from graders.boxes import Layout
from graders.inputs import INPUTS, Inputs, get_inputs
from graders.kinds import BOXES, KINDS, REGRESSION, Kind
from graders.registry import METRICS, get_metric
from mlebench_spec.sources import closure, imported_modules

ROOT = Path(__file__).resolve().parents[2]
VALIDATOR = "environment/validate.py"


def test_the_validation_table_and_the_registry_name_the_same_metrics():
    assert set(INPUTS) == set(METRICS)
    assert len(inputs_module._ENTRIES) == len(INPUTS), "a metric has two validation entries"


def test_graders_metrics_exports_exactly_the_functions_the_table_names():
    """One table: a function exported but not named (or named but not exported) is a metric half-added."""
    named = set(INPUTS) | {entry.scored_rows for entry in INPUTS.values() if entry.scored_rows}
    assert set(metrics.__all__) == named


@pytest.mark.parametrize("name", sorted(METRICS))
def test_a_registry_entry_extends_its_validation_entry(name):
    metric, entry = get_metric(name), get_inputs(name)
    assert isinstance(metric, Inputs)
    assert {f.name: getattr(metric, f.name) for f in fields(Inputs)} == {
        f.name: getattr(entry, f.name) for f in fields(Inputs)
    }


def test_kinds_have_distinct_names_and_docs():
    names = [kind.name for kind in KINDS]
    assert len(set(names)) == len(names)
    assert all(isinstance(kind, Kind) and kind.doc.strip() for kind in KINDS)


def test_a_kind_survives_pickling_and_copying_as_itself():
    """Kinds are compared by identity (``metric.kind is RLE_MASK``), also in worker processes."""
    assert all(pickle.loads(pickle.dumps(kind)) is kind and copy.deepcopy(kind) is kind for kind in KINDS)
    assert pickle.loads(pickle.dumps(get_metric("voc_map"))).kind is BOXES


def test_every_kind_is_taken_by_some_metric():
    assert {kind.name for kind in KINDS} == {entry.kind.name for entry in INPUTS.values()}


SCORING = {"higher_is_better": True, "best": 1.0}  # every entry says how it scores (graders/inputs.py)


def test_an_entry_must_name_a_known_kind_and_give_a_layout_exactly_when_needed():
    stray = Kind("stray", doc="not listed", shape=REGRESSION.shape, cell_rule=REGRESSION.cell_rule)
    with pytest.raises(ValueError, match="kind Kind\\('stray'\\) is not one of"):
        Inputs("x", stray, **SCORING)
    with pytest.raises(ValueError, match="kind 'boxes' needs box layout"):
        Inputs("x", BOXES, **SCORING)
    with pytest.raises(ValueError, match="kind 'regression' takes no box layout"):
        Inputs("x", REGRESSION, layout=Layout(size=3, label_at=0, blank_ok=True), **SCORING)


def test_the_validator_loads_no_metric_code():
    """The agent image (and so every agent run's deps) holds what ``validate`` imports: no metric."""
    files = closure([VALIDATOR], ROOT)
    assert "graders/submission.py" in files and "graders/inputs.py" in files
    assert "graders/registry.py" not in files
    assert not [f for f in files if f.startswith("graders/metrics/")]


def test_importing_validation_loads_no_metric_module():
    code = (
        "import sys; import graders.submission, graders.inputs; "
        "print(sorted(m for m in sys.modules if m == 'graders.registry' or m.startswith('graders.metrics')))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_graders_import_only_graders_and_the_spec_layer():
    outside = {
        f"{path.relative_to(ROOT)}: {name}"
        for path in sorted((ROOT / "graders").rglob("*.py"))
        for name in imported_modules(path, ROOT)
        if not name.startswith(("graders", "mlebench_spec"))
    }
    assert not outside
