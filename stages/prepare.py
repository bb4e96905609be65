"""DVC stage `prepare`: split raw files into public/ (what agents see) and private/ (answers)."""

from __future__ import annotations

from mlebench.data.prepare import prepare_competition
from mlebench.stage import cell_args, run_stage
from mlebench_spec.declarations import load_competition
from mlebench_spec.params import TextSettings, stage_params
from mlebench_spec.paths import prepared_dir, raw_dir


def main(argv: list[str] | None = None) -> int:
    """Prepare ``--competition`` from data/raw/<id>/ into data/prepared/<id>/{public,private}/."""
    args = cell_args(__doc__ or "", argv, cell=False)
    comp = load_competition(args.competition)
    texts = TextSettings.model_validate(stage_params(["descriptions"])["descriptions"])
    prepare_competition(comp, raw_dir(comp.id), prepared_dir(comp.id), texts=texts)
    return 0


if __name__ == "__main__":
    raise SystemExit(run_stage(main))
