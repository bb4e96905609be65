"""Recompute a competition's medal thresholds from a leaderboard CSV, by Kaggle's team-count rules.

The third-party thresholds in the declarations are marked ``unverified``. MLE-bench v1 keeps each
competition's leaderboard as a Git-LFS file whose pointer (sha256 and size) is public and recorded in our
declaration (``v1.leaderboard``). ``mlebench thresholds --v1-checkout PATH`` takes a v1 checkout with its
LFS files pulled, checks each leaderboard against its pointer (a missing file, an unpulled pointer or other
bytes are refused, per competition), recomputes the thresholds with the same rules v1 applies
(:mod:`graders.medals`) and, with ``--write``, replaces the declaration's ``medals:`` block with them:
``verified: true`` and the leaderboard's sha256. ``--leaderboard FILE`` only prints what a file gives.
"""

from __future__ import annotations

import math
from pathlib import Path

from authoring.declaration_text import set_block
from mlebench.spec.declarations import Competition, declaration_path
from mlebench.spec.errors import ConfigError
from mlebench.spec.files import write_text
from mlebench.spec.hashing import sha256_file

_POINTER_MAX_BYTES = 1024


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


def verified_leaderboard(comp: Competition, checkout: Path) -> Path:
    """Return v1's leaderboard file for ``comp`` in ``checkout``, once it matches the declared pointer.

    Raises ConfigError, naming the competition and the file, when the declaration records no pointer, the
    file is missing, it is still the LFS pointer (not pulled), or its size or sha256 differ from the pointer.
    """
    if comp.v1 is None:
        raise ConfigError(f"{declaration_path(comp.id)} records no v1.leaderboard pointer to verify against")
    pin = comp.v1.leaderboard
    path = checkout / pin.path
    if not path.is_file():
        raise ConfigError(f"{path} does not exist; is {checkout} a checkout of MLE-bench v1?")
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


def write_medals(
    comp: Competition, values: dict[str, float | int], sha256: str, root: Path | None = None
) -> Path:
    """Replace the declaration's ``medals:`` block with thresholds recomputed from a verified leaderboard."""
    path = declaration_path(comp.id, root)
    block = (
        "medals:\n"
        + "".join(f"  {k}: {float(values[k])!r}\n" for k in ("gold", "silver", "bronze", "median"))
        + f"  source: \"recomputed by `mlebench thresholds` from v1's leaderboard.csv ({values['teams']} "
        'teams), which matched its Git-LFS pointer"\n'
        "  verified: true\n"
        f"  leaderboard_sha256: {sha256}\n"
    )
    write_text(path, set_block(path.read_text(encoding="utf-8"), "medals", block, after="metric"))
    return path


def verify_all(ids: list[str], checkout: Path, write: bool, root: Path | None = None) -> list[str]:
    """Verify and recompute every competition in ``ids``; return one line per competition, errors included.

    A competition whose leaderboard is refused gets an ``error`` line and nothing written; the others go on.
    """
    from mlebench.spec.declarations import load_competition

    lines = []
    for cid in ids:
        comp = load_competition(cid, root)
        try:
            board = verified_leaderboard(comp, checkout)
            values = recompute(comp, board)
            if not all(math.isfinite(values[k]) for k in ("gold", "silver", "bronze", "median")):
                raise ConfigError(f"{board} gives a threshold that is not a number: {values}")
        except ConfigError as exc:
            lines.append(f"{cid}: error: {exc}")
            continue
        was = comp.medals
        declared = (
            f"; declared: gold {was.gold}, silver {was.silver}, bronze {was.bronze}, median {was.median}"
            if was is not None
            else ""
        )
        shown = ", ".join(f"{k} {values[k]!r}" for k in ("gold", "silver", "bronze", "median"))
        if write:
            write_medals(comp, values, comp.v1.leaderboard.sha256 if comp.v1 else "", root)
        written = " (written)" if write else ""
        lines.append(f"{cid}: verified ({values['teams']} teams): {shown}{declared}{written}")
    return lines
