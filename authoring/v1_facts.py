"""Record what MLE-bench v1's public repository says about its files, in our declarations.

``python -m authoring.v1_facts --git-dir PATH`` reads a git directory of v1's repository (a clone's
``.git`` or a bare copy; nothing is checked out or downloaded) at ``--rev`` (default ``HEAD``) and writes:

- into each Kaggle competition's ``competition.yaml``, a ``v1:`` block: the Git-LFS pointer of its
  ``leaderboard.csv`` (sha256 and size, which ``mlebench thresholds --v1-checkout`` verifies) and the git
  blob ids of its ``description.md`` and ``description_obfuscated.md`` (which prepare checks under
  ``descriptions.source: mlebench``, the second with ``descriptions.obfuscate``);
- ``mlebench/execution/instructions.v1.yaml``: the git blob ids of v1's general instructions to the agent,
  plain and obfuscated.

Only facts about v1's files (paths, hashes, sizes) are recorded, never their contents.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from authoring.declaration_text import set_block
from mlebench_spec.declarations import all_competition_ids, declaration_path, load_competition
from mlebench_spec.errors import ConfigError
from mlebench_spec.files import write_text
from mlebench_spec.paths import repo_root

V1_COMPETITIONS = "mlebench/competitions"
V1_INSTRUCTIONS = "environment/instructions.txt"
V1_INSTRUCTIONS_OBFUSCATED = "environment/instructions_obfuscated.txt"
INSTRUCTIONS_PIN = Path("mlebench/execution/instructions.v1.yaml")


def parse_lfs_pointer(text: str, where: str) -> tuple[str, int]:
    """Return the (sha256, size) a Git-LFS pointer file names; anything else is an error naming ``where``."""
    fields = dict(line.split(" ", 1) for line in text.strip().splitlines() if " " in line)
    oid, size = fields.get("oid", ""), fields.get("size", "")
    pointer = fields.get("version", "").endswith("/spec/v1") and oid.startswith("sha256:")
    if not pointer or not size.isdigit():
        raise ConfigError(f"{where}: not a Git-LFS pointer (version / oid sha256:… / size lines)")
    return oid.removeprefix("sha256:"), int(size)


def tree(git_dir: Path, rev: str) -> dict[str, str]:
    """Every file of ``rev``: path → git blob id."""
    out = _git(git_dir, "ls-tree", "-r", "--full-tree", rev)
    entries = (line.split("\t", 1) for line in out.splitlines())
    return {path: meta.split()[2] for meta, path in entries if meta.split()[1] == "blob"}


def v1_block(git_dir: Path, files: dict[str, str], cid: str) -> str:
    """Return the ``v1:`` block of one competition, from the files of v1's tree."""
    board, text = f"{V1_COMPETITIONS}/{cid}/leaderboard.csv", f"{V1_COMPETITIONS}/{cid}/description.md"
    obfuscated = f"{V1_COMPETITIONS}/{cid}/description_obfuscated.md"
    missing = [p for p in (board, text, obfuscated) if p not in files]
    if missing:
        raise ConfigError(f"{cid}: v1's tree has no {', '.join(missing)}")
    sha, size = parse_lfs_pointer(_git(git_dir, "cat-file", "blob", files[board]), board)
    return (
        "v1:\n"
        f"  leaderboard: {{path: {board}, sha256: {sha}, size: {size}}}\n"
        f"  description: {{path: {text}, git_blob: {files[text]}}}\n"
        f"  description_obfuscated: {{path: {obfuscated}, git_blob: {files[obfuscated]}}}\n"
    )


def record(git_dir: Path, rev: str = "HEAD", root: Path | None = None) -> list[Path]:
    """Write the ``v1:`` block of every Kaggle competition and the instructions pin; return what changed."""
    base = root or repo_root()
    files = tree(git_dir, rev)
    for needed in (V1_INSTRUCTIONS, V1_INSTRUCTIONS_OBFUSCATED):
        if needed not in files:
            raise ConfigError(f"{git_dir} at {rev}: no {needed}; is this MLE-bench v1's repository?")
    changed = []
    for cid in all_competition_ids(base):
        if load_competition(cid, base).source.kind != "kaggle":
            continue
        path = declaration_path(cid, base)
        old = path.read_text(encoding="utf-8")
        new = set_block(old, "v1", v1_block(git_dir, files, cid), after="description")
        if new != old:
            write_text(path, new)
            changed.append(path)
    pin = base / INSTRUCTIONS_PIN
    text = (
        "# v1's general instructions to the agent, pinned by git blob id (by authoring/v1_facts.py);\n"
        "# `obfuscated`: the version agents read under descriptions.obfuscate (v1's OBFUSCATE).\n"
        f"path: {V1_INSTRUCTIONS}\ngit_blob: {files[V1_INSTRUCTIONS]}\n"
        f"obfuscated: {{path: {V1_INSTRUCTIONS_OBFUSCATED}, git_blob: {files[V1_INSTRUCTIONS_OBFUSCATED]}}}\n"
    )
    if not pin.is_file() or pin.read_text(encoding="utf-8") != text:
        write_text(pin, text)
        changed.append(pin)
    return changed


def _git(git_dir: Path, *args: str) -> str:
    proc = subprocess.run(["git", f"--git-dir={git_dir}", *args], capture_output=True, text=True)
    if proc.returncode:
        raise ConfigError(f"git {' '.join(args)} in {git_dir} failed: {proc.stderr.strip()}")
    return proc.stdout


def main(argv: list[str] | None = None) -> int:
    """Record v1's file facts from ``--git-dir`` into the declarations."""
    parser = argparse.ArgumentParser(prog="python -m authoring.v1_facts", description=__doc__)
    parser.add_argument("--git-dir", type=Path, required=True, help="git directory of v1's repository")
    parser.add_argument("--rev", default="HEAD")
    args = parser.parse_args(argv)
    try:
        changed = record(args.git_dir, args.rev)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{len(changed)} file(s) changed", *changed, sep="\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
