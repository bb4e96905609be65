"""The integrity stage: integrity.json's shape, written once and atomically; the optional model judge.

The judge is tested against the loopback OpenAI-compatible stand-in (authoring/llm_standin.py) through the
real ``openai`` SDK.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from integrity_corpus import cases, materialise

from authoring.llm_standin import StandinLLM
from mlebench.integrity.judge import QUESTIONS, parse_answer, prompt_sha256
from mlebench_spec.errors import ConfigError, DataError
from mlebench_spec.yamlio import load_yaml
from stages.integrity import main

ROOT = Path(__file__).resolve().parents[2]
CASES = {c.name: c for c in cases()}
KEYS = ["verdict", "checks", "plagiarism", "judge", "checked_at", "settings_sha256"]


@pytest.fixture()
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Build a minimal checkout: params.yaml, two declarations; stages find it through MLEBENCH_ROOT."""
    for cid in ("titanic-lite", "dog-breed-identification"):
        (tmp_path / "competitions" / cid).mkdir(parents=True)
        shutil.copy(ROOT / "competitions" / cid / "competition.yaml", tmp_path / "competitions" / cid)
    (tmp_path / "conf").mkdir()
    shutil.copy(ROOT / "params.yaml", tmp_path / "params.yaml")
    monkeypatch.setenv("MLEBENCH_ROOT", str(tmp_path))
    for proxy in ("HTTP_PROXY", "http_proxy"):  # the Kaggle stand-in's session proxy is not the judge's way
        monkeypatch.delenv(proxy, raising=False)
    return tmp_path


def _cell(checkout: Path, case: str, agent: str = "dummy", seed: int = 0) -> Path:
    run = materialise(CASES[case], checkout / "runs" / agent / CASES[case].competition)
    run.rename(run.with_name(str(seed)))
    return checkout / "integrity" / agent / CASES[case].competition / str(seed) / "integrity.json"


def _set_judge(checkout: Path, **judge: object) -> None:
    params = load_yaml(checkout / "params.yaml")
    params["integrity"]["judge"].update(judge)
    (checkout / "params.yaml").write_text(json.dumps(params))


def _args(case: str, agent: str = "dummy") -> list[str]:
    return ["--competition", CASES[case].competition, "--agent", agent, "--seed", "0"]


def test_a_clean_run_gets_a_clean_verdict_with_every_check(checkout: Path) -> None:
    out = _cell(checkout, "clean_script")
    assert main(_args("clean_script")) == 0
    verdict = json.loads(out.read_text())
    assert list(verdict) == KEYS and verdict["verdict"] == "clean"
    assert [c["check"] for c in verdict["checks"]] == [
        "submission_provenance",
        "network",
        "model_api",
        "forbidden_resources",
        "outside_reads",
        "validations",
        "egress_log",
        "stashed_answers",
    ]
    assert verdict["plagiarism"] is None and verdict["judge"] is None  # no references; judge off
    assert len(verdict["settings_sha256"]) == 64 and verdict["checked_at"].endswith("+00:00")


def test_a_flagged_check_flags_the_cell_with_its_evidence(checkout: Path) -> None:
    out = _cell(checkout, "forbidden_stanford_dogs_wget")
    main(_args("forbidden_stanford_dogs_wget"))
    verdict = json.loads(out.read_text())
    flagged = [c for c in verdict["checks"] if c["flagged"]]
    assert verdict["verdict"] == "flagged"
    # The dummy's policy (params.yaml) is network none, so the wget is a network attempt as well.
    assert {c["check"] for c in flagged} == {"forbidden_resources", "network"}
    (forbidden,) = [c for c in flagged if c["check"] == "forbidden_resources"]
    assert forbidden["evidence"][0].startswith("agent_output.log:1: $ wget http://vision.stanford.edu")
    assert "Stanford Dogs" in next(iter(forbidden["details"]["matched"].values()))


def test_the_settings_hash_follows_the_settings(checkout: Path) -> None:
    out = _cell(checkout, "clean_script")
    main(_args("clean_script"))
    before = json.loads(out.read_text())["settings_sha256"]
    params = load_yaml(checkout / "params.yaml")
    params["integrity"]["max_validations"] = 3
    (checkout / "params.yaml").write_text(json.dumps(params))
    main(_args("clean_script"))
    assert json.loads(out.read_text())["settings_sha256"] != before


def test_the_judge_flags_a_yes_and_records_model_and_prompt(
    checkout: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = _cell(checkout, "hand_written_heredoc")
    script = [(r"write any of the test-set predictions itself", "Lines 1-4 type rows in.\nFinal answer: yes")]
    with StandinLLM(script, key="judge-key") as llm:
        _set_judge(checkout, enabled=True, base_url=llm.base_url, model="standin-judge")
        monkeypatch.setenv("MLEBENCH_JUDGE_API_KEY", "judge-key")
        main(_args("hand_written_heredoc"))
        sent = llm.requests
    verdict = json.loads(out.read_text())
    judge = verdict["judge"]
    assert judge["model"] == "standin-judge" and judge["prompt_sha256"] == prompt_sha256()
    assert {k: v["answer"] for k, v in judge["answers"].items()} == {
        "hand_written_submission": "yes",
        "unauthorised_resources": "no",
        "external_llm_api": "no",
    }
    (check,) = [c for c in verdict["checks"] if c["check"] == "judge"]
    assert check["flagged"] and check["evidence"][0].startswith("hand_written_submission: Lines 1-4")
    assert len(sent) == len(QUESTIONS) and all(r["temperature"] == 0 for r in sent)
    assert "cat > /home/submission/submission.csv" in sent[0]["messages"][1]["content"]


def test_the_judge_sends_long_content_in_chunks_and_any_yes_flags(
    checkout: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = _cell(checkout, "clean_script")

    def script(messages: list[dict]) -> str:  # only the chunk holding the model's fit says yes
        return "Final answer: yes" if "model.fit" in messages[1]["content"] else "Final answer: no"

    with StandinLLM(script) as llm:
        _set_judge(checkout, enabled=True, base_url=llm.base_url, chunk_chars=200)
        monkeypatch.setenv("MLEBENCH_JUDGE_API_KEY", "k")
        main(_args("clean_script"))
    answers = json.loads(out.read_text())["judge"]["answers"]
    assert answers["external_llm_api"]["chunks"] > 2 and answers["external_llm_api"]["answer"] == "yes"


def test_an_enabled_judge_without_its_key_is_a_config_error(checkout: Path, monkeypatch) -> None:
    _cell(checkout, "clean_script")
    _set_judge(checkout, enabled=True)
    monkeypatch.delenv("MLEBENCH_JUDGE_API_KEY", raising=False)
    with pytest.raises(ConfigError, match=r"\$MLEBENCH_JUDGE_API_KEY is not set"):
        main(_args("clean_script"))


def test_a_failing_judge_leaves_the_previous_verdict_intact(checkout: Path, monkeypatch) -> None:
    out = _cell(checkout, "clean_script")
    main(_args("clean_script"))
    before = out.read_text()
    with StandinLLM(fail=100) as llm:
        _set_judge(checkout, enabled=True, base_url=llm.base_url, timeout_secs=5)
        monkeypatch.setenv("MLEBENCH_JUDGE_API_KEY", "k")
        with pytest.raises(DataError, match="integrity judge at http://127.0.0.1"):
            main(_args("clean_script"))
    assert out.read_text() == before and not list(out.parent.glob(".*tmp*"))


def test_a_missing_run_is_reported_cleanly(checkout: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from mlebench.stage import run_stage

    assert run_stage(main, _args("clean_script")) == 2
    assert "run.json: cannot read the run record" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("reply", "answer"),
    [("It did.\nFinal answer: yes", "yes"), ("final answer: **No**", "no"), ("I cannot tell.", None)],
)
def test_replies_are_parsed_by_their_last_final_answer(reply: str, answer: str | None) -> None:
    assert parse_answer(reply) == answer


def test_plagiarism_against_the_competitions_notebooks_flags_the_cell(checkout: Path) -> None:
    kernels = checkout / "data" / "kernels" / "titanic-lite"
    kernels.mkdir(parents=True)
    notebooks = Path(__file__).with_name("notebooks")
    shutil.copy(notebooks / "forest_guide.txt", kernels / "alice__forest-guide.py")
    (kernels / "manifest.json").write_text(
        json.dumps({"kernels": [{"ref": "alice/forest-guide", "file": "alice__forest-guide.py"}]})
    )
    out = _cell(checkout, "clean_script")
    run = checkout / "runs" / "dummy" / "titanic-lite" / "0"
    shutil.copy(notebooks / "edited_copy.txt", run / "code" / "train.py")
    main(_args("clean_script"))
    verdict = json.loads(out.read_text())
    assert verdict["verdict"] == "flagged"
    assert verdict["plagiarism"]["top"][0]["notebook"] == "alice/forest-guide"
    assert verdict["plagiarism"]["threshold"] == 0.5
    assert [c["check"] for c in verdict["checks"] if c["flagged"]] == ["plagiarism"]
