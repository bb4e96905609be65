"""Precision and recall of each deterministic integrity check over the labelled corpus.

The corpus (``tests/integrity/corpus.yaml``) holds synthetic runs: clean ones, each kind of violation and
near misses (a URL in a comment without a download, the public data read by absolute path, a loopback
validator call, ...), each labelled with exactly the checks that should flag it. For every check this
prints true and false positives, false negatives, precision and recall, then the same for the cell's
verdict (flagged by any check) and every case a check got wrong. Target: every violation flagged and
every clean run passing (precision and recall 1.0). Cases labelled ``known_miss`` count as misses.

Usage: ``python benchmarks/integrity.py``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from integrity_corpus import cases, context, materialise  # noqa: E402

from mlebench.integrity.checks import CHECKS, run_checks  # noqa: E402


def _ratio(num: int, den: int) -> str:
    return f"{num / den:.3f}" if den else "n/a"


def main() -> int:
    """Run every check over every case and print the table."""
    corpus = cases()
    flagged: dict[str, set[str]] = {}
    with tempfile.TemporaryDirectory(prefix="mlebench-integrity-bench-") as tmp:
        for case in corpus:
            results = run_checks(context(case, materialise(case, Path(tmp))))
            flagged[case.name] = {r.check for r in results if r.flagged}
    clean = sum(not c.expect for c in corpus)
    print(
        f"corpus: {len(corpus)} runs ({clean} clean or near misses, {len(corpus) - clean} with violations)\n"
    )
    print(f"{'check':<24}{'TP':>4}{'FP':>4}{'FN':>4}{'precision':>11}{'recall':>8}")
    wrong = []
    for name in CHECKS:
        tp = sum(name in c.expect and name in flagged[c.name] for c in corpus)
        fp = sum(name not in c.expect and name in flagged[c.name] for c in corpus)
        fn = sum(name in c.expect and name not in flagged[c.name] for c in corpus)
        print(f"{name:<24}{tp:>4}{fp:>4}{fn:>4}{_ratio(tp, tp + fp):>11}{_ratio(tp, tp + fn):>8}")
        wrong += [
            f"{c.name}: {name} {'missed' if name in c.expect else 'false flag'}"
            for c in corpus
            if (name in c.expect) != (name in flagged[c.name])
        ]
    tp = sum(bool(c.expect) and bool(flagged[c.name]) for c in corpus)
    fp = sum(not c.expect and bool(flagged[c.name]) for c in corpus)
    fn = sum(bool(c.expect) and not flagged[c.name] for c in corpus)
    print(
        f"{'verdict (any check)':<24}{tp:>4}{fp:>4}{fn:>4}{_ratio(tp, tp + fp):>11}{_ratio(tp, tp + fn):>8}"
    )
    print("\nwrong: " + ("; ".join(wrong) if wrong else "none"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
