"""A temporary git + DVC copy of this checkout, running commands in it, and the stages a plan renders."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def run(
    args: list[str], cwd: Path, check: bool = True, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    """Run ``args`` in ``cwd`` with this interpreter's scripts on PATH; fail with its output when asked."""
    full = {k: v for k, v in os.environ.items() if k != "MLEBENCH_ROOT"} | (env or {})
    full["PATH"] = f"{Path(sys.executable).parent}:{full.get('PATH', '')}"
    proc = subprocess.run(args, cwd=cwd, env=full, capture_output=True, text=True, timeout=1200)
    if check and proc.returncode != 0:
        raise AssertionError(
            f"{' '.join(args)} failed ({proc.returncode}):\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
        )
    return proc


def copy_checkout(base: Path) -> Path:
    """Copy the working tree (tracked and untracked-not-ignored files) to a fresh git repo ``base/repo``.

    Its DVC remotes point into ``base/remote``. Returns the copy.
    """
    dest = base / "repo"
    listing = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, capture_output=True, check=True
    )
    for rel in filter(None, listing.stdout.decode().split("\0")):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    run(["git", "init", "-q"], dest)
    for remote in ("storage", "answers"):
        run(["dvc", "remote", "modify", "--local", remote, "url", str(base / "remote" / remote)], dest)
    return dest


def plan_and_commit(repo: Path, overrides: list[str]) -> None:
    """``mlebench plan`` with Hydra ``overrides`` in ``repo``, then commit everything."""
    run([sys.executable, "-m", "mlebench.cli", "plan", *overrides], repo)
    run(["git", "add", "-A"], repo)
    run(["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "e2e"], repo)


def competition_stages(rendered: dict[Path, str], competition_id: str, root: Path = ROOT) -> dict[str, Any]:
    """Every stage of one competition in ``rendered`` (what a plan renders), by name, from all its files."""
    import yaml

    folder = root / "pipelines" / competition_id
    texts = [text for path, text in rendered.items() if path.is_relative_to(folder)]
    return {name: stage for text in texts for name, stage in yaml.safe_load(text)["stages"].items()}
