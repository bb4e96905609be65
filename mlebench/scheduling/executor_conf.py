"""The executor settings of ``mlebench run``: the Hydra group ``conf/executor/`` and ``executor.*`` overrides.

They say where and how stages run, not what they compute, so they stay out of ``params.yaml`` (``compose``
drops them): no stage depends on them, changing them makes nothing stale, and ``mlebench plan --check``
is unaffected. Each run record carries the settings its cell ran under.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mlebench.planning.plan import conf_dir
from mlebench_spec.errors import ConfigError

PREFIX = "executor."


def split_overrides(overrides: list[str]) -> tuple[list[str], list[str]]:
    """Split command-line overrides into the plan's and the executor's (``executor.slots=8``)."""
    mine = [o for o in overrides if o.lstrip("+~").startswith(PREFIX)]
    return [o for o in overrides if o not in mine], mine


def executor_settings(name: str, overrides: list[str], root: Path | None = None) -> dict[str, Any]:
    """Compose ``executor=<name>`` with ``executor.<key>=<value>`` overrides into the executor's settings."""
    from hydra import compose, initialize_config_dir
    from hydra.errors import HydraException
    from omegaconf import OmegaConf
    from omegaconf.errors import OmegaConfBaseException

    folder = conf_dir(root)
    known = sorted(p.stem for p in (folder / "executor").glob("*.yaml"))
    if name not in known:
        raise ConfigError(
            f"unknown executor {name!r}: no conf/executor/{name}.yaml (known: {', '.join(known)})"
        )
    try:
        with initialize_config_dir(config_dir=str(folder), version_base="1.3"):
            cfg = compose("config", overrides=[f"executor={name}", *overrides])
        data = OmegaConf.to_container(cfg.executor, resolve=True)
    except (HydraException, OmegaConfBaseException) as exc:
        raise ConfigError(f"conf/executor/{name}.yaml: cannot compose with {overrides}: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"conf/executor/{name}.yaml must hold a mapping")
    return {str(k): v for k, v in data.items()}
