"""icecube-neutrinos-in-deep-ice: v1's split of Kaggle's training batches.

v1 holds out 10% of the unique batch_id values of train_meta.parquet with train_test_split(random_state=0).
Events of held-out batches form test_meta.parquet (without azimuth and zenith) and the answers
private/test.csv (event_id, azimuth, zenith); each train/batch_{n}.parquet goes to public/train/ or
public/test/ with its batch. train_meta.parquet holds ~131M rows, so it is streamed in record batches.
"""

import shutil
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from sklearn.model_selection import train_test_split

from mlebench.data.prepare import format_float, write_csv
from mlebench_spec.declarations import Competition

TARGETS = ["azimuth", "zenith"]
ROWS_PER_READ = 2_000_000


def _batch_ids(meta: pq.ParquetFile) -> list[int]:
    """Return the unique batch ids in order of first appearance."""
    seen: dict[int, None] = {}
    for chunk in meta.iter_batches(batch_size=ROWS_PER_READ, columns=["batch_id"]):
        seen.update(dict.fromkeys(pc.unique(chunk.column(0)).to_pylist()))
    return list(seen)


def _split_meta(meta: pq.ParquetFile, test_batches: list[int], public: Path, answers: Path) -> None:
    test_set = pa.array(test_batches, type=meta.schema_arrow.field("batch_id").type)
    test_schema = pa.schema([f for f in meta.schema_arrow if f.name not in TARGETS])
    with (
        pq.ParquetWriter(public / "train_meta.parquet", meta.schema_arrow) as train_out,
        pq.ParquetWriter(public / "test_meta.parquet", test_schema) as test_out,
        answers.open("w", encoding="utf-8", newline="") as answers_out,
    ):
        answers_out.write("event_id," + ",".join(TARGETS) + "\n")
        for chunk in meta.iter_batches(batch_size=ROWS_PER_READ):
            table = pa.Table.from_batches([chunk])
            held_out = pc.is_in(table.column("batch_id"), value_set=test_set)
            train_out.write_table(table.filter(pc.invert(held_out)))
            test = table.filter(held_out)
            test_out.write_table(test.drop_columns(TARGETS))
            test.select(["event_id", *TARGETS]).to_pandas().to_csv(
                answers_out, header=False, index=False, lineterminator="\n", float_format=format_float
            )


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write v1's public and private files from ``raw`` (see the module docstring)."""
    meta = pq.ParquetFile(raw / "train_meta.parquet")
    _, test_batches = train_test_split(
        np.array(_batch_ids(meta)), test_size=comp.split.test_fraction, random_state=comp.split.seed
    )
    answers = private / comp.submission.answers
    _split_meta(meta, test_batches.tolist(), public, answers)
    event_ids = pq.read_table(public / "test_meta.parquet", columns=["event_id"]).column(0).to_pandas()
    write_csv(event_ids.to_frame().assign(azimuth=1, zenith=1), public / "sample_submission.csv")
    shutil.copyfile(raw / "sensor_geometry.csv", public / "sensor_geometry.csv")
    held_out = set(test_batches.tolist())
    for batch in _batch_ids(meta):
        side = "test" if batch in held_out else "train"
        (public / side).mkdir(exist_ok=True)
        shutil.copyfile(raw / "train" / f"batch_{batch}.parquet", public / side / f"batch_{batch}.parquet")
