"""The deterministic integrity checks over the labelled corpus (tests/integrity/corpus.yaml).

Every case must be flagged by exactly the checks it is labelled with (less its documented known misses),
and every registered check has at least one case it must flag and one near miss it must pass.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from integrity_corpus import cases, context, materialise

from mlebench.integrity.checks import CHECKS, run_checks
from mlebench.integrity.run_view import RunView
from mlebench_spec.errors import DataError
from mlebench_spec.params import IntegritySettings

CASES = cases()
EVIDENCE = re.compile(
    r"^\S+(:\d+: .+|: \d+ validator replies \(limit \d+\)|: its values reproduce the submission's .+)$"
    r"|^no (file|program) in code/"
)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_each_case_is_flagged_by_exactly_its_checks(case, tmp_path: Path) -> None:
    results = run_checks(context(case, materialise(case, tmp_path)))
    flagged = {r.check for r in results if r.flagged}
    assert flagged == case.expect - case.known_miss
    for result in results:
        assert bool(result.evidence) >= result.flagged, result  # a flag always carries evidence
        assert all(EVIDENCE.match(e) for e in result.evidence), result.evidence


@pytest.mark.parametrize("check", sorted(CHECKS))
def test_every_check_has_positive_and_negative_cases(check: str) -> None:
    positive = [c.name for c in CASES if check in c.expect - c.known_miss]
    negative = [c.name for c in CASES if check not in c.expect and c.name.startswith(("clean", "near"))]
    assert positive and negative, (check, positive, negative)


def test_evidence_names_the_file_and_line(tmp_path: Path) -> None:
    (case,) = [c for c in CASES if c.name == "outside_private_answers"]
    results = {r.check: r for r in run_checks(context(case, materialise(case, tmp_path)))}
    assert results["outside_reads"].evidence == [
        'code/train.py:3: answers = pd.read_csv("/private/data/titanic-lite/prepared/private/answers.csv")'
    ]


def test_the_validation_limit_is_a_setting(tmp_path: Path) -> None:
    (case,) = [c for c in CASES if c.name == "near_validations_under_limit"]
    run = materialise(case, tmp_path)
    strict = IntegritySettings(max_validations=10)
    (result,) = [r for r in run_checks(context(case, run, strict)) if r.check == "validations"]
    assert result.flagged and result.details["calls"] == 40 and result.details["limit"] == 10
    assert result.details["recorded_by_server"] is None  # no server record in this run.json: logs only


def test_host_paths_of_the_checkout_are_outside_reads(tmp_path: Path) -> None:
    """The answers' host path (which the local runner's agent could name) counts as outside the data."""
    (case,) = [c for c in CASES if c.name == "clean_script"]
    run = materialise(case, tmp_path)
    peek = "import pandas as pd\npd.read_csv('/srv/mle/private/answers.csv')\n"
    (run / "code" / "peek.py").write_text(peek)
    ctx = context(case, run)
    assert not {r.check for r in run_checks(ctx) if r.flagged}
    ctx = type(ctx)(ctx.run, ctx.competition, ctx.agent, ctx.settings, private_paths=("/srv/mle/private",))
    assert {r.check for r in run_checks(ctx) if r.flagged} == {"outside_reads"}


def test_a_run_without_a_record_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"run\.json: cannot read the run record"):
        RunView.load(tmp_path)


def test_oversized_files_are_cut_and_the_cut_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import mlebench.integrity.run_view as run_view

    monkeypatch.setattr(run_view, "MAX_FILE_BYTES", 100)
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "big.log").write_text("x" * 1000)
    (tmp_path / "run.json").write_text("{}")
    view = RunView.load(tmp_path)
    assert view.truncated == ["logs/big.log"] and len(view.logs[0].text) == 100


def test_a_forbidden_resource_that_is_not_a_regex_is_named(tmp_path: Path) -> None:
    from mlebench_spec.declarations import parse_declaration
    from mlebench_spec.errors import ConfigError

    source = Path(__file__).resolve().parents[2] / "competitions" / "titanic-lite" / "competition.yaml"
    folder = tmp_path / "titanic-lite"
    folder.mkdir()
    text = source.read_text() + "forbidden_resources:\n  - {pattern: 'kaggle(', reason: unbalanced}\n"
    (folder / "competition.yaml").write_text(text)
    with pytest.raises(ConfigError, match=r"forbidden_resources\.0\.pattern: .*not a regular expression"):
        parse_declaration(folder / "competition.yaml")
