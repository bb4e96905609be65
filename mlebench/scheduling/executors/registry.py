"""The executors the scheduler can dispatch stages to, in one explicit registry.

Adding one is a new file in this package (a class with the :class:`~mlebench.scheduling.executors.base.
Executor` shape and a pydantic ``Settings`` model) plus one line here.
"""

from __future__ import annotations

from typing import Any

from mlebench.scheduling.executors.base import Executor
from mlebench.scheduling.executors.local import LocalExecutor
from mlebench.scheduling.executors.ray_cluster import RayExecutor
from mlebench.scheduling.executors.slurm import SlurmExecutor
from mlebench_spec.errors import ConfigError

EXECUTORS: dict[str, Any] = {
    "local": LocalExecutor,
    "slurm": SlurmExecutor,
    "ray": RayExecutor,
}


def get_executor(name: str, settings: dict[str, Any], root: Any) -> Executor:
    """Build the registered executor ``name`` from its settings (conf/executor/<name>.yaml, validated)."""
    from pydantic import ValidationError

    try:
        cls = EXECUTORS[name]
    except KeyError:
        raise ConfigError(f"executor {name!r} is unknown (known: {', '.join(EXECUTORS)})") from None
    try:
        parsed = cls.Settings.model_validate(settings)
    except ValidationError as exc:
        raise ConfigError(f"conf/executor/{name}.yaml: {exc}") from None
    return cls(parsed, root)
