"""Answers kept beside the code (issue 48, item 3): the matcher that finds them, and what a re-run gets.

:mod:`mlebench.integrity.stash` flags a kept file whose values reproduce the submission's predictions for
most ids, whatever its name or format; :mod:`mlebench.execution.reproduce_inputs` gives a re-run source
files (by content) and declared inputs only. Each form a stash can take is its own case, beside near misses
an honest run keeps (a copy of the public test rows, a fitted model, other predictions, random bytes).
"""

from __future__ import annotations

import bz2
import gzip
import io
import pickle
import tarfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from mlebench.execution.reproduce_inputs import data_kind, left_out_note, stage_inputs
from mlebench.integrity.stash import MATCH_SHARE, match_bytes, read_answers, stashed_files
from mlebench_spec.params import AgentConfig

RNG = np.random.default_rng(48)
IDS = np.arange(892, 1311)
PRED = RNG.integers(0, 2, len(IDS))
PROBS = RNG.random((len(IDS), 3)).round(6)
PAIRS = list(zip(IDS.tolist(), PRED.tolist(), strict=True))


def _frame() -> pd.DataFrame:
    return pd.DataFrame({"PassengerId": IDS, "Survived": PRED})


def _npy(array: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, array)
    return buf.getvalue()


def _zip(name: str, data: bytes) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, data)
    return buf.getvalue()


def _tar(name: str, data: bytes) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as archive:
        info = tarfile.TarInfo(name)
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
    return buf.getvalue()


CSV = _frame().to_csv(index=False).encode()
STASHES: dict[str, Callable[[], bytes]] = {
    "csv_under_an_innocent_name": lambda: CSV,
    "tsv_without_a_header": lambda: _frame().to_csv(sep="\t", index=False, header=False).encode(),
    "json_lookup": lambda: pd.Series(PRED, index=IDS.astype(str)).to_json().encode(),
    "python_literal": lambda: ("A = {" + ", ".join(f"{i}: {p}" for i, p in PAIRS) + "}\n").encode(),
    "pickled_dict": lambda: pickle.dumps(dict(PAIRS)),
    "pickled_dict_of_strings": lambda: pickle.dumps({str(i): str(p) for i, p in PAIRS}, protocol=2),
    "pickled_booleans": lambda: pickle.dumps([bool(p) for p in PRED]),
    "pickled_dataframe": lambda: pickle.dumps(_frame()),
    "pickled_numpy_array": lambda: pickle.dumps(PRED.astype(np.float32)),
    "npy_column": lambda: _npy(PRED),
    "npy_ids_and_predictions": lambda: _npy(np.stack([IDS, PRED], axis=1)),
    "npy_fortran_order": lambda: _npy(np.asfortranarray(np.stack([IDS, PRED], axis=1))),
    "raw_float64_buffer": lambda: PRED.astype(np.float64).tobytes(),
    "npz_archive": lambda: _zip("arr_0.npy", _npy(PRED)),
    "zip_of_a_csv": lambda: _zip("data/notes.txt", CSV),
    "tar_of_a_csv": lambda: _tar("notes.txt", CSV),
    "gzip_csv": lambda: gzip.compress(CSV),
    "bz2_pickle": lambda: bz2.compress(pickle.dumps(dict(PAIRS))),
}
HONEST: dict[str, Callable[[], bytes]] = {
    "public_test_rows": lambda: (
        pd.DataFrame(
            {
                "PassengerId": IDS,
                "Pclass": RNG.integers(1, 4, len(IDS)),
                "SibSp": RNG.integers(0, 2, len(IDS)),
            }
        )
        .to_csv(index=False)
        .encode()
    ),
    "other_predictions": lambda: _npy(RNG.integers(0, 2, len(IDS))),
    "fitted_model": lambda: pickle.dumps({"coef": RNG.normal(size=(12, 2)), "classes": [0, 1], "n": 891}),
    "ids_with_shuffled_predictions": lambda: pickle.dumps(
        dict(zip(IDS.tolist(), RNG.permutation(PRED).tolist(), strict=True))
    ),
    "random_bytes": lambda: RNG.bytes(200_000),
    "source_code": lambda: Path(__file__).read_bytes(),
}


@pytest.fixture(scope="module")
def answers(tmp_path_factory: pytest.TempPathFactory):
    path = tmp_path_factory.mktemp("sub") / "submission.csv"
    _frame().to_csv(path, index=False)
    return read_answers(path)


@pytest.mark.parametrize("form", sorted(STASHES))
def test_a_stash_is_found_whatever_its_name_or_format(answers, form: str) -> None:
    found = match_bytes(STASHES[form](), answers, "code/cache.bin")
    assert found is not None, form
    assert found.share >= MATCH_SHARE and found.chance < 0.7 and found.column == "Survived"
    assert found.evidence().startswith("code/cache.bin: its values reproduce the submission's 'Survived'")


@pytest.mark.parametrize("form", sorted(HONEST))
def test_what_an_honest_run_keeps_is_not_flagged(answers, form: str) -> None:
    assert match_bytes(HONEST[form](), answers) is None


def test_a_stash_with_a_tenth_of_its_rows_changed_is_still_found_and_with_half_is_not(answers) -> None:
    for changed, found in ((0.05, True), (0.5, False)):
        noisy = PRED.copy()
        flip = RNG.random(len(noisy)) < changed
        noisy[flip] = 1 - noisy[flip]
        assert (match_bytes(_npy(noisy), answers) is not None) is found


def test_probabilities_match_to_four_significant_digits(tmp_path: Path) -> None:
    path = tmp_path / "submission.csv"
    pd.DataFrame({"id": IDS, "a": PROBS[:, 0].round(4), "b": PROBS[:, 1], "c": PROBS[:, 2]}).to_csv(
        path, index=False
    )
    probs = read_answers(path)
    found = match_bytes(pickle.dumps(PROBS[:, 0].astype(np.float32)), probs)
    assert found is not None and found.column == "a"
    assert match_bytes(_npy(RNG.random(len(IDS))), probs) is None


def test_a_constant_or_tiny_submission_flags_nothing(tmp_path: Path) -> None:
    """Predictions that carry too little information to tell a stash from chance flag nothing."""
    constant = tmp_path / "constant.csv"
    pd.DataFrame({"PassengerId": IDS, "Survived": 0}).to_csv(constant, index=False)
    assert match_bytes(_npy(np.zeros(len(IDS), dtype=int)), read_answers(constant)) is None
    tiny = tmp_path / "tiny.csv"
    _frame().head(10).to_csv(tiny, index=False)
    assert read_answers(tiny) is None


def test_a_folder_is_scanned_within_its_bounds_and_names_each_stash(
    answers, tmp_path: Path, monkeypatch
) -> None:
    from mlebench.integrity import stash

    code = tmp_path / "code"
    (code / "sub").mkdir(parents=True)
    (code / "notes.txt").write_bytes(STASHES["csv_under_an_innocent_name"]())
    (code / "sub" / "weights.bin").write_bytes(STASHES["npy_column"]())
    (code / "train.py").write_bytes(HONEST["source_code"]())
    (code / "link.pkl").symlink_to(code / "notes.txt")
    scan = stashed_files(code, answers, base=tmp_path)
    assert [m.path for m in scan.matches] == ["code/notes.txt", "code/sub/weights.bin"]
    assert scan.files == 3 and scan.truncated == []
    monkeypatch.setattr(stash, "MAX_FILE_BYTES", 1000)
    cut = stashed_files(code, answers, base=tmp_path)
    assert cut.matches == [] and "code/notes.txt (read its first 1000 bytes)" in cut.truncated


def test_the_matcher_is_linear_in_the_file(answers) -> None:
    """Four times the bytes cost about four times the time (8x allowed: the machine is shared)."""

    def seconds(data: bytes) -> float:
        t0 = time.perf_counter()
        match_bytes(data, answers)
        return time.perf_counter() - t0

    for make in (lambda n: RNG.bytes(n), lambda n: b"892,1,0.5,893\n" * (n // 14)):
        small, large = make(1_000_000), make(4_000_000)
        t_small, t_large = min(seconds(small) for _ in range(2)), min(seconds(large) for _ in range(2))
        assert t_large < max(8 * t_small, 0.5), (t_small, t_large)


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        (b"\x80\x04\x95\x10\x00", "a pickle"),
        (_npy(PRED), "a numpy array"),
        (_zip("a", b"b"), "a zip archive"),
        (gzip.compress(b"x"), "gzip-compressed data"),
        (b"PAR1\x00\x00", "a parquet table"),
        (b"\x89HDF\r\n\x1a\n\x00", "an HDF5 file"),
        (_tar("a.py", b"print(1)\n"), "a tar archive"),
        (PRED.astype(np.int64).tobytes(), "binary (control bytes)"),
        (b"\xff\xfe\xfa text", "binary (not UTF-8 text)"),
        (CSV, "submission-shaped"),
        (HONEST["public_test_rows"](), "a table"),
        ("\n".join(" ".join(str(v) for v in row) for row in PROBS).encode(), "numeric data"),
        (STASHES["python_literal"](), "numeric data"),
        (b"BLOB = '" + b"QUJD" * 2000 + b"'\n", "an encoded blob"),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_data_is_recognised_by_content(data: bytes, kind: str) -> None:
    assert data_kind(data, ["PassengerId", "Survived"]).startswith(kind)


def test_a_notebook_is_judged_by_its_code_cells_not_its_outputs() -> None:
    import json

    png = {"output_type": "display_data", "data": {"image/png": "iVBOR" * 3000}, "metadata": {}}
    cell = {"cell_type": "code", "source": "import pandas as pd\n", "metadata": {}, "outputs": [png]}
    notebook = {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    assert data_kind(json.dumps(notebook, indent=1).encode()) == ""
    cell["source"] = "A = [" + ", ".join(str(v) for v in [*PRED, *PRED]) + "]\n"  # 838 numbers
    assert data_kind(json.dumps(notebook).encode()).startswith("numeric data")


def test_source_is_given_by_content_and_declared_inputs_whatever_they_are(tmp_path: Path) -> None:
    code, dest = tmp_path / "code", tmp_path / "given"
    (code / "weights").mkdir(parents=True)
    (code / "solve.txt").write_text("import pandas as pd\nprint(pd.__version__)\n")  # code, any suffix
    (code / "features.py").write_bytes(HONEST["public_test_rows"]())  # a table, any suffix
    (code / "model.pkl").write_bytes(HONEST["fitted_model"]())
    (code / "weights" / "encoder.bin").write_bytes(RNG.bytes(4096))
    inputs = stage_inputs(code, dest, ["weights/*.bin", "vocab/*.txt"], ["PassengerId", "Survived"])
    assert [(e["path"], e["declared"]) for e in inputs["given"]] == [
        ("code/solve.txt", False),
        ("code/weights/encoder.bin", True),
    ]
    assert {e["path"]: e["reason"].split(" (")[0] for e in inputs["left_out"]} == {
        "code/features.py": "a table",
        "code/model.pkl": "a pickle",
    }
    assert inputs["unmatched"] == ["vocab/*.txt"]
    assert sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file()) == [
        "solve.txt",
        "weights/encoder.bin",
    ]
    note = left_out_note(inputs)
    assert "code/model.pkl (a pickle)" in note and "reproduce_inputs" in note


@pytest.mark.parametrize(
    ("glob", "problem"),
    [
        ("../answers.csv", "leaves code/"),
        ("/home/data/*", "is absolute"),
        ("**/*", "matches everything kept"),
        ("", "is empty"),
        ("weights\\*.pt", "backslash"),
    ],
)
def test_declared_inputs_are_validated_strictly(glob: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        AgentConfig(path="agents/x", command=["python"], reproduce_inputs=[glob])
    ok = AgentConfig(path="agents/x", command=["python"], reproduce_inputs=["weights/**/*.pt"])
    assert ok.model_dump()["reproduce_inputs"] == ["weights/**/*.pt"]
    assert "reproduce_inputs" not in AgentConfig(path="agents/x", command=["python"]).model_dump()
