"""params.yaml validation: placeholders, unknown keys and bad values name the key."""

from __future__ import annotations

import pytest

from mlebench_spec.errors import ConfigError
from mlebench_spec.params import validate_plan

GOOD = {
    "agent": {
        "dummy": {
            "path": "agents/dummy",
            "command": ["python", "main.py"],
            "kwargs": {},
            "disclosures": {"models": [], "uses_test_feedback": False, "web_search": False},
        }
    },
    "competition_set": {"name": "x", "ids": ["a"]},
    "runner": "local",
    "seeds": [0],
    "hardware": {
        "name": "cpu",
        "cpus": 2,
        "memory": "4g",
        "shm_size": "1g",
        "pids": 64,
        "gpus": 0,
        "time_limit_secs": 60,
    },
}


def test_good_plan_validates() -> None:
    assert validate_plan(GOOD, "p").seeds == [0]


def test_placeholder_is_rejected_with_its_key() -> None:
    bad = {**GOOD, "hardware": {**GOOD["hardware"], "memory": "???"}}
    with pytest.raises(ConfigError, match=r"hardware\.memory"):
        validate_plan(bad, "params.yaml")


@pytest.mark.parametrize(
    ("patch", "key"),
    [
        ({"seeds": [0, 0]}, "seeds"),
        ({"extra": 1}, "extra"),
        ({"seeds": []}, "seeds"),
    ],
)
def test_bad_values_name_the_key(patch: dict, key: str) -> None:
    with pytest.raises(ConfigError, match=key):
        validate_plan({**GOOD, **patch}, "params.yaml")


def test_unknown_runner_names_the_key() -> None:
    """Runner names come from the runner registry, which the schema layer cannot see.

    The plan and the run stage check them (``resolve`` and ``get_runner``), both naming the key.
    """
    from mlebench.execution.runners import get_runner
    from mlebench.planning.plan import resolve
    from mlebench_spec.params import DockerSettings

    with pytest.raises(ConfigError, match="runner"):
        resolve({**GOOD, "runner": "k8s"})
    with pytest.raises(ConfigError, match="runner"):
        get_runner("k8s", DockerSettings())


def _with_agent(**fields: object) -> dict:
    return {**GOOD, "agent": {"dummy": {**GOOD["agent"]["dummy"], **fields}}}


def test_llm_needs_endpoints_and_only_llm_takes_them() -> None:
    plan = validate_plan(
        _with_agent(network="llm", endpoints=["172.17.0.1:8000", "api.example.com:443"]), "p"
    )
    assert plan.agent["dummy"].endpoints == ["172.17.0.1:8000", "api.example.com:443"]
    with pytest.raises(ConfigError, match=r"agent\.dummy.*network 'llm' needs `endpoints"):
        validate_plan(_with_agent(network="llm"), "params.yaml")
    for network in ("none", "egress"):
        with pytest.raises(ConfigError, match=rf"agent\.dummy.*only applies to network 'llm'.*{network}"):
            validate_plan(_with_agent(network=network, endpoints=["a.example:443"]), "params.yaml")
    with pytest.raises(ConfigError, match="network"):
        validate_plan(_with_agent(network="anywhere"), "params.yaml")


@pytest.mark.parametrize(
    ("endpoint", "problem"),
    [
        ("api.example.com", "expected host:port"),
        (":443", "expected host:port"),
        ("api.example.com:0", "port"),
        ("api.example.com:65536", "port"),
        ("api.example.com:https", "port"),
        ("1.2.3.256:443", "not an IPv4 address"),
        ("[2001:db8::1]:443", "IPv6"),
        ("bad_name.example:443", "not a DNS name"),
        ("a..b:443", "not a DNS name"),
        ("all\nhttp_access allow all:443", "not a DNS name"),  # nothing can reach the proxy's config
        ("x:443 dstdomain .", "port"),
    ],
)
def test_bad_endpoints_are_refused_with_the_problem(endpoint: str, problem: str) -> None:
    with pytest.raises(ConfigError, match=problem):
        validate_plan(_with_agent(network="llm", endpoints=[endpoint]), "params.yaml")


def test_api_key_env_is_a_variable_name_the_runner_does_not_set() -> None:
    assert validate_plan(_with_agent(api_key_env="OPENAI_API_KEY"), "p").agent["dummy"].api_key_env == (
        "OPENAI_API_KEY"
    )
    for bad, problem in (
        ("1KEY", "not an environment variable name"),
        ("A-B", "not an environment"),
        ("HTTPS_PROXY", "the runner sets"),
        ("path", "the runner sets"),
    ):
        with pytest.raises(ConfigError, match=problem):
            validate_plan(_with_agent(api_key_env=bad), "params.yaml")


def test_new_agent_fields_serialise_only_when_set() -> None:
    """Agents without endpoints or a key keep the params (and so the DVC hashes) they had."""
    plain = validate_plan(GOOD, "p").agent["dummy"].model_dump()
    assert set(plain) == {"path", "command", "kwargs", "network", "disclosures"}
    llm = validate_plan(_with_agent(network="llm", endpoints=["h.example:443"], api_key_env="K_EY"), "p")
    dumped = llm.agent["dummy"].model_dump()
    assert dumped["endpoints"] == ["h.example:443"] and dumped["api_key_env"] == "K_EY"
    assert validate_plan({**GOOD, "agent": {"dummy": dumped}}, "p").agent["dummy"].model_dump() == dumped
