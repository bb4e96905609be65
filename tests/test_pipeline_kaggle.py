"""`dvc repro` of a Kaggle competition: the fetch stage downloads through the real kaggle client.

The stand-in server serves spaceship-titanic's fixture; the pipeline fetches, prepares, self-checks,
audits, runs the dummy agent and grades. Then the prepared split goes to the DVC remote, and a teammate's
`dvc pull` restores it without downloading anything from Kaggle again.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from checkout_copy import copy_checkout, plan_and_commit, run
from kaggle_fixtures import serve_fixture

from authoring.kaggle_standin import StandinKaggle
from mlebench_spec.declarations import load_competition

pytestmark = pytest.mark.slow
CID = "spaceship-titanic"


def test_dvc_repro_fetches_through_kaggle_then_push_and_pull_restore_it(
    standin: StandinKaggle, tmp_path: Path
) -> None:
    serve_fixture(load_competition(CID), standin, tmp_path / "served")
    repo = copy_checkout(tmp_path)
    plan_and_commit(
        repo, ["competition_set=custom", f"competition_set.ids=[{CID}]", "agent=[dummy]", "seed=one"]
    )
    env = standin.client_env()
    standin.requests.clear()
    run(["dvc", "repro"], repo, env=env)
    downloads = [r for r in standin.requests if r[0] == "GET"]
    assert len(downloads) == 1, standin.requests
    record = json.loads((repo / "grades" / "dummy" / CID / "0.json").read_text())
    assert record["status"] == "ok" and record["valid_submission"] and not record["any_medal"]
    assert json.loads((repo / "data" / "audit" / f"{CID}.json").read_text())["ok"] is True
    answers = (repo / "data" / "prepared" / CID / "private" / "test.csv").read_bytes()

    run(["dvc", "push"], repo)
    for folder in ("data", "runs", "grades", "report"):
        shutil.rmtree(repo / folder)
    shutil.rmtree(repo / ".dvc" / "cache")
    run(["dvc", "pull"], repo)
    assert (repo / "data" / "prepared" / CID / "private" / "test.csv").read_bytes() == answers
    assert run(["dvc", "status", "--json"], repo).stdout.strip() in ("{}", "")
    assert [r for r in standin.requests if r[0] == "GET"] == downloads  # nothing downloaded again
