"""Reference solutions for image classification (one PNG per row under ``public/train`` and ``public/test``).

Images are read as grey levels scaled to [0, 1] (by the largest value their bit depth allows) and brought
to the most common size of the training images. Feature sets:

- ``pixels``: every pixel;
- ``pool2`` / ``pool4``: means over 2x2 or 4x4 blocks (a smaller, blurrier image);
- ``hog``: histograms of gradient orientation (9 unsigned bins) over a 4x4 grid of cells, each image's
  vector L2-normalised, in the spirit of Dalal and Triggs' HOG;
- ``proj``: the mean of every row and every column (a deliberately weak summary);
- ``none``: no features at all (for constant predictors).

The ``cnn`` family (:mod:`.networks`, torch on CPU) learns from the pixels themselves.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from authoring.leaderboards.models import SCALED, make_estimator
from authoring.leaderboards.outputs import Output
from authoring.leaderboards.population import image_population
from authoring.leaderboards.sampling import subsample
from authoring.leaderboards.solution import Solution, solution

__all__ = ["ImageTask", "extended_image_population", "image_features", "read_images"]


def read_images(folder: Path, ids: pd.Series, size: tuple[int, int] | None = None) -> np.ndarray:
    """Stack ``folder/<id>.png`` as a float array ``(n, height, width)`` in [0, 1].

    Colour images are converted to grey. Images whose size differs from ``size`` (default: the most
    common size among them) are resized with bilinear interpolation.
    """
    arrays = []
    for image_id in ids:
        with Image.open(folder / f"{image_id}.png") as image:
            if image.mode in ("RGB", "RGBA", "P", "LA"):
                image = image.convert("L")
            data = np.asarray(image)
            scale = 65535.0 if data.dtype.itemsize > 1 or image.mode.startswith("I") else 255.0
            arrays.append(data.astype(np.float32) / np.float32(scale))
    if size is None:
        size = Counter(a.shape for a in arrays).most_common(1)[0][0]
    out = np.empty((len(arrays), *size), dtype=np.float32)
    for k, array in enumerate(arrays):
        if array.shape != size:
            array = np.asarray(Image.fromarray(array).resize((size[1], size[0]), Image.BILINEAR))
        out[k] = array
    return out


def _pool(images: np.ndarray, block: int) -> np.ndarray:
    n, h, w = images.shape
    h2, w2 = h // block, w // block
    cropped = images[:, : h2 * block, : w2 * block]
    return cropped.reshape(n, h2, block, w2, block).mean(axis=(2, 4)).reshape(n, -1)


def _hog(images: np.ndarray, cells: int = 4, bins: int = 9) -> np.ndarray:
    n, h, w = images.shape
    gy, gx = np.gradient(images, axis=(1, 2))
    magnitude = np.hypot(gx, gy)
    angle = np.mod(np.arctan2(gy, gx), np.pi)
    bin_index = np.minimum((angle / np.pi * bins).astype(np.int64), bins - 1)
    cell_row = np.minimum(np.arange(h) * cells // h, cells - 1)
    cell_col = np.minimum(np.arange(w) * cells // w, cells - 1)
    cell = (cell_row[:, None] * cells + cell_col[None, :])[None, :, :]
    flat = (np.arange(n)[:, None, None] * cells * cells + cell) * bins + bin_index
    hist = np.bincount(flat.ravel(), weights=magnitude.ravel(), minlength=n * cells * cells * bins)
    hist = hist.reshape(n, -1)
    return hist / (np.linalg.norm(hist, axis=1, keepdims=True) + 1e-6)


def image_features(images: np.ndarray, name: str) -> np.ndarray:
    """One feature set (see the module docstring) of an image stack, as ``(n, d)`` float32.

    >>> image_features(np.ones((2, 8, 8), dtype=np.float32), "pool4").shape
    (2, 4)
    """
    if name == "none":
        return np.zeros((len(images), 1), dtype=np.float32)
    if name == "pixels":
        return images.reshape(len(images), -1)
    if name == "pool2":
        return _pool(images, 2)
    if name == "pool4":
        return _pool(images, 4)
    if name == "hog":
        return _hog(images).astype(np.float32)
    if name == "proj":
        return np.concatenate([images.mean(axis=2), images.mean(axis=1)], axis=1)
    raise ValueError(f"unknown image feature set {name!r}")


def extended_image_population() -> list[Solution]:
    """Return the shared image population, more tuned classical models and small CNNs (:mod:`.networks`).

    >>> len(extended_image_population()) >= 100
    True
    """
    s = solution
    svms = [s("svm", fs, C=c) for fs in ("hog", "pool2", "pixels") for c in (1.0, 10.0)]
    svms += [s("svm", "hog", fraction, seed, C=5.0) for fraction in (0.25, 0.5) for seed in (1, 2)]
    knns = [s("knn", fs, n_neighbors=k) for fs in ("pixels", "hog") for k in (3, 10)]
    linear = [s("logistic", fs, C=c) for fs in ("pixels", "hog", "pool4") for c in (0.1, 10.0)]
    trees = [
        s("hgb", "hog", learning_rate=0.1, max_iter=200),
        s("hgb", "pool2", learning_rate=0.1, max_iter=100),
    ]
    trees += [s("rf", fs, n_estimators=300) for fs in ("hog", "pool2")]
    trees += [s("et", fs, n_estimators=300) for fs in ("hog", "pool2")]
    mlps = [
        s("mlp", fs, hidden_layer_sizes=(256,), alpha=a) for fs in ("pixels", "hog") for a in (1e-4, 1e-1)
    ]
    curves = [s("knn", "hog", fraction, 0, n_neighbors=3) for fraction in (0.1, 0.25, 0.5)]
    curves += [s("logistic", "hog", fraction, 0, C=1.0) for fraction in (0.05, 0.1, 0.25, 0.5)]
    curves += [
        s("mlp", "hog", fraction, 0, hidden_layer_sizes=(256,), alpha=0.1) for fraction in (0.1, 0.25, 0.5)
    ]
    curves += [s("svm", "pool2", fraction, seed, C=10.0) for fraction in (0.25, 0.5) for seed in (1, 2)]
    cnns = [s("cnn", "pixels", epochs=e) for e in (2, 6)]
    cnns += [s("cnn", "pixels", epochs=e, augment=True) for e in (6, 12)]
    cnns += [s("cnn", "pixels", epochs=12, augment=True, width=24)]
    cnns += [s("cnn", "pixels", 1.0, seed, epochs=12, augment=True) for seed in (1, 2)]
    cnns += [s("cnn", "pixels", fraction, 0, epochs=12, augment=True) for fraction in (0.1, 0.25, 0.5)]
    population = [*image_population(), *svms, *knns, *linear, *trees, *mlps, *curves, *cnns]
    return list(dict.fromkeys(population))


@dataclass
class ImageTask:
    """An image classification competition's public data."""

    output: Output
    train: np.ndarray
    target: np.ndarray
    test: np.ndarray
    test_ids: pd.Series
    kind: str = "image-classification"

    @classmethod
    def load(cls, public: Path, output: Output) -> ImageTask:
        """Read the labels and every training and test image."""
        ids = {output.id_column: str}  # ids are text: "007" stays "007"
        labels = pd.read_csv(public / "train.csv", dtype=ids)
        test_ids = pd.read_csv(public / "test.csv", dtype=ids)[output.id_column]
        train = read_images(public / "train", labels[output.id_column])
        test = read_images(public / "test", test_ids, size=train.shape[1:])
        return cls(output, train, labels[output.columns[0]].to_numpy(), test, test_ids)

    def population(self) -> list[Solution]:
        """Return the reference population."""
        return extended_image_population()

    def predict(self, solution: Solution) -> pd.DataFrame:
        """Fit ``solution`` on its share of the training images and return its submission frame."""
        rows = subsample(len(self.train), solution.train_fraction, solution.seed, self.target)
        if solution.model == "cnn":
            return self._network(solution, rows)
        x = image_features(self.train[rows], solution.features)
        test = image_features(self.test, solution.features)
        if solution.model in SCALED:
            mean, std = x.mean(axis=0), x.std(axis=0) + 1e-3
            x, test = (x - mean) / std, (test - mean) / std
        probabilities = self.output.mode != "label"
        model = make_estimator(solution, "classification", probabilities=probabilities, n_samples=len(rows))
        model.fit(x, self.target[rows])
        return self.output.submission(self.test_ids, model, test)

    def _network(self, solution: Solution, rows: np.ndarray) -> pd.DataFrame:
        from authoring.leaderboards.networks import predict_cnn  # torch only for network entries

        classes, codes = np.unique(self.target[rows], return_inverse=True)
        proba = predict_cnn(self.train[rows], codes, self.test, solution.options, solution.seed)
        if self.output.mode == "label":
            return self.output.frame(self.test_ids, classes[proba.argmax(axis=1)])
        return self.output.frame(self.test_ids, self.output.probabilities(proba, list(classes)))
