"""billion-word-imputation: MLE-bench v1's streaming split of Kaggle's train_v2.txt.

v1 reads train_v2.txt line by line with one np.random.RandomState(0): for every line it draws u, and a line
with more than 2 tokens goes to test when u <= 0.01; from a test line it removes the token at
randint(1, n - 1) (never the first or last), drawn from the same stream. Test lines are numbered from 0.
Public: train_v2.txt.zip (the other lines, unchanged) and test_v2.txt.zip (``"id","sentence"``, then
``id,"masked line"`` with quotes doubled). Private: test.csv (the full stripped lines, written the same
way) and sample_submission.csv, a copy of test_v2.txt.

The draws are made in blocks: a block of u values is drawn at once and, when it holds a test line, the
generator is rewound to the block's start and advanced to just past that line, so the stream (and the
split) is exactly v1's while train lines are copied as byte ranges, costing no Python call each. Unlike
v1, the generator is created per call, so preparing twice gives the same split.
"""

import shutil
import tempfile
import zipfile
from pathlib import Path
from typing import BinaryIO, TextIO

import numpy as np

from mlebench.data.archives import write_zip
from mlebench_spec.declarations import Competition
from mlebench_spec.errors import DataError

FIRST_BLOCK, LAST_BLOCK = 256, 1 << 16
MIN_TEST_BYTES = 5  # "a b c"
HEADER = '"id","sentence"\n'


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


class _Splitter:
    """v1's line-by-line split on blocks of bytes: train lines are copied as byte ranges, not one by one."""

    def __init__(self, train: BinaryIO, test: TextIO, answers: TextIO, probability: float, seed: int):
        self.rng = np.random.RandomState(seed)
        self.train, self.test, self.answers = train, test, answers
        self.probability = probability
        self.count = 0

    def run(self, lines: BinaryIO, size: int = 1 << 24) -> None:
        rest = b""
        while chunk := lines.read(size):
            data = rest + chunk
            ends = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == ord("\n")) + 1
            if len(ends):
                self._lines(data, ends)
                rest = data[ends[-1] :]
            else:
                rest = data
        if rest:  # a last line without its newline
            self._lines(rest, np.array([len(rest)]))

    def _lines(self, data: bytes, ends: np.ndarray) -> None:
        """Split the lines of ``data`` that end (exclusive) at ``ends``."""
        starts = np.concatenate([[0], ends[:-1]])
        # Three tokens need at least five characters: shorter lines stay in train whatever their draw.
        long_enough = (ends - starts) >= MIN_TEST_BYTES
        copied = i = 0
        block = FIRST_BLOCK
        while i < len(ends):
            state = self.rng.get_state()
            draws = self.rng.random_sample(min(block, len(ends) - i))
            hit, words = None, []
            for k in np.flatnonzero((draws <= self.probability) & long_enough[i : i + len(draws)]).tolist():
                words = data[int(starts[i + k]) : int(ends[i + k])].decode("utf-8").split()
                if len(words) > 2:
                    hit = i + k
                    break
            if hit is None:
                i += len(draws)
                block = min(2 * block, LAST_BLOCK)
                continue
            self.rng.set_state(state)
            self.rng.random_sample(hit - i + 1)
            drop = self.rng.randint(1, len(words) - 1)
            full = data[int(starts[hit]) : int(ends[hit])].decode("utf-8").strip()
            self.test.write(f"{self.count},{_quoted(' '.join(words[:drop] + words[drop + 1 :]))}\n")
            self.answers.write(f"{self.count},{_quoted(full)}\n")
            self.count += 1
            self.train.write(data[copied : int(starts[hit])])
            copied, i, block = int(ends[hit]), hit + 1, FIRST_BLOCK
        self.train.write(data[copied : int(ends[-1])])


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Prepare ``raw`` into ``public`` and ``private`` as MLE-bench v1 does."""
    with zipfile.ZipFile(raw / "train_v2.txt.zip") as archive:
        if "train_v2.txt" not in archive.namelist():
            raise DataError(f"{raw / 'train_v2.txt.zip'}: no member train_v2.txt ({archive.namelist()[:5]})")
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            (work / "train").mkdir()
            (work / "test").mkdir()
            train_txt, test_txt = work / "train" / "train_v2.txt", work / "test" / "test_v2.txt"
            with (
                archive.open("train_v2.txt") as lines,
                train_txt.open("wb") as train,
                test_txt.open("w", encoding="utf-8", newline="") as test,
                (private / comp.submission.answers).open("w", encoding="utf-8", newline="") as answers,
            ):
                test.write(HEADER)
                answers.write(HEADER)
                _Splitter(train, test, answers, comp.split.test_fraction, comp.split.seed).run(lines)
            write_zip([train_txt], work / "train", public / "train_v2.txt.zip")
            write_zip([test_txt], work / "test", public / "test_v2.txt.zip")
            shutil.copyfile(test_txt, private / "sample_submission.csv")
