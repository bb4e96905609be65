"""Cross-check both grading modes against MLE-bench v1's graders on well-formed and malformed submissions.

For each competition, its ``fixture.py`` synthesizes answers and a valid submission
(``grading_inputs``, at a small ``--rows`` size); this harness then derives malformed variants of that
submission (rows shuffled, a subset, a repeated id, unknown ids, an extra index column, reordered columns,
an ``NA`` word or a blank cell), writes each as CSV, grades it with :func:`graders.grade.grade` in both
modes, and has v1's grader for the competition score the same two files in a separate process (v1's
package shares our top-level name, so it never enters this one). v1's verdict is what its ``Grader`` call
gives: the score rounded to 5 decimals, or None where its grade function raises. A mode *matches* v1 on a
case when both refuse, or both give the same score (to 1e-6 relative, NaN equal to NaN).

v1's code is read from the checkout given as the first argument (a scratch folder outside this
repository); nothing of it is copied here. A few v1 graders import packages this project does not need
(Levenshtein, pyquaternion, shapely), and v1 ran on pandas 2 (``astype(str)`` writes a missing cell as
``nan`` there): install those into folders of their own and pass them as ``--v1-pythonpath`` (only v1's
process sees them).
Competitions whose v1 grader cannot score even the well-formed submission (its answers file holds
other columns than our prepared ones) are counted apart.

Usage: ``python benchmarks/v1_crosscheck.py /path/to/v1-checkout [--only ID ...] [--rows 120] [--json out]``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from authoring.grading_inputs import scaled  # noqa: E402
from authoring.kaggle_standin import load_fixture  # noqa: E402
from graders.grade import MODES, grade  # noqa: E402
from mlebench_spec.declarations import Competition, all_competition_ids, load_competition  # noqa: E402

_V1_WORKER = r"""
import json, sys, importlib, math
from pathlib import Path
import yaml
sys.path.insert(0, sys.argv[1])
from mlebench.grade_helpers import Grader
from mlebench.utils import read_csv
config = yaml.safe_load(open(Path(sys.argv[1]) / "mlebench" / "competitions" / sys.argv[2] / "config.yaml"))
grader = Grader(**config["grader"])
out = {}
for folder in sys.argv[3:]:
    answers = read_csv(Path(folder) / "answers.csv")
    score = grader(read_csv(Path(folder) / "submission.csv"), answers)
    out[folder] = None if score is None else float(score)
print(json.dumps(out))
"""


def variants(sub: pd.DataFrame, answers: pd.DataFrame, comp: Competition, rng: np.random.Generator) -> dict:
    """Return the well-formed submission (in the answers' order and shuffled) and the malformed ones."""
    spec = comp.submission
    ids, targets = spec.id_column, spec.target_columns
    n = len(sub)
    out = {"valid": sub, "shuffled": sub.iloc[rng.permutation(n)].reset_index(drop=True)}
    if n > 3:
        out["subset"] = sub.iloc[np.sort(rng.choice(n, n - max(1, n // 10), replace=False))]
        repeated = sub.copy()
        repeated.loc[n - 1] = repeated.loc[0]  # the first id twice, the last one missing
        out["repeated_id"] = repeated
        out["extra_repeated_row"] = pd.concat([sub, sub.iloc[[0]]], ignore_index=True)
        unknown = sub.copy()
        unknown[ids] = unknown[ids].astype(str)
        unknown.loc[: max(0, n // 20), ids] = [f"nope{k}" for k in range(max(0, n // 20) + 1)]
        out["unknown_ids"] = unknown
    out["index_column"] = sub.reset_index().rename(columns={"index": "Unnamed: 0"})
    if len(targets) > 1:
        out["column_order"] = sub[[ids, *reversed([c for c in sub.columns if c != ids])]]
    for word in ("NA", ""):
        bad = sub.copy().astype(object)
        bad.loc[n // 2, targets[0]] = word
        out["na_word" if word else "blank_cell"] = bad
    return out


def _same(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is b
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-9)


def check(
    comp: Competition, v1_root: Path, rows: int, seed: int, timeout: float = 600, v1_path: str = ""
) -> list[dict]:
    """Every variant of one competition: v1's score and each mode's status and score."""
    if comp.real_size is None:
        return []
    rng = np.random.default_rng(seed)
    size = comp.real_size
    if size.test_images:  # whole images: shrink each to about 64x64 pixels, never grow one
        scale = min(1.0, 4096 / max(h * w for h, w in size.test_images))
    else:
        scale = min(1.0, rows / size.test_rows)
    inputs = load_fixture(comp).grading_inputs(comp, scaled(size, scale), rng)
    if inputs.metric_args:
        comp = comp.model_copy(update={"metric": comp.metric.model_copy(update={"args": inputs.metric_args})})
    answers = inputs.answers
    order = pd.Series(range(len(answers)), index=answers[comp.submission.id_column].astype(str))
    sub = inputs.submission
    key = sub[comp.submission.id_column].astype(str)
    if key.is_unique and set(key) == set(order.index):
        sub = sub.iloc[np.argsort(order[key].to_numpy())].reset_index(drop=True)  # the answers' order
    cases = []
    with tempfile.TemporaryDirectory(prefix="v1check-") as tmp:
        folders = {}
        for name, frame in variants(sub, answers, comp, rng).items():
            folder = Path(tmp) / name
            (folder / "private").mkdir(parents=True)
            frame.to_csv(folder / "submission.csv", index=False)
            answers.to_csv(folder / "answers.csv", index=False)
            answers.to_csv(folder / "private" / comp.submission.answers, index=False)
            folders[name] = folder
        worker = subprocess.run(
            [sys.executable, "-c", _V1_WORKER, str(v1_root), comp.id, *map(str, folders.values())],
            capture_output=True,
            text=True,
            cwd=tmp,
            timeout=timeout,
            env={**os.environ, "PYTHONPATH": v1_path} if v1_path else None,
        )
        if worker.returncode:
            raise RuntimeError(f"{comp.id}: v1's grader process failed:\n{worker.stderr[-2000:]}")
        v1_scores = json.loads(worker.stdout.strip().splitlines()[-1])
        for name, folder in folders.items():
            case = {"competition": comp.id, "case": name, "v1_grader": v1_scores[str(folder)]}
            for mode in MODES:
                result = grade(comp, folder / "submission.csv", folder / "private", mode)
                case[f"ours_{mode}"] = result.score if result.status == "ok" else None
                case[f"{mode}_reason"] = result.reason[:200]
            cases.append(case)
    return cases


def main(argv: list[str] | None = None) -> int:
    """Cross-check the chosen competitions and print matches / total per mode."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("v1_checkout", type=Path, help="a scratch folder holding MLE-bench v1's source")
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--rows", type=int, default=120)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, help="write every case here")
    parser.add_argument("--v1-pythonpath", default="", help="PYTHONPATH for v1's process only")
    args = parser.parse_args(argv)
    if not (args.v1_checkout / "mlebench" / "grade_helpers.py").is_file():
        parser.error(f"{args.v1_checkout} does not hold v1's mlebench/grade_helpers.py")
    cases, failed = [], {}
    for cid in args.only or all_competition_ids():
        started = time.perf_counter()
        try:
            found = check(
                load_competition(cid), args.v1_checkout, args.rows, args.seed, v1_path=args.v1_pythonpath
            )
        except Exception as exc:  # noqa: BLE001 - one competition's harness failure must not stop the rest
            failed[cid] = f"{type(exc).__name__}: {str(exc)[:300]}"
            print(f"{cid}: harness failed: {failed[cid]}", flush=True)
            continue
        cases += found
        if args.json:
            args.json.write_text(json.dumps({"cases": cases, "failed": failed}, indent=1), encoding="utf-8")
        if found:
            marks = " ".join(
                f"{c['case']}:{''.join('=' if _same(c['ours_' + m], c['v1_grader']) else 'x' for m in MODES)}"
                for c in found
            )
            print(f"{cid} ({time.perf_counter() - started:.1f}s) {marks}", flush=True)
    comparable = {c["competition"] for c in cases if c["case"] == "valid" and c["v1_grader"] is not None}
    kept = [c for c in cases if c["competition"] in comparable]
    print(
        f"\n{len(comparable)} competitions comparable (v1 scores the well-formed submission), "
        f"{len({c['competition'] for c in cases}) - len(comparable)} not, {len(failed)} harness failures"
    )
    for mode in MODES:
        hits = sum(_same(c[f"ours_{mode}"], c["v1_grader"]) for c in kept)
        print(f"{mode}: {hits} / {len(kept)} cases match v1")
    for mode in MODES:
        for c in kept:
            if not _same(c[f"ours_{mode}"], c["v1_grader"]):
                print(
                    f"  {mode} differs: {c['competition']} {c['case']}: "
                    f"v1 {c['v1_grader']} ours {c['ours_' + mode]} "
                    f"{c[mode + '_reason'][:120]}"
                )
    if args.json:
        args.json.write_text(json.dumps({"cases": cases, "failed": failed}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
