"""DVC stage `integrity`: check one finished run and write its verdict (integrity.json).

Deterministic checks over the run's logs, code and record, plagiarism against the competition's reference
notebooks, the model judge when enabled (``params.yaml: integrity``), and with ``--reproduction`` the re-run
of its kept code (the reproduce stage: a re-run that ``differs`` is flagged). A flagged cell keeps its score;
the report decides what a flag costs.
"""

from __future__ import annotations

from mlebench.integrity.verdict import check_cell
from mlebench.reporting.reproduction import load_reproduction
from mlebench.stage import cell_args, run_stage
from mlebench_spec.cell import Cell
from mlebench_spec.params import AgentConfig, IntegritySettings, ReproduceSettings, stage_params


def main(argv: list[str] | None = None) -> int:
    """Check runs/<agent>/<id>/<seed>/ into integrity/<agent>/<id>/<seed>/integrity.json."""
    args = cell_args(
        __doc__ or "", argv, flags={"--reproduction": "flag the cell if its code's re-run differs"}
    )
    params = stage_params([f"agent.{args.agent}", "integrity", *(["reproduce"] if args.reproduction else [])])
    cell = Cell.planned(args.competition, args.agent, args.seed)
    verdict = check_cell(
        cell,
        AgentConfig.model_validate(params[f"agent.{args.agent}"]),
        IntegritySettings.model_validate(params["integrity"]),
        reproduction=load_reproduction(cell.reproduction_dir) if args.reproduction else None,
        flag=ReproduceSettings.model_validate(params["reproduce"]).flag if args.reproduction else (),
    )
    flagged = [c["check"] for c in verdict["checks"] if c["flagged"]]
    print(f"{cell.label}: {verdict['verdict']}" + (f" ({', '.join(flagged)})" if flagged else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(run_stage(main))
