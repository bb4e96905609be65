"""The checker reports every problem of every folder at once, each naming its file and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from mlebench.data.checker import Problem, check_all
from mlebench_spec.errors import ConfigError
from mlebench_spec.sets import competition_ids

GOOD = """\
id: {id}
name: Toy
version: 1
complexity: {complexity}
category: tabular
dataset_size: "0.1 MB"
systemcard: {systemcard}
source: {{kind: kaggle, slug: toy}}
split: {{method: random, test_fraction: 0.2}}
submission: {{id_column: id, columns: [id, y]}}
metric: {{name: {metric}, args: {{}}}}
"""

PREPARE = '''\
def prepare(raw, public, private, comp):
    """Do nothing."""
'''


def _write(
    root: Path,
    folder: str,
    yaml: str | None = None,
    *,
    description: str | None = "# Toy\n",
    prepare: str | None = None,
    leaderboard: str | None = "score\n0.9\n0.8\n",
    **fields: object,
) -> Path:
    path = root / "competitions" / folder
    path.mkdir(parents=True)
    if yaml is None:
        values = {"id": folder, "complexity": "dev", "systemcard": "false", "metric": "accuracy", **fields}
        yaml = GOOD.format(**values)
    (path / "competition.yaml").write_text(yaml)
    if description is not None:
        (path / "description.md").write_text(description)
    if prepare is not None:
        (path / "prepare.py").write_text(prepare)
    if leaderboard is not None:
        (path / "leaderboard.csv").write_text(leaderboard)
    return path


def _only(problems: list[Problem], folder: str) -> list[Problem]:
    return [p for p in problems if f"/{folder}/" in p.where + "/" or p.where.endswith(f"/{folder}")]


@pytest.fixture
def registry_ready() -> None:
    pytest.importorskip("graders.registry")


def test_a_good_folder_has_no_problems(tmp_path: Path, registry_ready: None) -> None:
    _write(tmp_path, "good", prepare=PREPARE)
    assert check_all(tmp_path) == []


def test_unknown_key_names_file_and_key(tmp_path: Path, registry_ready: None) -> None:
    _write(
        tmp_path,
        "extra",
        GOOD.format(id="extra", complexity="dev", systemcard="false", metric="accuracy") + "colour: red\n",
    )
    (problem,) = check_all(tmp_path)
    assert problem.where.endswith("extra/competition.yaml")
    assert "unknown key 'colour'" in problem.message


def test_duplicate_key_names_file_and_key(tmp_path: Path, registry_ready: None) -> None:
    _write(
        tmp_path,
        "dup",
        GOOD.format(id="dup", complexity="dev", systemcard="false", metric="accuracy") + "name: Again\n",
    )
    (problem,) = check_all(tmp_path)
    assert problem.where.endswith("dup/competition.yaml")
    assert "duplicate key" in problem.message and "name" in problem.message


def test_wrong_type_names_file_and_key(tmp_path: Path, registry_ready: None) -> None:
    text = GOOD.format(id="typed", complexity="dev", systemcard="false", metric="accuracy").replace(
        "version: 1", "version: one"
    )
    _write(tmp_path, "typed", text)
    (problem,) = check_all(tmp_path)
    assert problem.where.endswith("typed/competition.yaml")
    assert problem.message.startswith("version:") and "'one'" in problem.message


def test_unknown_metric_lists_known_ones(tmp_path: Path, registry_ready: None) -> None:
    _write(tmp_path, "metricless", metric="rmsle2")
    (problem,) = check_all(tmp_path)
    assert problem.where.endswith("metricless/competition.yaml")
    assert (
        "metric.name" in problem.message and "'rmsle2'" in problem.message and "accuracy" in problem.message
    )


def test_missing_or_empty_description(tmp_path: Path, registry_ready: None) -> None:
    _write(tmp_path, "silent", description=None)
    _write(tmp_path, "blank", description="  \n")
    problems = check_all(tmp_path)
    assert [(Path(p.where).parent.name, Path(p.where).name) for p in problems] == [
        ("blank", "description.md"),
        ("silent", "description.md"),
    ]
    assert "empty" in problems[0].message and "missing" in problems[1].message


def test_bad_id_names_file_and_key(tmp_path: Path, registry_ready: None) -> None:
    _write(tmp_path, "Bad_Id")
    _write(tmp_path, "right-folder", id="wrong-id")
    problems = check_all(tmp_path)
    assert len(problems) == 2
    assert problems[0].where.endswith("Bad_Id/competition.yaml") and problems[0].message.startswith("id:")
    assert problems[1].where.endswith("right-folder/competition.yaml")
    assert "'wrong-id'" in problems[1].message and "'right-folder'" in problems[1].message


def test_prepare_signature_is_checked(tmp_path: Path, registry_ready: None) -> None:
    _write(tmp_path, "argless", prepare="def prepare(raw, public, private, rng):\n    pass\n")
    _write(tmp_path, "nameless", prepare="def build(raw, public, private, comp):\n    pass\n")
    _write(tmp_path, "broken", prepare="import no_such_module_xyz\n")
    problems = check_all(tmp_path)
    assert [Path(p.where).parent.name for p in problems] == ["argless", "broken", "nameless"]
    assert "(raw, public, private, rng)" in problems[0].message
    assert "no_such_module_xyz" in problems[1].message
    assert "no function 'prepare'" in problems[2].message


def test_leaderboard_must_exist_and_be_ordered_best_first(tmp_path: Path, registry_ready: None) -> None:
    _write(tmp_path, "no-board", leaderboard=None)
    _write(tmp_path, "upside-down", leaderboard="teamName,score\na,0.7\nb,0.9\n")
    _write(tmp_path, "lower-better", metric="rmse", leaderboard="score\n0.1\n0.3\n0.3\n")
    _write(tmp_path, "no-score", leaderboard="teamName,points\na,1\n")
    problems = check_all(tmp_path)
    by_folder = {Path(p.where).parent.name: p.message for p in problems}
    assert set(by_folder) == {"no-board", "upside-down", "no-score"}
    assert "missing" in by_folder["no-board"]
    assert "descending" in by_folder["upside-down"] and "accuracy" in by_folder["upside-down"]
    assert "no 'score' column" in by_folder["no-score"]


def test_every_problem_is_reported_at_once(tmp_path: Path, registry_ready: None) -> None:
    _write(tmp_path, "good", prepare=PREPARE)
    _write(
        tmp_path,
        "extra",
        GOOD.format(id="extra", complexity="dev", systemcard="false", metric="accuracy") + "colour: red\n",
    )
    _write(
        tmp_path,
        "metricless",
        metric="nope",
        description=None,
        prepare="def prepare(a):\n    pass\n",
        leaderboard=None,
    )
    (tmp_path / "competitions" / "empty-folder").mkdir()
    problems = check_all(tmp_path)
    folders = sorted(
        {
            Path(p.where).parent.name
            if p.where.endswith((".yaml", ".md", ".py", ".csv"))
            else Path(p.where).name
            for p in problems
        }
    )
    assert folders == ["empty-folder", "extra", "metricless"]
    metricless = [p for p in problems if "metricless" in p.where]
    assert len(metricless) == 4  # metric, description, prepare signature, leaderboard: all in one pass
    assert all(str(p).startswith(p.where + ": ") for p in problems)


def test_two_schema_errors_in_one_file_are_both_reported(tmp_path: Path) -> None:
    text = GOOD.format(id="two", complexity="dev", systemcard="false", metric="accuracy")
    text = text.replace("version: 1", "version: 0").replace("category: tabular\n", "")
    _write(tmp_path, "two", text)
    messages = [p.message for p in check_all(tmp_path) if p.where.endswith("competition.yaml")]
    assert any(m.startswith("version:") for m in messages)
    assert any("'category'" in m for m in messages)


def test_competition_ids_filters_declarations(tmp_path: Path) -> None:
    _write(tmp_path, "a-embedded", complexity="embedded")
    _write(tmp_path, "b-low", complexity="low", systemcard="true")
    _write(tmp_path, "c-high", complexity="high", systemcard="true")
    assert competition_ids({"complexity": ["embedded"]}, tmp_path) == ["a-embedded"]
    assert competition_ids({"systemcard": True}, tmp_path) == ["b-low", "c-high"]
    assert competition_ids({"systemcard": [True], "complexity": ["high", "medium"]}, tmp_path) == ["c-high"]
    assert competition_ids({"source.kind": "kaggle"}, tmp_path) == ["a-embedded", "b-low", "c-high"]
    assert competition_ids({}, tmp_path) == ["a-embedded", "b-low", "c-high"]
    with pytest.raises(ConfigError, match="'colour' is not a declaration field"):
        competition_ids({"colour": ["red"]}, tmp_path)


def test_competition_ids_refuses_a_broken_declaration(tmp_path: Path) -> None:
    _write(tmp_path, "fine")
    _write(
        tmp_path,
        "broken",
        GOOD.format(id="broken", complexity="dev", systemcard="false", metric="accuracy") + "x: 1\n",
    )
    with pytest.raises(ConfigError, match="broken/competition.yaml: unknown key 'x'"):
        competition_ids({"complexity": ["dev"]}, tmp_path)


def test_the_real_competitions_have_no_problems(registry_ready: None) -> None:
    root = Path(__file__).resolve().parents[1]
    assert [str(p) for p in check_all(root)] == []


def test_metric_column_arguments_must_name_declared_columns(tmp_path: Path, registry_ready: None) -> None:
    yaml = GOOD.format(id="masked", complexity="dev", systemcard="false", metric="mae_masked").replace(
        "args: {}", "args: {target_column: y, mask_column: u_out}"
    )
    _write(tmp_path, "masked", yaml, leaderboard="score\n0.8\n0.9\n")
    problems = [p.message for p in check_all(tmp_path)]
    assert problems == ["metric.args.mask_column: column 'u_out' is not a submission or answer column"]
