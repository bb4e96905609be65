"""A small stand-in for Kaggle's tensorflow2-question-answering download: simplified NQ JSON lines."""

import json
from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, assemble, single, units
from mlebench_spec.declarations import Competition, RealSize

WORDS = "the river flows through an old city where many people live and work".split()


def _record(rng: np.random.Generator, example_id: int, labelled: bool) -> dict:
    n_tokens = 60
    words = list(rng.choice(WORDS, size=n_tokens))
    candidates = [
        {"start_token": s, "top_level": True, "end_token": s + 10, "candidate_index": i}
        for i, s in enumerate(range(0, n_tokens - 10, 12))
    ]
    record = {
        "document_text": " ".join(["<P>", *words, "</P>"]),
        "long_answer_candidates": candidates,
        "question_text": " ".join(rng.choice(WORDS, size=6)),
        "document_url": f"https://en.wikipedia.org/w/index.php?title=Page_{example_id}",
        "example_id": example_id,
    }
    if labelled:
        long_answer = {"start_token": -1, "end_token": -1, "candidate_index": -1}
        short, yes_no = [], "NONE"
        if rng.random() < 0.75:
            pick = int(rng.integers(len(candidates)))
            c = candidates[pick]
            long_answer = {
                "start_token": c["start_token"],
                "end_token": c["end_token"],
                "candidate_index": pick,
            }
            kind = rng.random()
            if kind < 0.5:
                start = c["start_token"] + int(rng.integers(0, 5))
                short = [{"start_token": start, "end_token": start + 2}]
                if kind < 0.1:
                    short.append({"start_token": start + 3, "end_token": start + 5})
            elif kind < 0.6:
                yes_no = str(rng.choice(["YES", "NO"]))
        record["annotations"] = [
            {
                "yes_no_answer": yes_no,
                "long_answer": long_answer,
                "short_answers": short,
                "annotation_id": int(rng.integers(10**17, 10**18)),
            }
        ]
    return record


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``, all randomness from ``rng``."""
    ids = rng.integers(-(2**63), 2**63 - 1, size=330, dtype=np.int64)
    with (dest / "simplified-nq-train.jsonl").open("w") as out:
        for example_id in ids[:300]:
            out.write(json.dumps(_record(rng, int(example_id), True)) + "\n")
    with (dest / "simplified-nq-test.jsonl").open("w") as out:
        for example_id in ids[300:]:
            out.write(json.dumps(_record(rng, int(example_id), False)) + "\n")
    sample = [f"{i}_{part}" for i in ids[300:] for part in ("long", "short")]
    pd.DataFrame({"example_id": sample, "PredictionString": ""}).to_csv(
        dest / "sample_submission.csv", index=False
    )


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """``{example}_long`` / ``_short`` rows: token spans, YES/NO or blank; 65% right."""
    examples = units(size.test_rows, 2)
    n = 2 * examples
    start = rng.integers(0, 5_000, n)
    span = (
        pd.Series(start).astype(str).str.cat(pd.Series(start + rng.integers(1, 300, n)).astype(str), sep=":")
    )
    truth = np.where(rng.random(n) < 0.5, "", span.to_numpy(dtype=object))
    truth[1::2] = np.where(rng.random(examples) < 0.05, "YES", truth[1::2])
    pred = np.where(rng.random(n) < 0.65, truth, span.to_numpy(dtype=object))
    ex = pd.Series(rng.integers(-(2**62), 2**62, examples)).astype(str)
    row_ids = np.ravel(np.column_stack([(ex + "_long").to_numpy(), (ex + "_short").to_numpy()])).astype(
        object
    )
    return assemble(comp, row_ids, *single(comp, truth, pred), rng)
