"""params.yaml validation: placeholders, unknown keys and bad values name the key."""

from __future__ import annotations

import pytest

from mlebench.spec.errors import ConfigError
from mlebench.spec.params import validate_plan

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
    from mlebench.spec.params import DockerSettings

    with pytest.raises(ConfigError, match="runner"):
        resolve({**GOOD, "runner": "k8s"})
    with pytest.raises(ConfigError, match="runner"):
        get_runner("k8s", DockerSettings())
