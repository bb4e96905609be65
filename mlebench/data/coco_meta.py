"""COCO-style metadata JSON, as the FGVC competitions (herbarium 2020-2022, iNaturalist 2019) ship it.

The metadata is one JSON object whose ``images`` and ``annotations`` lists describe the photos and their
labels (``category_id``); ``categories``, ``info``, ``licenses`` and competition-specific lists ride along.
MLE-bench v1 splits such a file per category: it pairs each image with its annotation, groups the pairs
by category (in order of first appearance), holds out part of every group and shuffles the held-out pairs.
This module holds those shared steps; each competition's ``prepare.py`` keeps its own split rule, its
renaming and its outputs.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

from sklearn.model_selection import train_test_split

__all__ = [
    "Pair",
    "few_image_split",
    "joined_pairs",
    "load",
    "split_by_category",
    "subset",
    "test_metadata",
    "write",
    "zipped_pairs",
]

Pair = tuple[dict, dict]
"""One image record and its annotation."""


def load(path: Path, encoding: str = "utf-8") -> dict:
    """Read the metadata JSON at ``path`` (herbarium 2020's is latin-1)."""
    return json.loads(path.read_text(encoding=encoding))


def write(path: Path, metadata: dict | list) -> None:
    """Write ``metadata`` to ``path`` as compact JSON in utf-8, creating parent folders."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(metadata), encoding="utf-8")


def zipped_pairs(metadata: dict) -> list[Pair]:
    """Pair ``images`` and ``annotations`` entry by entry (the lists must be equally long)."""
    return list(zip(metadata["images"], metadata["annotations"], strict=True))


def joined_pairs(metadata: dict, image_key: str = "id") -> list[Pair]:
    """Pair each annotation, in order, with the image whose ``image_key`` equals its ``image_id``."""
    images = {image[image_key]: image for image in metadata["images"]}
    return [(images[annotation["image_id"]], annotation) for annotation in metadata["annotations"]]


def split_by_category(
    pairs: list[Pair], split_group: Callable[[list[Pair]], tuple[list[Pair], list[Pair]]], seed: int
) -> tuple[list[Pair], list[Pair]]:
    """Split each category's pairs with ``split_group``; return (train, test), test shuffled by ``seed``.

    Categories are taken in order of first appearance; ``random.Random(seed)`` shuffles the concatenated
    test pairs, as v1 does.
    """
    groups: dict[int, list[Pair]] = {}
    for image, annotation in pairs:
        groups.setdefault(annotation["category_id"], []).append((image, annotation))
    train: list[Pair] = []
    test: list[Pair] = []
    for group in groups.values():
        kept, held_out = split_group(group)
        train += kept
        test += held_out
    random.Random(seed).shuffle(test)
    return train, test


def few_image_split(group: list, test_fraction: float, seed: int) -> tuple[list, list]:
    """v1's rule for one category of herbarium 2020/2021 and iNaturalist 2019: (kept, held out).

    One item stays in train; with 2-4 items the last ``max(1, int(test_fraction * n))`` are held out; with
    5 or more, ``train_test_split(test_size=test_fraction, random_state=seed)`` picks them.
    """
    n = len(group)
    if n == 1:
        return group, []
    if n < 5:
        cut = n - max(1, int(test_fraction * n))
        return group[:cut], group[cut:]
    return train_test_split(group, test_size=test_fraction, random_state=seed)


def subset(metadata: dict, pairs: list[Pair]) -> dict:
    """``metadata`` with only the images and annotations of ``pairs`` (every other key kept)."""
    return {**metadata, "images": [i for i, _ in pairs], "annotations": [a for _, a in pairs]}


def test_metadata(metadata: dict, images: list[dict]) -> dict:
    """The test-side metadata v1 writes: ``images`` with ``metadata``'s ``info`` and ``licenses``."""
    return {"images": images, "info": metadata["info"], "licenses": metadata["licenses"]}
