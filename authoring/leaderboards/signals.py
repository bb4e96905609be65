"""Strong reference entries for series classification: random convolution kernels, DTW neighbours, blends.

The summary-statistic entries of :mod:`.series` are what a first attempt looks like; the entries here are
what the time-series classification literature does well on the UEA/UCR archive:

- ``rocket``: ROCKET-style features (Dempster et al., 2020). Every series is resampled to a common
  length, convolved with random dilated kernels over random channel subsets, and each kernel gives two
  features (the share of positive outputs and the maximum); a regularised logistic regression reads them.
- ``dtw``: k nearest neighbours under dynamic time warping (squared Euclidean frame cost, optional
  Sakoe-Chiba band), on resampled series; class probabilities are a softmax of each class's mean
  distance to its k nearest.
- ``slda``: linear discriminant analysis with fixed or Ledoit-Wolf shrinkage on all resampled frames;
- ``blend``: the (weighted) mean of the class probabilities of a ROCKET model, a shrunk LDA on
  resampled frames and a DTW neighbour vote.

Everything is seeded by ``Solution.seed`` and pure numpy/scikit-learn.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import LogisticRegression

from authoring.leaderboards.rounds import ladder_steps
from authoring.leaderboards.solution import Solution, solution

__all__ = [
    "STRONG_MODELS",
    "dtw_distances",
    "neighbours",
    "resample_all",
    "rocket_features",
    "strong_population",
    "strong_proba",
]

STRONG_MODELS = frozenset({"rocket", "dtw", "slda", "blend"})


def resample_all(series: list[np.ndarray], points: int) -> np.ndarray:
    """Interpolate each ``(steps, channels)`` series to ``points`` steps: an array ``(n, points, channels)``.

    >>> resample_all([np.array([[0.0], [2.0]])], 3)[0, :, 0].tolist()
    [0.0, 1.0, 2.0]
    """
    out = np.empty((len(series), points, series[0].shape[1]))
    for k, s in enumerate(series):
        grid = np.linspace(0, len(s) - 1, points)
        for c in range(s.shape[1]):
            out[k, :, c] = np.interp(grid, np.arange(len(s)), s[:, c])
    return out


@dataclass(frozen=True)
class _Kernel:
    channels: np.ndarray
    weights: np.ndarray  # (length, len(channels))
    bias: float
    dilation: int
    padding: int


def _kernels(count: int, length: int, channels: int, seed: int) -> list[_Kernel]:
    rng = np.random.default_rng(seed)
    kernels = []
    for _ in range(count):
        size = int(rng.choice([7, 9, 11]))
        chosen = np.sort(rng.choice(channels, size=int(rng.integers(1, min(channels, 3) + 1)), replace=False))
        weights = rng.normal(size=(size, len(chosen)))
        weights -= weights.mean(axis=0)
        top = np.log2(max((length - 1) / (size - 1), 1.0))
        dilation = int(2 ** rng.uniform(0, top))
        padding = ((size - 1) * dilation) // 2 if rng.integers(2) else 0
        kernels.append(_Kernel(chosen, weights, float(rng.uniform(-1, 1)), dilation, padding))
    return kernels


def rocket_features(x: np.ndarray, kernels: int, seed: int) -> np.ndarray:
    """ROCKET features of resampled series ``x`` ``(n, steps, channels)``: ``(n, 2 * kernels)``.

    >>> rocket_features(np.zeros((2, 20, 1)), 3, 0).shape
    (2, 6)
    """
    n, steps, channels = x.shape
    features = np.empty((n, 2 * kernels))
    for k, kernel in enumerate(_kernels(kernels, steps, channels, seed)):
        size = len(kernel.weights)
        span = (size - 1) * kernel.dilation
        padded = np.pad(x[:, :, kernel.channels], ((0, 0), (kernel.padding, kernel.padding), (0, 0)))
        out_len = padded.shape[1] - span
        if out_len < 1:
            features[:, 2 * k : 2 * k + 2] = 0.0
            continue
        acc = np.full((n, out_len), kernel.bias)
        for j in range(size):
            start = j * kernel.dilation
            acc += padded[:, start : start + out_len, :] @ kernel.weights[j]
        features[:, 2 * k] = (acc > 0).mean(axis=1)
        features[:, 2 * k + 1] = acc.max(axis=1)
    return features


def dtw_distances(a: np.ndarray, b: np.ndarray, band: float = 1.0) -> np.ndarray:
    """DTW distances between every series of ``a`` ``(n, L, C)`` and of ``b`` ``(m, L, C)``: ``(n, m)``.

    ``band`` is the Sakoe-Chiba window as a share of ``L`` (1.0: unconstrained).

    >>> x = np.array([[[0.0], [1.0], [2.0], [2.0]]]); y = np.array([[[0.0], [0.0], [1.0], [2.0]]])
    >>> float(dtw_distances(x, y)[0, 0]), float(np.sqrt(((x - y) ** 2).sum()))
    (0.0, 1.4142135623730951)
    """
    steps = a.shape[1]
    window = max(1, int(np.ceil(band * steps)))
    inf = np.inf
    b_norms = (b**2).sum(-1)
    previous = np.full((a.shape[0], b.shape[0], steps), inf)
    for i in range(steps):
        frame = a[:, i, :]
        cost = (frame**2).sum(-1)[:, None, None] + b_norms[None] - 2.0 * np.einsum("nc,mlc->nml", frame, b)
        row = np.full_like(previous, inf)
        for j in range(max(0, i - window), min(steps, i + window + 1)):
            if i == 0 and j == 0:
                best = np.zeros(previous.shape[:2])
            else:
                best = previous[:, :, j] if i > 0 else np.full(previous.shape[:2], inf)
                if j > 0:
                    best = np.minimum(best, row[:, :, j - 1])
                    if i > 0:
                        best = np.minimum(best, previous[:, :, j - 1])
            row[:, :, j] = cost[:, :, j] + best
        previous = row
    return np.sqrt(np.maximum(previous[:, :, -1], 0.0))


def _standardise(train: np.ndarray, test: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Scale every channel by the training series' mean and standard deviation (levels carry the class)."""
    mean, std = train.mean(axis=(0, 1)), train.std(axis=(0, 1)) + 1e-8
    return (train - mean) / std, (test - mean) / std


def _dtw_proba(
    train: np.ndarray, y: np.ndarray, test: np.ndarray, classes: np.ndarray, options: dict
) -> np.ndarray:
    """Class probabilities from the mean DTW distance to each class's ``k`` nearest training series.

    ``p(class) ∝ exp(-d_class / (temperature * d_typical))``, ``d_typical`` being the median distance of a
    training series to its nearest other training series (a scale known before seeing the test set).
    """
    band = float(options.get("band", 1.0))
    distances = dtw_distances(test, train, band)
    within = dtw_distances(train, train, band)
    np.fill_diagonal(within, np.inf)
    typical = float(np.median(within.min(axis=1))) + 1e-8
    k = int(options.get("k", 1))
    scores = np.empty((len(test), len(classes)))
    for j, label in enumerate(classes):
        members = np.sort(distances[:, y == label], axis=1)
        scores[:, j] = members[:, : min(k, members.shape[1])].mean(axis=1)
    logits = -scores / (float(options.get("temperature", 0.5)) * typical)
    logits -= logits.max(axis=1, keepdims=True)
    proba = np.exp(logits)
    return proba / proba.sum(axis=1, keepdims=True)


def _rocket_proba(train: np.ndarray, y: np.ndarray, test: np.ndarray, options: dict, seed: int) -> np.ndarray:
    kernels = int(options.get("kernels", 500))
    both = rocket_features(np.concatenate([train, test]), kernels, seed)
    x, t = both[: len(train)], both[len(train) :]
    mean, std = x.mean(axis=0), x.std(axis=0) + 1e-8
    model = LogisticRegression(C=float(options.get("C", 0.1)), max_iter=3000, random_state=seed)
    model.fit((x - mean) / std, y)
    return model.predict_proba((t - mean) / std)


def _lda_proba(
    train: np.ndarray, y: np.ndarray, test: np.ndarray, shrinkage: str | float = "auto"
) -> np.ndarray:
    model = LinearDiscriminantAnalysis(solver="lsqr", shrinkage=shrinkage)
    model.fit(train.reshape(len(train), -1), y)
    return model.predict_proba(test.reshape(len(test), -1))


def strong_proba(
    solution: Solution, train: list[np.ndarray], y: np.ndarray, test: list[np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """Fit one strong solution; return (classes, test probabilities with one column per class)."""
    options = solution.options
    classes = np.unique(y)
    points = int(options.get("points", 24))
    xtr, xte = _standardise(resample_all(train, points), resample_all(test, points))
    if solution.model == "rocket":
        return classes, _rocket_proba(xtr, y, xte, options, solution.seed)
    if solution.model == "dtw":
        return classes, _dtw_proba(xtr, y, xte, classes, options)
    if solution.model == "slda":
        return classes, _lda_proba(xtr, y, xte, options.get("shrinkage", "auto"))
    if solution.model == "blend":
        low = int(options.get("low", max(3, points // 3)))
        ltr, lte = _standardise(resample_all(train, low), resample_all(test, low))
        parts = [
            _rocket_proba(xtr, y, xte, options, solution.seed),
            _lda_proba(ltr, y, lte, options.get("shrinkage", "auto")),
            _dtw_proba(xtr, y, xte, classes, {"k": 3, "band": 0.2, "temperature": 0.05}),
        ]
        weights = np.asarray(options.get("weights", (1.0, 1.0, 1.0)), dtype=np.float64)
        return classes, np.tensordot(weights / weights.sum(), np.asarray(parts), axes=1)
    raise ValueError(f"not a strong series model: {solution.model!r}")


def strong_population(points: int) -> list[Solution]:
    """ROCKET, DTW-neighbour and blended entries at a resampled length of about ``points`` steps."""
    s = solution
    half = max(8, points // 2)
    rocket = [
        s("rocket", "none", kernels=kernels, C=c, points=p)
        for kernels in (100, 500, 1000)
        for c in (0.1, 1.0, 10.0)
        for p in (half, points)
    ]
    dtw = [
        s("dtw", "none", k=k, temperature=temperature, band=band, points=p)
        for k in (1, 3)
        for temperature in (0.05, 0.2)
        for band in (0.1, 1.0)
        for p in (min(half, 48), min(points, 64))  # DTW costs O(steps^2) per pair
    ]
    quarter = max(3, points // 4)
    lda = [s("slda", "none", points=p) for p in sorted({3, quarter, points // 3, half})]
    lda += [
        s("slda", "none", shrinkage=shrinkage, points=p)
        for shrinkage in (0.02, 0.05, 0.1, 0.2, 0.5)
        for p in sorted({3, quarter, points // 3})
    ]
    blends = [
        s("blend", "none", kernels=1000, C=1.0, points=half),
        s("blend", "none", kernels=1000, C=1.0, points=half, weights=(2.0, 2.0, 1.0)),
        s("blend", "none", kernels=1000, C=1.0, points=half, weights=(1.0, 1.0, 0.0)),
        s("blend", "none", kernels=1000, C=1.0, points=points, weights=(1.0, 1.0, 0.0)),
        s("blend", "none", kernels=500, C=1.0, points=half, weights=(1.0, 2.0, 0.0)),
        s("blend", "none", kernels=1000, C=1.0, points=half, shrinkage=0.1, low=3, weights=(1.0, 1.0, 0.0)),
        s("blend", "none", kernels=1000, C=10.0, points=half, shrinkage=0.1, low=3, weights=(1.0, 2.0, 0.0)),
        s("blend", "none", kernels=1000, C=10.0, points=half, shrinkage=0.1, low=3, weights=(2.0, 3.0, 1.0)),
        s("blend", "none", kernels=1000, C=1.0, points=points, weights=(3.0, 0.0, 1.0)),
    ]
    curves = [
        Solution(b.model, b.features, b.params, fraction, b.seed)
        for b in (
            s("rocket", "none", kernels=1000, C=1.0, points=half),
            s("dtw", "none", k=3, temperature=0.05, band=0.1, points=min(points, 64)),
        )
        for fraction in (0.1, 0.25, 0.5)
    ]
    reseeds = [
        Solution(b.model, b.features, b.params, b.train_fraction, seed)
        for b in (s("rocket", "none", kernels=1000, C=1.0, points=half), blends[1])
        for seed in (1, 2)
    ]
    return [*rocket, *dtw, *lda, *blends, *curves, *reseeds]


_LADDERS: dict[str, tuple[float, ...]] = {
    "C": (0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0),
    "kernels": (100, 300, 500, 1000, 2000),
    "shrinkage": (0.01, 0.02, 0.03, 0.05, 0.1, 0.2, 0.3, 0.5),
    "temperature": (0.02, 0.05, 0.1, 0.2, 0.5),
    "k": (1, 2, 3, 5),
}
"""The values a hyper-parameter steps through when an entry is refined: one step either way."""

_RANDOMISED = frozenset({"rocket", "blend", "rf", "et"})


def neighbours(entry: Solution) -> list[Solution]:
    """Return the refinements of a full-data series entry a team would submit next.

    One step either way along each hyper-parameter's ladder (:data:`_LADDERS`), one resampled length
    either way for shrunk LDA (at least 3 points), and seeds 1-3 for models with random kernels or trees.

    >>> [s.team for s in neighbours(solution("slda", "none", shrinkage=0.02, points=3))]
    ['slda-shrinkage0.01-points3-f1.00-s0', 'slda-shrinkage0.03-points3-f1.00-s0', \
'slda-shrinkage0.02-points4-f1.00-s0']
    """
    if entry.train_fraction != 1.0:
        return []
    out = []
    for position, (name, value) in enumerate(entry.params):
        steps = ladder_steps(_LADDERS.get(name, ()), value)
        if name == "points" and entry.model == "slda":
            steps = [p for p in (value - 1, value + 1) if p >= 3]
        for step in steps:
            params = list(entry.params)
            params[position] = (name, step)
            out.append(replace(entry, params=tuple(params)))
    if entry.model in _RANDOMISED:
        out += [replace(entry, seed=seed) for seed in (1, 2, 3) if seed != entry.seed]
    return out
