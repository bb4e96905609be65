"""The labelled integrity corpus (tests/integrity/corpus.yaml), materialised as run folders."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from mlebench.integrity.checks import Context
from mlebench.integrity.run_view import RunView
from mlebench_spec.declarations import load_competition
from mlebench_spec.params import AgentConfig, IntegritySettings
from mlebench_spec.yamlio import load_yaml

CORPUS = Path(__file__).resolve().parent / "integrity" / "corpus.yaml"
ROOT = Path(__file__).resolve().parents[1]
_VALIDATIONS = "__VALIDATIONS_"
_REPLY = "Submission is valid: /home/submission/submission.csv has the format of sample_submission.csv"


@dataclass(frozen=True)
class Case:
    """One labelled run."""

    name: str
    competition: str
    agent: AgentConfig
    expect: frozenset[str]
    known_miss: frozenset[str]
    files: dict[str, str]
    submission: bool


def cases() -> list[Case]:
    """Every case of the corpus, in file order."""
    out = []
    for raw in load_yaml(CORPUS)["cases"]:
        agent = raw.get("agent", {})
        network = agent.get("network", "none")
        config = {"path": "agents/x", "command": ["python", "main.py"], "network": network}
        if "models" in agent:
            config["disclosures"] = {
                "models": agent["models"],
                "uses_test_feedback": False,
                "web_search": False,
            }
        out.append(
            Case(
                name=raw["name"],
                competition=raw.get("competition", "titanic-lite"),
                agent=AgentConfig.model_validate(config),
                expect=frozenset(raw["expect"]),
                known_miss=frozenset(raw.get("known_miss", [])),
                files=dict(raw["files"]),
                submission=raw.get("submission", True),
            )
        )
    return out


def materialise(case: Case, dest: Path) -> Path:
    """Write ``case`` as a run folder under ``dest`` and return it."""
    run = dest / case.name
    for rel, text in case.files.items():
        if text.startswith(_VALIDATIONS):
            text = "\n".join([_REPLY] * int(text[len(_VALIDATIONS) :].rstrip("_"))) + "\n"
        (run / rel).parent.mkdir(parents=True, exist_ok=True)
        (run / rel).write_text(text, encoding="utf-8")
    record = {"competition_id": case.competition, "agent": "x", "seed": 0, "status": "ok"}
    (run / "run.json").write_text(json.dumps(record), encoding="utf-8")
    if case.submission and "submission.csv" not in case.files:  # a case may bring its own
        (run / "submission.csv").write_text("PassengerId,Survived\n892,0\n", encoding="utf-8")
    return run


def context(case: Case, run: Path, settings: IntegritySettings | None = None) -> Context:
    """Return the checks' context for a materialised case, with the planned default settings."""
    if settings is None:
        settings = IntegritySettings.model_validate(load_yaml(ROOT / "conf" / "integrity" / "default.yaml"))
    return Context(RunView.load(run), load_competition(case.competition, ROOT), case.agent, settings)
