"""Reference populations of the MLOps set: monitoring estimators, change detectors, A/B analyses.

These tasks have no model to train on rows and predict: a solution is a *method* (an estimator of a
model's accuracy without labels, a change detector, an analysis plan), run with its settings on the
public files. Each population spans what practitioners do, from the naive (a constant, the reference
accuracy, a t-test on everything) through the textbook (average confidence, a mean-shift detector,
an SRM check) to the careful (importance weighting on the features where the model errs, detectors for
every kind of change, burn-in for novelty and a correction for peeking), with settings, training
fractions and seeds varied, so the leaderboard is graded. Everything is seeded and single-threaded.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np
import pandas as pd
from scipy import stats
from sklearn.isotonic import IsotonicRegression
from sklearn.linear_model import LogisticRegression

from authoring.leaderboards.solution import Solution, solution

__all__ = ["ABTestTask", "ChangePointTask", "DriftTask", "NextVersionTask", "mlops_task"]


# ---------------------------------------------------------------------------------------------- drift


@dataclass
class DriftTask:
    """drift-monitoring: estimate a fixed model's accuracy on each unlabelled production batch."""

    reference: pd.DataFrame
    production: pd.DataFrame
    kind: ClassVar[str] = "mlops-monitoring"
    notes: ClassVar[tuple[str, ...]] = (
        "Solutions are label-free accuracy estimators (constant, reference accuracy, average confidence "
        "raw or calibrated, thresholded confidence, difference of confidences, class-prior correction, "
        "importance weighting with a logistic domain classifier on raw, one-hot or pairwise features)",
    )

    @classmethod
    def load(cls, public: Path) -> DriftTask:
        """Read the public reference and production tables."""
        return cls(pd.read_csv(public / "reference.csv"), pd.read_csv(public / "production.csv"))

    def population(self) -> list[Solution]:
        """About 110 estimators of graded quality."""
        out = [solution("constant", "none", value=v) for v in (0.5, 0.6, 0.7, 0.9)]
        for fraction in (0.05, 0.1, 0.25, 0.5):
            out += [solution("reference", "none", fraction, seed) for seed in range(3)]
        out.append(solution("reference", "none"))
        for calibration in ("none", "platt", "isotonic", "binned"):
            for fraction in (0.1, 0.25, 1.0):
                out.append(solution("confidence", "none", fraction, calibration=calibration))
                out.append(solution("doc", "none", fraction, calibration=calibration))
        for features in ("numeric", "onehot", "pairs"):
            for C in (0.01, 1.0):
                for fraction in (0.25, 1.0):
                    out.append(solution("errmodel", features, fraction, C=C))
        for fraction in (0.1, 0.25, 1.0):
            out.append(solution("atc", "none", fraction))
            out.append(solution("prior", "none", fraction))
        for features in ("numeric", "onehot", "pairs"):
            for C in (0.01, 0.1, 1.0, 10.0):
                for clip in (5.0, 50.0):
                    out.append(solution("iw", features, C=C, clip=clip))
                for fraction in (0.1, 0.25, 0.5):
                    out.append(solution("iw", features, fraction, C=C, clip=20.0))
        return out

    def neighbours(self, entry: Solution) -> list[Solution]:
        """Reseeded copies of subsampled settings."""
        if entry.train_fraction >= 1.0:
            return []
        return [
            Solution(entry.model, entry.features, entry.params, entry.train_fraction, seed)
            for seed in (entry.seed + 1, entry.seed + 2)
        ]

    def predict(self, sol: Solution) -> pd.DataFrame:
        """Return the solution's estimate for every batch."""
        ref = self.reference
        if sol.train_fraction < 1.0:
            ref = ref.sample(frac=sol.train_fraction, random_state=sol.seed).reset_index(drop=True)
        batches = sorted(self.production["batch"].unique())
        estimate = _drift_method(sol, ref, self.production)
        return pd.DataFrame(
            {
                "batch": batches,
                "accuracy": [estimate(self.production[self.production["batch"] == b]) for b in batches],
            }
        )


def _confidence(score: np.ndarray) -> np.ndarray:
    return np.maximum(score, 1.0 - score)


def _calibrator(kind: str, score: np.ndarray, label: np.ndarray):
    """Return a map from the model's score to a calibrated P(label = 1)."""
    if kind == "none":
        return lambda s: s
    if kind == "platt":
        logit = np.log(np.clip(score, 1e-6, 1 - 1e-6) / np.clip(1 - score, 1e-6, 1))
        model = LogisticRegression(C=1e6).fit(logit[:, None], label)
        return lambda s: model.predict_proba(
            np.log(np.clip(s, 1e-6, 1 - 1e-6) / np.clip(1 - s, 1e-6, 1))[:, None]
        )[:, 1]
    if kind == "isotonic":
        model = IsotonicRegression(out_of_bounds="clip", y_min=0.0, y_max=1.0).fit(score, label)
        return model.predict
    edges = np.quantile(score, np.linspace(0, 1, 11))
    edges[0], edges[-1] = -np.inf, np.inf
    bins = np.clip(np.searchsorted(edges, score, side="right") - 1, 0, 9)
    means = np.array([label[bins == k].mean() if (bins == k).any() else 0.5 for k in range(10)])
    return lambda s: means[np.clip(np.searchsorted(edges, s, side="right") - 1, 0, 9)]


def _design(frame: pd.DataFrame, features: str) -> np.ndarray:
    numeric = frame[["x1", "x2", "x3", "x4", "x5", "score"]].to_numpy(float)
    if features == "numeric":
        return numeric
    onehot = np.column_stack([(frame["segment"] == s).to_numpy(float) for s in ("A", "B", "C")])
    if features == "onehot":
        return np.column_stack([numeric, onehot])
    base = numeric[:, :5]
    pairs = [base[:, i] * base[:, j] for i in range(5) for j in range(i, 5)]
    return np.column_stack([numeric, onehot, *pairs])


def _drift_method(sol: Solution, ref: pd.DataFrame, production: pd.DataFrame):
    opts = sol.options
    score, label = ref["score"].to_numpy(float), ref["label"].to_numpy(int)
    correct = ((score >= 0.5).astype(int) == label).astype(float)
    ref_accuracy = float(correct.mean())
    if sol.model == "constant":
        return lambda batch: opts["value"]
    if sol.model == "reference":
        return lambda batch: ref_accuracy
    if sol.model in ("confidence", "doc"):
        calibrate = _calibrator(opts["calibration"], score, label)
        ref_conf = float(_confidence(calibrate(score)).mean())

        def average(batch: pd.DataFrame) -> float:
            conf = float(_confidence(calibrate(batch["score"].to_numpy(float))).mean())
            return conf if sol.model == "confidence" else ref_accuracy + conf - ref_conf

        return average
    if sol.model == "atc":
        conf = _confidence(score)
        threshold = float(np.quantile(conf, 1.0 - ref_accuracy))
        return lambda batch: float((_confidence(batch["score"].to_numpy(float)) > threshold).mean())
    if sol.model == "prior":  # label shift only: the batch's class prior by black-box shift estimation
        pred = (score >= 0.5).astype(int)
        confusion = np.array([[np.mean((pred == i) & (label == j)) for j in (0, 1)] for i in (0, 1)])
        prior = np.array([np.mean(label == 0), np.mean(label == 1)])
        per_class = np.array([correct[label == j].mean() for j in (0, 1)])

        def by_prior(batch: pd.DataFrame) -> float:
            seen = np.array([np.mean(batch["score"] < 0.5), np.mean(batch["score"] >= 0.5)])
            weights = np.clip(np.linalg.lstsq(confusion, seen, rcond=None)[0] / prior, 0.0, None)
            target = weights * prior / max((weights * prior).sum(), 1e-9)
            return float((target * per_class).sum())

        return by_prior
    if sol.model == "errmodel":  # a model of the deployed model's correctness, averaged over the batch
        X_ref = _design(ref, sol.features)
        mean, std = X_ref.mean(axis=0), X_ref.std(axis=0) + 1e-9
        judge = LogisticRegression(C=opts["C"], max_iter=1000).fit((X_ref - mean) / std, correct.astype(int))
        return lambda batch: float(
            judge.predict_proba((_design(batch, sol.features) - mean) / std)[:, 1].mean()
        )
    # importance weighting: a domain classifier tells reference rows from the batch's
    X_ref = _design(ref, sol.features)
    mean, std = X_ref.mean(axis=0), X_ref.std(axis=0) + 1e-9

    def weighted(batch: pd.DataFrame) -> float:
        X_b = _design(batch, sol.features)
        X = (np.vstack([X_ref, X_b]) - mean) / std
        y = np.r_[np.zeros(len(X_ref)), np.ones(len(X_b))]
        model = LogisticRegression(C=opts["C"], max_iter=500).fit(X, y)
        p = model.predict_proba((X_ref - mean) / std)[:, 1]
        w = np.clip(p / (1 - p) * len(X_ref) / len(X_b), 0.0, opts["clip"])
        return float((w * correct).sum() / max(w.sum(), 1e-12))

    return weighted


# ------------------------------------------------------------------------------------- change points


def _window_stats(values: np.ndarray, window: int, features: str) -> np.ndarray:
    """Per position t, the largest two-sample t statistic over the signals of the windows before and after t.

    The signals: each channel's level (``mean``); also its local spread, the log of squared first
    differences (``meanvar``); also the products of channel pairs, whose level is the correlation, with
    their statistic weighted up because a correlation change moves a product by less than its spread, and
    whether a reading repeats the previous one exactly (``full``).
    """
    n, d = values.shape
    z = (values - np.median(values, axis=0)) / (np.std(values, axis=0) + 1e-9)
    groups = [(z, 1.0)]
    if features in ("meanvar", "full"):
        diffs = np.vstack([np.zeros((1, d)), np.diff(z, axis=0)])
        groups.append((np.log(diffs**2 + 1e-3), 1.0))
    if features == "full":
        groups.append((np.column_stack([z[:, i] * z[:, j] for i in range(d) for j in range(i + 1, d)]), 1.8))
        groups.append(
            ((np.vstack([np.ones((1, d)), np.abs(np.diff(values, axis=0))]) == 0).astype(float), 1.0)
        )
    out = np.zeros(n)
    for signal, weight in groups:
        csum = np.vstack([np.zeros((1, signal.shape[1])), np.cumsum(signal, axis=0)])
        csq = np.vstack([np.zeros((1, signal.shape[1])), np.cumsum(signal**2, axis=0)])
        t = np.arange(window, n - window + 1)
        left = (csum[t] - csum[t - window]) / window
        right = (csum[t + window] - csum[t]) / window
        var_left = (csq[t] - csq[t - window]) / window - left**2
        var_right = (csq[t + window] - csq[t]) / window - right**2
        pooled = np.maximum((var_left + var_right) / 2, 1e-6)
        stat = np.max(np.abs(right - left) / np.sqrt(pooled), axis=1) * np.sqrt(window / 2) * weight
        out[t] = np.maximum(out[t], stat)
    return out


def _peaks(stat: np.ndarray, threshold: float, distance: int) -> list[int]:
    found: list[int] = []
    for t in np.argsort(-stat, kind="stable"):
        if stat[t] < threshold:
            break
        if all(abs(int(t) - f) >= distance for f in found):
            found.append(int(t))
    return sorted(found)


@dataclass
class ChangePointTask:
    """stream-change-points: find where each stream's regime changes."""

    streams: dict[int, np.ndarray]
    train: pd.DataFrame
    test_ids: list[int]
    kind: ClassVar[str] = "mlops-change-points"
    notes: ClassVar[tuple[str, ...]] = (
        "Solutions are evenly spaced guesses, and sliding two-window detectors on the channels' levels "
        "(`mean`), levels and local spread (`meanvar`), or those plus pairwise products and stuck readings "
        "(`full`), with fixed thresholds or a threshold tuned by F1 on the labelled streams",
    )

    @classmethod
    def load(cls, public: Path) -> ChangePointTask:
        """Read the streams, the labelled streams and the test ids."""
        stream = pd.read_csv(public / "stream.csv")
        streams = {
            int(sid): group.sort_values("t")[["c0", "c1", "c2"]].to_numpy(float)
            for sid, group in stream.groupby("series_id")
        }
        train = pd.read_csv(public / "train.csv", keep_default_na=False)
        test_ids = pd.read_csv(public / "test.csv")["series_id"].astype(int).tolist()
        return cls(streams, train, test_ids)

    def population(self) -> list[Solution]:
        """About 110 detectors of graded quality."""
        out = [solution("none", "none")]
        out += [solution("even", "none", every=k) for k in (100, 150, 200, 250, 300, 400, 500)]
        for features in ("mean", "meanvar", "full"):
            for window in (15, 30, 60):
                for threshold in (4.0, 6.0, 9.0, 14.0):
                    out.append(solution("window", features, window=window, threshold=threshold))
                for fraction in (0.25, 0.5, 1.0):
                    out += [
                        solution("tuned", features, fraction, seed, window=window)
                        for seed in range(3 if fraction < 1 else 1)
                    ]
                out.append(solution("tuned", features, 1.0, 0, window=window, distance=40))
        return out

    def predict(self, sol: Solution) -> pd.DataFrame:
        """Return the detected positions for every test stream."""
        opts = sol.options
        if sol.model == "none":
            found = {sid: [] for sid in self.test_ids}
        elif sol.model == "even":
            found = {sid: list(range(opts["every"], 1000, opts["every"])) for sid in self.test_ids}
        else:
            window, distance = opts["window"], opts.get("distance", opts["window"])
            threshold = opts.get("threshold")
            if threshold is None:
                threshold = self._tune(sol.features, window, distance, sol.train_fraction, sol.seed)
            found = {
                sid: _peaks(_window_stats(self.streams[sid], window, sol.features), threshold, distance)
                for sid in self.test_ids
            }
        return pd.DataFrame(
            {
                "series_id": self.test_ids,
                "change_points": [" ".join(map(str, found[s])) for s in self.test_ids],
            }
        )

    def _tune(self, features: str, window: int, distance: int, fraction: float, seed: int) -> float:
        from graders.metrics.change_points import change_point_f1

        train = self.train
        if fraction < 1.0:
            train = train.sample(frac=fraction, random_state=seed)
        stats_by = {int(s): _window_stats(self.streams[int(s)], window, features) for s in train["series_id"]}
        best, best_f1 = 6.0, -1.0
        for threshold in np.geomspace(2.0, 60.0, 50):
            found = [
                " ".join(map(str, _peaks(stats_by[int(s)], threshold, distance))) for s in train["series_id"]
            ]
            f1 = change_point_f1(train["change_points"].astype(str).tolist(), found, margin=10)
            if f1 > best_f1:
                best, best_f1 = float(threshold), f1
        return best


# ------------------------------------------------------------------------------------------ A/B tests


@dataclass
class ABTestTask:
    """ab-test-analysis: per experiment an effect, an interval and a decision."""

    experiments: pd.DataFrame
    users: pd.DataFrame
    kind: ClassVar[str] = "mlops-ab-tests"
    notes: ClassVar[tuple[str, ...]] = (
        "Solutions are analysis plans: constants; or a sample-ratio check (chi-square at a level, or none), "
        "a burn-in that drops the first days (novelty), a difference of means (raw or winsorized) with a "
        "normal or bootstrap interval at a level, a Bonferroni correction over the daily looks of "
        "experiments that stopped before their planned end (peeking), and a ship rule",
    )

    @classmethod
    def load(cls, public: Path) -> ABTestTask:
        """Read the designs and the user logs."""
        return cls(pd.read_csv(public / "experiments.csv"), pd.read_csv(public / "users.csv"))

    def population(self) -> list[Solution]:
        """About 135 analysis plans of graded quality."""
        out = [solution("constant", "none", decision=d, half=h) for d in (0, 1) for h in (0.0, 5.0, 50.0)]
        for srm in (0.0, 1e-2, 1e-3, 1e-4):
            for burn in (0, 3, 5):
                for alpha in (0.01, 0.05, 0.1, 0.2):
                    for peek in (0, 1):
                        out.append(solution("plan", "none", srm=srm, burn=burn, alpha=alpha, peek=peek))
                out.append(solution("plan", "none", srm=srm, burn=burn, alpha=0.1, peek=1, winsor=0.999))
        for burn in (0, 3, 5):
            for alpha in (0.05, 0.1, 0.2):
                out.append(solution("boot", "none", srm=1e-3, burn=burn, alpha=alpha, peek=1))
        for fraction in (0.25, 0.5):
            for seed in range(3):
                out.append(solution("plan", "none", fraction, seed, srm=1e-3, burn=3, alpha=0.1, peek=1))
                out.append(solution("plan", "none", fraction, seed, srm=0.0, burn=0, alpha=0.05, peek=0))
        return out

    def predict(self, sol: Solution) -> pd.DataFrame:
        """One row per experiment."""
        opts = sol.options
        rows = []
        logs = dict(tuple(self.users.groupby("experiment_id")))
        rng = np.random.default_rng(sol.seed)
        for design in self.experiments.itertuples(index=False):
            log = logs[design.experiment_id]
            if sol.model == "constant":
                rows.append((design.experiment_id, 0.0, -opts["half"], opts["half"], opts["decision"]))
                continue
            if sol.train_fraction < 1.0:  # an analyst who only looked at a sample of the users
                log = log.sample(frac=sol.train_fraction, random_state=sol.seed)
            rows.append((design.experiment_id, *_analyse(log, design, opts, sol.model == "boot", rng)))
        return pd.DataFrame(rows, columns=["experiment_id", "estimate", "lower", "upper", "decision"])


def _analyse(log: pd.DataFrame, design, opts: dict, bootstrap: bool, rng: np.random.Generator) -> tuple:
    n_b = int((log["arm"] == "B").sum())
    if opts["srm"] > 0:
        p = stats.binomtest(n_b, len(log), design.treatment_share).pvalue
        if p < opts["srm"]:
            return 0.0, 0.0, 0.0, -1
    days = int(log["day"].max())
    if opts["burn"] and days > 2 * opts["burn"]:
        log = log[log["day"] > opts["burn"]]
    a = log.loc[log["arm"] == "A", "revenue"].to_numpy(float)
    b = log.loc[log["arm"] == "B", "revenue"].to_numpy(float)
    if "winsor" in opts:
        cap = np.quantile(np.r_[a, b], opts["winsor"])
        a, b = np.minimum(a, cap), np.minimum(b, cap)
    alpha = opts["alpha"]
    if opts["peek"] and days < design.planned_days:
        alpha = alpha / max(days - 2, 1)  # Bonferroni over the daily looks from day 3
    estimate = float(b.mean() - a.mean())
    if bootstrap:
        draws = np.array([rng.choice(b, len(b)).mean() - rng.choice(a, len(a)).mean() for _ in range(200)])
        lower, upper = np.quantile(draws, [alpha / 2, 1 - alpha / 2])
    else:
        se = float(np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b)))
        z = float(stats.norm.ppf(1 - alpha / 2))
        lower, upper = estimate - z * se, estimate + z * se
    return estimate, float(lower), float(upper), int(lower > 0)


# --------------------------------------------------------------------------------------- next version

_ID, _TARGET = "customer_id", "churned"


@dataclass
class NextVersionTask:
    """next-data-version: a churn pipeline, scored on the hidden next version it is re-run on.

    Loaded from the graded inputs (the next version, ``rerun.inputs``, a ``private/<name>/public`` folder of
    the prepared competition), with version 1's public files beside it (the prepared folder's
    ``public/``): a solution is a *pipeline*. Most re-train on the version they are given, with column sets
    from v1's hard-coded list (the new column ignored) to every column to engineered features that survive
    the rename and the shift (charges relative to the plan's median); the "frozen" ones are hand steps: a
    model fitted once on version 1 with v1's category codes and applied to the next version as it is.
    """

    v1: pd.DataFrame
    train: pd.DataFrame
    test: pd.DataFrame
    kind: ClassVar[str] = "mlops-next-version"
    notes: ClassVar[tuple[str, ...]] = (
        "Solutions are pipelines: a constant; hand steps (a model fitted once on version 1 with v1's column "
        "list and category codes, applied to the next version as it is: frozen); and pipelines that re-train "
        "on the version they are given, on v1's hard-coded column list (v1cols), on every column (all), or "
        "on engineered features that survive the rename and the shift (engineered: charges relative to the "
        "plan's median, a tenure curve, a support-call flag), with logistic regression, gradient boosting, "
        "random forests, k nearest neighbours, a decision tree or naive Bayes, on training fractions",
    )

    @classmethod
    def load(cls, inputs: Path) -> NextVersionTask:
        """Read the next version's train and test files and version 1's public training file."""
        v1 = (
            inputs.parents[2] / "public" / "train.csv"
        )  # <prepared>/private/<name>/public -> <prepared>/public
        return cls(pd.read_csv(v1), pd.read_csv(inputs / "train.csv"), pd.read_csv(inputs / "test.csv"))

    def population(self) -> list[Solution]:
        """About 130 pipelines of graded quality."""
        out = [solution("constant", "none")]
        for model, params in (("logistic", {"C": 1.0}), ("hgb", {}), ("rf", {})):
            for fraction in (0.25, 1.0):
                out.append(solution(model, "frozen", fraction, **params))
        models = (
            ("logistic", {"C": 0.01}),
            ("logistic", {"C": 1.0}),
            ("hgb", {}),
            ("rf", {}),
            ("knn", {}),
            ("tree", {}),
        )
        for features in ("v1cols", "all", "engineered"):
            for model, params in models:
                out.append(solution(model, features, **params))
                for fraction in (0.1, 0.25, 0.5):
                    out += [solution(model, features, fraction, seed, **params) for seed in (0, 1)]
        out += [solution("nb", f) for f in ("v1cols", "all", "engineered")]
        return out

    def predict(self, sol: Solution) -> pd.DataFrame:
        """Fit the pipeline on its version's training rows; return its scores for the next version's test."""
        if sol.model == "constant":
            return pd.DataFrame({_ID: self.test[_ID], _TARGET: 0.5})
        train = self.v1 if sol.features == "frozen" else self.train
        if sol.train_fraction < 1.0:
            train = train.sample(frac=sol.train_fraction, random_state=sol.seed)
        fit, apply = _churn_design(train, self.test, sol.features)
        model = _churn_model(sol).fit(fit, train[_TARGET].to_numpy())
        return pd.DataFrame({_ID: self.test[_ID], _TARGET: np.round(model.predict_proba(apply)[:, 1], 6)})


def _churn_design(train: pd.DataFrame, test: pd.DataFrame, features: str) -> tuple[np.ndarray, np.ndarray]:
    """Design matrices of a pipeline's feature set, the test's built as the training rows' were."""
    if features in ("frozen", "v1cols"):  # a hard-coded column list: the first version's
        columns = ["tenure_months", "monthly_charges", "plan", "region", "support_calls", "data_usage_gb"]
    else:
        columns = [c for c in train.columns if c not in (_ID, _TARGET)]
    left, right = train[columns].copy(), test[columns].copy()
    categorical = [c for c in columns if not pd.api.types.is_numeric_dtype(train[c])]
    if features == "frozen":  # v1's codes, typed in: a value it never saw gets -1
        for c in categorical:
            codes = {v: i for i, v in enumerate(sorted(train[c].unique()))}
            left[c], right[c] = left[c].map(codes), right[c].map(codes).fillna(-1)
        return left.to_numpy(float), right.to_numpy(float)
    if features == "engineered":
        for frame in (left, right):
            median = train.groupby("plan")["monthly_charges"].median()
            frame["relative_charges"] = frame["monthly_charges"] / frame["plan"].map(median).fillna(
                median.mean()
            )
            frame["tenure_curve"] = np.exp(-frame["tenure_months"] / 10.0)
            frame["many_calls"] = (frame["support_calls"] >= 3).astype(float)
            frame["heavy_cheapest"] = (frame["plan"] == median.idxmin()) * frame["data_usage_gb"]
    both = pd.get_dummies(pd.concat([left, right]), columns=categorical, dtype=float)
    return both.iloc[: len(left)].to_numpy(float), both.iloc[len(left) :].to_numpy(float)


def _churn_model(sol: Solution):
    from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    opts = sol.options
    return {
        "logistic": lambda: make_pipeline(
            StandardScaler(), LogisticRegression(C=opts.get("C", 1.0), max_iter=2000)
        ),
        "hgb": lambda: HistGradientBoostingClassifier(learning_rate=0.05, max_depth=3, random_state=sol.seed),
        "rf": lambda: RandomForestClassifier(200, min_samples_leaf=5, random_state=sol.seed, n_jobs=1),
        "knn": lambda: make_pipeline(StandardScaler(), KNeighborsClassifier(25)),
        "tree": lambda: DecisionTreeClassifier(max_depth=5, random_state=sol.seed),
        "nb": lambda: GaussianNB(),
    }[sol.model]()


_TASKS = {
    "drift-monitoring": DriftTask,
    "stream-change-points": ChangePointTask,
    "ab-test-analysis": ABTestTask,
    "next-data-version": NextVersionTask,
}


def mlops_task(competition_id: str, public: Path):
    """Return the task of an MLOps competition, or None for any other competition."""
    task = _TASKS.get(competition_id)
    return task.load(public) if task else None
