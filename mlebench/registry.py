"""MLE-bench v1's registry (``mlebench.registry``): competitions by id, with their files in a data directory.

Part of the v1 face over this project's declarations (``competitions/<id>/competition.yaml``), graders and
data code; it sits on top of the layers and nothing below imports it. A :class:`Competition` has v1's fields.
Its folders follow the data directory's layout: MLE-bench v1's ``<dir>/<id>/prepared/{public,private}``
(raw files in ``<dir>/<id>/raw``), or this project's ``<dir>/<id>/{public,private}`` (raw files in
``<dir>/.raw/<id>``) when only that one holds the competition; a competition not yet prepared gets v1's.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from mlebench.data.v1_names import CHECKSUMS
from mlebench.grade_helpers import CompetitionScorer, Grader
from mlebench_spec.declarations import Competition as Declaration
from mlebench_spec.declarations import all_competition_ids, load_competition


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "mle-bench" / "data"


DEFAULT_DATA_DIR = _cache_dir().resolve()
"""v1's default data directory: ``mle-bench/data`` in the user's cache folder."""


@dataclass(frozen=True)
class Competition:
    """One competition as v1 describes it.

    ``description`` is the text agents read; ``answers``, ``gold_submission`` and ``sample_submission`` are
    files in the prepared folders; ``checksums`` is v1's ``checksums.yaml`` (md5s under ``zip``, ``public``
    and ``private``) in the prepared folder, written when the competition is prepared through this face;
    ``leaderboard`` is v1's leaderboard file kept in the competition's folder; ``prepare_fn(raw, public,
    private)`` runs the competition's ``prepare.py`` (or the prepare its declaration declares).
    """

    id: str
    name: str
    description: str
    grader: Grader
    answers: Path
    gold_submission: Path
    sample_submission: Path
    competition_type: str
    prepare_fn: Callable[..., object]
    raw_dir: Path
    private_dir: Path
    public_dir: Path
    checksums: Path
    leaderboard: Path


class Registry:
    """Competitions by id, their files under ``data_dir`` (see the module docstring for the layouts)."""

    def __init__(self, data_dir: Path = DEFAULT_DATA_DIR) -> None:
        self._data_dir = Path(data_dir).resolve()

    def get_competition(self, competition_id: str) -> Competition:
        """Return the competition; an unknown id is a ConfigError listing the known ones."""
        from graders.registry import get_metric

        comp = load_competition(competition_id)
        prepared, raw = self._folders(comp.id)
        private = prepared / "private"
        answers = private / comp.submission.answers
        return Competition(
            id=comp.id,
            name=comp.name,
            description=(comp.folder / comp.description).read_text(encoding="utf-8"),
            grader=Grader(
                comp.metric.name,
                CompetitionScorer(comp.id, private),
                higher_is_better=get_metric(comp.metric.name).higher_is_better,
            ),
            answers=answers,
            gold_submission=prepared / comp.submission.gold if comp.submission.gold else answers,
            sample_submission=prepared / comp.submission.sample,
            competition_type="simple",
            prepare_fn=_prepare_fn(comp),
            raw_dir=raw,
            private_dir=private,
            public_dir=prepared / "public",
            checksums=prepared / CHECKSUMS,
            leaderboard=comp.leaderboard_path,
        )

    def _folders(self, competition_id: str) -> tuple[Path, Path]:
        """Return the prepared folder and the raw folder of a competition under the data directory."""
        v1, ours = self._data_dir / competition_id / "prepared", self._data_dir / competition_id
        if (ours / "private").is_dir() and not (v1 / "private").is_dir():
            return ours, self._data_dir / ".raw" / competition_id
        return v1, self._data_dir / competition_id / "raw"

    def get_competitions_dir(self) -> Path:
        """Return the folder of competition declarations."""
        from mlebench_spec.paths import competitions_dir

        return competitions_dir()

    def get_data_dir(self) -> Path:
        """Return the data directory."""
        return self._data_dir

    def set_data_dir(self, new_data_dir: Path) -> Registry:
        """Return a new registry over ``new_data_dir`` (this one is unchanged)."""
        return Registry(Path(new_data_dir))

    def list_competition_ids(self) -> list[str]:
        """Every declared competition, sorted: v1's 82 and the embedded ones."""
        return all_competition_ids()

    def get_lite_competition_ids(self) -> list[str]:
        """MLE-bench Lite: the low-complexity competitions (v1's ``experiments/splits/low.txt``)."""
        return self.get_split_competition_ids("low")

    def get_split_competition_ids(self, split: str) -> list[str]:
        """Return the competitions of one of v1's splits (``low``, ``medium``, ``high``, ``dev``, ...).

        The names are this project's competition sets (``conf/competition_set/``), queries over the
        declarations that equal v1's ``experiments/splits/<split>.txt`` lists.
        """
        from mlebench.planning.plan import named_set, resolve_set

        return resolve_set(named_set(split))


def _prepare_fn(comp: Declaration) -> Callable[..., object]:
    """Return the competition's prepare (``prepare.py`` or declared) with v1's ``(raw, public, private)``."""

    def prepare(raw: Path, public: Path, private: Path) -> object:
        from mlebench.data.prepare import prepare_function

        return prepare_function(comp)(Path(raw), Path(public), Path(private), comp)

    prepare.__name__ = f"prepare_{comp.id.replace('-', '_')}"
    return prepare


registry = Registry()
"""The default registry, over :data:`DEFAULT_DATA_DIR`; ``registry.set_data_dir(path)`` gives another."""

__all__ = ["DEFAULT_DATA_DIR", "Competition", "Registry", "registry"]
