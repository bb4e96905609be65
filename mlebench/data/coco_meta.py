"""COCO-style metadata JSON, as the FGVC competitions (herbarium 2020-2022, iNaturalist 2019) ship it.

The metadata is one JSON object whose ``images`` and ``annotations`` lists describe the photos and their
labels (``category_id``); ``categories``, ``info``, ``licenses`` and competition-specific lists ride along.
MLE-bench v1 splits such a file per category: it pairs each image with its annotation, groups the pairs
by category (in order of first appearance), holds out part of every group and shuffles the held-out pairs.
This module holds those shared steps; each competition's ``prepare.py`` keeps its own split rule, its
renaming and its outputs, except herbarium 2020 and 2021, whose whole prepare is :func:`prepare_herbarium`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench.data.prepare import link_or_copy, write_csv
from mlebench_spec.declarations import Competition

__all__ = [
    "Pair",
    "few_image_split",
    "joined_pairs",
    "load",
    "prepare_herbarium",
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


def prepare_herbarium(
    raw: Path, public: Path, private: Path, comp: Competition, *, train: str, test: str, encoding: str
) -> None:
    """v1's prepare of herbarium 2020 and 2021: a per-category split of the training images.

    v1 reads ``<train>/metadata.json`` (in ``encoding``), pairs its ``images`` and ``annotations`` entry by
    entry and splits each category with :func:`few_image_split` (``split.test_fraction``, ``split.seed``).
    The test pairs of all categories are shuffled with ``random.Random(seed)``; the k-th gets id ``str(k)``
    and file ``images/{k//1000:03d}/{k}.jpg`` under ``<test>/``. Train images keep their ids and paths;
    ``<test>/metadata.json`` keeps only images, info and licenses. The answers are (Id, Predicted =
    category_id); the sample submission predicts 0.
    """
    metadata = load(raw / train / "metadata.json", encoding=encoding)
    fraction, seed = comp.split.test_fraction, comp.split.seed
    kept, held_out = split_by_category(
        zipped_pairs(metadata), lambda group: few_image_split(group, fraction, seed), seed
    )
    for image, _ in kept:
        link_or_copy(raw / train / image["file_name"], public / train / image["file_name"])
    test_images = [
        {**image, "file_name": f"images/{k // 1000:03d}/{k}.jpg", "id": str(k)}
        for k, (image, _) in enumerate(held_out)
    ]
    for (image, _), new in zip(held_out, test_images, strict=True):
        link_or_copy(raw / train / image["file_name"], public / test / new["file_name"])
    write(public / train / "metadata.json", subset(metadata, kept))
    write(public / test / "metadata.json", test_metadata(metadata, test_images))
    answers = pd.DataFrame(
        {"Id": [i["id"] for i in test_images], "Predicted": [a["category_id"] for _, a in held_out]}
    )
    write_csv(answers, private / comp.submission.answers)
    write_csv(answers[["Id"]].assign(Predicted=0), public / "sample_submission.csv")
