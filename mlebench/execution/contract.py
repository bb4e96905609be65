"""The agent contract: what every runner gives an agent, and what it must hold the agent to.

Every runner (:mod:`mlebench.execution.runners` lists them) implements this module and imports no other
runner (Podman alone extends Docker). Adding a runner = a class with the :class:`~.runners.Runner` shape
that gives the agent what follows, plus one line in the registry.

- **Folders** (:data:`CONTRACT_DIRS`, under :data:`HOME`): ``data`` (the public split with
  ``description.md``, read-only), ``submission``, ``code`` and ``logs`` (empty, written by the agent,
  :data:`OUTPUT_DIRS`), ``agent`` (a copy of the agent's folder, its working folder) and
  :data:`INSTRUCTIONS_PATH`. A container runner uses these paths; the local runner the same names in a
  scratch home. ``code`` is seeded with the kept code when the cell re-runs it (:func:`seed_code`).
- **Variables** (:func:`agent_env`, :func:`container_env`): the folders, the cell, its hardware, the
  agent's kwargs, thread counts; the runner adds its own ``PATH``, the key (:mod:`.secrets`) and the proxy.
- **Instructions** (:func:`instructions_file`): ours (:data:`INSTRUCTIONS`) or v1's, checked against
  their pinned git blob id (:data:`V1_INSTRUCTIONS`); an isolating runner appends :data:`CONTAINER_NOTE`
  with the network note (:func:`network_note`): :func:`instructions_text`.
- **Validation** (:func:`validation_spec`): the public part of the declaration that ``validate`` (v1's
  ``localhost:5000/validate``) reads at :data:`VALIDATION_SPEC_PATH`; its server runs as its own user and
  records every call (:data:`VALIDATIONS_LOG` in the run).
- **Limits** (:data:`LIMITS_ENFORCED`): what an isolating runner must hold; a limit it did not hold is
  recorded (:func:`limits_missing`) and the cell is then not counted.
- **Network**: the agent's typed policy (:class:`mlebench_spec.network.NetworkPolicy`); under a proxied
  policy the cell's logging proxy writes :data:`PROXY_LOG` in the run, and run.json keeps
  :func:`egress_facts` and the held policy. A runner that cannot hold a policy refuses the cell.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any, Protocol

from mlebench_spec.cell import Cell
from mlebench_spec.errors import ConfigError
from mlebench_spec.network import NetworkPolicy
from mlebench_spec.params import AgentConfig
from mlebench_spec.texts import checked_v1_file, checkout_dir
from mlebench_spec.yamlio import load_yaml

INSTRUCTIONS = Path(__file__).with_name("instructions.txt")
V1_INSTRUCTIONS = Path(__file__).with_name("instructions.v1.yaml")  # v1's, pinned by git blob id

HOME = "/home"
CONTRACT_DIRS = {
    "DATA_DIR": "/home/data",
    "SUBMISSION_DIR": "/home/submission",
    "CODE_DIR": "/home/code",
    "LOGS_DIR": "/home/logs",
    "AGENT_DIR": "/home/agent",
}
INSTRUCTIONS_PATH = "/home/instructions.txt"
OUTPUT_DIRS = ("SUBMISSION_DIR", "CODE_DIR", "LOGS_DIR")
"""The contract folders the agent writes, collected into the run after it stops."""
ENVIRONMENT = "environment"
"""The checkout folder of the agent's environment: the env image's context, the sandbox's contract files."""
VALIDATOR = "environment/validate.py"
"""The ``validate`` command: the env image holds it and exactly the modules it imports."""
VALIDATION_SPEC_PATH = "/opt/mlebench/competition.json"
ENTRYPOINT = "/opt/mlebench/agent-entry"
"""Starts the validation server on the agent's loopback (v1's localhost:5000), then the agent."""
AGENT_UID = 1000
VALIDATOR_UID = 1001
"""The validation server's own user (``validator`` in the env image), not the agent's."""
VALIDATIONS_LOG = "validations.jsonl"
"""The validation server's call record, copied to the run dir after the agent stops."""
NO_NETWORK_ROUTE = "no network: a network namespace of its own with a loopback only"
"""The route that holds policy ``none`` under every isolating runner."""
PROXY_LOG = "proxy_access.log"
"""Under a proxied policy: the cell proxy's access log (a line per request or tunnel), in the run."""

LIMITS_ENFORCED = ["time_limit_secs", "cpus", "memory (no swap)", "shm_size", "pids", "gpus", "network"]
"""What an isolating runner holds the agent to; a cell whose runner did not hold one is not counted."""

CONTAINER_NOTE = """
In this container:
- `validate [path]` checks a submission's format (default: $SUBMISSION_DIR/submission.csv) against
  $DATA_DIR/sample_submission.csv and the task's submission format, with the grader's own messages. It never
  tells you a score. The same check answers `curl -X POST -F "file=@submission.csv"
  http://localhost:5000/validate` and `/home/validate_submission.sh submission.csv`.
- You run as an unprivileged user; $SUBMISSION_DIR, $CODE_DIR, $LOGS_DIR, $AGENT_DIR and /tmp are writable.
- {network}
"""


def limits_missing(enforced: list[str]) -> list[str]:
    """Return the contract's limits (:data:`LIMITS_ENFORCED`) that are not in ``enforced``.

    >>> limits_missing(["time_limit_secs", "network"])
    ['cpus', 'memory (no swap)', 'shm_size', 'pids', 'gpus']
    """
    return [limit for limit in LIMITS_ENFORCED if limit not in enforced]


def seed_code(cell: Cell, code_dir: Path) -> None:
    """Copy ``cell.code_from`` (kept code to re-run: the reproduce stage) into the empty ``code_dir``.

    Regular files and folders only: a symlink in the kept code is left out (the runners never collect one).
    """
    if cell.code_from is None:
        return
    if not cell.code_from.is_dir():
        raise ConfigError(f"{cell.label}: the kept code {cell.code_from} to re-run is not a folder")
    for item in sorted(cell.code_from.rglob("*")):
        rel = item.relative_to(cell.code_from)
        if item.is_symlink():
            continue
        if item.is_dir():
            (code_dir / rel).mkdir(parents=True, exist_ok=True)
        elif item.is_file():
            (code_dir / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(item, code_dir / rel)


def instructions_file(cell: Cell) -> Path:
    """Return the general instructions the cell's agent gets: ours, or v1's from its checkout, checked."""
    if cell.texts.source == "ours":
        return INSTRUCTIONS
    pin = load_yaml(V1_INSTRUCTIONS)
    what = "v1's instructions"
    if cell.texts.obfuscate:
        pin, what = pin["obfuscated"], "v1's obfuscated instructions"
    checkout = checkout_dir(cell.texts, cell.root)
    return checked_v1_file(checkout, pin["path"], pin["git_blob"], what)


def network_note(agent: AgentConfig) -> str:
    """Return the line of the container note that tells the agent what it can reach."""
    policy = agent.policy
    if policy.allows_all:
        return (
            "Outbound network access is available (this agent opted into egress), through the proxy in "
            "$HTTPS_PROXY / $HTTP_PROXY (set for you; CONNECT for https, absolute URLs for http). Every "
            "request is logged with the run; private networks (other runs, this host) are unreachable."
        )
    if policy.proxied:
        key = (
            f" Your API key is in the environment variable ${agent.api_key_env}." if agent.api_key_env else ""
        )
        return (
            "The network reaches only these endpoints, through the proxy in $HTTPS_PROXY / $HTTP_PROXY "
            f"(set for you; CONNECT for https, absolute URLs for http): {', '.join(policy.endpoints)}. "
            f"Every other host, port and DNS name is unreachable.{key}"
        )
    return "There is no network access."


def instructions_text(agent: AgentConfig, instructions: Path = INSTRUCTIONS) -> str:
    """Return what an isolating runner puts at :data:`INSTRUCTIONS_PATH`: the instructions and the note."""
    return instructions.read_text(encoding="utf-8") + CONTAINER_NOTE.format(network=network_note(agent))


def agent_env(cell: Cell, home: Path, dirs: dict[str, Path]) -> dict[str, str]:
    """Return the agent's environment: the contract's folders, the cell, its hardware and its kwargs."""
    agent, hardware = cell.running()
    threads = str(max(1, int(hardware.cpus)))
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "PYTHONHASHSEED": str(cell.seed),
        "PYTHONDONTWRITEBYTECODE": "1",
        "OMP_NUM_THREADS": threads,
        "OPENBLAS_NUM_THREADS": threads,
        "MKL_NUM_THREADS": threads,
        "OMP_WAIT_POLICY": "PASSIVE",  # spinning OpenMP waits slow boosting 5-10x on a busy small host
        "DATA_DIR": str(dirs["data"]),
        "SUBMISSION_DIR": str(dirs["submission"]),
        "CODE_DIR": str(dirs["code"]),
        "LOGS_DIR": str(dirs["logs"]),
        "AGENT_DIR": str(dirs["agent"]),
        "INSTRUCTIONS_FILE": str(home / "instructions.txt"),
        "COMPETITION_ID": cell.competition_id,
        "SEED": str(cell.seed),
        "TIME_LIMIT_SECS": str(hardware.time_limit_secs),
        "HARDWARE_NAME": hardware.name,
        "HARDWARE_CPUS": threads,
        "HARDWARE_MEMORY": hardware.memory,
        "HARDWARE_GPUS": str(hardware.gpus),
        "AGENT_KWARGS": json.dumps(agent.kwargs, sort_keys=True),
    }
    for key in (
        "OPENBLAS_CORETYPE",
        "OPENBLAS_L2_SIZE",
        "CUDA_VISIBLE_DEVICES",
    ):  # BLAS fixes, the GPUs given
        if key in os.environ:
            env[key] = os.environ[key]
    return env


def container_env(cell: Cell) -> dict[str, str]:
    """Return the agent's environment at the contract's paths (:data:`CONTRACT_DIRS`): containers, sandbox.

    :func:`agent_env` at ``/home``, so a variable added there reaches every runner; only ``PATH`` (the
    runner's) and ``HOME`` (``/home/agent``, the agent's writable home) differ.
    """
    dirs = {name.lower().removesuffix("_dir"): Path(path) for name, path in CONTRACT_DIRS.items()}
    env = agent_env(cell, Path(HOME), dirs)
    env.pop("PATH", None)
    env["HOME"] = CONTRACT_DIRS["AGENT_DIR"]
    return env


def validation_spec(competition_id: str, root: Path) -> dict[str, Any] | None:
    """Return the public part of a declaration ``validate`` needs; None for an undeclared competition."""
    from mlebench_spec.declarations import declaration_path, load_competition

    if not declaration_path(competition_id, root).is_file():
        return None
    comp = load_competition(competition_id, root)
    return {
        "competition_id": comp.id,
        "submission": comp.submission.model_dump(),
        "metric": {"name": comp.metric.name, "args": dict(comp.metric.args)},
    }


class _Lineage(Protocol):
    def lineage(self) -> dict[str, Any]: ...


def egress_facts(
    policy: NetworkPolicy, proxy_image: _Lineage | None = None, tls: Any = None
) -> dict[str, Any]:
    """Return what run.json keeps of a proxied cell's way out (``egress``), for a held ``policy``.

    What it allows, the proxy (and its image), the TLS policy (:mod:`.egress_tls`), the access log, and the
    ``route``: how the agent was held to the proxy, its only way out.
    """
    found: dict[str, Any] = {"endpoints": list(policy.endpoints), "allows": policy.allows, "proxy": "squid"}
    if proxy_image is not None:
        found["proxy_image"] = proxy_image.lineage()
    if tls is not None:
        found["tls"] = tls.lineage()
    return {**found, "access_log": PROXY_LOG, "route": policy.route}
