"""What ``mlebench verify-bundle`` re-derives from a bundled cell instead of taking its records' word.

The verifier (:mod:`mlebench.reporting.verify`) sits below the runners and the checks, so the command hands
these in (:func:`rederivers`): a cell's isolation, read from its bundled ``run.json`` by its runner's record
type as the grade stage reads it, and its deterministic integrity checks, re-run over the bundled evidence
(run record, code, logs, validation and proxy records, submission) with the bundled integrity settings.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mlebench.execution.runners import unisolated_reason
from mlebench.integrity.checks import Context, run_checks
from mlebench.integrity.run_view import RunView
from mlebench.reporting.verify import Rederivers
from mlebench_spec.declarations import Competition
from mlebench_spec.params import AgentConfig, IntegritySettings


def rederivers() -> Rederivers:
    """Return the re-derivations ``verify-bundle`` runs: isolation and the integrity checks."""
    return Rederivers(isolation=unisolated_reason, integrity=rerun_checks)


def rerun_checks(
    cell: Path, competition: Competition, agent: dict[str, Any], settings: dict[str, Any]
) -> list[dict[str, Any]]:
    """Re-run every deterministic check over one bundled cell; return them as integrity.json lists them."""
    ctx = Context(
        RunView.load(cell),
        competition,
        AgentConfig.model_validate(agent),
        IntegritySettings.model_validate(settings),
    )
    return [result.to_json() for result in run_checks(ctx)]
