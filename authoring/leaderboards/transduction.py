"""Reference solutions for string-to-token-sequence tasks, such as grapheme-to-phoneme conversion.

The training file pairs an input string (a word) with an answer of whitespace-separated tokens (its
phonemes); a submission must reproduce the answer exactly. Models:

- ``constant``: the most common training answer;
- ``nn``: the answer of the nearest training input by character n-gram TF-IDF cosine (``ngram`` = n);
- ``context``: each input character is rewritten by the unit seen most often in training for the
  widest matching context (up to ``left`` and ``right`` neighbours), backing off to narrower contexts
  (a letter-to-sound rule table learned from data);
- ``graphone``: a joint-sequence n-gram model of order ``order`` over (character, unit) pairs
  (:mod:`.graphones`), the strongest family here;
- any family of :mod:`.models`: one classifier per input character over its neighbours within
  ``window`` (the classic per-letter decision-tree approach to letter-to-sound rules); tree families
  split the neighbours' character codes, the others see them one-hot encoded.

``context`` and the classifiers learn from an **alignment** of characters to units: each character
emits nothing, one token or two tokens (the x of "box" is ``K S``). :func:`align` finds it by hard EM
(Viterbi re-estimation), started from how often a character and a token sit at similar relative
positions; a pair of tokens never seen for a character scores as its two tokens less a penalty.
``stress=True`` post-processes CMUdict-style answers to hold exactly one primary stress. A blank
answer (every character rewritten to nothing) is replaced by the most common training answer.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.preprocessing import OneHotEncoder

from authoring.leaderboards.graphones import GraphoneModel, graphone_neighbours, graphone_population
from authoring.leaderboards.models import make_estimator
from authoring.leaderboards.population import transduction_population
from authoring.leaderboards.sampling import subsample
from authoring.leaderboards.solution import Solution, solution

__all__ = ["TransductionTask", "align", "extended_population", "one_primary_stress"]

Unit = tuple[str, ...]
_EPSILON: Unit = ()
_ORDINAL = frozenset({"tree", "rf", "et", "hgb"})


def _initial_scores(words: list[str], outputs: list[list[str]]) -> dict[tuple[str, Unit], float]:
    """Log P(token | character) from co-occurrence at similar relative positions."""
    pairs: Counter = Counter()
    per_char: Counter = Counter()
    for word, tokens in zip(words, outputs, strict=True):
        n, m = len(word), len(tokens)
        for i, char in enumerate(word):
            for j, token in enumerate(tokens):
                if abs((i + 0.5) / n - (j + 0.5) / m) < 0.2:
                    pairs[char, (token,)] += 1
                    per_char[char] += 1
    return {key: math.log(count / per_char[key[0]]) for key, count in pairs.items()}


def _viterbi(
    word: str, tokens: list[str], score: dict, eps: float, pair: float, unseen: float
) -> list[Unit] | None:
    n, m = len(word), len(tokens)
    if m > 2 * n:
        return None
    worst = -1e18
    best = [[worst] * (m + 1) for _ in range(n + 1)]
    back = [[0] * (m + 1) for _ in range(n + 1)]
    best[0][0] = 0.0
    for i in range(1, n + 1):
        char, row, prev, brow = word[i - 1], best[i], best[i - 1], back[i]
        for j in range(m + 1):
            top, arg = prev[j] + score.get((char, _EPSILON), eps), 0
            if j >= 1:
                s = prev[j - 1] + score.get((char, (tokens[j - 1],)), unseen)
                if s > top:
                    top, arg = s, 1
            if j >= 2:
                both = score.get((char, (tokens[j - 2], tokens[j - 1])))
                if both is None:  # an unseen pair: as likely as its two tokens, less a penalty
                    both = (
                        pair
                        + score.get((char, (tokens[j - 2],)), unseen)
                        + score.get((char, (tokens[j - 1],)), unseen)
                    )
                s = prev[j - 2] + both
                if s > top:
                    top, arg = s, 2
            row[j], brow[j] = top, arg
    if best[n][m] <= worst / 2:
        return None
    units, j = [], m
    for i in range(n, 0, -1):
        k = back[i][j]
        units.append(tuple(tokens[j - k : j]))
        j -= k
    return units[::-1]


def align(words: list[str], outputs: list[list[str]], iterations: int = 3) -> list[list[Unit] | None]:
    """Align each character of each word to 0, 1 or 2 output tokens; None where no alignment exists.

    >>> align(["bob", "a"], [["B", "AA1", "B"], ["X", "Y", "Z"]])
    [[('B',), ('AA1',), ('B',)], None]
    """
    score = _initial_scores(words, outputs)
    eps, pair, unseen = -3.0, -6.0, -12.0
    aligned: list[list[Unit] | None] = []
    for _ in range(iterations):
        counts: Counter = Counter()
        per_char: Counter = Counter()
        aligned = [_viterbi(w, t, score, eps, pair, unseen) for w, t in zip(words, outputs, strict=True)]
        for word, units in zip(words, aligned, strict=True):
            for char, unit in zip(word, units or (), strict=False):
                counts[char, unit] += 1
                per_char[char] += 1
        score = {key: math.log((c + 0.1) / (per_char[key[0]] + 1)) for key, c in counts.items()}
        eps, pair = -8.0, -8.0
    return aligned


def one_primary_stress(answer: str) -> str:
    """Make a CMUdict pronunciation carry exactly one primary stress (digit 1 on a vowel).

    No primary stress: the first secondary-stressed vowel (else the first vowel) becomes primary.
    Several: all but the first become secondary.

    >>> one_primary_stress("K AE0 T AH0"), one_primary_stress("K AE1 T AH1")
    ('K AE1 T AH0', 'K AE1 T AH2')
    """
    tokens = answer.split()
    vowels = [i for i, t in enumerate(tokens) if t[-1:].isdigit()]
    if not vowels:
        return answer
    primary = [i for i in vowels if tokens[i].endswith("1")]
    if not primary:
        chosen = ([i for i in vowels if tokens[i].endswith("2")] or vowels)[0]
        tokens[chosen] = tokens[chosen][:-1] + "1"
    for i in primary[1:]:
        tokens[i] = tokens[i][:-1] + "2"
    return " ".join(tokens)


@dataclass
class _Instances:
    """Every character occurrence of a word list, with the codes of its neighbours."""

    word: np.ndarray  # index of the word each character belongs to
    char: np.ndarray  # code of the character itself
    context: np.ndarray  # (n, 2 * reach + 1) codes of the padded neighbourhood, centre at column ``reach``


def _instances(words: list[str], codes: dict[str, int], reach: int, start: int, end: int) -> _Instances:
    rows, owner = [], []
    unknown = len(codes) + 1
    for k, word in enumerate(words):
        padded = [start] * reach + [codes.get(c, unknown) for c in word] + [end] * reach
        for i in range(len(word)):
            rows.append(padded[i : i + 2 * reach + 1])
            owner.append(k)
    context = np.asarray(rows, dtype=np.int64).reshape(-1, 2 * reach + 1)
    return _Instances(np.asarray(owner, dtype=np.int64), context[:, reach], context)


@dataclass
class TransductionTask:
    """A string-to-token-sequence competition's public data."""

    id_column: str
    column: str
    train_words: list[str]
    train_outputs: list[list[str]]
    test_words: list[str]
    test_ids: pd.Series
    alignment: list[list[Unit] | None]
    codes: dict[str, int] = field(default_factory=dict)
    kind: str = "transduction"
    reach: int = 4

    @classmethod
    def load(cls, public: Path, id_column: str, column: str) -> TransductionTask:
        """Read the pairs, align the full training set once (subsets are re-aligned on their own)."""
        train = pd.read_csv(public / "train.csv", keep_default_na=False, dtype=str)
        test = pd.read_csv(public / "test.csv", keep_default_na=False, dtype=str)
        source = next(c for c in test.columns if c != id_column)
        words = train[source].tolist()
        outputs = [answer.split() for answer in train[column]]
        chars = sorted(set("".join(words)) | set("".join(test[source])))
        codes = {c: k + 1 for k, c in enumerate(chars)}
        test_ids = test[id_column]
        return cls(
            id_column, column, words, outputs, test[source].tolist(), test_ids, align(words, outputs), codes
        )

    def population(self) -> list[Solution]:
        """Return the reference population."""
        return extended_population()

    def neighbours(self, entry: Solution) -> list[Solution]:
        """Return the second round's refinements of a best entry: graphone settings one step away."""
        return graphone_neighbours(entry)

    def predict(self, solution: Solution) -> pd.DataFrame:
        """Fit ``solution`` on its share of the training pairs and return its answers for the test inputs."""
        rows = subsample(len(self.train_words), solution.train_fraction, solution.seed)
        words = [self.train_words[r] for r in rows]
        outputs = [self.train_outputs[r] for r in rows]
        common = Counter(" ".join(o) for o in outputs).most_common(1)[0][0]
        if solution.model == "constant":
            answers = [common] * len(self.test_words)
        elif solution.model == "nn":
            answers = self._nearest(words, outputs, int(solution.options["ngram"]))
        else:
            full = solution.train_fraction >= 1
            units = self.alignment if full else align(words, outputs)
            pairs = [(w, u) for w, u in zip(words, units, strict=True) if u is not None]
            if solution.model == "context":
                answers = self._context(pairs, int(solution.options["left"]), int(solution.options["right"]))
            elif solution.model == "graphone":
                o = solution.options
                model = GraphoneModel(int(o["order"]), float(o.get("discount", 0.85)), int(o.get("beam", 20)))
                answers = model.fit([w for w, _ in pairs], [u for _, u in pairs]).transcribe(self.test_words)
            else:
                answers = self._classify(pairs, solution)
        if solution.options.get("stress"):
            answers = [one_primary_stress(a) for a in answers]
        answers = [a or common for a in answers]  # an answer may not be blank
        return pd.DataFrame({self.id_column: self.test_ids.to_numpy(), self.column: answers})

    def _nearest(self, words: list[str], outputs: list[list[str]], n: int) -> list[str]:
        vectorizer = TfidfVectorizer(analyzer="char_wb", ngram_range=(n, n), dtype=np.float32)
        train = vectorizer.fit_transform(words)
        test = vectorizer.transform(self.test_words)
        best = np.asarray((test @ train.T).argmax(axis=1)).ravel()
        return [" ".join(outputs[k]) for k in best]

    def _encode(self, pairs: list[tuple[str, list[Unit]]]) -> tuple[_Instances, np.ndarray, list[Unit]]:
        start, end = len(self.codes) + 2, len(self.codes) + 3
        train = _instances([w for w, _ in pairs], self.codes, self.reach, start, end)
        vocabulary: dict[Unit, int] = {_EPSILON: 0}
        labels = [vocabulary.setdefault(u, len(vocabulary)) for _, units in pairs for u in units]
        return train, np.asarray(labels, dtype=np.int64), list(vocabulary)

    def _test_instances(self) -> _Instances:
        return _instances(self.test_words, self.codes, self.reach, len(self.codes) + 2, len(self.codes) + 3)

    def _join(self, test: _Instances, predicted: np.ndarray, units: list[Unit]) -> list[str]:
        pieces: list[list[str]] = [[] for _ in self.test_words]
        for owner, label in zip(test.word, predicted, strict=True):
            pieces[owner].extend(units[label])
        return [" ".join(p) for p in pieces]

    def _context(self, pairs: list[tuple[str, list[Unit]]], left: int, right: int) -> list[str]:
        train, labels, units = self._encode(pairs)
        test = self._test_instances()
        base = len(self.codes) + 4
        predicted = np.full(len(test.word), -1, dtype=np.int64)
        shapes = sorted(
            ((lf, rt) for lf in range(left + 1) for rt in range(right + 1)),
            key=lambda s: (-(s[0] + s[1]), abs(s[0] - s[1]), -s[1]),
        )
        for lf, rt in shapes:
            columns = slice(self.reach - lf, self.reach + rt + 1)
            powers = base ** np.arange(lf + rt + 1, dtype=np.int64)
            keys, modes = _mode_table(train.context[:, columns] @ powers, labels)
            todo = np.flatnonzero(predicted < 0)
            if not len(todo):
                break
            query = test.context[todo, columns] @ powers
            slot = np.minimum(np.searchsorted(keys, query), len(keys) - 1)
            hit = keys[slot] == query
            predicted[todo[hit]] = modes[slot[hit]]
        predicted[predicted < 0] = 0
        return self._join(test, predicted, units)

    def _classify(self, pairs: list[tuple[str, list[Unit]]], solution: Solution) -> list[str]:
        window = int(solution.options.get("window", 2))
        train, labels, units = self._encode(pairs)
        test = self._test_instances()
        columns = slice(self.reach - window, self.reach + window + 1)
        x_train, x_test = train.context[:, columns], test.context[:, columns]
        if solution.model not in _ORDINAL:  # trees split character codes directly; the rest get one-hot
            encoder = OneHotEncoder(handle_unknown="ignore").fit(x_train)
            x_train, x_test = encoder.transform(x_train), encoder.transform(x_test)
        predicted = np.zeros(len(test.word), dtype=np.int64)
        for char in np.unique(test.char):
            targets = np.flatnonzero(test.char == char)
            rows = np.flatnonzero(train.char == char)
            if not len(rows):
                continue
            seen = np.unique(labels[rows])
            if len(seen) == 1:
                predicted[targets] = seen[0]
                continue
            model = make_estimator(solution, "classification", n_samples=len(rows))
            model.fit(x_train[rows], labels[rows])
            predicted[targets] = model.predict(x_test[targets])
        return self._join(test, predicted, units)


def extended_population() -> list[Solution]:
    """Return the shared transduction population, more rule tables and classifiers, and graphones.

    >>> len(extended_population()) >= 100
    True
    """
    s, n = solution, "none"
    tables = [s("context", n, left=lf, right=rt, stress=True) for lf in range(5) for rt in range(5)]
    curves = [
        s("context", n, f, seed, left=3, right=3, stress=True) for f in (0.1, 0.25, 0.5) for seed in (1, 2)
    ]
    curves += [s("tree", n, f, window=3, stress=True) for f in (0.1, 0.25, 0.5)]
    classifiers = [s("tree", n, window=w, stress=True) for w in (1, 2, 4)]
    classifiers += [s("logistic", n, window=w, C=c, stress=True) for w in (2, 3) for c in (0.3, 3.0)]
    classifiers += [s("et", n, window=4, n_estimators=50, stress=True), s("rf", n, window=4, n_estimators=50)]
    nearest = [s("nn", n, 0.1, ngram=3), s("nn", n, ngram=5)]
    population = [
        *transduction_population(),
        *tables,
        *curves,
        *classifiers,
        *nearest,
        *graphone_population(),
    ]
    return list(dict.fromkeys(population))


def _mode_table(keys: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct keys and, for each, its most frequent label (ties: the smallest label)."""
    order = np.lexsort((labels, keys))
    k, lab = keys[order], labels[order]
    new = np.r_[True, (k[1:] != k[:-1]) | (lab[1:] != lab[:-1])]
    starts = np.flatnonzero(new)
    counts = np.diff(np.r_[starts, len(k)])
    pair_keys, pair_labels = k[starts], lab[starts]
    best = np.lexsort((pair_labels, -counts, pair_keys))
    ranked_keys = pair_keys[best]
    first = np.r_[True, ranked_keys[1:] != ranked_keys[:-1]]
    return ranked_keys[first], pair_labels[best][first]
