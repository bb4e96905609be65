"""A small stand-in for Kaggle's random-acts-of-pizza download: train.json and test.json (fewer fields)."""

import json
from pathlib import Path

import numpy as np

from authoring.grading_inputs import GradingInputs, binary
from mlebench_spec.declarations import Competition, RealSize

TEST_FIELDS = [
    "giver_username_if_known",
    "request_id",
    "request_text_edit_aware",
    "request_title",
    "requester_account_age_in_days_at_request",
    "requester_days_since_first_post_on_raop_at_request",
    "requester_number_of_comments_at_request",
    "requester_number_of_comments_in_raop_at_request",
    "requester_number_of_posts_at_request",
    "requester_number_of_posts_on_raop_at_request",
    "requester_number_of_subreddits_at_request",
    "requester_subreddits_at_request",
    "requester_upvotes_minus_downvotes_at_request",
    "requester_upvotes_plus_downvotes_at_request",
    "requester_username",
    "unix_timestamp_of_request",
    "unix_timestamp_of_request_utc",
]
WORDS = "pizza hungry broke student rent week family please thanks help pay forward job kids".split()


def _record(rng: np.random.Generator, n: int) -> dict:
    got = bool(rng.random() < 0.3)
    stamp = float(rng.integers(1_300_000_000, 1_380_000_000))
    text = " ".join(rng.choice(WORDS, size=12))
    counts = {
        f"requester_{what}_{when}": int(rng.integers(0, 500))
        for what in ("number_of_comments", "number_of_comments_in_raop", "number_of_posts")
        for when in ("at_request", "at_retrieval")
    }
    return {
        "giver_username_if_known": f"giver{rng.integers(0, 50)}" if got and rng.random() < 0.3 else "N/A",
        "number_of_downvotes_of_request_at_retrieval": int(rng.integers(0, 10)),
        "number_of_upvotes_of_request_at_retrieval": int(rng.integers(0, 30)),
        "post_was_edited": bool(rng.random() < 0.1),
        "request_id": f"t3_{n:05x}{rng.integers(0, 16):x}",
        "request_number_of_comments_at_retrieval": int(rng.integers(0, 40)),
        "request_text": text,
        "request_text_edit_aware": text,
        "request_title": "[Request] " + " ".join(rng.choice(WORDS, size=4)),
        "requester_account_age_in_days_at_request": float(rng.uniform(0, 900)),
        "requester_account_age_in_days_at_retrieval": float(rng.uniform(900, 1500)),
        "requester_days_since_first_post_on_raop_at_request": float(rng.uniform(0, 100)),
        "requester_days_since_first_post_on_raop_at_retrieval": float(rng.uniform(100, 900)),
        **counts,
        "requester_number_of_posts_on_raop_at_request": int(rng.integers(0, 3)),
        "requester_number_of_posts_on_raop_at_retrieval": int(rng.integers(0, 5)),
        "requester_number_of_subreddits_at_request": int(rng.integers(0, 40)),
        "requester_received_pizza": got,
        "requester_subreddits_at_request": list(rng.choice(["AskReddit", "pics", "funny", "gaming"], 2)),
        "requester_upvotes_minus_downvotes_at_request": int(rng.integers(0, 900)),
        "requester_upvotes_minus_downvotes_at_retrieval": int(rng.integers(0, 900)),
        "requester_upvotes_plus_downvotes_at_request": int(rng.integers(0, 2000)),
        "requester_upvotes_plus_downvotes_at_retrieval": int(rng.integers(0, 2000)),
        "requester_user_flair": "shroom" if got else None,
        "requester_username": f"user{n}",
        "unix_timestamp_of_request": stamp,
        "unix_timestamp_of_request_utc": stamp - 3600,
    }


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small synthetic download into the empty folder ``dest``."""
    train = [_record(rng, n) for n in range(240)]
    test = [{k: v for k, v in _record(rng, n).items() if k in TEST_FIELDS} for n in range(240, 300)]
    (dest / "train.json").write_text(json.dumps(train, indent=4))
    (dest / "test.json").write_text(json.dumps(test, indent=4))


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: 0/1 answers, noisy scores."""
    return binary(comp, size.test_rows, rng)
