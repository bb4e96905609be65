"""cmudict-g2p: spell a word, predict its CMU Pronouncing Dictionary pronunciation (ARPAbet)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import shuffled_ids, split_frame
from mlebench_spec.declarations import Competition
from mlebench_spec.errors import DataError

_SAMPLE = 25_000  # words drawn before the declared split takes its 5,000 test words
_WORD = re.compile(r"^[a-z']+$")
_VARIANT = re.compile(r"\(\d+\)$")


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write train/test/sample submission to ``public`` and the answers to ``private``."""
    words = _first_pronunciations(raw / "cmudict.dict")
    rng = np.random.default_rng([comp.split.seed, 2])
    chosen = np.sort(rng.choice(len(words), size=_SAMPLE, replace=False))
    frame = pd.DataFrame(
        {
            "id": shuffled_ids(_SAMPLE, comp.split.seed, start=1),
            "word": [words[i][0] for i in chosen],
            "phonemes": [words[i][1] for i in chosen],
        }
    )
    train, test = split_frame(frame, comp.split)
    train = train.sort_values("id")
    test = test.sort_values("id")
    write_csv(train, public / "train.csv")
    write_csv(test[["id", "word"]], public / "test.csv")
    write_csv(test[["id"]].assign(phonemes="AH0"), public / "sample_submission.csv")
    write_csv(test[["id", "phonemes"]], private / "answers.csv")


def _first_pronunciations(path: Path) -> list[tuple[str, str]]:
    """(word, phonemes) in file order: comments stripped, '(n)' variants and non-[a-z'] words dropped."""
    entries: list[tuple[str, str]] = []
    seen: set[str] = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        body = line.split("#", 1)[0].split()
        if not body:
            continue
        word, phones = body[0], body[1:]
        if not phones:
            raise DataError(f"{path}:{number}: word {word!r} has no pronunciation")
        if _VARIANT.search(word) or not _WORD.match(word):
            continue
        if word in seen:
            raise DataError(f"{path}:{number}: word {word!r} appears twice without a '(n)' marker")
        seen.add(word)
        entries.append((word, " ".join(phones)))
    return entries
