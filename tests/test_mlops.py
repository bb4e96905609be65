"""The MLOps set (docs/mlops.md): seeded generators, reference leaderboards, the baseline, the report's group.

Each competition is fetched (its generator run and every file checked against the declared sha256) and
prepared once per session; the baseline's approach runs in-process on the public files.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest
from embedded_fixtures import COMPETITIONS, Prepared

from graders.grade import grade
from graders.medals import thresholds
from graders.registry import get_metric
from mlebench.data.fetch import fetch, generate_files
from mlebench.reporting.stats import split_members
from mlebench_spec.declarations import GeneratedSource, load_competition
from mlebench_spec.errors import DataError
from mlebench_spec.sets import competition_ids
from mlebench_spec.yamlio import load_yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "agents" / "baseline"))

from baseline.operations import solve_operations  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MLOPS = competition_ids(load_yaml(ROOT / "conf" / "competition_set" / "mlops.yaml")["where"])
SUBMITTED = [c for c in MLOPS if load_competition(c).rerun is None]
"""Graded on the agent's submission; next-data-version is graded on a re-run (tests/test_next_version.py)."""


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_set_has_its_competitions_and_none_is_in_the_default_grid() -> None:
    assert MLOPS == ["ab-test-analysis", "drift-monitoring", "next-data-version", "stream-change-points"]
    default = load_yaml(ROOT / "params.yaml")["competition_set"]
    assert not set(MLOPS) & set(default["ids"])
    assert all(isinstance(load_competition(c).source, GeneratedSource) for c in MLOPS)


@pytest.mark.parametrize("competition_id", MLOPS)
def test_generator_is_byte_reproducible_from_its_seed(
    competition_id: str, prepare_once: Callable[[str], Prepared], tmp_path: Path
) -> None:
    prepared = prepare_once(competition_id)  # fetch ran the generator and checked the declared sha256s
    comp = prepared.comp
    source = comp.source
    assert isinstance(source, GeneratedSource)
    declared = {f.raw_name: f.sha256 for f in source.files}
    assert {p.name: _sha(p) for p in prepared.raw.iterdir()} == declared
    if competition_id == "stream-change-points":  # the cheapest generator: the seed is what it follows
        other = tmp_path / "other-seed"
        other.mkdir()
        generate_files(comp, source.model_copy(update={"seed": source.seed + 1}), other)
        assert all(_sha(other / name) != sha for name, sha in declared.items())


@pytest.mark.parametrize("competition_id", SUBMITTED)
def test_leaderboard_spread_and_the_baseline_between_the_dummy_and_gold(
    competition_id: str, prepare_once: Callable[[str], Prepared], tmp_path: Path
) -> None:
    comp = load_competition(competition_id)
    metric = get_metric(comp.metric.name)
    board = pd.read_csv(COMPETITIONS / competition_id / "leaderboard.csv")
    assert len(board) >= 100
    limits = thresholds(board["score"].tolist())
    ladder = [limits.gold, limits.silver, limits.bronze, limits.median]
    assert len(set(ladder)) == 4, ladder
    assert ladder == sorted(ladder, reverse=metric.higher_is_better), ladder

    prepared = prepare_once(competition_id)
    submission, _ = solve_operations(prepared.public)
    path = tmp_path / "submission.csv"
    submission.to_csv(path, index=False)
    baseline = grade(comp, path, prepared.private)
    dummy = grade(comp, prepared.public / "sample_submission.csv", prepared.private)
    assert baseline.status == dummy.status == "ok"
    assert not dummy.medals.any_medal  # the dummy agent submits the sample
    sign = 1 if metric.higher_is_better else -1
    assert sign * baseline.score > sign * dummy.score
    assert sign * baseline.score <= sign * limits.gold  # between the dummy and gold, gold not reached


def test_a_generator_that_drifts_from_its_declared_bytes_fails_its_fetch(tmp_path: Path) -> None:
    comp = load_competition("stream-change-points")
    files = [
        f.model_copy(update={"sha256": "0" * 64}) if f.raw_name == "changes.csv" else f
        for f in comp.source.files
    ]
    drifted = comp.model_copy(update={"source": comp.source.model_copy(update={"files": files})})
    with pytest.raises(
        DataError, match=r"generate.py \(seed 52\) wrote changes.csv with sha256 [0-9a-f]{64}, expected"
    ):
        fetch(drifted, tmp_path / "raw")
    assert not (tmp_path / "raw").exists()  # nothing half-published


def test_the_report_groups_the_set_apart_from_v1s_splits() -> None:
    complexity = {c: load_competition(c).complexity for c in [*MLOPS, "titanic-lite"]}
    groups = split_members(complexity, sorted(complexity))
    assert groups == {"embedded": ["titanic-lite"], "mlops": MLOPS}
