"""A small stand-in for Kaggle's jigsaw-unintended-bias download.

train.csv, test.csv, sample_submission.csv and test_private_expanded.csv, with the real columns and
fractional annotator scores.
"""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, assemble, single
from authoring.synthetic import numbered, text
from mlebench_spec.declarations import Competition, RealSize

LABELS = ["severe_toxicity", "obscene", "identity_attack", "insult", "threat"]
IDENTITIES = [
    "asian", "atheist", "bisexual", "black", "buddhist", "christian", "female", "heterosexual", "hindu",
    "homosexual_gay_or_lesbian", "intellectual_or_learning_disability", "jewish", "latino", "male", "muslim",
    "other_disability", "other_gender", "other_race_or_ethnicity", "other_religion",
    "other_sexual_orientation",
    "physical_disability", "psychiatric_or_mental_illness", "transgender", "white",
]  # fmt: skip
META = ["created_date", "publication_id", "parent_id", "article_id", "rating"]
REACTIONS = ["funny", "wow", "sad", "likes", "disagree"]
COUNTS = ["identity_annotator_count", "toxicity_annotator_count"]
WORDS = ["this", "is", "a", "stupid", "idea", "great", "comment", "people", "government", "tax", "agree"]


def _frame(rng: np.random.Generator, ids: np.ndarray) -> dict[str, object]:
    n = len(ids)
    scores = {c: (rng.integers(0, 7, size=n) / 6).round(6) for c in ["toxicity", *LABELS, "sexual_explicit"]}
    scores.update(
        {c: (rng.random(n) < 0.4).astype(float) * rng.choice([0.5, 0.75, 1.0], size=n) for c in IDENTITIES}
    )
    return {
        "id": ids,
        "comment_text": [" ".join(rng.choice(WORDS, size=rng.integers(3, 15))) for _ in range(n)],
        "created_date": [f"2016-{m:02d}-{d:02d} 10:00:00.000000+00" for m, d in rng.integers(1, 13, (n, 2))],
        "publication_id": rng.integers(2, 100, size=n),
        "parent_id": rng.integers(100000, 999999, size=n).astype(float),
        "article_id": rng.integers(1000, 400000, size=n),
        "rating": rng.choice(["approved", "rejected"], size=n),
        **{c: rng.integers(0, 5, size=n) for c in REACTIONS},
        **scores,
        "identity_annotator_count": rng.integers(0, 10, size=n),
        "toxicity_annotator_count": rng.integers(4, 10, size=n),
    }


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small stand-in download into ``dest``."""
    ids = rng.choice(np.arange(239000, 7200000), size=320, replace=False)
    train = pd.DataFrame(_frame(rng, ids[:200])).rename(columns={"toxicity": "target"})
    train_order = [
        "id",
        "target",
        "comment_text",
        *LABELS,
        *IDENTITIES,
        *META,
        *REACTIONS,
        "sexual_explicit",
        *COUNTS,
    ]
    train[train_order].to_csv(dest / "train.csv", index=False)
    test = pd.DataFrame(_frame(rng, ids[200:]))
    test_order = [
        "id",
        "comment_text",
        *META,
        *REACTIONS,
        "toxicity",
        *LABELS,
        "sexual_explicit",
        *IDENTITIES,
        *COUNTS,
    ]
    test[test_order].to_csv(dest / "test_private_expanded.csv", index=False)
    public_ids = rng.choice(np.arange(7200000, 7300000), size=40, replace=False)
    public_test = pd.DataFrame({"id": public_ids, "comment_text": ["a public test comment"] * 40})
    public_test.to_csv(dest / "test.csv", index=False)
    public_test[["id"]].assign(prediction=0.0).to_csv(dest / "sample_submission.csv", index=False)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Toxicity and identity fractions in the answers; a noisy toxicity score as the prediction."""
    n = size.test_rows
    toxicity = rng.beta(0.5, 3, n)
    identities = {
        c: np.where(rng.random(n) < 0.1, text(rng.random(n), 3), "") for c in comp.submission.answer_columns
    }
    identities["toxicity"] = text(toxicity, 4)
    pred = text(np.clip(toxicity + rng.normal(0, 0.2, n), 0, 1), 4)
    return assemble(comp, numbered(n), *single(comp, text(toxicity, 4), pred), rng, identities)
