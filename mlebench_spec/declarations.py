"""The schema of ``competitions/<id>/competition.yaml`` and the loader that enforces it.

A declaration is one competition's whole truth: where its raw data comes from (with checksums), how it is
split, what a submission looks like, which metric grades it and where its leaderboard lives. Unknown keys,
duplicate keys and wrong types are errors that name the file, the key and the value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from mlebench_spec.errors import ConfigError
from mlebench_spec.paths import competitions_dir
from mlebench_spec.schema import Model, SchemaError, above, at_least, below, non_empty
from mlebench_spec.yamlio import load_yaml

Complexity = Literal["low", "medium", "high", "dev", "embedded", "mlops"]
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9]$")  # Kaggle slugs (one, AI4Code, has capitals)
_SHA256 = re.compile(r"^[0-9a-f]{64}$")


def _hex_digest(value: str) -> str:
    if value and not _SHA256.match(value):
        raise ValueError(f"must be 64 lowercase hex digits (a sha256), got {value!r}")
    return value


Sha256 = Annotated[str, _hex_digest]
"""A sha256 in lowercase hex, or empty when not recorded yet."""


class SourceFile(Model):
    """One raw file: its path inside the source, the name it gets in the raw folder, its sha256."""

    path: str
    name: str = ""
    sha256: Sha256 = ""

    @property
    def raw_name(self) -> str:
        """File name in the raw folder (defaults to the source file's base name)."""
        return self.name or Path(self.path).name


class PackageSource(Model):
    """Raw files that ship inside an installed Python package (read by path, never imported)."""

    kind: Literal["package"]
    module: str
    distribution: str
    version: str
    files: Annotated[list[SourceFile], non_empty]


class ExtraFile(Model):
    """A file a competition needs from outside Kaggle (v1 fetches freesound's test labels from Zenodo)."""

    url: str
    name: str
    sha256: Sha256 = ""


class KaggleSource(Model):
    """A Kaggle competition, downloaded with the official client as one archive.

    ``archive_sha256`` pins the downloaded archive (empty: not recorded yet, and a fetch warns and prints the
    actual one; ``mlebench prepare --refresh-checksums`` records it). ``files`` names raw files of note.
    """

    kind: Literal["kaggle"]
    slug: str
    archive_sha256: Sha256 = ""
    files: list[SourceFile] = []
    extra_files: list[ExtraFile] = []  # downloaded beside the archive and put in the raw folder


class GeneratedSource(Model):
    """Raw files written by the competition's own seeded generator, where the ground truth must be exact.

    ``script`` (in the competition's folder) defines ``generate(dest: Path, seed: int)``, which writes
    ``files`` into ``dest`` from ``seed`` alone, byte for byte the same on every run; each file's sha256 is
    declared and checked, as a package file's is.
    """

    kind: Literal["generated"]
    script: str = "generate.py"
    seed: int
    files: Annotated[list[SourceFile], non_empty]


Source = PackageSource | KaggleSource | GeneratedSource  # told apart by `kind`


class Split(Model):
    """How raw data becomes train and test: a declared rule, used by the generic splitter or prepare.py."""

    method: Literal["random", "train_test_split", "group", "time", "keep_source", "custom"]
    rule: str = ""  # the split in words (required for `custom`, which prepare.py implements)
    test_fraction: Annotated[float | None, above(0), below(1)] = None
    test_size: Annotated[int | None, above(0)] = None
    seed: int = 0
    stratify: str | None = None
    group_column: str | None = None
    time_column: str | None = None
    # Each side numbers its own ids from the start (v1 does for nomad2018 and ventilator), so train and
    # test ids overlap by construction and the layout check does not compare them.
    ids_per_side: bool = False

    def check(self) -> None:
        """Require one size of a sized method, and the column or rule `group`, `time` or `custom` needs."""
        sized = self.method in ("random", "train_test_split", "group", "time")
        if sized and (self.test_fraction is None) == (self.test_size is None):
            raise ValueError(f"split.method {self.method!r} needs exactly one of test_fraction or test_size")
        if self.method == "group" and not self.group_column:
            raise ValueError("split.method 'group' needs group_column")
        if self.method == "time" and not self.time_column:
            raise ValueError("split.method 'time' needs time_column")
        if self.method == "custom" and not self.rule:
            raise ValueError("split.method 'custom' needs a `rule` that says in words what prepare.py does")


class PreparedTable(Model):
    """A raw table the declared prepare reads: ``file`` (a CSV, or a zip of one) under the raw folder.

    ``text_columns``: columns read as text (ids with leading zeros); ``all``: every cell as text, with no
    missing-value guessing.
    """

    file: Annotated[str, non_empty]
    text_columns: list[str] | Literal["all"] = []


class OneHot(Model):
    """Columns of 0 and 1, one per class in ``classes`` (in that order): 1 where ``column`` holds the class.

    A value of ``column`` outside ``classes`` is a data error naming it.
    """

    column: Annotated[str, non_empty]
    classes: Annotated[list[str], non_empty]

    def check(self) -> None:
        """Refuse a class named twice."""
        if len(set(self.classes)) != len(self.classes):
            raise ValueError(f"classes {self.classes} name a class twice")


class RandomDraws(Model):
    """A column of seeded random numbers, one per row (a random sample submission, as v1 draws some).

    ``generator``: numpy's ``RandomState(seed)`` (v1's ``np.random.seed``) or ``default_rng(seed)``;
    ``draw``: ``integers`` from ``low`` to ``high`` excluded (``randint`` / ``integers``) or ``uniform``
    floats in ``[low, high)``, rounded to ``round`` decimals when given. ``seed`` defaults to the split's.
    Each column draws from a generator of its own.
    """

    generator: Literal["RandomState", "default_rng"]
    draw: Literal["integers", "uniform"]
    low: float
    high: float
    seed: int | None = None
    round: Annotated[int | None, at_least(0)] = None

    def check(self) -> None:
        """Require ``low < high``, and whole bounds for integers."""
        if not self.low < self.high:
            raise ValueError(f"low ({self.low}) must be less than high ({self.high})")
        if self.draw == "integers" and not (float(self.low).is_integer() and float(self.high).is_integer()):
            raise ValueError(f"integers need whole bounds, got low {self.low} and high {self.high}")


class PreparedCsv(Model):
    """A CSV the declared prepare writes from one of its tables: the rows of ``table``, then columns chosen.

    In this order: ``keep`` these columns (in this order) or ``drop`` those; ``columns_from`` adds
    columns copied from the table's (new name: table column); ``one_hot`` adds a column per class;
    ``set`` adds columns of one value each; ``random`` adds columns of seeded random draws.
    """

    table: Annotated[str, non_empty]
    keep: list[str] = []
    drop: list[str] = []
    columns_from: dict[str, str] = {}
    one_hot: OneHot | None = None
    set: dict[str, Any] = {}
    random: dict[str, RandomDraws] = {}

    def check(self) -> None:
        """Allow ``keep`` or ``drop``, not both."""
        if self.keep and self.drop:
            raise ValueError("give keep or drop, not both")


class RowFiles(Model):
    """Files that follow their rows, copied from raw to the side their row went to.

    For each value of ``column`` on a side, ``source`` (a raw path) is copied to ``train`` or ``test``
    (prepared paths); ``{}`` stands for the value (``{0[0]}``: its first character). A folder is copied
    whole.
    """

    column: Annotated[str, non_empty]
    source: Annotated[str, non_empty]
    train: Annotated[str, non_empty]
    test: Annotated[str, non_empty]

    def check(self) -> None:
        """Require templates that take the value: ``{}`` or ``{0}`` (with ``{0[0]}``), not both."""
        for template in (self.source, self.train, self.test):
            try:
                template.format("value")
            except (IndexError, KeyError, ValueError) as exc:
                raise ValueError(f"{template!r} is not a path template of one value ({exc})") from None


class Renumber(Model):
    """New ids for the split's two sides, replacing the values of ``column``.

    Train's rows get ``start``, ``start + 1`` ... in the order the split returns them, test's rows the
    numbers after train's.
    """

    column: Annotated[str, non_empty]
    start: int = 0


class SeriesClassification(Model):
    """A series classification from its source split: two ``.ts`` files (:mod:`mlebench.data.timeseries`).

    Writes public ``train.csv`` (random ids, ``label_column``), ``test.csv``, the readings in long format
    (``train_series.csv`` / ``test_series.csv``: ``id``, ``t``, ``channel_columns``), a uniform sample and the
    one-hot private ``answers.csv`` over ``classes`` (a case labelled ``L`` is of class prefix + ``L``).
    ``length``: every series' number of readings, where the source fixes it.
    """

    train: Annotated[str, non_empty]
    test: Annotated[str, non_empty]
    classes: Annotated[list[str], non_empty]
    label_column: Annotated[str, non_empty]
    channel_columns: Annotated[list[str], non_empty]
    length: Annotated[int | None, above(0)] = None


class DeclaredPrepare(Model):
    """What the generic prepare does (:mod:`mlebench.data.declared_prepare`) where there is no prepare.py.

    Read ``tables``, split the one named by ``split`` as the ``split:`` block says (its two sides are the
    tables ``train`` and ``test``, renumbered when ``renumber`` says so), write each CSV of ``write`` and
    copy ``copy`` and ``row_files``; or write a ``series`` classification from its source split. Paths
    written start with ``public/`` or ``private/``.
    """

    tables: dict[str, PreparedTable] = {}
    split: str | None = None
    renumber: Renumber | None = None
    write: dict[str, PreparedCsv] = {}
    copy: dict[str, str] = {}  # raw path: prepared path, copied byte for byte (a folder whole)
    row_files: list[RowFiles] = []
    series: SeriesClassification | None = None

    def check(self) -> None:
        """Read tables or a series, name known tables only, write under ``public/`` or ``private/`` only."""
        if not self.tables and self.series is None:
            raise ValueError("declare the tables read (tables:) or a series classification (series:)")
        known = set(self.tables) | ({"train", "test"} if self.split else set())
        if self.split is not None and self.split not in self.tables:
            raise ValueError(f"split names table {self.split!r}; tables are {sorted(self.tables)}")
        if self.renumber is not None and self.split is None:
            raise ValueError("renumber numbers the split's sides: name the table split (split:)")
        for path, csv in self.write.items():
            if csv.table not in known:
                raise ValueError(f"write.{path} reads table {csv.table!r}; known: {sorted(known)}")
        targets = [*self.write, *self.copy.values(), *(p for f in self.row_files for p in (f.train, f.test))]
        for target in targets:
            if not target.startswith(("public/", "private/")) or ".." in target.split("/"):
                raise ValueError(f"{target!r} must be a path under public/ or private/")


class PreparedRows(Model):
    """How many rows public ``train.csv`` and ``test.csv`` have once prepared.

    Promised to agents and leaderboards; the prepare tests check them.
    """

    train: Annotated[int, above(0)]
    test: Annotated[int, above(0)]


class V1Matching(Model):
    """How MLE-bench v1 pairs a submission with the answers, where that differs from ours.

    ``grading.mode: v1`` grades with these rules, ``strict`` with the ``submission:`` block alone; where
    the two disagree on a cell, its record carries both verdicts. Every rule is a reading of v1's own
    grader for the competition, and each difference is a ``known_issues`` entry of kind ``v1_mode``.

    ``match``: ``id`` pairs rows by id in any order where ours demands the answers' file order (the
    metric then sees each row's file position, as v1's does); ``position`` pairs rows in file order
    without reading the ids (the row count must still agree); ``sorted`` sorts both files by id
    (numerically where every id is a number, as pandas reads them) and then pairs rows in that order,
    whatever the ids say. ``columns: position`` takes the answer columns in the submission's own order (a
    permutation of the declared ones is relabelled); ``columns: order`` refuses any order but the declared
    one, as v1 graders that compare the column list do. ``extra_columns`` overrides
    ``submission.extra_columns``. ``missing_cells`` is for an answer-column cell pandas reads as missing
    (blank, ``NA``, ``null``, ``None``, ``nan``, ...): ``refuse`` one in the submission, as v1 graders
    that crash on NaN do; or, on both sides, read it as the text ``nan`` (``nan``: v1's ``astype(str)``
    under pandas 2) or as blank (``blank``: v1's ``fillna("")``); ``as_is`` leaves it to our checks; or, as
    a mapping from answer column to text, write each such submission cell as that text (``"0"`` for v1's
    ``fillna(0)``), where ``nan`` lets the missing number reach the metric as NaN, as v1's arithmetic
    carries it into the score; ``nan_numbers`` does that for every answer column.
    ``duplicate_ids: merge`` accepts repeated ids when
    the id *sets* agree, and scores every submitted row against its id's answer, as v1's merge on the id
    does. ``same_id_set`` refuses a submission whose set of ids is not the answers' (v1 graders that compare
    the sets before pairing rows another way). ``unscored: drop`` removes, before any pairing, the answer
    rows the metric leaves out (its registry entry's ``scored_rows``) and the submitted rows whose *own* id
    names one of them, as v1 graders that filter each side by its own ids do; a submitted id the answers
    lack is then refused. ``missing_ids: ignore`` scores only the answer rows whose id the submission lists,
    as v1 graders that score the overlap do (submitted ids the answers lack are still refused). Rows
    ``sorted`` by id are sorted the way v1's pandas sorts by default (numpy's quicksort, not stable), so
    repeated ids pair up as they do in v1 on the same numpy. ``match: occurrence`` pairs the k-th row of an
    id with the k-th answer row of that id, in any order (the metric then sees each row's file position, as
    for ``id``). ``key_columns: unread`` requires the key columns but reads none of their values, as v1
    graders that never look at them do. ``extra_rows: truncate`` drops the rows past the answers' row count
    unread, as v1 graders that zip the submission with the answers do (a shorter submission stays refused:
    v1 scores part of it in a way no pairing of rows expresses; see the competition's known issues).
    """

    match: Literal["id", "occurrence", "position", "sorted"] | None = None
    columns: Literal["name", "position", "order"] = "name"
    extra_columns: Literal["reject", "ignore"] | None = None
    missing_cells: Literal["as_is", "refuse", "nan", "blank", "nan_numbers"] | dict[str, str] = "as_is"
    duplicate_ids: Literal["reject", "merge"] = "reject"
    same_id_set: bool = False
    unscored: Literal["keep", "drop"] = "keep"
    missing_ids: Literal["reject", "ignore"] = "reject"
    key_columns: Literal["match", "unread"] = "match"
    extra_rows: Literal["reject", "truncate"] = "reject"


def _two_or_more(columns: list[str]) -> list[str]:
    if len(columns) < 2:
        raise ValueError("must list the id column and at least one answer column")
    return columns


class Submission(Model):
    """What a submission CSV holds: the id column first, then the answer columns."""

    id_column: str
    columns: Annotated[list[str], _two_or_more]
    answers: str = "answers.csv"
    # Columns the answers carry beyond the submission's, for the grader only (groups, masks, image sizes).
    answer_columns: list[str] = []
    # Submission columns the answers file holds under another name (hubmap's `predicted` is v1's `encoding`):
    # the grader copies them at grading time, so the private files stay exactly v1's.
    derived_columns: dict[str, str] = {}
    # The sample submission, relative to the prepared folder (MLE-bench keeps a few in private/).
    sample: str = "public/sample_submission.csv"
    # How submission rows meet answer rows: by unique id; by id and occurrence (the k-th row of an id meets
    # the k-th answer row of that id: v1's sort-then-pair where ids repeat, hms and smartphone); or by
    # position (the ids must then equal the answers' row by row).
    match: Literal["id", "occurrence", "position"] = "id"
    # How far class-probability rows may sum from 1 (default: the metric's, as v1 checks it).
    row_sum_tolerance: Annotated[float | None, above(0)] = None
    # Ids compared by integer value ("0012" is 12), as v1 compares ids pandas reads as numbers.
    integer_ids: bool = False
    # Blank label cells: rejected, or (as v1 does where its sample submission is blank) scored as wrong.
    blank_labels: bool = False
    # Columns after the id that identify a row rather than answer it (uw-madison's `class`); they must
    # equal the answers' row by row, so they need `match: position`.
    key_columns: list[str] = []
    # A perfect submission, relative to the prepared folder, where the answers' own columns are not one
    # (kuzushiji's answers hold boxes, its submissions points); default: the answers' submission columns.
    gold: str | None = None
    # Columns beyond `columns`: rejected, or dropped unread, as v1 graders that only look for the columns they
    # need (a leftover index column) do. Keep "reject" where v1 checks the exact set, count or order.
    extra_columns: Literal["reject", "ignore"] = "reject"
    # Rows whose id is not in the answers: rejected, or dropped before matching, as v1 does where it scores
    # only the answers' ids (h-and-m: the public sample lists every customer). Needs `match: id`.
    extra_ids: Literal["reject", "ignore"] = "reject"
    # How MLE-bench v1 matches rows and columns where it differs (grading.mode: v1); none: the same.
    v1: V1Matching | None = None
    # Numeric answer columns where a submitted `nan` reaches the metric as NaN instead of being refused; set
    # by grading.mode v1 from `v1.missing_cells` (v1 carries a missing number into its score), not written.
    nan_columns: list[str] = []

    def check(self) -> None:
        """Require the id first, and the other column lists, rules and paths to agree with ``columns``."""
        if self.columns[0] != self.id_column:
            raise ValueError(f"submission.columns must start with id_column {self.id_column!r}")
        if len(set(self.columns)) != len(self.columns):
            raise ValueError("submission.columns has duplicates")
        extra = self.answer_columns
        if set(extra) & set(self.columns) or len(set(extra)) != len(extra):
            raise ValueError("submission.answer_columns must be distinct and not among submission.columns")
        if not set(self.key_columns) <= set(self.columns[1:]):
            raise ValueError("submission.key_columns must be among submission.columns (after the id)")
        if self.key_columns and self.match != "position":
            raise ValueError("submission.key_columns needs submission.match: position")
        filled = self.v1.missing_cells if self.v1 is not None else None
        if isinstance(filled, dict) and not set(filled) <= set(self.columns[1:]):
            unknown = sorted(set(filled) - set(self.columns[1:]))
            where = "submission.v1.missing_cells names columns not in submission.columns"
            raise ValueError(f"{where}: {unknown}")
        if self.extra_ids == "ignore" and self.match != "id":
            raise ValueError("submission.extra_ids: ignore needs submission.match: id")
        for column, source in self.derived_columns.items():
            if column not in self.target_columns or source in self.derived_columns:
                raise ValueError(
                    f"submission.derived_columns: {column!r} must be an answer column of submission.columns, "
                    f"copied from a column the answers file holds (got {source!r})"
                )
        for key, value in (("sample", self.sample), ("gold", self.gold)):
            parts = Path(value).parts if value else ("public", "x")
            if len(parts) < 2 or parts[0] not in ("public", "private") or ".." in parts:
                raise ValueError(f"submission.{key} {value!r} must be a path under public/ or private/")

    def sample_path(self, public: Path, private: Path) -> Path:
        """Where the sample submission is, given the prepared ``public`` and ``private`` folders."""
        return _prepared_path(self.sample, public, private)

    def gold_path(self, public: Path, private: Path) -> Path | None:
        """Where the declared gold submission is (None: the answers' submission columns serve)."""
        return _prepared_path(self.gold, public, private) if self.gold else None

    @property
    def answers_layout(self) -> list[str]:
        """Columns of the answers the grader reads: the submission's, then the answer-only ones."""
        return self.columns + self.answer_columns

    @property
    def answers_file_layout(self) -> list[str]:
        """Columns the private answers file must hold: :attr:`answers_layout` before ``derived_columns``."""
        named = [self.derived_columns.get(c, c) for c in self.answers_layout]
        return list(dict.fromkeys(named))

    @property
    def target_columns(self) -> list[str]:
        """The answer columns (everything but the id and the key columns)."""
        return [c for c in self.columns[1:] if c not in self.key_columns]


def _prepared_path(relative: str, public: Path, private: Path) -> Path:
    where, _, rest = relative.partition("/")
    return (public if where == "public" else private) / rest


class MetricSpec(Model):
    """A metric by registry name, with keyword arguments."""

    name: str
    args: dict[str, Any] = {}


_HIDDEN_INPUTS = re.compile(r"^private/[A-Za-z0-9][A-Za-z0-9_.-]*/public$")


def _hidden_inputs(value: str) -> str:
    if not _HIDDEN_INPUTS.match(value):
        raise ValueError(
            f"{value!r} must be a folder private/<name>/public: hidden inputs live in the answers' folder, "
            "and the re-run checks them against <name>/manifest.json as the run checks public/"
        )
    return value


class Rerun(Model):
    """The grade comes from a re-run of the agent's kept ``code/`` on hidden inputs (the next data version).

    After the run, the reproduce stage re-runs the pipeline the agent kept (by its declared command, as
    for process evaluation) with ``inputs`` (a prepared folder in ``private/``: a new version of the public
    files) mounted as ``DATA_DIR`` in place of ``public/``; the grade stage scores what the re-run writes
    against ``submission.answers`` (the new version's answers). A pipeline that does not re-run scores
    nothing, with the reason.
    """

    inputs: Annotated[str, _hidden_inputs]

    def inputs_dir(self, private: Path) -> Path:
        """Return the hidden inputs' folder, given the prepared ``private/`` folder."""
        return private / self.inputs.removeprefix("private/")


class MedalThresholds(Model):
    """Medal thresholds given directly, for a competition whose leaderboard file is not available.

    ``source`` says where the numbers come from and why they were not derived from v1's leaderboard;
    ``unverified`` marks them as third-party values. Where v1's leaderboard is available it is kept in the
    competition's folder instead and the thresholds are derived from it (:mod:`mlebench_spec.leaderboards`).
    """

    gold: float
    silver: float
    bronze: float
    median: float
    source: Annotated[str, non_empty]
    unverified: bool = False


_GIT_BLOB = re.compile(r"^[0-9a-f]{40}$")


def _git_blob(value: str) -> str:
    if not _GIT_BLOB.match(value):
        raise ValueError(f"must be 40 lowercase hex digits (a git blob id), got {value!r}")
    return value


def _checkout_relative(value: str) -> str:
    parts = Path(value).parts
    if not parts or Path(value).is_absolute() or ".." in parts:
        raise ValueError(f"must be a path inside a v1 checkout, got {value!r}")
    return value


class V1LfsFile(Model):
    """A Git-LFS file of MLE-bench v1's repository, pinned by its public pointer (sha256 and size)."""

    path: Annotated[str, _checkout_relative]
    sha256: Annotated[str, non_empty, _hex_digest]
    size: Annotated[int, at_least(0)]


class V1TextFile(Model):
    """A text file of MLE-bench v1's repository, pinned by its git blob id (``git ls-tree``)."""

    path: Annotated[str, _checkout_relative]
    git_blob: Annotated[str, _git_blob]


class V1Files(Model):
    """Where this competition's files are in a v1 checkout and what they must hash to.

    ``leaderboard`` is what ``mlebench thresholds --v1-checkout`` verifies before recomputing the medals;
    ``description`` is what prepare copies for the agent under ``descriptions.source: mlebench``, and
    ``description_obfuscated`` (v1's text with the competition's name and identifying details removed, for
    its contamination study) what it copies with ``descriptions.obfuscate``.
    """

    leaderboard: V1LfsFile
    description: V1TextFile
    description_obfuscated: V1TextFile | None = None


class KnownIssue(Model):
    """A documented quirk: what it is, and whether our default changes anything.

    ``leak`` says whether the issue lets an agent see answers: ``fixed`` (our prepare removes it without
    changing v1's split) or ``flagged`` (kept for v1 compatibility; reports mark the competition's score).
    ``files`` are globs, relative to the prepared folder, of the public files that carry a flagged leak;
    the leak audit accepts findings there as known.

    ``kind: prepare_deviation`` is a known difference between our prepared files and those v1's prepare
    writes from the same raw files: ``files`` then names exactly the prepared files allowed to differ
    (globs relative to the prepared folder, e.g. ``public/sample_submission.csv``,
    ``private/answers.csv``), and ``summary`` says what differs and why (a fixed leak, a v1 bug, ...).
    ``benchmarks/v1_prepare_crosscheck.py`` accepts differences there and nowhere else.
    """

    summary: str
    reference: str = ""
    # ``v1_mode``: a difference between ``grading.mode: v1`` and ``strict`` (see ``submission.v1``).
    kind: Literal["note", "v1_mode", "prepare_deviation"] = "note"
    leak: Literal["no", "fixed", "flagged"] = "no"
    files: list[str] = []


def _compiles(value: str) -> str:
    try:
        re.compile(value)
    except re.error as exc:
        raise ValueError(f"is not a regular expression ({exc}): {value!r}") from None
    return linear_pattern(value)


def linear_pattern(value: str) -> str:
    """Return ``value`` when the integrity stage's linear-time engine (RE2) compiles it, else raise.

    The integrity checks match these patterns against what an agent wrote, so they run in RE2, whose time
    is linear in the input for any pattern; RE2 has no look-around or back-references.
    """
    import re2

    options = re2.Options()
    options.log_errors = False
    try:
        re2.compile(value, options)
    except re2.error as exc:
        raw = exc.args[0] if exc.args else exc
        detail = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
        raise ValueError(
            f"is not a pattern the linear-time engine (RE2) accepts ({detail}): {value!r}; write it without "
            "look-around ((?=…), (?!…), (?<=…), (?<!…)) or back-references"
        ) from None
    return value


class ForbiddenResource(Model):
    """A resource an agent must not fetch for this competition: a URL, a dataset or a solution's repository.

    ``pattern`` is a case-insensitive regular expression matched against the agent's logs and code near a
    download command (git clone, curl, wget, pip download, kaggle, requests.get, urlretrieve, ...); ``reason``
    says why it is forbidden (it holds the test labels, it is a winning solution, ...). The integrity
    stage adds a shared default list (Kaggle code and discussion pages) from ``params.yaml: integrity``.
    """

    pattern: Annotated[str, non_empty, _compiles]
    reason: Annotated[str, non_empty]


class RealSize(Model):
    """The real test set's size, which the grading benchmark (``benchmarks/grading.py``) synthesizes at.

    ``test_rows`` counts the rows of the private answers at real scale; ``basis`` says where that number
    comes from (a share of the source, Kaggle's own test size, or an estimate, marked ``est.``).
    ``classes`` is the number of distinct labels (classes, tags, items) the answers draw from, where the
    benchmark needs it (0: the competition's fixture knows its labels). ``test_images`` lists the height
    and width of each test image where one answer row is one whole image's mask; there are then exactly
    ``test_rows`` of them, and a smaller benchmark scale shrinks their area instead of their number.
    """

    test_rows: Annotated[int, above(0)]
    basis: Annotated[str, non_empty]
    classes: Annotated[int, at_least(0)] = 0
    test_images: list[tuple[Annotated[int, above(0)], Annotated[int, above(0)]]] = []

    def check(self) -> None:
        """Require one image per answer row, when images are listed."""
        if self.test_images and len(self.test_images) != self.test_rows:
            raise ValueError(
                f"real_size.test_images lists {len(self.test_images)} images but test_rows is "
                f"{self.test_rows}: give one (height, width) per answer row"
            )


def _slug(value: str) -> str:
    if not _ID.match(value):
        raise ValueError(f"id {value!r} must be letters, digits and inner dashes (a Kaggle slug)")
    return value


class Competition(Model):
    """One competition declaration. Field meanings are documented in competitions/README.md."""

    id: Annotated[str, _slug]
    name: str
    version: Annotated[int, at_least(1)]
    complexity: Complexity
    category: str
    dataset_size: str
    systemcard: bool = False
    source: Source
    description: str = "description.md"
    split: Split
    submission: Submission
    metric: MetricSpec
    leaderboard: str = "leaderboard.csv"
    medals: MedalThresholds | None = None  # when set, thresholds come from here instead of the leaderboard
    v1: V1Files | None = None  # this competition's files in MLE-bench v1's repository, pinned by hash
    known_issues: list[KnownIssue] = []
    # The real test set's size, for the grading benchmark (declared by the Kaggle competitions).
    real_size: RealSize | None = None
    # Resources an agent must not download (the integrity stage's forbidden-resource check).
    forbidden_resources: list[ForbiddenResource] = []
    # Graded on a re-run of the agent's code/ on hidden inputs (the next data version), not on its submission.
    rerun: Rerun | None = None
    # The generic prepare's work, where the folder has no prepare.py.
    prepare: DeclaredPrepare | None = None
    rows: PreparedRows | None = None

    def forbidden(self) -> list[ForbiddenResource]:
        """Return the declared forbidden resources, then those the source (and ``kernels.txt``) implies."""
        kernels = self.folder / KERNELS_FILE
        refs = kernel_refs(kernels) if isinstance(self.source, KaggleSource) and kernels.is_file() else []
        return [
            *self.forbidden_resources,
            *package_forbidden(self.source),
            *kaggle_forbidden(self.source, refs),
        ]

    @property
    def folder(self) -> Path:
        """The competition's folder."""
        return competitions_dir() / self.id

    @property
    def leaderboard_path(self) -> Path:
        """The leaderboard CSV beside the declaration."""
        return self.folder / self.leaderboard


def package_forbidden(source: Source) -> list[ForbiddenResource]:
    r"""Return the forbidden resources a package source implies: its distribution and module, by name.

    An embedded competition's answers ship inside that package, so fetching it (``pip download``, an index
    URL such as ``…/simple/<name>/`` or ``…/<name>-<version>-py3-none-any.whl``) fetches the answers. Names
    match as PEP 503 normalises them (``-``, ``_`` and ``.`` alike); a Kaggle source implies nothing.

    >>> src = PackageSource(kind="package", module="py_thing", distribution="Py-Thing", version="1",
    ...                     files=[SourceFile(path="d.csv")])
    >>> [f.pattern for f in package_forbidden(src)]
    ['\\bpy[-_.]+thing\\b']
    """
    if not isinstance(source, PackageSource):
        return []
    names = dict.fromkeys(re.sub(r"[-_.]+", "-", n).lower() for n in (source.distribution, source.module))
    return [
        ForbiddenResource(
            pattern=r"\b" + "[-_.]+".join(re.escape(part) for part in name.split("-")) + r"\b",
            reason=(
                f"the competition's data (answers included) come from the package {source.distribution} "
                f"{source.version}: downloading or installing it, or fetching it from a package index, "
                "fetches the answers"
            ),
        )
        for name in names
    ]


# A competition's reference notebooks, ``kernels.txt``: one ``owner/slug`` per line (MLE-bench v1's lists),
# optionally followed by the sha256 of the source the ``kaggle`` client pulls, which pins it. The data layer
# pulls them for the plagiarism check (:mod:`mlebench.data.kernels`); :func:`kaggle_forbidden` forbids them.
KERNELS_FILE = "kernels.txt"
_LINE = re.compile(r"^(?P<owner>[\w.-]+)/(?P<slug>[\w.-]+)(?:\s+(?P<sha>[0-9a-f]{64}))?$")


@dataclass(frozen=True)
class KernelRef:
    """One reference notebook: ``owner/slug`` and the pinned sha256 of its pulled source (empty: unpinned)."""

    owner: str
    slug: str
    sha256: str = ""

    @property
    def ref(self) -> str:
        """``owner/slug``."""
        return f"{self.owner}/{self.slug}"

    @property
    def file_name(self) -> str:
        """The code file's name in ``data/kernels/<id>/``."""
        return f"{self.owner}__{self.slug}.py"


def kernels_file(competition_id: str, root: Path | None = None) -> Path:
    """Where a competition lists its reference notebooks."""
    return competitions_dir(root) / competition_id / KERNELS_FILE


def kernel_refs(path: Path) -> list[KernelRef]:
    """Parse a ``kernels.txt``; a malformed line is an error naming the file, the line and the form."""
    refs = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = _LINE.match(line)
        if not match:
            raise ConfigError(f"{path}:{number}: {line!r} is not `owner/slug` (optionally + a sha256)")
        refs.append(KernelRef(match["owner"], match["slug"], match["sha"] or ""))
    return refs


_SLUG_END = r"(?:[^\w-]|$)"  # a slug ends where a character no slug holds follows, or the URL ends
_REF_END = r"(?:[^\w.-]|$)"  # the same for a notebook's owner and slug (kernels.txt's `[\w.-]+`)


def kaggle_forbidden(source: Source, kernels: list[KernelRef] | None = None) -> list[ForbiddenResource]:
    r"""Return the forbidden resources a Kaggle source implies: its competition's pages, API and data, by URL.

    Kaggle's original data holds the labels of the test split the benchmark cut from it, and the
    competition's pages its discussion, notebooks and leaderboard. Refused, by what a URL shows:

    - the web pages, ``kaggle.com/competitions/<slug>…`` and ``kaggle.com/c/<slug>…``;
    - the client's REST API (1.x), any ``kaggle.com/api/v1/competitions/…/<slug>…`` path with the slug as a
      segment (``data/download-all/<slug>``, ``data/download/<slug>/<file>``, ``<slug>/leaderboard/…``);
    - the archive itself: Kaggle answers a download with a signed storage URL in its bucket
      ``kaggle-competitions-data``, whose ``response-content-disposition`` names ``<slug>.zip``;
    - each reference notebook of ``kernels``, someone's solution (``kernels.txt``): its pages
      (``kaggle.com/code/<owner>/<slug>``, any path with ``<owner>/<slug>`` as segments) and the 1.x
      API's ``?userName=<owner>&kernelSlug=<slug>``.

    The 2.x client's download calls (``POST …/competitions.CompetitionApiService/DownloadDataFiles``,
    ``…/DownloadDataFile``, ``…/DownloadLeaderboard``) carry the slug in their JSON body, which no URL
    pattern sees: every such call is refused, whatever competition it names (a single file's redirect would
    not name the competition either).
    A slug matches whole: another competition's slug that only starts the same does not match.

    >>> src = KaggleSource(kind="kaggle", slug="titanic")
    >>> [f.pattern for f in kaggle_forbidden(src)][0]
    'kaggle\\.com/(?:c|competitions)/titanic(?:[^\\w-]|$)'
    """
    if not isinstance(source, KaggleSource):
        return []
    slug = re.escape(source.slug)
    data = (
        f"the original Kaggle data of {source.slug} holds the labels of the test split the benchmark cut "
        "from it"
    )
    found = [
        ForbiddenResource(
            pattern=rf"kaggle\.com/(?:c|competitions)/{slug}{_SLUG_END}",
            reason=f"{data}; the competition's pages carry its data, discussion, notebooks and leaderboard",
        ),
        ForbiddenResource(
            pattern=rf"kaggle\.com/api/v1/competitions/(?:[\w-]+/)*{slug}{_SLUG_END}",
            reason=f"{data}: the Kaggle API's calls for the competition (its data, files, leaderboard)",
        ),
        ForbiddenResource(
            pattern=rf"kaggle-competitions-data/\S*[?&]response-content-disposition=\S*filename(?:%3D|=){slug}\.zip\b",
            reason=f"{data}: the competition's archive, where Kaggle's download redirects",
        ),
        ForbiddenResource(  # the 2.x client's calls name the slug in their body, which no URL pattern sees
            pattern=r"competitions\.CompetitionApiService/Download",
            reason=f"{data}: the Kaggle client's download calls (they do not show which competition)",
        ),
    ]
    for ref in kernels or []:
        owner, name = re.escape(ref.owner), re.escape(ref.slug)
        found.append(
            ForbiddenResource(
                pattern=(
                    rf"kaggle\.com/(?:[\w.-]+/)*{owner}/{name}{_REF_END}"
                    rf"|[?&]userName={owner}&kernelSlug={name}{_REF_END}"
                    rf"|[?&]kernelSlug={name}&userName={owner}{_REF_END}"
                ),
                reason=f"the notebook {ref.ref} is a reference solution of this competition ({KERNELS_FILE})",
            )
        )
    return found


def declaration_path(competition_id: str, root: Path | None = None) -> Path:
    """Path of one competition's declaration."""
    return competitions_dir(root) / competition_id / "competition.yaml"


def parse_declaration(path: Path) -> Competition:
    """Load and validate one declaration; every problem is reported at once, each naming file and key."""
    data = load_yaml(path)
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping at the top level, got {type(data).__name__}")
    try:
        comp = Competition.model_validate(data)
    except SchemaError as exc:
        raise ConfigError("\n".join(_describe(path, problem) for problem in exc.problems)) from None
    if comp.id != path.parent.name:
        raise ConfigError(f"{path}: id {comp.id!r} does not match its folder name {path.parent.name!r}")
    return comp


@cache
def _load_cached(path: Path, mtime_ns: int) -> Competition:
    return parse_declaration(path)


def load_competition(competition_id: str, root: Path | None = None) -> Competition:
    """Load a competition by id; an unknown id is an error that lists the known ones."""
    path = declaration_path(competition_id, root)
    if not path.is_file():
        known = ", ".join(all_competition_ids(root)) or "(none)"
        raise ConfigError(f"unknown competition {competition_id!r}: no {path} (known: {known})")
    return _load_cached(path, path.stat().st_mtime_ns)


def all_competition_ids(root: Path | None = None) -> list[str]:
    """Every folder under competitions/ that holds a competition.yaml, sorted."""
    base = competitions_dir(root)
    return sorted(p.parent.name for p in base.glob("*/competition.yaml"))


def _describe(path: Path, problem: dict[str, Any]) -> str:
    key = ".".join(str(part) for part in problem["loc"]) or "(top level)"
    if problem["type"] == "unknown_key":
        return f"{path}: unknown key {key!r} (value {problem['input']!r})"
    if problem["type"] == "missing":
        return f"{path}: missing required key {key!r}"
    value = f" (value {problem['input']!r})" if "input" in problem else ""
    return f"{path}: {key}: {problem['msg']}{value}"
