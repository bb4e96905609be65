"""Every Kaggle competition's prepare.py, run on its fixture: layout, no leak, answers gold, sample no medal."""

from __future__ import annotations

from pathlib import Path

import pytest
from kaggle_fixtures import KAGGLE_IDS, prepare_fixture

from mlebench.audit import audit
from mlebench.hashing import sha256_tree
from mlebench.selfcheck import selfcheck


@pytest.mark.parametrize("competition_id", KAGGLE_IDS)
def test_prepare_on_fixture(competition_id: str, tmp_path: Path) -> None:
    """The layout check runs inside prepare; then the leak audit and the self-check must pass."""
    got = prepare_fixture(competition_id, tmp_path / "a")
    findings = audit(got.comp, got.public, got.private)
    assert [f for f in findings if not f.known] == []
    results, failures = selfcheck(got.comp, got.public, got.private)
    assert failures == [], results


@pytest.mark.parametrize("competition_id", KAGGLE_IDS)
def test_prepare_is_deterministic(competition_id: str, tmp_path: Path) -> None:
    one = prepare_fixture(competition_id, tmp_path / "a")
    two = prepare_fixture(competition_id, tmp_path / "b")
    assert sha256_tree(one.public) == sha256_tree(two.public)
    assert sha256_tree(one.private) == sha256_tree(two.private)
