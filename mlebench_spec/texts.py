"""The texts an agent reads (its ``description.md``, the general instructions): ours, or v1's, checked.

``descriptions.source`` (``params.yaml``, from ``conf/config.yaml``) is ``ours`` (the default: the texts
written here) or ``mlebench``: v1's own texts, taken from the v1 checkout at ``descriptions.checkout`` and
checked against the git blob ids we record (each declaration's ``v1.description``; v1's instructions in
``mlebench/execution/instructions.v1.yaml``). A missing file or one with other bytes is an error naming it;
nothing of v1's is kept in this repository. ``descriptions.obfuscate`` takes v1's obfuscated versions
(``description_obfuscated.md``, ``instructions_obfuscated.txt``: what v1's agents read with
``OBFUSCATE=true``), pinned the same way. Which text an agent saw goes into its run's lineage
(:func:`text_lineage`), and the report marks results made with our own texts as not comparable with the
published leaderboard.
"""

from __future__ import annotations

from pathlib import Path

from mlebench_spec.declarations import Competition, V1TextFile, declaration_path
from mlebench_spec.errors import ConfigError
from mlebench_spec.hashing import git_blob_id, sha256_file
from mlebench_spec.params import TextSettings
from mlebench_spec.paths import repo_root


def checkout_dir(texts: TextSettings, root: Path | None = None) -> Path:
    """Return the v1 checkout ``texts`` points at (a relative path is taken from the repository root)."""
    if texts.source != "mlebench":
        raise ValueError("only descriptions.source 'mlebench' reads a v1 checkout")
    path = Path(texts.checkout)
    return path if path.is_absolute() else (root or repo_root()) / path


def checked_v1_file(checkout: Path, relative: str, git_blob: str, what: str) -> Path:
    """Return ``checkout/relative`` once its git blob id is ``git_blob``; else a ConfigError naming it."""
    path = checkout / relative
    if not path.is_file():
        raise ConfigError(
            f"{what}: {path} does not exist; descriptions.checkout must be a checkout of MLE-bench v1"
        )
    actual = git_blob_id(path)
    if actual != git_blob:
        raise ConfigError(
            f"{what}: {path} has git blob id {actual}, but {git_blob} is recorded; check out the v1 "
            "revision the declarations were recorded from (authoring/v1_facts.py), or re-record them"
        )
    return path


def description_file(comp: Competition, texts: TextSettings, folder: Path, root: Path | None = None) -> Path:
    """Return the description the agent reads for ``comp``: ours in ``folder``, or v1's, checked."""
    if texts.source == "ours":
        path = folder / comp.description
        if not path.is_file():
            declaration = folder / "competition.yaml"
            raise ConfigError(f"{declaration}: description {comp.description!r} does not exist")
        return path
    pin = description_pin(comp, texts)
    what = f"{comp.id} {'obfuscated ' if texts.obfuscate else ''}description"
    return checked_v1_file(checkout_dir(texts, root), pin.path, pin.git_blob, what)


def description_pin(comp: Competition, texts: TextSettings) -> V1TextFile:
    """Return the v1 description ``texts`` asks for (plain, or obfuscated), as the declaration pins it."""
    field = "description_obfuscated" if texts.obfuscate else "description"
    pin = getattr(comp.v1, field, None) if comp.v1 is not None else None
    if pin is None:
        raise ConfigError(
            f"{comp.id}: descriptions.source is 'mlebench'{' with obfuscate' if texts.obfuscate else ''} but "
            f"{declaration_path(comp.id)} records no v1.{field} (python -m authoring.v1_facts records it)"
        )
    return pin


def text_lineage(source: str, description: Path, instructions: Path, obfuscated: bool = False) -> dict:
    """Return what a run's lineage records of the texts its agent read: source, git blob ids, sha256.

    ``obfuscated`` is recorded (as true) only for v1's obfuscated texts.
    """
    return {
        "source": source,
        **({"obfuscated": True} if obfuscated else {}),
        "description_git_blob": git_blob_id(description),
        "description_sha256": sha256_file(description),
        "instructions_git_blob": git_blob_id(instructions),
        "instructions_sha256": sha256_file(instructions),
    }
