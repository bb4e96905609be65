"""A joint-sequence (graphone) n-gram model for grapheme-to-phoneme conversion.

The approach of Bisani and Ney's joint-sequence models, on a simple alignment: every training word is
aligned character by character to units of zero, one or two phonemes (:func:`.transduction.align`), and
each (character, unit) pair is one *graphone*. An n-gram language model over graphone sequences, with
interpolated Kneser-Ney smoothing, gives the joint probability of a spelling and a pronunciation; a
word is transcribed by a beam search for the most probable graphone sequence whose characters spell
it. Because later graphones carry later characters, the joint score lets letters to the right of a
position weigh on its choice.

Candidate units for a character are the ones seen for it in training within the same letter
neighbourhood (one letter each side), backing off to the character alone; that keeps the search small.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict

from authoring.leaderboards.rounds import ladder_steps
from authoring.leaderboards.solution import Solution, solution

__all__ = ["GraphoneModel", "graphone_neighbours", "graphone_population"]

Unit = tuple[str, ...]
_BOS, _EOS = 0, 1


class GraphoneModel:
    """Interpolated Kneser-Ney n-gram model over graphones, with a beam-search decoder.

    >>> words, units = ["ab", "ba"], [[("A",), ("B",)], [("B",), ("A",)]]
    >>> GraphoneModel(order=3).fit(words, units).transcribe(["ab"])
    ['A B']
    """

    def __init__(self, order: int = 6, discount: float = 0.7, beam: int = 20) -> None:
        self.order, self.discount, self.beam = order, discount, beam
        self.ids: dict[tuple[str, Unit], int] = {}
        self.units: list[Unit] = [(), ()]
        self._cache: dict[tuple[tuple[int, ...], int], float] = {}

    def fit(self, words: list[str], aligned: list[list[Unit]]) -> GraphoneModel:
        """Count graphone n-grams of every order (Kneser-Ney continuation counts below the top)."""
        ids = self.ids
        sequences = []
        self._candidates: dict[tuple[str, str, str], Counter] = defaultdict(Counter)
        self._by_char: dict[str, Counter] = defaultdict(Counter)
        for word, units in zip(words, aligned, strict=True):
            seq = [_BOS] * (self.order - 1)
            padded = f"^{word}$"
            for i, (char, unit) in enumerate(zip(word, units, strict=True)):
                key = (char, unit)
                if key not in ids:
                    ids[key] = len(self.units)
                    self.units.append(unit)
                seq.append(ids[key])
                self._candidates[padded[i], char, padded[i + 2]][ids[key]] += 1
                self._by_char[char][ids[key]] += 1
            seq.append(_EOS)
            sequences.append(seq)
        self.vocabulary = len(self.units)
        # counts[k][history][token] for n-grams with a history of k tokens
        counts: list[dict[tuple[int, ...], Counter]] = [defaultdict(Counter) for _ in range(self.order)]
        top = self.order - 1
        for seq in sequences:
            for i in range(top, len(seq)):
                counts[top][tuple(seq[i - top : i])][seq[i]] += 1
        for k in range(top, 0, -1):  # continuation counts: distinct left extensions
            for history, following in counts[k].items():
                shorter = history[1:]
                for token in following:
                    counts[k - 1][shorter][token] += 1
        self._tables = [{h: (dict(c), sum(c.values()), len(c)) for h, c in level.items()} for level in counts]
        self._cache.clear()
        return self

    def _prob(self, history: tuple[int, ...], token: int) -> float:
        key = (history, token)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        lower = self._prob(history[1:], token) if history else 1.0 / self.vocabulary
        entry = self._tables[len(history)].get(history)
        if entry is None:
            p = lower
        else:
            following, total, distinct = entry
            d = self.discount
            p = (max(following.get(token, 0) - d, 0.0) + d * distinct * lower) / total
        self._cache[key] = p
        return p

    def _options(self, word: str, i: int) -> list[int]:
        padded = f"^{word}$"
        seen = self._candidates.get((padded[i], word[i], padded[i + 2])) or self._by_char.get(word[i])
        return list(seen) if seen else []

    def transcribe(self, words: list[str]) -> list[str]:
        """Return the most probable pronunciation of each word ('' where the search finds none)."""
        keep = self.order - 1
        out = []
        for word in words:
            beams: dict[tuple[int, ...], tuple[float, tuple[int, ...]]] = {(_BOS,) * keep: (0.0, ())}
            for i in range(len(word)):
                options = self._options(word, i)
                grown: dict[tuple[int, ...], tuple[float, tuple[int, ...]]] = {}
                for history, (score, path) in beams.items():
                    for token in options:
                        s = score + math.log(self._prob(history, token))
                        state = (history + (token,))[-keep:] if keep else ()
                        if state not in grown or grown[state][0] < s:
                            grown[state] = (s, path + (token,))
                if not grown:
                    break
                beams = dict(sorted(grown.items(), key=lambda kv: -kv[1][0])[: self.beam])
            finals = [
                (score + math.log(self._prob(history, _EOS)), path)
                for history, (score, path) in beams.items()
            ]
            best = max(finals)[1] if finals and len(max(finals)[1]) == len(word) else ()
            out.append(" ".join(t for g in best for t in self.units[g]))
        return out


def graphone_population() -> list[Solution]:
    """Joint-sequence entries: n-gram orders 2-8, discounts, beam widths, learning curves.

    ``stress=True`` (one primary stress per word, :func:`.transduction.one_primary_stress`) is on for
    all but two entries, which show what it is worth.
    """
    s, n = solution, "none"
    orders = [s("graphone", n, order=k, stress=True) for k in (2, 3, 4, 5, 6, 7, 8)]
    tuned = (
        [s("graphone", n, order=6, discount=d, stress=True) for d in (0.5, 0.7, 0.95)]
        + [s("graphone", n, order=6, beam=b, stress=True) for b in (3, 50)]
        + [s("graphone", n, order=k) for k in (4, 6)]
    )
    curves = [s("graphone", n, f, order=6, stress=True) for f in (0.05, 0.1, 0.25, 0.5)]
    curves += [s("graphone", n, f, order=4, stress=True) for f in (0.1, 0.25)]
    return [*orders, *tuned, *curves]


_DEFAULTS = {"order": 6, "discount": 0.7, "beam": 20}
_LADDERS = {
    "order": (2, 3, 4, 5, 6, 7, 8),
    "discount": (0.5, 0.6, 0.7, 0.8, 0.9, 0.95),
    "beam": (3, 10, 20, 30, 50),
}


def graphone_neighbours(entry: Solution) -> list[Solution]:
    """Return the refinements of a full-data graphone entry: one step either way in order, discount and beam.

    A setting that steps onto its default is left out of the name, so it meets the entry that already
    has it.

    >>> [s.team for s in graphone_neighbours(solution("graphone", "none", order=8, discount=0.6))]
    ['graphone-order7-discount0.6-f1.00-s0', 'graphone-order8-discount0.5-f1.00-s0', \
'graphone-order8-f1.00-s0', 'graphone-order8-discount0.6-beam10-f1.00-s0', \
'graphone-order8-discount0.6-beam30-f1.00-s0']
    """
    if entry.model != "graphone" or entry.train_fraction != 1.0:
        return []
    current = {name: entry.options.get(name, default) for name, default in _DEFAULTS.items()}
    out = []
    for name, ladder in _LADDERS.items():
        for step in ladder_steps(ladder, current[name]):
            settings = {**current, name: step}
            params = {k: v for k, v in settings.items() if k == "order" or v != _DEFAULTS[k]}
            if entry.options.get("stress"):
                params["stress"] = True
            out.append(solution("graphone", entry.features, entry.train_fraction, entry.seed, **params))
    return out
