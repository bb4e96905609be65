"""DVC stage `fetch_kernels`: pull a competition's reference notebooks once, as code, into data/kernels/."""

from __future__ import annotations

from mlebench.data.kernels import fetch_kernels, kernel_refs, kernels_file
from mlebench.stage import cell_args, run_stage
from mlebench_spec.paths import kernels_dir


def main(argv: list[str] | None = None) -> int:
    """Pull the notebooks competitions/<id>/kernels.txt lists (with the kaggle client)."""
    args = cell_args(__doc__ or "", argv, cell=False)
    manifest = fetch_kernels(kernel_refs(kernels_file(args.competition)), kernels_dir(args.competition))
    skipped = [f"{k['ref']} ({k['status']})" for k in manifest["kernels"] if k["status"] != "pulled"]
    print(f"{args.competition}: {manifest['pulled']} pulled; skipped: {', '.join(skipped) or 'none'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(run_stage(main))
