"""Keep MLE-bench v1's leaderboards in the competition folders, checked against their Git-LFS pointers.

MLE-bench v1 keeps each competition's leaderboard as a Git-LFS file whose pointer (sha256 and size) is
public and recorded in our declaration (``v1.leaderboard``). ``mlebench thresholds --v1-checkout PATH``
takes a v1 checkout with its LFS files pulled (or any folder in its layout), checks each leaderboard against
its pointer (a missing file, an unpulled pointer or other bytes are refused, per competition) and recomputes
the thresholds with the rules v1 applies (:mod:`graders.medals`). With ``--write`` it copies the verified file
into the competition's folder and removes the declaration's hand-kept ``medals:`` block: from then on the
thresholds are derived from that file at grading time, unrounded, as in v1. Without ``--v1-checkout`` it
checks the files already in the competition folders. ``--leaderboard FILE`` only prints what a file gives.
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path

from authoring.declaration_text import drop_block
from mlebench_spec.declarations import Competition, declaration_path
from mlebench_spec.errors import ConfigError
from mlebench_spec.files import write_text
from mlebench_spec.hashing import sha256_file

_POINTER_MAX_BYTES = 1024
_KEYS = ("gold", "silver", "bronze", "median")


def recompute(comp: Competition, leaderboard: Path) -> dict[str, float | int]:
    """Thresholds (and the team count) that ``leaderboard`` gives under the metric's direction."""
    from graders.leaderboard import load_leaderboard
    from graders.medals import thresholds
    from graders.registry import get_metric

    metric = get_metric(comp.metric.name)
    try:
        scores = load_leaderboard(leaderboard, metric.higher_is_better)
    except (FileNotFoundError, ValueError) as exc:
        raise ConfigError(str(exc)) from None
    t = thresholds(scores)
    return {"gold": t.gold, "silver": t.silver, "bronze": t.bronze, "median": t.median, "teams": len(scores)}


def verified_leaderboard(comp: Competition, checkout: Path | None) -> Path:
    """Return v1's leaderboard file for ``comp`` in ``checkout``, once it matches the declared pointer.

    ``checkout`` None checks the file kept in the competition's folder. Raises ConfigError, naming the
    competition and the file, when the declaration records no pointer, the file is missing, it is still the
    LFS pointer (not pulled), or its size or sha256 differ from the pointer.
    """
    if comp.v1 is None:
        raise ConfigError(f"{declaration_path(comp.id)} records no v1.leaderboard pointer to verify against")
    pin = comp.v1.leaderboard
    path = comp.leaderboard_path if checkout is None else checkout / pin.path
    if not path.is_file():
        where = (
            f"is {checkout} a checkout of MLE-bench v1?"
            if checkout is not None
            else ("bring it in with `mlebench thresholds -c ID --v1-checkout PATH --write`")
        )
        if checkout is None and comp.medals is not None:
            where = f"the declaration keeps third-party thresholds instead ({comp.medals.source})"
        raise ConfigError(f"{path} does not exist; {where}")
    size = path.stat().st_size
    with path.open("rb") as fh:
        head = fh.read(_POINTER_MAX_BYTES)
    if size < _POINTER_MAX_BYTES and head.startswith(b"version ") and b"\noid sha256:" in head:
        raise ConfigError(
            f"{path} is a Git-LFS pointer, not the leaderboard: run `git lfs pull` in {checkout}"
        )
    if size != pin.size:
        raise ConfigError(f"{path} has {size} bytes; v1's pointer says {pin.size}")
    digest = sha256_file(path)
    if digest != pin.sha256:
        raise ConfigError(f"{path} has sha256 {digest}; v1's pointer says {pin.sha256}")
    return path


def keep_leaderboard(comp: Competition, board: Path, root: Path | None = None) -> Path:
    """Copy a verified leaderboard into the competition's folder and drop the hand-kept ``medals:`` block."""
    declaration = declaration_path(comp.id, root)
    target = declaration.parent / comp.leaderboard
    if board.resolve() != target.resolve():
        shutil.copyfile(board, target)
    text = declaration.read_text(encoding="utf-8")
    write_text(declaration, drop_block(text, "medals"))
    return target


def verify_all(ids: list[str], checkout: Path | None, write: bool, root: Path | None = None) -> list[str]:
    """Verify and recompute every competition in ``ids``; return one line per competition, errors included.

    A competition whose leaderboard is refused gets an ``error`` line and nothing written; the others go on.
    """
    from mlebench_spec.declarations import load_competition

    lines = []
    for cid in ids:
        comp = load_competition(cid, root)
        try:
            board = verified_leaderboard(comp, checkout)
            values = recompute(comp, board)
            if not all(math.isfinite(values[k]) for k in _KEYS):
                raise ConfigError(f"{board} gives a threshold that is not a number: {values}")
        except ConfigError as exc:
            lines.append(f"{cid}: error: {exc}")
            continue
        was = comp.medals
        declared = f"; declared: {', '.join(f'{k} {getattr(was, k)}' for k in _KEYS)}" if was else ""
        shown = ", ".join(f"{k} {values[k]!r}" for k in _KEYS)
        written = ""
        if write:
            keep_leaderboard(comp, board, root)
            written = " (kept in the competition folder)"
        lines.append(f"{cid}: verified ({values['teams']} teams): {shown}{declared}{written}")
    return lines
