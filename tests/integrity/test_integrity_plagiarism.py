"""Plagiarism: reference notebooks pulled through the real ``kaggle`` client from the stand-in, compared.

A run whose code is a lightly edited copy of a reference notebook (tests/integrity/notebooks/
edited_copy.txt: names changed, constants changed, comments added, paths changed) is flagged against that
notebook; the baseline agent's own code is not.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import nbformat
import pytest

from authoring.kaggle_standin import StandinKaggle
from mlebench.data.kernels import KernelRef, fetch_kernels, kernel_refs
from mlebench.integrity.plagiarism import plagiarism, references
from mlebench.integrity.run_view import RunView
from mlebench_spec.errors import ConfigError, DataError
from mlebench_spec.hashing import sha256_file

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = Path(__file__).with_name("notebooks")
THRESHOLD = 0.5


def _as_notebook(code: str) -> str:
    """Split a script into cells at blank lines, as a notebook's JSON."""
    cells = [nbformat.v4.new_code_cell(c) for c in code.split("\n\n") if c.strip()]
    cells.insert(0, nbformat.v4.new_markdown_cell("# A guide"))
    return nbformat.writes(nbformat.v4.new_notebook(cells=cells))


@pytest.fixture()
def kernels(standin: StandinKaggle, tmp_path: Path) -> Path:
    """Serve two references (a notebook and a script) and a private one; pull them into a folder."""
    standin.kernels["alice/forest-guide"] = _as_notebook((NOTEBOOKS / "forest_guide.txt").read_text())
    standin.kernels["bob/boosting-eda"] = (NOTEBOOKS / "boosting_eda.txt").read_text()
    standin.kernel_types["bob/boosting-eda"] = "script"
    standin.private_kernels.add("carol/secret-sauce")
    refs = [
        KernelRef("alice", "forest-guide"),
        KernelRef("bob", "boosting-eda"),
        KernelRef("carol", "secret-sauce"),
    ]
    fetch_kernels(refs, tmp_path / "kernels")
    return tmp_path / "kernels"


def _run(tmp_path: Path, files: dict[str, str]) -> RunView:
    run = tmp_path / "run"
    run.mkdir()
    for rel, text in files.items():
        (run / "code" / rel).parent.mkdir(parents=True, exist_ok=True)
        (run / "code" / rel).write_text(text, encoding="utf-8")
    (run / "run.json").write_text("{}")
    return RunView.load(run)


def test_pull_converts_notebooks_pins_hashes_and_skips_refused_ones(kernels: Path, standin) -> None:
    manifest = json.loads((kernels / "manifest.json").read_text())
    status = {k["ref"]: k["status"] for k in manifest["kernels"]}
    assert status == {
        "alice/forest-guide": "pulled",
        "bob/boosting-eda": "pulled",
        "carol/secret-sauce": "forbidden",
    }
    code = (kernels / "alice__forest-guide.py").read_text()
    assert "RandomForestClassifier" in code and "# A guide" not in code and '"cells"' not in code
    entry = manifest["kernels"][0]
    assert entry["code_sha256"] == sha256_file(kernels / entry["file"])
    assert any(path.endswith("/GetKernel") for _, path, _ in standin.requests)


def test_a_pinned_notebook_that_changed_is_an_error(standin: StandinKaggle, tmp_path: Path) -> None:
    standin.kernels["bob/boosting-eda"] = (NOTEBOOKS / "boosting_eda.txt").read_text()
    standin.kernel_types["bob/boosting-eda"] = "script"
    with pytest.raises(DataError, match="kernels.txt pins"):
        fetch_kernels([KernelRef("bob", "boosting-eda", "0" * 64)], tmp_path / "k")
    assert not (tmp_path / "k").exists()  # nothing half-published


def test_an_edited_copy_of_a_reference_is_flagged(kernels: Path, tmp_path: Path) -> None:
    run = _run(tmp_path, {"main.py": (NOTEBOOKS / "edited_copy.txt").read_text()})
    entry, check = plagiarism(run, references(kernels), THRESHOLD)
    assert check.flagged and entry["threshold"] == THRESHOLD
    assert entry["top"][0]["notebook"] == "alice/forest-guide" and entry["top"][0]["similarity"] >= THRESHOLD
    assert check.evidence[0].startswith("similarity 0.") and "alice/forest-guide" in check.evidence[0]


def test_the_baseline_agents_code_is_not_flagged(kernels: Path, tmp_path: Path) -> None:
    agent = ROOT / "agents" / "baseline"
    files = {p.relative_to(agent).as_posix(): p.read_text() for p in agent.rglob("*.py")}
    entry, check = plagiarism(_run(tmp_path, files), references(kernels), THRESHOLD)
    assert not check.flagged and entry["top"][0]["similarity"] < THRESHOLD / 4


def test_a_run_without_code_is_not_similar(kernels: Path, tmp_path: Path) -> None:
    entry, check = plagiarism(_run(tmp_path, {}), references(kernels), THRESHOLD)
    assert not check.flagged and {t["similarity"] for t in entry["top"]} == {0.0}


def test_every_reference_list_parses_and_bad_lines_are_named(tmp_path: Path) -> None:
    lists = sorted(ROOT.glob("competitions/*/kernels.txt"))
    assert len(lists) == 82 and sum(len(kernel_refs(p)) for p in lists) == 3636
    bad = tmp_path / "kernels.txt"
    bad.write_text("alice/forest-guide\nnot a ref\n")
    with pytest.raises(ConfigError, match=r"kernels.txt:2: 'not a ref'"):
        kernel_refs(bad)


def test_copydetect_is_what_the_run_is_compared_with(tmp_path: Path) -> None:
    """A verbatim copy is similarity 1.0 (sanity of the share computed from copydetect's fingerprints)."""
    folder = tmp_path / "k"
    folder.mkdir()
    shutil.copy(NOTEBOOKS / "boosting_eda.txt", folder / "b.py")
    (folder / "manifest.json").write_text(json.dumps({"kernels": [{"ref": "bob/b", "file": "b.py"}]}))
    entry, _ = plagiarism(
        _run(tmp_path, {"x.py": (NOTEBOOKS / "boosting_eda.txt").read_text()}), references(folder), 0.5
    )
    assert entry["top"] == [{"notebook": "bob/b", "similarity": 1.0}]


def test_the_fetch_kernels_stage_pulls_a_competitions_list(
    standin: StandinKaggle, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from stages.fetch_kernels import main

    folder = tmp_path / "competitions" / "spaceship-titanic"
    folder.mkdir(parents=True)
    (folder / "kernels.txt").write_text("alice/forest-guide\ndave/gone-for-good\n")
    standin.kernels["alice/forest-guide"] = _as_notebook((NOTEBOOKS / "forest_guide.txt").read_text())
    monkeypatch.setenv("MLEBENCH_ROOT", str(tmp_path))
    assert main(["--competition", "spaceship-titanic"]) == 0
    manifest = json.loads((tmp_path / "data" / "kernels" / "spaceship-titanic" / "manifest.json").read_text())
    assert [(k["ref"], k["status"]) for k in manifest["kernels"]] == [
        ("alice/forest-guide", "pulled"),
        ("dave/gone-for-good", "not found"),
    ]
    (folder / "kernels.txt").write_text("dave/gone\n")
    with pytest.raises(ConfigError, match="'dave/gone': the kaggle client refuses it: Kernel slug"):
        main(["--competition", "spaceship-titanic"])
