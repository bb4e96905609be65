"""Binary segmentation with a per-pixel classifier (no neural network).

Each pixel is described by its intensity (normalised per image), smoothed intensities and local
mean/standard deviation over several window sizes, blob and edge responses, and image-level
statistics (so that bright-on-dark and dark-on-bright images can be told apart). A histogram
gradient-boosting classifier is trained on a random sample of pixels; on a held-out set of
images the probability threshold, minimum object size and hole filling are tuned for mean Dice.
The final model is refitted on all training images and its masks are run-length encoded.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy import ndimage as ndi
from sklearn.ensemble import HistGradientBoostingClassifier

from .env import Options
from .images import read_image
from .models import boosting_threads
from .parallel import run_all
from .rle import rle_decode, rle_encode

log = logging.getLogger("baseline")
WINDOWS = (3, 7, 15)
SIGMAS = (1.0, 2.0, 4.0)


def _grey(path: Path) -> np.ndarray:
    img = read_image(path)
    return img.mean(axis=2) if img.ndim == 3 else img


def pixel_features(img: np.ndarray) -> np.ndarray:
    """``(h*w, n_features)`` features of every pixel of a grey image (column-major order)."""
    lo, hi = np.percentile(img, [1, 99])
    r = np.clip((img - lo) / max(hi - lo, 1e-6), -0.5, 1.5).astype(np.float64)
    z = (img - img.mean()) / max(float(img.std()), 1e-6)
    feats = [r, z]
    for w in WINDOWS:
        mean = ndi.uniform_filter(r, size=w, mode="reflect")
        sq = ndi.uniform_filter(r * r, size=w, mode="reflect")
        feats += [mean, np.sqrt(np.clip(sq - mean * mean, 0, None)), r - mean]
    blurred = [ndi.gaussian_filter(r, s, mode="reflect") for s in SIGMAS]
    feats += blurred
    feats.append(blurred[0] - blurred[2])
    feats.append(ndi.gaussian_laplace(r, 2.0, mode="reflect"))
    feats.append(ndi.gaussian_gradient_magnitude(r, 1.0, mode="reflect"))
    rows, cols = np.indices(img.shape)
    feats += [rows / img.shape[0], cols / img.shape[1]]
    skew = float(np.mean(z**3))
    globals_ = [float(img.mean()), float(img.std()), skew, float(np.median(r))]
    stack = np.stack([f.ravel(order="F") for f in feats], axis=1)
    glob = np.broadcast_to(np.asarray(globals_), (stack.shape[0], len(globals_)))
    return np.hstack([stack, glob]).astype(np.float32)


@dataclass(frozen=True)
class PostProcess:
    """Turning probabilities into a mask: threshold, drop small objects, optionally fill holes."""

    threshold: float = 0.5
    min_size: int = 0
    fill_holes: bool = False

    def apply(self, proba: np.ndarray) -> np.ndarray:
        """Binary mask from a probability map."""
        mask = proba >= self.threshold
        if self.fill_holes:
            mask = ndi.binary_fill_holes(mask)
        if self.min_size > 0 and mask.any():
            labels, n = ndi.label(mask)
            sizes = ndi.sum(mask, labels, index=np.arange(1, n + 1))
            mask = np.isin(labels, np.flatnonzero(sizes >= self.min_size) + 1)
        return mask


def dice(a: np.ndarray, b: np.ndarray) -> float:
    """Dice coefficient of two masks; 1.0 when both are empty."""
    total = a.sum() + b.sum()
    return 1.0 if total == 0 else float(2.0 * np.logical_and(a, b).sum() / total)


class PixelSegmenter:
    """Per-pixel gradient boosting on :func:`pixel_features`."""

    def __init__(self, options: Options, seed: int) -> None:
        self.options, self.seed = options, seed
        self.post = PostProcess()

    def _sample(self, images: list[np.ndarray], masks: list[np.ndarray], rng: np.random.Generator):
        per_image = max(64, self.options.seg_max_pixels // max(len(images), 1))
        X, y = [], []
        for img, mask in zip(images, masks, strict=True):
            feats = pixel_features(img)
            labels = mask.ravel(order="F")
            take = rng.choice(len(labels), size=min(per_image, len(labels)), replace=False)
            X.append(feats[take])
            y.append(labels[take])
        return np.vstack(X), np.concatenate(y)

    def fit(self, images: list[np.ndarray], masks: list[np.ndarray]) -> "PixelSegmenter":
        """Train on a pixel sample of ``images`` with their ground-truth ``masks``."""
        rng = np.random.default_rng(self.seed)
        X, y = self._sample(images, masks, rng)
        with boosting_threads(len(X)):
            self.model = HistGradientBoostingClassifier(
                learning_rate=0.1,
                max_iter=200,
                early_stopping=True,
                n_iter_no_change=15,
                validation_fraction=0.1,
                l2_regularization=1.0,
                random_state=self.seed,
            ).fit(X, y.astype(int))
        log.info(
            "segmenter trained on %d pixels (%.1f%% foreground), %d iterations",
            len(y),
            100 * y.mean(),
            self.model.n_iter_,
        )
        return self

    def proba(self, img: np.ndarray) -> np.ndarray:
        """Foreground probability map of one image."""
        if len(self.model.classes_) == 1:
            return np.full(img.shape, float(self.model.classes_[0]))
        feats = pixel_features(img)
        with boosting_threads(len(feats)):
            p = self.model.predict_proba(feats)[:, 1]
        return p.reshape(img.shape, order="F")

    def tune(self, images: list[np.ndarray], masks: list[np.ndarray]) -> float:
        """Pick the post-processing that maximises mean Dice on held-out images; return that Dice."""
        probas = [self.proba(img) for img in images]
        best, best_score = self.post, -1.0
        for threshold in np.arange(0.2, 0.81, 0.05):
            for min_size in (0, 4, 8, 16, 32):
                for fill in (False, True):
                    post = PostProcess(float(round(threshold, 2)), min_size, fill)
                    s = float(np.mean([dice(post.apply(p), m) for p, m in zip(probas, masks, strict=True)]))
                    if s > best_score + 1e-9:
                        best, best_score = post, s
        plain = PostProcess()
        untuned = float(np.mean([dice(plain.apply(p), m) for p, m in zip(probas, masks, strict=True)]))
        log.info("held-out mean Dice: %.4f at threshold 0.5, %.4f with %s", untuned, best_score, best)
        self.post = best
        return best_score


def load_training_set(paths: list[Path], rles: list[object]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Grey images and their decoded masks (mask shape taken from the image)."""
    images = [_grey(p) for p in paths]
    masks = [rle_decode(r, img.shape) for r, img in zip(rles, images, strict=True)]
    return images, masks


def segment(
    paths: list[Path],
    rles: list[object],
    test_paths: list[Path],
    options: Options,
    seed: int,
    cpus: int = 1,
) -> tuple[list[str], float]:
    """Train, tune on a held-out 20 % of images, refit on all, and RLE-encode the test masks.

    The tuning fit and the final fit run in parallel on ``cpus`` CPUs (:func:`baseline.parallel.run_all`).
    """
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(paths))[: options.seg_max_train_images]
    images, masks = load_training_set([paths[i] for i in order], [rles[i] for i in order])
    cut = max(1, int(round(len(images) * (1 - options.holdout_fraction))))

    def tuned() -> tuple[PostProcess, float]:
        seg = PixelSegmenter(options, seed).fit(images[:cut], masks[:cut])
        valid_dice = seg.tune(images[cut:], masks[cut:]) if cut < len(images) else float("nan")
        return seg.post, valid_dice

    def test_probas() -> list[np.ndarray]:
        seg = PixelSegmenter(options, seed).fit(images, masks)
        return [seg.proba(_grey(p)) for p in test_paths]

    # The final model does not depend on the tuning (only the post-processing applied to its maps does):
    # the two fits run side by side.
    probas, (post, valid_dice) = run_all([test_probas, tuned], cpus)
    return [rle_encode(post.apply(p)) for p in probas], valid_dice
