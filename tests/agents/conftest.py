"""Fixtures for the agent tests: tiny synthetic public folders, one per task shape, and a runner.

Every builder returns ``(public_dir, truth)`` where ``truth`` maps each test id to its true value,
so a test can check that the agent learned something, not only that the file has the right shape.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from PIL import Image

# Scripted solutions the LLM stand-in hands to agents: programs run inside a container, not test modules.
collect_ignore_glob = ["llm_scripts/*.py"]

REPO = Path(__file__).resolve().parents[2]
AGENTS = REPO / "agents"
# Small sizes so that every end-to-end run takes a few seconds.
FAST_KWARGS = {"cv_folds": 2, "hgb_max_iter": 40, "seg_max_pixels": 6000, "tfidf_max_features": 3000}


@dataclass
class AgentRun:
    """Outcome of one agent subprocess."""

    returncode: int
    stdout: str
    stderr: str
    submission: Path
    code_dir: Path
    logs_dir: Path

    def read(self) -> pd.DataFrame:
        """Read the submission as written (empty fields stay empty strings)."""
        return pd.read_csv(self.submission, keep_default_na=False)


def run_agent(
    name: str, data_dir: Path, work: Path, kwargs: dict | None = None, seed: int = 0, cpus: int = 1
) -> AgentRun:
    """Run ``agents/<name>/main.py`` with the agent contract's environment, in its own folder."""
    dirs = {key: work / key for key in ("submission", "code", "logs")}
    env = dict(
        os.environ,
        DATA_DIR=str(data_dir),
        SUBMISSION_DIR=str(dirs["submission"]),
        CODE_DIR=str(dirs["code"]),
        LOGS_DIR=str(dirs["logs"]),
        COMPETITION_ID="synthetic",
        SEED=str(seed),
        TIME_LIMIT_SECS="120",
        HARDWARE_CPUS=str(cpus),
        HARDWARE_MEMORY="2g",
        AGENT_KWARGS=json.dumps(FAST_KWARGS if kwargs is None else kwargs),
    )
    proc = subprocess.run(
        [sys.executable, "main.py"], cwd=AGENTS / name, env=env, capture_output=True, text=True, timeout=120
    )
    return AgentRun(
        proc.returncode,
        proc.stdout,
        proc.stderr,
        dirs["submission"] / "submission.csv",
        dirs["code"],
        dirs["logs"],
    )


def _write(public: Path, train: pd.DataFrame, test: pd.DataFrame, sample: pd.DataFrame, text: str) -> Path:
    public.mkdir(parents=True, exist_ok=True)
    train.to_csv(public / "train.csv", index=False)
    test.to_csv(public / "test.csv", index=False)
    sample.to_csv(public / "sample_submission.csv", index=False)
    (public / "description.md").write_text(text, encoding="utf-8")
    return public


def build_tabular_binary(root: Path, n: int = 300) -> tuple[Path, dict]:
    """Numbers with NaN, a categorical and a date column; binary target, probability submission."""
    rng = np.random.default_rng(1)
    x1, x2 = rng.normal(size=n), rng.normal(size=n)
    cat = rng.choice(["red", "green", "blue"], size=n)
    logit = 2.5 * x1 - 1.5 * (cat == "red") + 0.3 * x2
    y = (logit + rng.logistic(size=n) * 0.3 > 0).astype(int)
    x2[rng.random(n) < 0.1] = np.nan
    frame = pd.DataFrame({"id": np.arange(1, n + 1), "x1": x1, "x2": x2, "colour": cat})
    frame["signup"] = pd.Timestamp("2020-01-01") + pd.to_timedelta(rng.integers(0, 900, n), unit="D")
    frame["signup"] = frame["signup"].dt.strftime("%Y-%m-%d")
    cut = int(n * 0.75)
    train = frame.iloc[:cut].assign(bad=y[:cut])
    test = frame.iloc[cut:]
    sample = pd.DataFrame({"id": test["id"], "bad": 0.5})
    text = "## Metric\n\nArea under the ROC curve."
    return _write(root, train, test, sample, text), dict(zip(test["id"], y[cut:], strict=True))


def build_regression_dates(root: Path, n: int = 400) -> tuple[Path, dict]:
    """Daily rows keyed by an ISO date id; test is the last days; skewed positive target."""
    rng = np.random.default_rng(2)
    dates = pd.date_range("2015-01-01", periods=n, freq="D")
    lag = rng.gamma(2.0, 2.0, size=n)
    temp = rng.normal(15, 8, size=n)
    weekend = dates.day_of_week >= 5
    y = np.exp(0.25 * lag + 0.02 * temp - 0.8 * weekend + rng.normal(0, 0.05, size=n))
    frame = pd.DataFrame({"date": dates.strftime("%Y-%m-%d"), "lagged": lag, "temp": temp})
    cut = n - 60
    train = frame.iloc[:cut].assign(rides=y[:cut])
    test = frame.iloc[cut:]
    sample = pd.DataFrame({"date": test["date"], "rides": float(np.mean(y[:cut]))})
    text = "## Metric\n\nMean absolute error."
    return _write(root, train, test, sample, text), dict(zip(test["date"], y[cut:], strict=True))


def build_multiclass_series(root: Path, n: int = 150) -> tuple[Path, dict]:
    """Class-probability submission (one column per class) with long-format series tables."""
    rng = np.random.default_rng(3)
    classes = np.array(["a", "b", "c"])
    labels = rng.choice(classes, size=n)
    centre = {"a": (0.0, 1.0), "b": (1.5, 0.0), "c": (-1.5, -1.0)}
    rows = []
    for i, label in enumerate(labels, start=1):
        for t in range(int(rng.integers(4, 9))):
            rows.append(
                {
                    "id": i,
                    "t": t,
                    "v1": centre[label][0] + rng.normal(0, 0.5),
                    "v2": centre[label][1] + rng.normal(0, 0.5),
                }
            )
    series = pd.DataFrame(rows)
    cut = int(n * 0.7)
    ids = np.arange(1, n + 1)
    train = pd.DataFrame({"id": ids[:cut], "who": labels[:cut]})
    test = pd.DataFrame({"id": ids[cut:]})
    sample = pd.DataFrame({"id": ids[cut:], **{c: 1 / 3 for c in classes}})
    public = _write(root, train, test, sample, "## Metric\n\nMulticlass log loss.")
    series[series["id"] <= cut].to_csv(public / "train_series.csv", index=False)
    series[series["id"] > cut].to_csv(public / "test_series.csv", index=False)
    return public, dict(zip(ids[cut:], labels[cut:], strict=True))


def build_image_classes(root: Path, n: int = 120) -> tuple[Path, dict]:
    """8-bit 12x12 images in train/ and test/; the label says where the bright bar is."""
    rng = np.random.default_rng(4)
    labels = rng.integers(0, 3, size=n)
    public = root
    for folder in ("train", "test"):
        (public / folder).mkdir(parents=True, exist_ok=True)
    cut = int(n * 0.75)
    for i, label in enumerate(labels, start=1):
        img = rng.integers(0, 60, size=(12, 12)).astype(np.uint8)
        img[:, 4 * label : 4 * label + 4] = 220
        Image.fromarray(img).save(public / ("train" if i <= cut else "test") / f"{i}.png")
    ids = np.arange(1, n + 1)
    train = pd.DataFrame({"id": ids[:cut], "label": labels[:cut]})
    test = pd.DataFrame({"id": ids[cut:]})
    sample = pd.DataFrame({"id": ids[cut:], "label": 0})
    return _write(public, train, test, sample, "## Metric\n\nAccuracy."), dict(
        zip(ids[cut:], labels[cut:], strict=True)
    )


def rle(mask: np.ndarray) -> str:
    """Column-major, 1-based run-length encoding (independent of the agent's own encoder)."""
    flat = mask.T.reshape(-1)
    out, i = [], 0
    while i < flat.size:
        if flat[i]:
            j = i
            while j < flat.size and flat[j]:
                j += 1
            out += [str(i + 1), str(j - i)]
            i = j
        else:
            i += 1
    return " ".join(out)


def build_segmentation(root: Path, n: int = 24) -> tuple[Path, dict]:
    """16-bit 24x24 tiles with bright rectangles; target is their RLE mask; some tiles are empty."""
    rng = np.random.default_rng(5)
    for folder in ("train", "test"):
        (root / folder).mkdir(parents=True, exist_ok=True)
    cut = int(n * 0.75)
    truth, train_rows = {}, []
    for i in range(1, n + 1):
        mask = np.zeros((24, 24), dtype=bool)
        if i % 5:
            r, c = rng.integers(2, 12, size=2)
            mask[r : r + int(rng.integers(5, 10)), c : c + int(rng.integers(5, 10))] = True
        img = (rng.normal(20, 4, size=mask.shape) + 150 * mask).clip(0, None).astype(np.uint16)
        Image.fromarray(img).save(root / ("train" if i <= cut else "test") / f"{i}.png")
        if i <= cut:
            train_rows.append({"id": i, "rle": rle(mask)})
        else:
            truth[i] = mask
    ids = np.arange(cut + 1, n + 1)
    test = pd.DataFrame({"id": ids})
    sample = pd.DataFrame({"id": ids, "rle": ""})
    return _write(root, pd.DataFrame(train_rows), test, sample, "## Metric\n\nMean Dice."), truth


_LETTERS = {
    "a": "AH",
    "b": "B",
    "d": "D",
    "e": "EH",
    "k": "K",
    "m": "M",
    "o": "OW",
    "r": "R",
    "s": "S",
    "t": "T",
}


def _pronounce(word: str) -> str:
    tokens, i = [], 0
    while i < len(word):
        if word[i : i + 2] == "sh":
            tokens.append("SH")
            i += 2
            continue
        tokens.append(_LETTERS.get(word[i], word[i].upper()))
        i += 1
    return " ".join(tokens)


def build_seq2seq(root: Path, n: int = 600) -> tuple[Path, dict]:
    """Made-up words and a rule-based "pronunciation" (mostly one token per letter, "sh" -> SH)."""
    rng = np.random.default_rng(6)
    alphabet = list("abdekmorsth")
    words = sorted({"".join(rng.choice(alphabet, size=int(rng.integers(3, 8)))) for _ in range(n)})
    rng.shuffle(words)
    frame = pd.DataFrame({"id": np.arange(1, len(words) + 1), "word": words})
    frame["sound"] = frame["word"].map(_pronounce)
    cut = int(len(frame) * 0.8)
    train, test = frame.iloc[:cut], frame.iloc[cut:]
    sample = pd.DataFrame({"id": test["id"], "sound": "AH"})
    public = _write(root, train, test[["id", "word"]], sample, "## Metric\n\nWord accuracy (exact match).")
    return public, dict(zip(test["id"], test["sound"], strict=True))


def build_text_labels(root: Path, n: int = 300) -> tuple[Path, dict]:
    """Review-like text plus a short categorical; binary label submission (sample holds 0)."""
    rng = np.random.default_rng(7)
    good = ["great", "tasty", "love", "excellent", "fresh", "perfect"]
    bad = ["awful", "stale", "broken", "bland", "refund", "disappointing"]
    filler = ["the", "box", "arrived", "and", "this", "snack", "was", "really", "quite", "for", "kids"]
    labels = rng.integers(0, 2, size=n)
    texts = []
    for label in labels:
        words = list(rng.choice(filler, size=12)) + list(rng.choice(good if label else bad, size=2))
        rng.shuffle(words)
        texts.append(" ".join(words))
    frame = pd.DataFrame(
        {"id": np.arange(1, n + 1), "store": rng.choice(["north", "south"], size=n), "review": texts}
    )
    cut = int(n * 0.75)
    train = frame.iloc[:cut].assign(great=labels[:cut])
    test = frame.iloc[cut:]
    sample = pd.DataFrame({"id": test["id"], "great": 0})
    return _write(root, train, test, sample, "## Metric\n\nAccuracy."), dict(
        zip(test["id"], labels[cut:], strict=True)
    )


def build_multilabel(root: Path, n: int = 320, labels: int = 6) -> tuple[Path, dict]:
    """Short titles and a number; six 0/1 labels, each a probability column (a multi-label task).

    Label ``k`` is marked by its own word in the title; truth maps each test id to its labels.
    """
    rng = np.random.default_rng(11)
    cues = ["space", "love", "war", "ghost", "song", "crime"][:labels]
    filler = ["the", "night", "city", "return", "last", "story", "of", "a", "man", "day"]
    y = (rng.random((n, labels)) < 0.35).astype(int)
    titles = []
    for row in y:
        words = list(rng.choice(filler, size=4)) + [c for c, on in zip(cues, row, strict=True) if on]
        rng.shuffle(words)
        titles.append(" ".join(words))
    names = [f"L{k}" for k in range(labels)]
    frame = pd.DataFrame({"id": np.arange(1, n + 1), "title": titles, "year": rng.integers(1950, 2020, n)})
    cut = int(n * 0.75)
    train = pd.concat(
        [frame.iloc[:cut], pd.DataFrame(y[:cut], columns=names, index=frame.index[:cut])], axis=1
    )
    test = frame.iloc[cut:]
    sample = pd.DataFrame({"id": test["id"], **{name: 0.5 for name in names}})
    text = "## Metric\n\nMean column-wise area under the ROC curve."
    truth = {i: row for i, row in zip(test["id"], y[cut:].tolist(), strict=True)}
    return _write(root, train, test, sample, text), truth


BUILDERS = {
    "tabular_binary": build_tabular_binary,
    "regression_dates": build_regression_dates,
    "multiclass_series": build_multiclass_series,
    "image_classes": build_image_classes,
    "segmentation": build_segmentation,
    "seq2seq": build_seq2seq,
    "text_labels": build_text_labels,
    "multilabel": build_multilabel,
}


@pytest.fixture(scope="session")
def fast_kwargs() -> dict:
    """Provide the ``AGENT_KWARGS`` :func:`run_agent` passes by default (small sizes, quick runs)."""
    return dict(FAST_KWARGS)


@pytest.fixture(scope="session")
def agent_runner():
    """Provide the :func:`run_agent` helper."""
    return run_agent


@pytest.fixture(scope="session")
def public_folders(tmp_path_factory) -> dict[str, tuple[Path, dict]]:
    """Every synthetic public folder, built once per test session."""
    root = tmp_path_factory.mktemp("public")
    return {name: build(root / name) for name, build in BUILDERS.items()}
