"""The typed network policy: what run.json records, and older run.json files (a bare name) still read."""

from __future__ import annotations

import pytest

from mlebench.execution.docker.agent import ContainerRunRecord
from mlebench.reporting.records import RunRecord
from mlebench_spec.network import NetworkPolicy
from mlebench_spec.params import AgentConfig

COMMON = dict(
    competition_id="c",
    agent="a",
    seed=0,
    runner="docker",
    status="ok",
    exit_code=0,
    started_at="t",
    finished_at="t",
    agent_seconds=1.0,
    time_limit_secs=10,
    hardware={},
    limits_enforced=[],
    submission_exists=True,
    extraction_notes=[],
    agent_sha256="x",
    config_sha256="y",
    public_sha256="z",
    python="3",
)


def test_the_type_says_what_each_policy_allows() -> None:
    none, egress = NetworkPolicy(), NetworkPolicy("egress")
    llm = AgentConfig(path="p", command=["x"], network="llm", endpoints=["api.example.com:443"]).policy
    assert (none.proxied, egress.proxied, llm.proxied) == (False, True, True)
    assert (none.allows_all, egress.allows_all, llm.allows_all) == (False, True, False)
    assert llm.endpoints == ("api.example.com:443",) and llm.allows == "the endpoints"
    with pytest.raises(ValueError, match="not one of none, egress, llm"):
        NetworkPolicy("everything")  # type: ignore[arg-type]


def test_a_held_policy_round_trips_through_run_json() -> None:
    held = NetworkPolicy("llm", ("api.example.com:443",)).held("sealed network")
    record = ContainerRunRecord(**COMMON, network="llm", network_policy=held)
    data = record.to_json()
    assert data["network_policy"] == {
        "kind": "llm",
        "allows": "the endpoints",
        "endpoints": ["api.example.com:443"],
        "proxied": True,
        "route": "sealed network",
    }
    assert ContainerRunRecord.from_json(data).network_policy == held
    assert NetworkPolicy.recorded(data) == held


def test_an_older_run_json_without_the_typed_field_is_read_by_its_name() -> None:
    old = {**COMMON, "network": "egress", "egress": {"endpoints": [], "route": "sealed network"}}
    record = ContainerRunRecord.from_json(old)
    assert "network_policy" not in record.to_json()  # written as it was read
    assert record.policy() == NetworkPolicy("egress", (), "sealed network")
    assert RunRecord.from_json({**COMMON, "runner": "local"}).policy() is None  # the local runner named none
