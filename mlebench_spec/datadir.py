"""Where a competition's prepared split lives in a user's data directory: our layout, or MLE-bench v1's.

``mlebench prepare --data-dir DIR`` writes ``DIR/<id>/{public,private}`` (layout ``ours``). MLE-bench v1
prepares into ``DIR/<id>/prepared/{public,private}`` (layout ``v1``: its registry's ``public_dir`` and
``private_dir``), with v1's file names, which the graders read as they are. ``auto`` looks for each
competition's ``private/`` folder in both places. The grade stage reads ``params.yaml``'s ``data`` settings
through :func:`answers_dir`; ``mlebench grade`` and ``grade-sample`` take ``--data-dir``/``--data-layout``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Literal, get_args

from mlebench_spec.errors import ConfigError
from mlebench_spec.manifest import verify_split
from mlebench_spec.params import DataSettings
from mlebench_spec.paths import private_dir, repo_root

Layout = Literal["auto", "ours", "v1"]
LAYOUT_NAMES: tuple[str, ...] = get_args(Layout)

LAYOUTS: dict[str, Callable[[Path, str], Path]] = {
    "ours": lambda data_dir, competition_id: data_dir / competition_id,
    "v1": lambda data_dir, competition_id: data_dir / competition_id / "prepared",
}
"""Each layout's folder holding ``public/`` and ``private/`` of one competition."""


def prepared_in(data_dir: Path, competition_id: str, layout: str = "auto") -> Path:
    """Return the folder holding ``public/`` and ``private/`` of ``competition_id`` under ``data_dir``.

    ``layout`` is ``ours``, ``v1`` or ``auto`` (whichever of the two has a ``private/`` folder). Raises a
    ConfigError naming the expected path(s) when the answers are not there, or when both layouts hold them.
    """
    if layout != "auto" and layout not in LAYOUTS:
        raise ConfigError(f"data layout {layout!r} is unknown (known: {', '.join(LAYOUT_NAMES)})")
    names = list(LAYOUTS) if layout == "auto" else [layout]
    candidates = {name: LAYOUTS[name](Path(data_dir), competition_id) for name in names}
    found = [name for name, folder in candidates.items() if (folder / "private").is_dir()]
    if len(found) == 1:
        return candidates[found[0]]
    expected = " or ".join(f"{folder / 'private'} ({_describe(name)})" for name, folder in candidates.items())
    if found:
        raise ConfigError(
            f"{data_dir} holds answers of {competition_id} in both layouts: {expected}; "
            "say which to grade with --data-layout ours|v1"
        )
    raise ConfigError(
        f"{data_dir} has no prepared answers for {competition_id}: expected {expected}. Prepare it "
        f"(`mlebench prepare -c {competition_id} --data-dir {data_dir}`) or point --data-dir at the folder "
        "that holds the competition folders"
    )


def answers_dir(competition_id: str, data: DataSettings, root: Path | None = None) -> Path:
    """Return the private folder the grade stage reads: ``data/prepared/<id>/private``, or ``data.dir``'s.

    A relative ``data.dir`` is relative to the checkout ``root``, where the stages run.
    """
    base = root or repo_root()
    if not data.dir:
        return private_dir(competition_id, base)
    return prepared_in(base / data.dir, competition_id, data.layout) / "private"


def checked_answers(competition_id: str, private: Path, *, from_data_dir: bool) -> Path:
    """Return ``private`` once its files are checked against the prepared split's manifest.

    This checkout's own answers (``data/prepared/<id>/private``) must be there and match: a missing folder is
    a ConfigError saying how to prepare it, a changed or unlisted file a DataError naming it. Answers from a
    data directory the user names (``data.dir``, ``--data-dir``; MLE-bench v1's has no manifest) are checked
    when a manifest is there and graded with a warning when not. Every grading route checks its answers here.
    """
    own = not from_data_dir
    if own and not Path(private).is_dir():
        raise ConfigError(
            f"{private} is missing: prepare {competition_id} first (`dvc repro` or `mlebench prepare "
            f"-c {competition_id}`)"
        )
    verify_split(Path(private), missing="refuse" if own else "warn")
    return Path(private)


def _describe(layout: str) -> str:
    return "this project's layout" if layout == "ours" else "MLE-bench v1's layout"


__all__ = ["LAYOUTS", "LAYOUT_NAMES", "Layout", "answers_dir", "checked_answers", "prepared_in"]
