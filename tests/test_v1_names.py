"""The MLE-bench v1 names harnesses and forks call beyond the registry and grading (issue 49, item 4).

Each is called the way its callers call it: a fork's copy of v1's ``data.py`` (download, md5 the zip, extract,
``prepare_fn``, compare ``{"zip", "public", "private"}`` with ``load_yaml(competition.checksums)``), v1's
``run_agent.py`` (``create_run_dir`` inside a run group), and competition graders written for v1
(``mlebench.competitions.utils``: one-hot log loss, accuracy, AUROC, RLE masks, TFRecord ids). Expected
values come from independent computations in this file (hashlib, sklearn, a plain-loop RLE), not from the
code under test.
"""

from __future__ import annotations

import hashlib
import re
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from kaggle_fixtures import serve_fixture
from sklearn.metrics import accuracy_score, log_loss, roc_auc_score

from mlebench.grade_helpers import InvalidSubmissionError
from mlebench_spec.declarations import load_competition
from mlebench_spec.errors import DataError

ROOT = Path(__file__).resolve().parents[1]


def _md5(path: Path) -> str:
    return hashlib.md5(path.read_bytes()).hexdigest()


def test_a_fork_of_v1s_data_py_prepares_and_checks_against_our_checksums(
    standin,  # noqa: ANN001 - conftest's server
    tmp_path: Path,
) -> None:
    """v1's download_and_prepare_dataset, step by step with our names, agrees with our checksums file."""
    from mlebench.data import (
        create_prepared_dir,
        download_and_prepare_dataset,
        download_dataset,
        generate_checksums,
        get_checksum,
    )
    from mlebench.registry import registry
    from mlebench.utils import extract, is_empty, load_yaml

    serve_fixture(load_competition("spaceship-titanic"), standin, tmp_path / "served")
    ours = registry.set_data_dir(tmp_path / "ours").get_competition("spaceship-titanic")
    assert not ours.checksums.is_file()
    with pytest.warns(UserWarning, match="no archive_sha256"):  # the fixture archive is not the real one
        download_and_prepare_dataset(ours)
    expected = load_yaml(ours.checksums)
    assert ours.checksums == ours.public_dir.parent / "checksums.yaml"
    assert set(expected) == {"zip", "public", "private"}
    assert expected["zip"] == _md5(standin.archives["spaceship-titanic"])

    fork = registry.set_data_dir(tmp_path / "fork").get_competition("spaceship-titanic")
    fork.raw_dir.mkdir(parents=True)
    create_prepared_dir(fork)
    assert fork.public_dir.is_dir() and fork.private_dir.is_dir()
    zip_path = download_dataset(competition_id=fork.id, download_dir=fork.raw_dir.parent, force=False)
    assert zip_path.parent == fork.raw_dir.parent and zip_path.suffix == ".zip"
    actual_zip = get_checksum(zip_path)
    assert actual_zip == load_yaml(ours.checksums)["zip"] == _md5(zip_path)
    assert is_empty(fork.raw_dir)
    extract(zip_path, fork.raw_dir, recursive=False)
    fork.prepare_fn(raw=fork.raw_dir, public=fork.public_dir, private=fork.private_dir)
    actual = {
        "zip": actual_zip,
        "public": generate_checksums(fork.public_dir),
        "private": generate_checksums(fork.private_dir),
    }
    assert actual == expected  # v1's own comparison of the whole dictionary
    assert actual["public"] == {p.name: _md5(p) for p in fork.public_dir.glob("*.csv")}


def test_an_embedded_competitions_checksums_have_no_zip(tmp_path: Path) -> None:
    from mlebench.data import download_and_prepare_dataset, generate_checksums
    from mlebench.registry import registry
    from mlebench.utils import load_yaml

    comp = registry.set_data_dir(tmp_path).get_competition("titanic-lite")
    download_and_prepare_dataset(comp, keep_raw=False)
    assert load_yaml(comp.checksums) == {
        "public": generate_checksums(comp.public_dir),
        "private": generate_checksums(comp.private_dir),
    }


def test_download_dataset_names_what_it_cannot_do(
    standin,  # noqa: ANN001
    tmp_path: Path,
) -> None:
    from mlebench.data import download_dataset
    from mlebench_spec.errors import ConfigError

    with pytest.raises(ConfigError, match="titanic-lite is not a Kaggle competition"):
        download_dataset("titanic-lite", tmp_path)
    serve_fixture(load_competition("spaceship-titanic"), standin, tmp_path / "served")
    standin.accepted.clear()
    with pytest.raises(ConfigError, match=r"accept the competition's rules at .*/c/spaceship-titanic/rules"):
        download_dataset("spaceship-titanic", tmp_path / "dl")
    with pytest.raises(ConfigError, match="no Kaggle competition 'not-a-competition'"):
        download_dataset("not-a-competition", tmp_path / "dl")  # an undeclared id is taken as a slug


def test_generate_checksums_covers_v1s_files_directly_in_the_folder(tmp_path: Path) -> None:
    from mlebench.data import generate_checksums, get_checksum

    files = {"a.csv": b"x,y\n", "b.json": b"{}", "c.parquet": b"PAR1", "d.jpg": b"\xff", "e.md": b"#"}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "f.csv").write_bytes(b"1")
    (tmp_path / "dir.csv").mkdir()  # a folder named like a file is skipped
    want = {n: hashlib.md5(files[n]).hexdigest() for n in ("a.csv", "b.json", "c.parquet")}
    assert generate_checksums(tmp_path) == want
    assert generate_checksums(tmp_path, exts=["jpg"]) == {"d.jpg": hashlib.md5(b"\xff").hexdigest()}
    assert generate_checksums(tmp_path, exclude=[tmp_path / "a.csv"]) == {
        k: v for k, v in want.items() if k != "a.csv"
    }
    assert get_checksum(tmp_path / "a.csv") == want["a.csv"]
    with pytest.raises(FileNotFoundError, match="expected a file"):
        get_checksum(tmp_path / "missing.csv")


def test_compress_and_extract_round_trip_and_recursive_extraction(tmp_path: Path) -> None:
    from mlebench.utils import compress, extract, is_compressed

    src = tmp_path / "src"
    (src / "deep").mkdir(parents=True)
    (src / "a.csv").write_text("id\n1\n")
    (src / "deep" / "b.txt").write_text("b")
    for suffix in (".zip", ".7z"):
        packed = tmp_path / f"packed{suffix}"
        compress(src, packed)
        with pytest.raises(FileExistsError, match="exist_ok"):
            compress(src, packed)
        compress(src, packed, exist_ok=True)
        out = tmp_path / f"out{suffix}"
        extract(packed, out)
        assert (out / "a.csv").read_text() == "id\n1\n" and (out / "deep" / "b.txt").read_text() == "b"
    with pytest.raises(NotImplementedError, match=r"\.tar"):
        compress(src, tmp_path / "packed.tar")

    # A Kaggle-style download: a zip holding a zip and a 7z, which hold files of their own.
    outer = tmp_path / "outer.zip"
    with zipfile.ZipFile(outer, "w") as zf:
        zf.write(tmp_path / "packed.zip", "inner.zip")
        zf.write(tmp_path / "packed.7z", "inner.7z")
        zf.writestr("top.csv", "t\n")
    flat, deep = tmp_path / "flat", tmp_path / "deep"
    extract(outer, flat, recursive=False)
    assert sorted(p.name for p in flat.iterdir()) == ["inner.7z", "inner.zip", "top.csv"]
    extract(outer, deep, recursive=True)
    assert (deep / "a.csv").read_text() == "id\n1\n" and (deep / "deep" / "b.txt").is_file()
    assert (deep / "top.csv").is_file() and (deep / "inner.zip").is_file()

    assert [is_compressed(Path(n)) for n in ("a.zip", "a.tar.gz", "a.7z", "a.csv", "a.rar")] == [
        True,
        True,
        True,
        False,
        True,
    ]
    with pytest.raises(ValueError, match="not compressed"):
        extract(src / "a.csv", tmp_path / "x")
    evil = tmp_path / "evil.zip"
    with zipfile.ZipFile(evil, "w") as zf:
        zf.writestr("../escaped.txt", "x")
    with pytest.raises(DataError, match="outside"):
        extract(evil, tmp_path / "evil")
    assert not (tmp_path / "escaped.txt").exists()


def test_run_dirs_as_v1s_run_agent_makes_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import mlebench.utils as utils

    assert utils.get_runs_dir() == ROOT / "runs"
    monkeypatch.setattr(utils, "get_repo_dir", lambda: tmp_path)
    run_group = f"{utils.get_timestamp()}_run-group_dummy"
    run_dir = utils.create_run_dir("spaceship-titanic", "dummy/default", run_group)
    assert run_dir.is_dir() and run_dir.parent == tmp_path / "runs" / run_group
    assert re.fullmatch(r"spaceship-titanic_[0-9a-f-]{36}", run_dir.name)
    alone = utils.generate_run_id("spaceship-titanic", "aide")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-[A-Z]+_spaceship-titanic_aide_[0-9a-f]{8}", alone)
    bare = utils.create_run_dir()
    assert bare.parent == tmp_path / "runs" and re.fullmatch(r"[0-9a-f-]{36}", bare.name)
    with pytest.raises(TypeError, match="competition_id must be a string"):
        utils.create_run_dir(competition_id=3)  # type: ignore[arg-type]


def test_one_hot_log_loss_as_v1s_graders_compute_it() -> None:
    from mlebench.competitions.utils import df_to_one_hot, is_one_hot_encoded, one_hot_dfs_to_log_loss_inputs

    classes = ["cat", "dog", "owl"]
    answers = pd.DataFrame({"id": [3, 1, 2], "label": ["dog", "cat", "owl"]})
    one_hot = df_to_one_hot(answers, "id", "label", classes)
    assert list(one_hot.columns) == ["id", *classes]
    assert one_hot.set_index("id").loc[3].tolist() == [0, 1, 0]
    logits = pd.DataFrame(
        {"id": [1, 2, 3], "owl": [0.1, 2.0, 0.3], "cat": [3.0, 0.0, 0.2], "dog": [0, 0, 1.5]}
    )
    inputs = one_hot_dfs_to_log_loss_inputs(logits.assign(extra=1), one_hot)
    ordered = logits.set_index("id").loc[[1, 2, 3], classes].to_numpy()
    softmaxed = np.exp(ordered) / np.exp(ordered).sum(axis=1, keepdims=True)
    assert np.allclose(inputs["y_pred"], softmaxed) and inputs["y_true"].tolist() == [
        [1, 0, 0],
        [0, 0, 1],
        [0, 1, 0],
    ]
    assert log_loss(inputs["y_true"], inputs["y_pred"]) == pytest.approx(
        -np.mean(np.log(softmaxed[[0, 1, 2], [0, 2, 1]]))
    )
    raw = one_hot_dfs_to_log_loss_inputs(logits, one_hot, apply_softmax=False)
    assert np.array_equal(raw["y_pred"], ordered)
    assert is_one_hot_encoded(one_hot[classes].to_numpy()) and not is_one_hot_encoded(ordered)
    with pytest.raises(InvalidSubmissionError, match="Missing columns: {'owl'}"):
        one_hot_dfs_to_log_loss_inputs(logits.drop(columns=["owl"]), one_hot)
    with pytest.raises(AssertionError, match="differ"):
        one_hot_dfs_to_log_loss_inputs(logits.assign(id=[1, 2, 4]), one_hot)


def test_accuracy_and_auroc_inputs_as_v1s_graders_take_them() -> None:
    from mlebench.competitions.utils import prepare_for_accuracy_metric, prepare_for_auroc_metric

    answers = pd.DataFrame({"id": ["b", "a", "c", "d"], "y": [1, 0, 1, 0]})
    submission = pd.DataFrame({"id": ["a", "b", "d", "c"], "y": [0, 0, 0, 1]})
    acc = prepare_for_accuracy_metric(
        submission=submission, answers=answers, target_column="y", id_column="id"
    )
    assert accuracy_score(**acc) == 0.75
    for bad, why in [
        (submission.iloc[:3], "same length"),
        (submission.rename(columns={"y": "z"}), "`y` column"),
        (submission.assign(id=["a", "b", "d", "e"]), "do not match"),
    ]:
        with pytest.raises(InvalidSubmissionError, match=why):
            prepare_for_accuracy_metric(bad, answers, target_column="y", id_column="id")

    scores = submission.assign(y=[0.2, 0.4, 0.3, 0.9])
    auroc = prepare_for_auroc_metric(submission=scores, answers=answers, id_col="id", target_col="y")
    assert roc_auc_score(**auroc) == roc_auc_score([0, 1, 1, 0], [0.2, 0.4, 0.9, 0.3])
    for bad, why in [
        (scores.assign(y=[0.2, 1.4, 0.3, 0.9]), "between 0 and 1"),
        (scores.assign(y=["a", "b", "c", "d"]), "numeric"),
        (scores.iloc[:2], "same number of rows"),
        (scores.drop(columns=["id"]), "id column"),
    ]:
        with pytest.raises(InvalidSubmissionError, match=why):
            prepare_for_auroc_metric(bad, answers, id_col="id", target_col="y")


def _reference_rle(mask: np.ndarray) -> list[int]:
    """1-based column-major runs of the nonzero pixels, by a plain loop (the test's own reference)."""
    flat = mask.T.reshape(-1)
    out: list[int] = []
    for i, value in enumerate(flat):
        if value and (i == 0 or not flat[i - 1]):
            out += [i + 1, 0]
        if value:
            out[-1] += 1
    return out


def test_rle_masks_as_v1s_segmentation_graders_use_them() -> None:
    from mlebench.competitions.utils import rle_decode, rle_encode, rles_to_masks

    rng = np.random.default_rng(0)
    for _ in range(20):
        height, width = (int(n) for n in rng.integers(1, 12, size=2))
        mask = rng.integers(0, 3, size=(height, width))
        runs = rle_encode(mask, fg_val=2)
        assert runs == _reference_rle(mask == 2)
        text = " ".join(map(str, runs))
        assert np.array_equal(rle_decode(text, height=height, width=width), mask == 2)
    assert rle_decode("  ", height=2, width=3).shape == (2, 3)
    assert rle_decode("5 10", height=3, width=2).astype(int).tolist() == [
        [0, 0],
        [0, 1],
        [0, 1],
    ]  # cut at the end
    masks = rles_to_masks(["1 2", ""], image_heights=[2, 1], image_widths=[2, 3])
    assert [m.shape for m in masks] == [(2, 2), (1, 3)] and masks[0][:, 0].all()
    for bad in ("3 1 1 1", "1 3 2 1", "0 2", "1 0"):
        with pytest.raises(AssertionError):  # v1's graders turn this into InvalidSubmissionError
            rles_to_masks([bad], image_heights=[4], image_widths=[4])
    with pytest.raises(AssertionError, match="Expected a string"):
        rle_decode(np.nan, height=2, width=2)  # type: ignore[arg-type]


def test_ids_from_a_tfrecord_file(tmp_path: Path) -> None:
    from mlebench.competitions.utils import get_ids_from_tf_records
    from mlebench.data.tfrecord import bytes_feature, encode_example, int64_feature, write_records

    path = tmp_path / "test00-3.tfrec"
    names = ["ISIC_0001", "ISIC_0002", "ISIC_0003"]
    write_records(
        path,
        [
            encode_example({"image_name": bytes_feature(n.encode()), "target": int64_feature(0)})
            for n in names
        ],
    )
    assert get_ids_from_tf_records(path) == names
    assert get_ids_from_tf_records(path, id_feature="image_name") == names


def test_authenticate_kaggle_api_fails_as_v1s_does(
    standin,  # noqa: ANN001
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Wrong credentials fail at once (v1's cheap call), missing ones say where they go: PermissionError."""
    from mlebench.utils import authenticate_kaggle_api

    monkeypatch.setenv("KAGGLE_KEY", "wrong")
    with pytest.raises(PermissionError, match="Kaggle authentication failed: .*401"):
        authenticate_kaggle_api()
    for name in ("KAGGLE_USERNAME", "KAGGLE_KEY", "KAGGLE_API_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("KAGGLE_CONFIG_DIR", str(tmp_path / "no-kaggle"))
    with pytest.raises(PermissionError, match="no Kaggle credentials: put kaggle.json"):
        authenticate_kaggle_api()
