"""Where things live. Every path the pipeline uses is built here, relative to the repository root."""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE_ROOT = Path(__file__).resolve().parents[1]


def repo_root() -> Path:
    """Return the checkout that holds competitions/, conf/ and the pipeline files.

    ``MLEBENCH_ROOT`` overrides it; otherwise the current directory when it looks like a checkout (so a
    temporary clone works with an installed package), else the checkout this package was installed from.
    """
    env = os.environ.get("MLEBENCH_ROOT")
    if env:
        return Path(env).resolve()
    cwd = Path.cwd()
    if (cwd / "competitions").is_dir() and (cwd / "conf").is_dir():
        return cwd.resolve()
    return _PACKAGE_ROOT


def competitions_dir(root: Path | None = None) -> Path:
    """Folder of competition declarations."""
    return (root or repo_root()) / "competitions"


def raw_dir(competition_id: str, root: Path | None = None) -> Path:
    """Raw files as fetched, before any split."""
    return (root or repo_root()) / "data" / "raw" / competition_id


def downloads_dir(competition_id: str, root: Path | None = None) -> Path:
    """Kaggle archives as downloaded (kept, so a fetch resumes or reuses them; not tracked by DVC)."""
    return (root or repo_root()) / "data" / "downloads" / competition_id


def prepared_dir(competition_id: str, root: Path | None = None) -> Path:
    """Return the folder holding ``public/`` (what an agent sees) and ``private/`` (answers)."""
    return (root or repo_root()) / "data" / "prepared" / competition_id


def public_dir(competition_id: str, root: Path | None = None) -> Path:
    """Return the agent-visible split."""
    return prepared_dir(competition_id, root) / "public"


def private_dir(competition_id: str, root: Path | None = None) -> Path:
    """Return the answers folder; never shown to an agent."""
    return prepared_dir(competition_id, root) / "private"


def manifest_path(competition_id: str, root: Path | None = None) -> Path:
    """Return the prepared split's manifest (sha256 of every public and private file; spec/manifest.py)."""
    return prepared_dir(competition_id, root) / "manifest.json"


def selfcheck_path(competition_id: str, root: Path | None = None) -> Path:
    """Return where the self-check (answers and sample submission graded before any agent) is written."""
    return (root or repo_root()) / "data" / "selfcheck" / f"{competition_id}.json"


def audit_path(competition_id: str, root: Path | None = None) -> Path:
    """Return where the leak audit of the prepared split is written."""
    return (root or repo_root()) / "data" / "audit" / f"{competition_id}.json"


def run_dir(agent: str, competition_id: str, seed: int, root: Path | None = None) -> Path:
    """One cell's agent outputs: submission.csv, code/, logs/, run.json."""
    return (root or repo_root()) / "runs" / agent / competition_id / str(seed)


def grade_path(agent: str, competition_id: str, seed: int, root: Path | None = None) -> Path:
    """One cell's grading record."""
    return (root or repo_root()) / "grades" / agent / competition_id / f"{seed}.json"


def integrity_path(agent: str, competition_id: str, seed: int, root: Path | None = None) -> Path:
    """One cell's integrity verdict (``integrity.json``), beside its grading record's tree.

    The integrity stage writes it; the report reads it (absent: the cell is ``unchecked``).

    Not inside ``runs/<agent>/<id>/<seed>/``: that folder is the run stage's output, and DVC forbids one
    stage's output inside another's.
    """
    return (root or repo_root()) / "integrity" / agent / competition_id / str(seed) / "integrity.json"


def reproduction_dir(agent: str, competition_id: str, seed: int, root: Path | None = None) -> Path:
    """One cell's reproduction: ``reproduction.json``, the re-run in ``run/`` and its grade (``grade.json``).

    The reproduce stage's output (process evaluation); outside ``runs/`` for the same reason as
    :func:`integrity_path`.
    """
    return (root or repo_root()) / "reproductions" / agent / competition_id / str(seed)


def kernels_dir(competition_id: str, root: Path | None = None) -> Path:
    """Return a competition's reference notebooks as code, pulled once and pinned (for plagiarism)."""
    return (root or repo_root()) / "data" / "kernels" / competition_id


def report_dir(root: Path | None = None) -> Path:
    """Return the aggregated report folder: report.json, report.md, metrics.json."""
    return (root or repo_root()) / "report"


def pipeline_file(competition_id: str, root: Path | None = None) -> Path:
    """Return the generated DVC pipeline of a competition's data stages (fetch, prepare, checks)."""
    return (root or repo_root()) / "pipelines" / competition_id / "dvc.yaml"


def cell_pipeline_file(competition_id: str, agent: str, seed: int, root: Path | None = None) -> Path:
    """Return the generated DVC pipeline of one cell's stages (run, grade, integrity): its own dvc.lock."""
    return (root or repo_root()) / "pipelines" / competition_id / f"{agent}-s{seed}" / "dvc.yaml"
