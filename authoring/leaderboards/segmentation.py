"""Reference solutions for binary segmentation with run-length encoded masks (``rle_mask`` metrics).

Images come from ``public/train`` and ``public/test`` (one PNG per id); training masks are the RLE strings
of ``train.csv``, decoded with :mod:`graders.rle`. Intensities are divided by the 99.5th percentile of all
training pixels. Two families of solutions:

- **thresholding** (no learning, or one learned number): ``otsu`` (per-image Otsu threshold after
  Gaussian smoothing ``sigma``), ``percentile`` (per-image percentile), ``meanstd`` (mean plus ``offset``
  standard deviations), ``local`` (adaptive: brighter than the mean of a ``window`` by ``offset`` image
  standard deviations) and ``learned`` (one global threshold chosen to maximise Dice on the training
  tiles the solution sees);
- a small **U-Net** (``unet``, :mod:`.networks`, torch on CPU), thresholded at probability 0.5;
- **per-pixel classifiers** (any family of :mod:`.models`) on a stack of per-pixel filter responses,
  trained on ``pixels`` pixels sampled from the training tiles, thresholded at probability 0.5.

``min_size`` removes connected components smaller than that many pixels. The trivial entries are
``empty`` (no foreground) and ``full`` (every pixel foreground).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import ndimage

from authoring.leaderboards.images import read_images
from authoring.leaderboards.models import SCALED, make_estimator
from authoring.leaderboards.population import segmentation_population
from authoring.leaderboards.sampling import subsample
from authoring.leaderboards.solution import Solution, solution
from graders.rle import rle_decode, rle_encode

__all__ = ["SegmentationTask", "extended_segmentation_population", "otsu_threshold", "pixel_features"]

_THRESHOLDING = frozenset({"empty", "full", "otsu", "percentile", "meanstd", "local", "learned"})


def otsu_threshold(image: np.ndarray, bins: int = 256) -> float:
    """Otsu's threshold: the cut of the grey-level histogram that maximises between-class variance.

    >>> 0.1 < otsu_threshold(np.array([0.0, 0.1, 0.1, 0.9, 1.0, 1.0])) < 0.9
    True
    """
    hist, edges = np.histogram(image, bins=bins)
    centres = (edges[:-1] + edges[1:]) / 2
    weight = np.cumsum(hist).astype(np.float64)
    total = weight[-1]
    mass = np.cumsum(hist * centres)
    below_mean = mass / np.maximum(weight, 1)
    above_mean = (mass[-1] - mass) / np.maximum(total - weight, 1)
    between = weight * (total - weight) * (below_mean - above_mean) ** 2
    return float(edges[int(np.argmax(between[:-1])) + 1])


def pixel_features(image: np.ndarray) -> np.ndarray:
    """Per-pixel filter responses of one image, shape ``(pixels, 11)`` in column-major pixel order."""
    mean15 = ndimage.uniform_filter(image, 15)
    local_mean = ndimage.uniform_filter(image, 7)
    local_std = np.sqrt(np.maximum(ndimage.uniform_filter(image**2, 7) - local_mean**2, 0))
    smooth = ndimage.gaussian_filter(image, 1)
    stack = [
        image,
        *(ndimage.gaussian_filter(image, s) for s in (1, 2, 4, 8)),
        local_std,
        ndimage.gaussian_gradient_magnitude(image, 1),
        ndimage.gaussian_laplace(image, 2),
        image - mean15,
        image / (np.percentile(image, 99) + 1e-6),
        smooth - otsu_threshold(smooth),
    ]
    return np.stack([f.ravel(order="F") for f in stack], axis=1).astype(np.float32)


def extended_segmentation_population() -> list[Solution]:
    """Return the shared segmentation population, more tuned classifiers and thresholds, and U-Nets.

    >>> len(extended_segmentation_population()) >= 100
    True
    """
    s, n, f = solution, "none", "filters"
    thresholds = [s("local", n, sigma=sg, window=w, offset=off) for sg in (1.0, 2.0) for w in (15, 31)
                  for off in (-0.25, 0.25)]  # fmt: skip
    thresholds += [s("learned", n, sigma=sg, min_size=m) for sg in (0.5, 1.5, 3.0) for m in (0, 10)]
    thresholds += [s("otsu", n, sigma=sg, min_size=10) for sg in (0.5, 1.5, 2.0, 3.0)]
    boosting = ((0.1, 200), (0.05, 300))
    classifiers = [
        s("hgb", f, learning_rate=lr, max_iter=it, pixels=px) for lr, it in boosting for px in (20000, 60000)
    ]
    classifiers += [s("mlp", f, hidden_layer_sizes=h, alpha=1e-3, pixels=60000) for h in ((32,), (64, 32))]
    classifiers += [s("et", f, n_estimators=100, min_samples_leaf=leaf, pixels=60000) for leaf in (2, 10)]
    classifiers += [
        s("rf", f, n_estimators=100, min_samples_leaf=5, pixels=60000, min_size=m) for m in (0, 10)
    ]
    classifiers += [s("logistic", f, C=c) for c in (0.01, 100.0)]
    classifiers += [s("knn", f, n_neighbors=k) for k in (15, 150)]
    families = (
        ("mlp", {"hidden_layer_sizes": (32,), "alpha": 1e-3}),
        ("et", {"n_estimators": 50, "min_samples_leaf": 5}),
    )
    curves = [s(m, f, frac, seed, **kw) for m, kw in families for frac in (0.1, 0.25, 0.5) for seed in (1, 2)]
    reseeds = [s("hgb", f, 1.0, seed, learning_rate=0.1, max_iter=200, pixels=60000) for seed in (1, 2)]
    reseeds += [s("et", f, 1.0, seed, n_estimators=100, min_samples_leaf=2, pixels=60000) for seed in (1, 2)]
    unets = [s("unet", n, width=8, steps=st) for st in (150, 300, 600)] + [s("unet", n, width=12, steps=300)]
    unets += [s("unet", n, 1.0, seed, width=8, steps=300) for seed in (1, 2)]
    unets += [s("unet", n, frac, 0, width=8, steps=300) for frac in (0.25, 0.5)]
    unets += [s("unet", n, width=8, steps=300, augment=False)]
    population = [*segmentation_population(), *thresholds, *classifiers, *curves, *reseeds, *unets]
    return list(dict.fromkeys(population))


def _remove_small(mask: np.ndarray, min_size: int) -> np.ndarray:
    if min_size <= 0 or not mask.any():
        return mask
    labels, count = ndimage.label(mask)
    sizes = np.bincount(labels.ravel(), minlength=count + 1)
    keep = sizes >= min_size
    keep[0] = False
    return keep[labels]


def _dice(truth: np.ndarray, masks: np.ndarray) -> float:
    """Mean Dice over images (both empty = 1), for choosing a learned threshold."""
    inter = (truth & masks).sum(axis=(1, 2))
    size = truth.sum(axis=(1, 2)) + masks.sum(axis=(1, 2))
    return float(np.where(size == 0, 1.0, 2 * inter / np.maximum(size, 1)).mean())


@dataclass
class SegmentationTask:
    """A segmentation competition's public data."""

    id_column: str
    column: str
    train: np.ndarray
    masks: np.ndarray
    test: np.ndarray
    test_ids: pd.Series
    train_features: np.ndarray
    test_features: np.ndarray
    kind: str = "segmentation"

    @classmethod
    def load(cls, public: Path, id_column: str, column: str) -> SegmentationTask:
        """Read the training images and masks and the test images; precompute pixel features."""
        table = pd.read_csv(public / "train.csv", keep_default_na=False, dtype={id_column: str, column: str})
        test_ids = pd.read_csv(public / "test.csv", dtype={id_column: str})[id_column]
        train = read_images(public / "train", table[id_column])
        test = read_images(public / "test", test_ids, size=train.shape[1:])
        scale = float(np.percentile(train, 99.5)) or 1.0
        train, test = train / scale, test / scale
        height, width = train.shape[1:]
        masks = np.stack([rle_decode(rle, height, width) for rle in table[column]])
        return cls(
            id_column,
            column,
            train,
            masks,
            test,
            test_ids,
            np.stack([pixel_features(image) for image in train]),
            np.stack([pixel_features(image) for image in test]),
        )

    def population(self) -> list[Solution]:
        """Return the reference population."""
        return extended_segmentation_population()

    def predict(self, solution: Solution) -> pd.DataFrame:
        """Segment every test image with ``solution`` and return the RLE submission frame."""
        tiles = subsample(len(self.train), solution.train_fraction, solution.seed)
        if solution.model in _THRESHOLDING:
            masks = self._threshold(solution, tiles)
        elif solution.model == "unet":
            from authoring.leaderboards.networks import predict_unet  # torch only for network entries

            proba = predict_unet(
                self.train[tiles], self.masks[tiles], self.test, solution.options, solution.seed
            )
            masks = proba > 0.5
        else:
            masks = self._classify(solution, tiles)
        min_size = int(solution.options.get("min_size", 0))
        rles = [rle_encode(_remove_small(mask, min_size)) for mask in masks]
        return pd.DataFrame({self.id_column: self.test_ids.to_numpy(), self.column: rles})

    def _threshold(self, solution: Solution, tiles: np.ndarray) -> np.ndarray:
        o = solution.options
        sigma = float(o.get("sigma", 0))
        test = np.stack([ndimage.gaussian_filter(im, sigma) for im in self.test]) if sigma else self.test
        model = solution.model
        if model in ("empty", "full"):
            return np.full(test.shape, model == "full")
        if model == "learned":
            train = self.train[tiles]
            train = np.stack([ndimage.gaussian_filter(im, sigma) for im in train]) if sigma else train
            candidates = np.quantile(train, np.linspace(0.3, 0.99, 70))
            scores = [_dice(self.masks[tiles], train > c) for c in candidates]
            return test > candidates[int(np.argmax(scores))]
        out = []
        for image in test:
            if model == "otsu":
                cut = otsu_threshold(image)
            elif model == "percentile":
                cut = np.percentile(image, float(o["percentile"]))
            elif model == "meanstd":
                cut = image.mean() + float(o["offset"]) * image.std()
            else:  # local
                cut = ndimage.uniform_filter(image, int(o["window"])) + float(o["offset"]) * image.std()
            out.append(image > cut)
        return np.stack(out)

    def _classify(self, solution: Solution, tiles: np.ndarray) -> np.ndarray:
        n_tiles, n_pixels, n_features = self.train_features.shape
        x = self.train_features[tiles].reshape(-1, n_features)
        y = np.stack([m.ravel(order="F") for m in self.masks[tiles]]).ravel()
        rng = np.random.default_rng(solution.seed)
        size = min(len(x), int(solution.options.get("pixels", 20000)))
        pick = np.sort(rng.choice(len(x), size=size, replace=False))
        x, y = x[pick], y[pick]
        test = self.test_features.reshape(-1, n_features)
        if solution.model in SCALED:
            mean, std = x.mean(axis=0), x.std(axis=0) + 1e-6
            x, test = (x - mean) / std, (test - mean) / std
        model = make_estimator(solution, "classification", probabilities=True, n_samples=len(y))
        model.fit(x, y)
        proba = model.predict_proba(test)[:, list(model.classes_).index(True)]
        height, width = self.test.shape[1:]
        flat = (proba > 0.5).reshape(len(self.test), n_pixels)
        return np.stack([f.reshape(width, height).T for f in flat])
