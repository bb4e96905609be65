"""Recompute a competition's medal thresholds from a leaderboard CSV, by Kaggle's team-count rules.

The third-party thresholds in the declarations are marked ``unverified``. With Kaggle's leaderboard file for
a competition (rank order, a ``score`` column), ``mlebench thresholds -c ID --leaderboard FILE`` prints the
thresholds that MLE-bench's rules give, and ``--write`` replaces the declaration's ``medals:`` block with
them (``unverified: false``, the file named as the source), keeping the rest of the YAML as it is.
"""

from __future__ import annotations

import io
from pathlib import Path

from ruamel.yaml import YAML

from mlebench.spec.declarations import Competition, declaration_path
from mlebench.spec.errors import ConfigError
from mlebench.spec.files import write_text


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


def write_medals(comp: Competition, values: dict[str, float | int], leaderboard: Path) -> Path:
    """Replace the declaration's ``medals:`` block with recomputed, verified thresholds."""
    path = declaration_path(comp.id)
    yaml = YAML(typ="rt")
    yaml.width = 110
    data = yaml.load(path.read_text(encoding="utf-8"))
    data["medals"] = {
        **{k: float(values[k]) for k in ("gold", "silver", "bronze", "median")},
        "source": f"recomputed by `mlebench thresholds` from {leaderboard.name} ({values['teams']} teams)",
        "unverified": False,
    }
    buf = io.StringIO()
    yaml.dump(data, buf)
    write_text(path, buf.getvalue())
    return path
