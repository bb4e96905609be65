"""herbarium-2020-fgvc7: v1's per-category split of Kaggle's training images (nybg2020/).

The split, the renaming of the test images and the files written are v1's, shared with herbarium
2021: see :func:`mlebench.data.coco_meta.prepare_herbarium` (its metadata is latin-1).
"""

from pathlib import Path

from mlebench.data.coco_meta import prepare_herbarium
from mlebench_spec.declarations import Competition


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write v1's public and private files from ``raw`` (see the module docstring)."""
    prepare_herbarium(
        raw, public, private, comp, train="nybg2020/train", test="nybg2020/test", encoding="latin-1"
    )
