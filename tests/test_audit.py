"""The leak audit finds answers in public files, under any column name, and accepts declared known leaks."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from mlebench.data.audit import audit, audit_report, known_leaks
from mlebench_spec.declarations import Competition, KnownIssue, load_competition

N = 60


@pytest.fixture
def prepared(tmp_path: Path) -> tuple[Competition, Path, Path]:
    """Write a clean split of spaceship-titanic's shape: answers private, features public."""
    rng = np.random.default_rng(0)
    public, private = tmp_path / "public", tmp_path / "private"
    public.mkdir()
    private.mkdir()
    ids = [f"{i:04d}_01" for i in range(N)]
    answers = pd.DataFrame({"PassengerId": ids, "Transported": rng.choice(["True", "False"], N)})
    answers.to_csv(private / "test.csv", index=False)
    features = pd.DataFrame({"PassengerId": ids, "Age": rng.integers(0, 80, N)})
    features.to_csv(public / "test.csv", index=False)
    answers.assign(Transported="False").to_csv(public / "sample_submission.csv", index=False)
    comp = load_competition("spaceship-titanic")
    return comp, public, private


def test_a_clean_split_has_no_findings(prepared: tuple[Competition, Path, Path]) -> None:
    assert audit(*prepared) == []


def test_a_renamed_answer_column_is_found(prepared: tuple[Competition, Path, Path]) -> None:
    comp, public, private = prepared
    answers = pd.read_csv(private / "test.csv", dtype=str)
    answers.rename(columns={"Transported": "flag"}).assign(other=1).to_csv(public / "meta.csv", index=False)
    (finding,) = audit(comp, public, private)
    assert finding.probe == "answer-values" and finding.file == "public/meta.csv"
    assert "column 'flag' equals the answers' 'Transported' for 60 of 60 test ids" in finding.detail
    assert not finding.known


def test_a_copy_of_a_private_file_is_found(prepared: tuple[Competition, Path, Path]) -> None:
    comp, public, private = prepared
    (public / "backup").mkdir()
    (public / "backup" / "labels.bin").write_bytes((private / "test.csv").read_bytes())
    probes = {(f.probe, f.file) for f in audit(comp, public, private)}
    assert ("copy", "public/backup/labels.bin") in probes


def test_labels_spelled_in_test_file_paths_are_found(tmp_path: Path) -> None:
    spaceship = load_competition("spaceship-titanic")
    spec = spaceship.submission.model_copy(update={"id_column": "id", "columns": ["id", "breed"]})
    comp = spaceship.model_copy(update={"submission": spec})
    public, private = tmp_path / "public", tmp_path / "private"
    private.mkdir()
    ids, labels = [f"img{i:03d}" for i in range(30)], [("beagle", "pug", "collie")[i % 3] for i in range(30)]
    pd.DataFrame({"id": ids, "breed": labels}).to_csv(private / "test.csv", index=False)
    for image, label in zip(ids, labels, strict=True):
        (public / "test" / label).mkdir(parents=True, exist_ok=True)
        (public / "test" / label / f"{image}.jpg").write_bytes(b"jpeg")
    (finding,) = audit(comp, public, private)
    assert finding.probe == "label-in-path"
    assert "30 of 30 public files named after a test id spell its label" in finding.detail


def test_a_flagged_known_leak_is_accepted_and_reported(prepared: tuple[Competition, Path, Path]) -> None:
    comp, public, private = prepared
    pd.read_csv(private / "test.csv", dtype=str).to_csv(public / "leaky.csv", index=False)
    issue = KnownIssue(summary="v1 ships the labels", leak="flagged", files=["public/leaky.csv"])
    flagged = comp.model_copy(update={"known_issues": [*comp.known_issues, issue]})
    findings = audit(flagged, public, private)
    assert findings and all(f.known for f in findings)
    record = audit_report(flagged, public, private)
    assert record["ok"] is True
    notes = known_leaks(record)
    assert notes[0] == "v1 ships the labels" and any("public/leaky.csv" in n for n in notes[1:])
    assert audit_report(comp, public, private)["ok"] is False
