"""ab-test-analysis: the user logs of 80 A/B experiments on revenue per user, with known true effects.

``generate(dest, seed)`` writes, from ``seed`` alone (numpy's PCG64 stream; revenue rounded to cents):

- ``experiments.csv``: ``experiment_id, planned_days, treatment_share``: each experiment's design;
- ``users.csv``: ``experiment_id, day, arm, revenue``: one row per user who entered the experiment;
- ``truth.csv``: per experiment the true effect and why it is what it is (private).

Revenue per user is zero unless the user converts (rate 5-30 %); a conversion's value is lognormal with a
heavy tail (sigma 0.6-1.6). Arm B changes the conversion rate by a relative lift, so the true effect on the
mean revenue per user is exactly ``rate * lift * E[value]``. Lifts are zero (35 %), negative (-5 to -30 %,
20 %) or positive (5 to 50 %, 45 %). Each experiment has one trap, or none:

- ``srm`` (sample-ratio mismatch, 20 %): a logging bug loses 6-15 % of arm B's non-converting users, so B's
  share falls below the design and B's mean is biased up. The experiment is invalid whatever its numbers say.
- ``novelty`` (20 %): users react to the change at first: day d's lift is ``lift + boost * exp(-(d-1)/3)``
  (boost 0.2-0.5); the true effect is the lasting one, ``lift``.
- ``peeking`` (20 %): the owner ran a t-test every day from day 3 and stopped at the first p < 0.05; the
  log ends on that day (70 % of these have no true effect).
- ``none`` (40 %).
"""

from __future__ import annotations

from math import erf, sqrt
from pathlib import Path

import numpy as np
import pandas as pd

EXPERIMENTS = 80
TRAPS = ("none", "srm", "novelty", "peeking")
TRAP_P = (0.40, 0.20, 0.20, 0.20)


def _welch_p(a: np.ndarray, b: np.ndarray) -> float:
    """Two-sided p-value of the difference of means (normal approximation), as a daily dashboard shows it."""
    se = sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    if se == 0.0:
        return 1.0
    z = abs(b.mean() - a.mean()) / se
    return 1.0 - erf(z / sqrt(2.0))


def _experiment(rng: np.random.Generator, eid: int) -> tuple[dict, dict, pd.DataFrame]:
    trap = str(rng.choice(TRAPS, p=TRAP_P))
    planned = int(rng.choice([7, 14, 21])) if trap != "novelty" else int(rng.choice([14, 21]))
    share = 0.5 if rng.random() < 0.8 else float(rng.choice([0.2, 0.3]))
    daily = int(rng.integers(150, 451))
    rate = round(float(rng.uniform(0.05, 0.30)), 4)
    mu, sigma = round(float(rng.uniform(2.5, 4.0)), 3), round(float(rng.uniform(0.6, 1.6)), 3)
    u = rng.random()
    if trap == "peeking" and rng.random() < 0.7:
        lift = 0.0
    elif u < 0.35:
        lift = 0.0
    elif u < 0.55:
        lift = -round(float(rng.uniform(0.05, 0.3)), 4)
    else:
        lift = round(float(rng.uniform(0.05, 0.5)), 4)
    boost = round(float(rng.uniform(0.2, 0.5)), 4) if trap == "novelty" else 0.0
    loss = round(float(rng.uniform(0.06, 0.15)), 4) if trap == "srm" else 0.0
    days = []
    for day in range(1, planned + 1):
        n = int(rng.poisson(daily))
        arm_b = rng.random(n) < share
        day_lift = lift + boost * np.exp(-(day - 1) / 3.0)
        p = np.where(arm_b, rate * (1.0 + day_lift), rate)
        converted = rng.random(n) < np.clip(p, 0.0, 1.0)
        value = np.round(rng.lognormal(mu, sigma, n), 2)
        revenue = np.where(converted, value, 0.0)
        keep = np.ones(n, dtype=bool)
        if loss:
            keep = ~(arm_b & ~converted & (rng.random(n) < loss))
        days.append(pd.DataFrame({"day": day, "arm": np.where(arm_b, "B", "A"), "revenue": revenue})[keep])
        if trap == "peeking" and day >= 3:
            seen = pd.concat(days)
            a = seen.loc[seen["arm"] == "A", "revenue"].to_numpy()
            b = seen.loc[seen["arm"] == "B", "revenue"].to_numpy()
            if _welch_p(a, b) < 0.05:
                break
    log = pd.concat(days, ignore_index=True)
    log.insert(0, "experiment_id", eid)
    mean_value = np.exp(mu + sigma**2 / 2.0)
    effect = rate * lift * mean_value
    # the oracle standard error of the difference of means, from the true per-user variances
    second = np.exp(2.0 * mu + 2.0 * sigma**2)
    var_a = rate * second - (rate * mean_value) ** 2
    rate_b = rate * (1.0 + lift)
    var_b = rate_b * second - (rate_b * mean_value) ** 2
    n_a, n_b = int((log["arm"] == "A").sum()), int((log["arm"] == "B").sum())
    oracle_se = sqrt(var_a / max(n_a, 1) + var_b / max(n_b, 1))
    design = {"experiment_id": eid, "planned_days": planned, "treatment_share": share}
    truth = {
        "experiment_id": eid,
        "true_effect": round(float(effect), 6),
        "decision": -1 if trap == "srm" else int(effect > 0),
        "max_width": round(8.0 * oracle_se, 6),
        "trap": trap,
        "lift": lift,
        "novelty_boost": boost,
        "srm_loss": loss,
        "days_run": int(log["day"].max()),
        "rate": rate,
        "mu": mu,
        "sigma": sigma,
    }
    return design, truth, log


def generate(dest: Path, seed: int) -> None:
    """Write experiments.csv, users.csv and truth.csv into ``dest`` from ``seed``."""
    rng = np.random.default_rng(seed)
    ids = rng.permutation(np.arange(100, 100 + 7 * EXPERIMENTS, 7))[:EXPERIMENTS]
    designs, truths, logs = [], [], []
    for eid in ids:
        design, truth, log = _experiment(rng, int(eid))
        designs.append(design)
        truths.append(truth)
        logs.append(log)
    pd.DataFrame(designs).to_csv(dest / "experiments.csv", index=False, lineterminator="\n")
    pd.concat(logs, ignore_index=True).to_csv(
        dest / "users.csv", index=False, lineterminator="\n", float_format="%.2f"
    )
    pd.DataFrame(truths).to_csv(dest / "truth.csv", index=False, lineterminator="\n", float_format="%.6f")
