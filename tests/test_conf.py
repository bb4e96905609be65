"""conf/: every option of every group composes, and the committed plan matches what conf/ composes."""

from __future__ import annotations

from pathlib import Path

import pytest

from mlebench.planning.plan import cells, check_plan, compose, render, resolve
from mlebench_spec.errors import ConfigError
from mlebench_spec.params import validate_plan
from mlebench_spec.paths import cell_pipeline_file

ROOT = Path(__file__).resolve().parents[1]
GROUPS = {g.name: sorted(p.stem for p in g.glob("*.yaml")) for g in (ROOT / "conf").iterdir() if g.is_dir()}


@pytest.mark.parametrize(("group", "option"), [(g, o) for g, opts in GROUPS.items() for o in opts])
def test_every_option_composes(group: str, option: str) -> None:
    cfg = compose([f"{group}={option}"], root=ROOT)
    validate_plan(cfg, f"{group}={option}")


def test_committed_plan_matches_conf() -> None:
    """params.yaml, dvc.yaml and pipelines/* must be what `mlebench plan` writes from conf/ today."""
    problems = check_plan(resolve(compose([], root=ROOT), ROOT), ROOT)
    assert not problems, f"run `mlebench plan` and commit: {problems}"


def test_default_grid_is_every_embedded_competition_times_two_agents_times_three_seeds() -> None:
    plan = resolve(compose([], root=ROOT), ROOT)
    assert sorted(plan.agent) == ["baseline", "dummy"] and plan.seeds == [0, 1, 2]
    assert len(plan.competition_set.ids) >= 8
    assert len(cells(plan)) == 2 * 3 * len(plan.competition_set.ids)


def test_multirun_plans_the_union_of_a_seed_sweep() -> None:
    plan = resolve(compose(["seeds=range(0,5)", "agent=dummy,baseline"], multirun=True, root=ROOT), ROOT)
    assert plan.seeds == [0, 1, 2, 3, 4] and sorted(plan.agent) == ["baseline", "dummy"]


def test_multirun_refuses_to_union_different_hardware() -> None:
    with pytest.raises(ConfigError, match="hardware"):
        compose(["hardware=cpu,mlebench-reference"], multirun=True, root=ROOT)


def test_agent_stage_depends_only_on_its_own_agent_params() -> None:
    plan = resolve(compose(["competition_set=custom", "competition_set.ids=[titanic-lite]"], root=ROOT), ROOT)
    text = render(plan, ROOT)[cell_pipeline_file("titanic-lite", "dummy", 0, ROOT)]
    run_dummy = text.split("run_agent-dummy-s0:")[1].split("\n  grade")[0]
    assert "agent.dummy" in run_dummy and "agent.baseline" not in run_dummy
    assert "private" not in run_dummy, "an agent stage must not depend on the answers"


def test_unknown_ids_and_empty_sets_are_clear_errors() -> None:
    with pytest.raises(ConfigError, match="unknown ids"):
        resolve(compose(["competition_set=custom", "competition_set.ids=[nope]"], root=ROOT), ROOT)
    with pytest.raises(ConfigError, match="selects no competitions"):
        resolve(compose(["competition_set.where={complexity:[none-such]}"], root=ROOT), ROOT)
