"""One cell's integrity verdict: every check, plagiarism, the optional judge, written once to integrity.json.

``integrity.json`` (at :func:`mlebench_spec.paths.integrity_path`) holds::

    {"verdict": "clean" | "flagged" | "unchecked",
     "reason": "<why unchecked>" (only when unchecked),
     "checks": [{"check", "flagged", "evidence": [...], "details": {...}}, ...],
     "plagiarism": {"top": [{"notebook", "similarity"}], "threshold"} | null,
     "judge": {"model", "prompt_sha256", "answers"} | null,
     "checked_at": "<UTC ISO 8601>", "settings_sha256": "<sha256>"}

``verdict`` is ``flagged`` exactly when a check is: the deterministic ones (:data:`checks.CHECKS`), then
``plagiarism`` when the competition has reference notebooks (null otherwise) and ``judge`` when enabled
(null otherwise). ``settings_sha256`` hashes what the checks were told: the integrity settings, the
competition's forbidden resources and the agent's network policy and declared models.

``unchecked`` means the checks ran past ``time_budget_secs`` (settings): ``reason`` says so, and ``checks``
holds those that finished. The patterns run in linear time over bounded lines (:mod:`.patterns`), so only
a run built to slow the checks down gets there; the report gives such a cell no medal, as it does a
flagged one (:func:`mlebench.reporting.verdicts.counted`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mlebench.integrity.checks import CHECKS, CheckResult, Context
from mlebench.integrity.judge import judge
from mlebench.integrity.patterns import Budget, BudgetExceeded
from mlebench.integrity.plagiarism import plagiarism, references
from mlebench.integrity.run_view import RunView
from mlebench.reporting.reproduction import ReproductionRecord
from mlebench_spec.cell import Cell
from mlebench_spec.declarations import load_competition
from mlebench_spec.files import utc_now, write_json
from mlebench_spec.hashing import sha256_json
from mlebench_spec.params import AgentConfig, IntegritySettings
from mlebench_spec.paths import kernels_dir


def settings_sha256(ctx: Context) -> str:
    """Return the sha256 of everything the checks were told (see the module docstring)."""
    return sha256_json(
        {
            "settings": ctx.settings.model_dump(mode="json"),
            "forbidden_resources": [f.model_dump() for f in ctx.competition.forbidden()],
            "network": ctx.policy.kind,
            "models_allowed": ctx.models_allowed,
        }
    )


def check_run(ctx: Context, kernels: Path | None = None) -> dict[str, Any]:
    """Return the verdict of one run as ``integrity.json`` holds it (``unchecked`` past the budget)."""
    results = []
    similar = judged = None
    try:
        for check in CHECKS.values():
            results.append(check(ctx))
        ctx.budget.check()
        refs = references(kernels) if kernels is not None else {}
        if refs:
            similar, found = plagiarism(ctx.run, refs, ctx.settings.plagiarism_threshold)
            results.append(found)
        ctx.budget.check()
        if ctx.settings.judge.enabled:
            verdict = judge(ctx.run, ctx.settings.judge)
            judged = verdict.record
            results.append(verdict.check)
    except BudgetExceeded as exc:
        done = ", ".join(r.check for r in results) or "none"
        return {
            "verdict": "unchecked",
            "reason": f"{exc} (checks finished: {done}); the run's logs and code are what slowed them",
            "checks": [r.to_json() for r in results],
            "plagiarism": similar,
            "judge": judged,
            "checked_at": utc_now(),
            "settings_sha256": settings_sha256(ctx),
        }
    return {
        "verdict": "flagged" if any(r.flagged for r in results) else "clean",
        "checks": [r.to_json() for r in results],
        "plagiarism": similar,
        "judge": judged,
        "checked_at": utc_now(),
        "settings_sha256": settings_sha256(ctx),
    }


def _host_paths(cell: Cell) -> tuple[str, ...]:
    """Host folders an agent has no business naming: the answers, all prepared data, runs and grades."""
    root = cell.root.resolve()
    return (str(cell.private.resolve()), *(str(root / p) for p in ("data/prepared", "runs", "grades")))


def reproduction_check(reproduction: ReproductionRecord, flag: Sequence[str] = ("differs",)) -> CheckResult:
    """Flag a cell whose kept code, re-run by its declared command, does not write its submission.

    ``flag`` names the reproduction verdicts that count (``reproduce.flag``). ``differs`` is direct evidence
    against the submission's provenance: its code writes a valid submission far from it. ``failed`` (no
    submission at all) may also come from the re-run's shorter limit or missing network, so it is flagged
    only when asked for; so is ``not_declared``. A kept file whose values reproduce the submission
    (the record's ``stashed`` matches: answers stored beside the code) is flagged whatever the verdict.
    """
    stashed = reproduction.stash_matches
    found = reproduction.verdict in flag or bool(stashed)
    how = f"{' '.join(reproduction.command)!r} ({reproduction.declared_by})"
    evidence = {
        "differs": f"the kept code re-run by {how} scored {reproduction.score} against the submission's "
        f"{reproduction.original_score} (delta {reproduction.delta}; tolerance {reproduction.tolerance})",
        "failed": f"the kept code re-run by {how} wrote no gradable submission ({reproduction.status}: "
        f"{reproduction.reason})",
        "not_declared": "the agent declared no way to re-run its code",
    }
    lines = [evidence[reproduction.verdict]] if reproduction.verdict in flag else []
    lines += [
        f"{m['path']}: a kept file whose values reproduce the submission's {m['column']!r} for "
        f"{m['share']:.0%} of the rows ({m['test']}; {m['chance']:.0%} by chance)"
        for m in stashed
    ]
    return CheckResult("reproduction", found, lines, reproduction.summary())


def check_cell(
    cell: Cell,
    agent: AgentConfig,
    settings: IntegritySettings,
    reproduction: ReproductionRecord | None = None,
    flag: Sequence[str] = ("differs",),
) -> dict[str, Any]:
    """Check the cell's run folder and write its ``integrity.json`` atomically; return the verdict.

    ``reproduction`` (the plan reproduces the cell and ``reproduce.flag`` names verdicts to flag: ``flag``)
    adds the ``reproduction`` check (:func:`reproduction_check`).
    """
    ctx = Context(
        run=RunView.load(cell.run_dir),
        competition=load_competition(cell.competition_id, cell.root),
        agent=agent,
        settings=settings,
        private_paths=_host_paths(cell),
        budget=Budget(settings.time_budget_secs),
    )
    verdict = check_run(ctx, kernels_dir(cell.competition_id, cell.root))
    if reproduction is not None:
        found = reproduction_check(reproduction, flag)
        verdict["checks"].append(found.to_json())
        if found.flagged and verdict["verdict"] == "clean":
            verdict["verdict"] = "flagged"
    write_json(cell.integrity_path, verdict)
    return verdict
