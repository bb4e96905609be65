"""cdiscount-image-classification-challenge: MLE-bench v1's split of Kaggle's train.bson.

v1 reads (_id, category_id) for every product in train.bson and splits that table with
train_test_split(test_size=0.1, random_state=0). Public: train.bson and test.bson (the products of each
side in file order; test documents lose category_id and keep their _id), train_example.bson (the first 100
train documents), category_names.csv, and a sample submission predicting 1000010653. Private: answers.csv
(_id, category_id) sorted by _id.

The BSON is streamed document by document; documents are copied byte for byte, and a test document is
re-assembled from its elements without category_id.
"""

import shutil
import struct
from collections.abc import Iterator
from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition

SAMPLE_CATEGORY = 1000010653
FIXED_SIZES = {0x01: 8, 0x07: 12, 0x08: 1, 0x09: 8, 0x0A: 0, 0x10: 4, 0x11: 8, 0x12: 8, 0x13: 16}


def _documents(path: Path) -> Iterator[bytes]:
    with path.open("rb") as src:
        while head := src.read(4):
            yield head + src.read(struct.unpack("<i", head)[0] - 4)


def _elements(doc: bytes) -> Iterator[tuple[str, bytes]]:
    """(key, raw element bytes) for each top-level element of a BSON document."""
    pos = 4
    while doc[pos] != 0:
        kind, key_end = doc[pos], doc.index(b"\x00", pos + 1)
        start = key_end + 1
        if kind in FIXED_SIZES:
            size = FIXED_SIZES[kind]
        elif kind in (0x02, 0x0D, 0x0E):
            size = 4 + struct.unpack_from("<i", doc, start)[0]
        elif kind == 0x05:
            size = 5 + struct.unpack_from("<i", doc, start)[0]
        else:  # embedded document, array, code with scope
            size = struct.unpack_from("<i", doc, start)[0]
        yield doc[pos + 1 : key_end].decode(), doc[pos : start + size]
        pos = start + size


def _value(element: bytes) -> int:
    payload = element[element.index(b"\x00", 1) + 1 :]
    return struct.unpack("<i" if element[0] == 0x10 else "<q", payload)[0]


def _without(doc: bytes, key: str) -> bytes:
    body = b"".join(raw for name, raw in _elements(doc) if name != key) + b"\x00"
    return struct.pack("<i", len(body) + 4) + body


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Prepare ``raw`` into ``public`` and ``private`` as MLE-bench v1 does."""
    rows = []
    for doc in _documents(raw / "train.bson"):
        fields = dict(_elements(doc))
        rows.append({"_id": _value(fields["_id"]), "category_id": _value(fields["category_id"])})
    train, test = split_frame(pd.DataFrame(rows), comp.split)
    in_test = set(test["_id"])
    with (
        (public / "train.bson").open("wb") as train_out,
        (public / "test.bson").open("wb") as test_out,
        (public / "train_example.bson").open("wb") as example_out,
    ):
        examples = 0
        for doc in _documents(raw / "train.bson"):
            if _value(dict(_elements(doc))["_id"]) in in_test:
                test_out.write(_without(doc, "category_id"))
                continue
            train_out.write(doc)
            if examples < 100:
                example_out.write(doc)
                examples += 1
    shutil.copyfile(raw / "category_names.csv", public / "category_names.csv")
    answers = test.sort_values("_id")
    write_csv(answers[["_id"]].assign(category_id=SAMPLE_CATEGORY), public / "sample_submission.csv")
    write_csv(answers, private / comp.submission.answers)
