"""mlebench.data.coco_meta: pairing, per-category splitting and writing of COCO-style metadata."""

import json
from pathlib import Path

import numpy as np
import pytest

from authoring import coco_fixture
from mlebench.data import coco_meta


def _metadata() -> dict:
    images = [{"id": i, "file_name": f"images/{i}.jpg"} for i in range(6)]
    categories = [7, 3, 7, 7, 3, 9]
    annotations = [{"id": 100 + i, "image_id": i, "category_id": c} for i, c in enumerate(categories)]
    return {
        "images": images,
        "annotations": annotations,
        "categories": [{"id": c} for c in (3, 7, 9)],
        "info": {"year": 2020},
        "licenses": [{"id": 0}],
        "regions": [{"id": 0}],
    }


def test_zipped_and_joined_pairs_agree_when_lists_line_up():
    metadata = _metadata()
    assert coco_meta.zipped_pairs(metadata) == coco_meta.joined_pairs(metadata)
    metadata["annotations"].reverse()
    joined = coco_meta.joined_pairs(metadata)
    assert [a["id"] for _, a in joined] == [105, 104, 103, 102, 101, 100]
    assert all(image["id"] == annotation["image_id"] for image, annotation in joined)


def test_zipped_pairs_rejects_lists_of_different_length():
    metadata = _metadata()
    metadata["annotations"].pop()
    with pytest.raises(ValueError):
        coco_meta.zipped_pairs(metadata)


def test_joined_pairs_by_another_image_key():
    metadata = {
        "images": [{"image_id": "a"}, {"image_id": "b"}],
        "annotations": [{"image_id": "b", "category_id": 1}, {"image_id": "a", "category_id": 2}],
    }
    assert [i["image_id"] for i, _ in coco_meta.joined_pairs(metadata, image_key="image_id")] == ["b", "a"]


def test_split_by_category_groups_in_order_of_first_appearance():
    pairs = coco_meta.zipped_pairs(_metadata())
    seen = []

    def last_out(group):
        seen.append(group[0][1]["category_id"])
        return group[:-1], group[-1:]

    train, test = coco_meta.split_by_category(pairs, last_out, seed=0)
    assert seen == [7, 3, 9]
    assert [i["id"] for i, _ in train] == [0, 2, 1]
    assert sorted(i["id"] for i, _ in test) == [3, 4, 5]
    again = coco_meta.split_by_category(pairs, last_out, seed=0)
    assert again == (train, test)


@pytest.mark.parametrize(("n", "n_test"), [(1, 0), (2, 1), (4, 1), (5, 1), (10, 2)])
def test_few_image_split_sizes(n, n_test):
    kept, held_out = coco_meta.few_image_split(list(range(n)), 0.2, 0)
    assert len(held_out) == n_test
    assert sorted(kept + held_out) == list(range(n))
    if 1 < n < 5:
        assert held_out == [n - 1]


def test_subset_and_test_metadata_keep_the_right_keys(tmp_path: Path):
    metadata = _metadata()
    pairs = coco_meta.zipped_pairs(metadata)[:2]
    train = coco_meta.subset(metadata, pairs)
    assert [i["id"] for i in train["images"]] == [0, 1]
    assert [a["id"] for a in train["annotations"]] == [100, 101]
    assert train["regions"] == metadata["regions"] and len(metadata["images"]) == 6
    test = coco_meta.test_metadata(metadata, [{"id": "0"}])
    assert set(test) == {"images", "info", "licenses"}
    coco_meta.write(tmp_path / "deep" / "test.json", test)
    assert coco_meta.load(tmp_path / "deep" / "test.json") == test


def test_write_fixture_is_reproducible_and_consistent(tmp_path: Path):
    for name in ("a", "b"):
        coco_fixture.write_fixture(
            tmp_path / name, np.random.default_rng(0), [1, 2, 3], group="region", encoding="latin-1"
        )
    first = (tmp_path / "a" / "metadata.json").read_bytes()
    assert first == (tmp_path / "b" / "metadata.json").read_bytes()
    metadata = json.loads(first.decode("latin-1"))
    assert len(metadata["regions"]) == 5
    pairs = coco_meta.zipped_pairs(metadata)
    assert sorted(a["category_id"] for _, a in pairs) == [0, 1, 1, 2, 2, 2]
    for image, annotation in pairs:
        assert image["id"] == annotation["image_id"] and "region_id" in annotation
        assert (tmp_path / "a" / image["file_name"]).read_bytes()[:2] == b"\xff\xd8"
