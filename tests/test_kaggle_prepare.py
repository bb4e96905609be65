"""Every Kaggle competition on its fixture, end to end.

Fetched with the real kaggle client from the stand-in server, prepared (the layout check runs inside),
audited for leaks, self-checked (answers gold, sample no medal), and prepared again to the same bytes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from kaggle_fixtures import KAGGLE_IDS, prepare_fixture

from authoring.kaggle_standin import StandinKaggle
from mlebench.data.audit import audit
from mlebench.data.selfcheck import selfcheck
from mlebench_spec.hashing import sha256_tree


@pytest.mark.parametrize("competition_id", KAGGLE_IDS)
def test_prepare_on_fixture(competition_id: str, tmp_path: Path, standin: StandinKaggle) -> None:
    got = prepare_fixture(competition_id, tmp_path / "a", standin)
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
