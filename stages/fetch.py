"""DVC stage `fetch`: copy one competition's raw files from their source, verified against checksums."""

from __future__ import annotations

from mlebench.data.fetch import fetch
from mlebench.stage import cell_args, run_stage
from mlebench_spec.declarations import load_competition
from mlebench_spec.paths import raw_dir


def main(argv: list[str] | None = None) -> int:
    """Fetch the raw files of ``--competition`` into data/raw/<id>/ (a Kaggle archive kept unextracted)."""
    args = cell_args(__doc__ or "", argv, cell=False)
    comp = load_competition(args.competition)
    fetch(comp, raw_dir(comp.id), extract=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(run_stage(main))
