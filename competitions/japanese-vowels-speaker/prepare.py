"""japanese-vowels-speaker: tell which of nine speakers said a vowel (UEA JapaneseVowels, source split)."""

from __future__ import annotations

from pathlib import Path

from mlebench.data.timeseries import read_ts, write_series_classification
from mlebench_spec.declarations import Competition

_CHANNELS = 12


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write series, train/test/sample submission to ``public`` and the one-hot answers to ``private``."""
    write_series_classification(
        read_ts(raw / "JapaneseVowels_TRAIN.ts", _CHANNELS),
        read_ts(raw / "JapaneseVowels_TEST.ts", _CHANNELS),
        classes=[f"s{k}" for k in range(1, 10)],
        label_column="speaker",
        channel_columns=[f"c{c:02d}" for c in range(1, _CHANNELS + 1)],
        seed=comp.split.seed,
        public=public,
        private=private,
    )
