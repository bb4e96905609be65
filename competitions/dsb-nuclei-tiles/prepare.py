"""dsb-nuclei-tiles: stardist's 512x512 DSB 2018 nuclei image cut into 64 tiles; segment the nuclei."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from mlebench.data.prepare import write_csv, write_png
from mlebench.data.splitting import shuffled_ids, split_frame
from mlebench_spec.declarations import Competition
from mlebench_spec.errors import DataError

_TILE = 64


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write tile PNGs, train/test/sample submission to ``public`` and the answers to ``private``."""
    image = _read_uint16(raw / "img2d.tif")
    mask = _read_uint16(raw / "mask2d.tif")
    if image.shape != mask.shape or image.shape[0] % _TILE or image.shape[1] % _TILE:
        raise DataError(f"{raw}: image {image.shape} and mask {mask.shape} do not cut into {_TILE}px tiles")
    rows, cols = image.shape[0] // _TILE, image.shape[1] // _TILE
    frame = pd.DataFrame(
        {
            "id": shuffled_ids(rows * cols, comp.split.seed, start=1),
            "top": np.repeat(np.arange(rows) * _TILE, cols),
            "left": np.tile(np.arange(cols) * _TILE, rows),
        }
    )
    frame["rle"] = [
        _rle_encode(mask[top : top + _TILE, left : left + _TILE] > 0)
        for top, left in zip(frame["top"], frame["left"], strict=True)
    ]
    train, test = split_frame(frame, comp.split)
    for side, part in (("train", train), ("test", test)):
        for tile_id, top, left in zip(part["id"], part["top"], part["left"], strict=True):
            write_png(image[top : top + _TILE, left : left + _TILE], public / side / f"{tile_id}.png")
    train = train.sort_values("id")
    test = test.sort_values("id")
    write_csv(train[["id", "rle"]], public / "train.csv")
    write_csv(test[["id"]], public / "test.csv")
    write_csv(test[["id"]].assign(rle=""), public / "sample_submission.csv")
    write_csv(test[["id", "rle"]], private / "answers.csv")


def _read_uint16(path: Path) -> np.ndarray:
    with Image.open(path) as img:
        if img.mode != "I;16":
            raise DataError(f"{path}: expected a 16-bit grayscale TIFF, got mode {img.mode}")
        return np.array(img, dtype=np.uint16)


def _rle_encode(mask: np.ndarray) -> str:
    """'start length ...' over column-major pixels numbered from 1; '' for an empty mask."""
    flat = np.concatenate([[False], mask.ravel(order="F"), [False]])
    edges = np.flatnonzero(flat[1:] != flat[:-1])
    starts, ends = edges[0::2], edges[1::2]
    return " ".join(f"{start + 1} {end - start}" for start, end in zip(starts, ends, strict=True))
