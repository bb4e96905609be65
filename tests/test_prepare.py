"""prepare_competition(): real embedded competitions end to end, and the layout and atomicity guarantees."""

from __future__ import annotations

import hashlib
import json
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from embedded_fixtures import COMPETITIONS, EMBEDDED, Prepared
from PIL import Image

from mlebench.data.prepare import check_layout, prepare_competition, read_csv_text, read_rdata, write_png
from mlebench.data.splitting import shuffled_ids, split_frame
from mlebench_spec.declarations import Competition, Split, Submission, parse_declaration
from mlebench_spec.errors import ConfigError, DataError
from mlebench_spec.hashing import sha256_file

IMAGES = {"digit-recognizer-5k": ("L", (28, 28)), "dsb-nuclei-tiles": ("I;16", (64, 64))}


@pytest.fixture(params=EMBEDDED)
def prepared(request: pytest.FixtureRequest, prepare_once: Callable[[str], Prepared]) -> Prepared:
    return prepare_once(request.param)


def _manifest(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _rows(competition_id: str) -> tuple[int, int]:
    """(train rows, test rows) the competition's declaration promises (``rows:``)."""
    rows = parse_declaration(COMPETITIONS / competition_id / "competition.yaml").rows
    assert rows is not None, f"{competition_id}: competition.yaml declares no rows: {{train, test}}"
    return rows.train, rows.test


def test_every_embedded_competition_is_covered() -> None:
    assert all(_rows(cid) for cid in EMBEDDED)


def test_prepare_is_byte_for_byte_deterministic(prepared: Prepared, tmp_path: Path) -> None:
    again = tmp_path / prepared.comp.id
    prepare_competition(prepared.comp, prepared.raw, again, folder=COMPETITIONS / prepared.comp.id)
    assert _manifest(again) == _manifest(prepared.out)
    assert sorted(p.name for p in tmp_path.iterdir()) == [prepared.comp.id]  # no staging folder left


def test_layout_and_row_counts(prepared: Prepared) -> None:
    assert check_layout(prepared.comp, prepared.public, prepared.private) == []
    for name in ("train.csv", "test.csv", "sample_submission.csv", "description.md"):
        assert (prepared.public / name).is_file()
    assert [p.name for p in prepared.private.iterdir()] == ["answers.csv"]
    train, test = prepared.csv("train.csv"), prepared.csv("test.csv")
    assert (len(train), len(test)) == _rows(prepared.comp.id)


def test_test_csv_has_no_answer_column(prepared: Prepared) -> None:
    test = prepared.csv("test.csv")
    assert not set(prepared.comp.submission.target_columns) & set(test.columns)


def test_train_and_test_ids_are_disjoint(prepared: Prepared) -> None:
    id_col = prepared.comp.submission.id_column
    train, test = prepared.csv("train.csv"), prepared.csv("test.csv")
    assert train[id_col].is_unique and test[id_col].is_unique
    assert not set(train[id_col]) & set(test[id_col])


def test_sample_submission_matches_answers(prepared: Prepared) -> None:
    sub = prepared.comp.submission
    sample = prepared.csv("sample_submission.csv")
    answers = read_csv_text(prepared.private / sub.answers)
    assert list(sample.columns) == list(answers.columns) == sub.columns
    assert list(sample[sub.id_column]) == list(answers[sub.id_column])
    assert set(sample[sub.id_column]) == set(prepared.csv("test.csv")[sub.id_column])


def test_answers_are_clean(prepared: Prepared) -> None:
    """No missing answers (except empty RLE masks, which mean 'no foreground')."""
    answers = pd.read_csv(prepared.private / prepared.comp.submission.answers)
    targets = answers[prepared.comp.submission.target_columns]
    if prepared.comp.metric.name != "dice_rle":
        assert not targets.isna().any().any()


@pytest.mark.parametrize("competition_id", sorted(IMAGES))
def test_images_match_ids(prepare_once: Callable[[str], Prepared], competition_id: str) -> None:
    prepared = prepare_once(competition_id)
    mode, size = IMAGES[competition_id]
    for side in ("train", "test"):
        ids = prepared.csv(f"{side}.csv")["id"]
        files = sorted(p.stem for p in (prepared.public / side).iterdir())
        assert files == sorted(ids)
        with Image.open(prepared.public / side / f"{ids.iloc[0]}.png") as img:
            assert (img.mode, img.size) == (mode, size)


def test_ids_do_not_reveal_labels(prepare_once: Callable[[str], Prepared]) -> None:
    """Ids are assigned at random, so train rows sorted by id are not grouped by digit (the source is)."""
    prepared = prepare_once("digit-recognizer-5k")
    labels = prepared.csv("train.csv")["label"].astype(int).to_numpy()
    assert (np.diff(labels) != 0).mean() > 0.5


def test_fine_food_reviews_round_trip(prepare_once: Callable[[str], Prepared]) -> None:
    prepared = prepare_once("fine-food-reviews")
    source = pd.concat(
        [read_rdata(prepared.raw / f"{n}.pkl.compress") for n in ("training_data", "testing_data")]
    )
    written = pd.concat([prepared.csv("train.csv"), prepared.csv("test.csv")])
    assert sorted(written["review"]) == sorted(source["review"].astype(str))
    assert written["review"].str.contains('"').any() and written["review"].str.contains(",").any()
    train = prepared.csv("train.csv")
    assert train["great"].isin(["0", "1"]).all()


def test_dsb_masks_cover_the_whole_annotation(prepare_once: Callable[[str], Prepared]) -> None:
    prepared = prepare_once("dsb-nuclei-tiles")
    with Image.open(prepared.raw / "mask2d.tif") as img:
        foreground = int((np.array(img) > 0).sum())
    rles = list(prepared.csv("train.csv")["rle"]) + list(
        read_csv_text(prepared.private / "answers.csv")["rle"]
    )
    lengths = sum(int(n) for rle in rles for n in rle.split()[1::2])
    assert lengths == foreground
    rle = pytest.importorskip("graders.rle")
    for text in rles:
        mask = rle.rle_decode(text, height=64, width=64)
        assert rle.rle_encode(mask) == text


def test_japanese_vowels_series(prepare_once: Callable[[str], Prepared]) -> None:
    prepared = prepare_once("japanese-vowels-speaker")
    for side in ("train", "test"):
        series = prepared.csv(f"{side}_series.csv")
        assert list(series.columns) == ["id", "t"] + [f"c{k:02d}" for k in range(1, 13)]
        lengths = series.groupby("id")["t"].size()
        assert set(lengths.index) == set(prepared.csv(f"{side}.csv")["id"])
        assert lengths.between(7, 29).all()
    answers = pd.read_csv(prepared.private / "answers.csv").set_index("id")
    assert (answers.sum(axis=1) == 1).all()


def test_cmudict_words_are_clean(prepare_once: Callable[[str], Prepared]) -> None:
    prepared = prepare_once("cmudict-g2p")
    train, test = prepared.csv("train.csv"), prepared.csv("test.csv")
    words = pd.concat([train["word"], test["word"]])
    assert words.str.fullmatch(r"[a-z']+").all() and words.is_unique
    assert train["phonemes"].str.fullmatch(r"[A-Z]+[0-2]?( [A-Z]+[0-2]?)*").all()


# --- the machinery, on a toy competition ---------------------------------------------------------------

TOY = """\
id: toy
name: Toy
version: 1
complexity: dev
category: tabular
dataset_size: "0 MB"
source: {kind: kaggle, slug: toy}
split: {method: random, test_fraction: 0.5}
submission: {id_column: id, columns: [id, y]}
metric: {name: accuracy}
"""


def _toy(tmp_path: Path, body: str) -> tuple[Competition, Path, Path]:
    folder = tmp_path / "competitions" / "toy"
    folder.mkdir(parents=True)
    (folder / "competition.yaml").write_text(TOY)
    (folder / "description.md").write_text("# Toy\n")
    (folder / "prepare.py").write_text(
        "import pandas as pd\n\n\ndef prepare(raw, public, private, comp):\n"
        + textwrap.indent(textwrap.dedent(body), "    ")
    )
    raw = tmp_path / "raw"
    raw.mkdir()
    return parse_declaration(folder / "competition.yaml"), folder, raw


GOOD_BODY = """
pd.DataFrame({"id": [1, 2], "x": [0.5, 0.25], "y": [0, 1]}).to_csv(public / "train.csv", index=False)
pd.DataFrame({"id": [3, 4], "x": [0.1, 0.2]}).to_csv(public / "test.csv", index=False)
pd.DataFrame({"id": [3, 4], "y": [0, 0]}).to_csv(public / "sample_submission.csv", index=False)
pd.DataFrame({"id": [3, 4], "y": [1, 0]}).to_csv(private / "answers.csv", index=False)
"""


def test_toy_prepare_writes_layout_and_description(tmp_path: Path) -> None:
    comp, folder, raw = _toy(tmp_path, GOOD_BODY)
    out = tmp_path / "prepared"
    prepare_competition(comp, raw, out, folder=folder)
    assert (out / "public" / "description.md").read_text() == "# Toy\n"
    assert sorted(p.name for p in out.iterdir()) == ["manifest.json", "private", "public"]
    files = json.loads((out / "manifest.json").read_text())["files"]
    for side in ("public", "private"):
        on_disk = sorted(p.relative_to(out / side).as_posix() for p in (out / side).rglob("*") if p.is_file())
        assert sorted(files[side]) == on_disk
        for rel, entry in files[side].items():
            path = out / side / rel
            assert entry == {"sha256": sha256_file(path), "bytes": path.stat().st_size}


DECLARED = """\
prepare:
  tables: {rows: {file: rows.csv, text_columns: [id]}}
  split: rows
  write:
    public/train.csv: {table: train}
    public/test.csv: {table: test, drop: [y]}
    private/answers.csv: {table: test, keep: [id], columns_from: {y: y}}
    public/sample_submission.csv: {table: test, keep: [id], set: {y: 0}}
  row_files:
    - {column: id, source: "img/{}.txt", train: "public/train/{}.txt", test: "public/test/{0[0]}/{0}.txt"}
"""


def _declared(tmp_path: Path, prepare: str = DECLARED) -> tuple[Competition, Path, Path]:
    folder = tmp_path / "competitions" / "toy"
    folder.mkdir(parents=True)
    (folder / "competition.yaml").write_text(TOY + prepare)
    (folder / "description.md").write_text("# Toy\n")
    raw = tmp_path / "raw"
    (raw / "img").mkdir(parents=True)
    ids = [f"{k:03d}" for k in range(6)]
    pd.DataFrame({"id": ids, "x": range(6), "y": [0, 1] * 3}).to_csv(raw / "rows.csv", index=False)
    for name in ids:
        (raw / "img" / f"{name}.txt").write_text(name)
    return parse_declaration(folder / "competition.yaml"), folder, raw


def test_a_declared_prepare_splits_selects_columns_and_copies_row_files(tmp_path: Path) -> None:
    comp, folder, raw = _declared(tmp_path)
    out = tmp_path / "prepared"
    prepare_competition(comp, raw, out, folder=folder)
    train, test = (read_csv_text(out / "public" / f"{side}.csv") for side in ("train", "test"))
    assert (len(train), len(test), list(test.columns)) == (3, 3, ["id", "x"])
    assert read_csv_text(out / "public" / "sample_submission.csv")["y"].tolist() == ["0"] * 3
    assert read_csv_text(out / "private" / "answers.csv")["id"].tolist() == test["id"].tolist()  # 00x kept
    assert sorted(p.stem for p in (out / "public" / "train").iterdir()) == sorted(train["id"])
    assert sorted(p.stem for p in (out / "public" / "test").rglob("*.txt")) == sorted(test["id"])


def test_a_declared_prepare_names_what_it_cannot_find(tmp_path: Path) -> None:
    comp, folder, raw = _declared(tmp_path, DECLARED.replace("drop: [y]", "drop: [label]"))
    with pytest.raises(
        DataError, match=r"prepare.write.public/test.csv: table 'test' has no column\(s\) \['label'\]"
    ):
        prepare_competition(comp, raw, tmp_path / "prepared", folder=folder)
    with pytest.raises(ConfigError, match="write.public/train.csv reads table 'rest'"):
        _declared(tmp_path / "b", DECLARED.replace("table: train}", "table: rest}"))
    with pytest.raises(ConfigError, match="'../x.csv' must be a path under public/ or private/"):
        _declared(tmp_path / "c", DECLARED + "  copy: {rows.csv: ../x.csv}\n")


COMPUTED = """\
prepare:
  tables: {rows: {file: rows.csv, text_columns: [id]}}
  split: rows
  renumber: {column: id, start: 10}
  write:
    public/train.csv: {table: train}
    public/test.csv: {table: test, drop: [y]}
    private/answers.csv: {table: test, keep: [id], one_hot: {column: y, classes: ["0", "1"]}}
    public/sample_submission.csv:
      table: test
      keep: [id]
      random: {"0": {generator: RandomState, draw: integers, low: 0, high: 2, seed: 42}, "1": RANDOM}
"""
RANDOM = "{generator: default_rng, draw: uniform, low: 0, high: 1, round: 2}"


def test_a_declared_prepare_renumbers_one_hot_encodes_and_draws(tmp_path: Path) -> None:
    comp, folder, raw = _declared(tmp_path, COMPUTED.replace("RANDOM", RANDOM))
    comp = comp.model_copy(update={"submission": Submission(id_column="id", columns=["id", "0", "1"])})
    out = tmp_path / "prepared"
    prepare_competition(comp, raw, out, folder=folder)
    train, test = (read_csv_text(out / "public" / f"{side}.csv") for side in ("train", "test"))
    assert train["id"].tolist() == ["10", "11", "12"] and test["id"].tolist() == ["13", "14", "15"]
    source = pd.read_csv(raw / "rows.csv", dtype={"id": str}).set_index("x")["y"]
    answers = pd.read_csv(out / "private" / "answers.csv")
    truth = source[test["x"].astype(int)].to_numpy()
    assert (answers["1"].to_numpy() == truth).all() and (answers["0"] + answers["1"] == 1).all()
    sample = pd.read_csv(out / "public" / "sample_submission.csv")
    assert sample["0"].tolist() == np.random.RandomState(42).randint(0, 2, size=3).tolist()
    assert sample["1"].tolist() == np.random.default_rng(0).uniform(0, 1, 3).round(2).tolist()


def test_declared_computations_name_their_bad_input(tmp_path: Path) -> None:
    good = COMPUTED.replace("RANDOM", RANDOM)
    comp, folder, raw = _declared(tmp_path, good.replace('"0", "1"]', '"1"]'))
    with pytest.raises(DataError, match=r"answers.csv.one_hot: column 'y' has values \['0'\] outside"):
        prepare_competition(comp, raw, tmp_path / "prepared", folder=folder)
    wrong = {
        "low: 0, high: 1,": (
            r"sample_submission.csv.random.1: low \(1.0\) must be less than high",
            "low: 1, high: 1,",
        ),
        "low: 0, high: 2,": (
            r"sample_submission.csv.random.0: integers need whole bounds",
            "low: 0, high: 2.5,",
        ),
        "  split: rows\n": ("renumber numbers the split's sides: name the table split", ""),
    }
    for n, (key, (message, replacement)) in enumerate(wrong.items()):
        with pytest.raises(ConfigError, match=message):
            _declared(tmp_path / str(n), good.replace(key, replacement))
    with pytest.raises(ConfigError, match=r"declare the tables read \(tables:\) or a series"):
        _declared(tmp_path / "none", "prepare: {write: {}}\n")


def test_a_declared_prepare_stage_depends_on_the_code_that_runs_it() -> None:
    """Deps come from imports: a folder without prepare.py still depends on the code that prepares it."""
    from mlebench.planning.plan import stage_code

    code = set(stage_code("prepare", COMPETITIONS.parent))
    needed = {"declared_prepare.py", "timeseries.py", "writers.py", "splitting.py"}
    assert {f"mlebench/data/{name}" for name in needed} <= code


def test_a_folder_with_neither_prepare_names_both_ways(tmp_path: Path) -> None:
    comp, folder, raw = _declared(tmp_path, "")
    with pytest.raises(ConfigError, match="no prepare.py and no prepare: block in competition.yaml"):
        prepare_competition(comp, raw, tmp_path / "prepared", folder=folder)


def test_layout_problems_are_all_reported_and_old_output_kept(tmp_path: Path) -> None:
    body = """
pd.DataFrame({"id": [1, 3], "y": [0, 1]}).to_csv(public / "train.csv", index=False)
pd.DataFrame({"id": [3, 5], "y": [0, 1]}).to_csv(public / "test.csv", index=False)
pd.DataFrame({"id": [3, 4], "target": [0, 0]}).to_csv(public / "sample_submission.csv", index=False)
pd.DataFrame({"id": [3, 4], "y": [1, 0]}).to_csv(private / "answers.csv", index=False)
"""
    comp, folder, raw = _toy(tmp_path, body)
    out = tmp_path / "prepared"
    (out / "public").mkdir(parents=True)
    (out / "public" / "old.txt").write_text("previous")
    with pytest.raises(DataError) as info:
        prepare_competition(comp, raw, out, folder=folder)
    message = str(info.value)
    assert "sample_submission.csv has columns ['id', 'target']" in message
    assert "test.csv has answer column(s) ['y']" in message
    assert "public/test.csv and answers.csv list different ids" in message
    assert "both in train.csv and the answers" in message
    assert (out / "public" / "old.txt").read_text() == "previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["competitions", "prepared", "raw"]


def test_a_crash_leaves_no_half_output(tmp_path: Path) -> None:
    comp, folder, raw = _toy(
        tmp_path, 'pd.DataFrame({"id": [1]}).to_csv(public / "train.csv")\nraise RuntimeError("boom")\n'
    )
    with pytest.raises(RuntimeError, match="boom"):
        prepare_competition(comp, raw, tmp_path / "prepared", folder=folder)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["competitions", "raw"]


def test_missing_raw_folder_is_a_data_error(tmp_path: Path) -> None:
    comp, folder, raw = _toy(tmp_path, GOOD_BODY)
    with pytest.raises(DataError, match="fetch the competition first"):
        prepare_competition(comp, tmp_path / "nowhere", tmp_path / "prepared", folder=folder)


def test_wrong_prepare_signature_is_a_config_error(tmp_path: Path) -> None:
    comp, folder, raw = _toy(tmp_path, GOOD_BODY)
    (folder / "prepare.py").write_text("def prepare(raw, public, private):\n    pass\n")
    with pytest.raises(ConfigError, match=r"expected \(raw, public, private, comp\)"):
        prepare_competition(comp, raw, tmp_path / "prepared", folder=folder)


def test_png_writer_round_trips_8_and_16_bit(tmp_path: Path) -> None:
    for dtype, mode in ((np.uint8, "L"), (np.uint16, "I;16")):
        array = (np.arange(12 * 7).reshape(12, 7) * 3).astype(dtype)
        path = tmp_path / f"{mode.replace(';', '')}.png"
        write_png(array, path)
        first = path.read_bytes()
        write_png(array, path)
        assert path.read_bytes() == first
        with Image.open(path) as img:
            assert img.mode == mode and img.size == (7, 12)
            assert np.array_equal(np.array(img), array)


# --- the generic splitter ----------------------------------------------------------------------------------


def _frame(n: int = 100) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "x": np.arange(n),
            "label": np.where(np.arange(n) < n // 4, "rare", "common"),
            "group": np.arange(n) // 10,
            "day": pd.date_range("2020-01-01", periods=n).strftime("%Y-%m-%d"),
        }
    )


def test_random_split_is_exact_deterministic_and_seeded() -> None:
    split = Split(method="random", test_fraction=0.25, seed=3)
    train, test = split_frame(_frame(), split)
    assert (len(train), len(test)) == (75, 25)
    assert sorted([*train["x"], *test["x"]]) == list(range(100))
    again = split_frame(_frame(), split)[1]
    assert list(test["x"]) == list(again["x"])
    other = split_frame(_frame(), Split(method="random", test_fraction=0.25, seed=4))[1]
    assert list(test["x"]) != list(other["x"])
    assert list(test.index) == sorted(test.index)  # input order kept


def test_stratified_split_keeps_class_shares() -> None:
    train, test = split_frame(_frame(), Split(method="random", test_size=20, stratify="label"))
    assert test["label"].value_counts().to_dict() == {"common": 15, "rare": 5}


def test_group_split_keeps_groups_whole() -> None:
    train, test = split_frame(_frame(), Split(method="group", test_fraction=0.3, group_column="group"))
    assert test["group"].nunique() == 3 and len(test) == 30
    assert not set(train["group"]) & set(test["group"])


def test_time_split_takes_the_latest_rows_and_never_splits_a_timestamp() -> None:
    frame = _frame()
    train, test = split_frame(frame, Split(method="time", test_size=10, time_column="day"))
    assert list(test["day"]) == list(frame["day"].iloc[-10:])
    assert train["day"].max() < test["day"].min()
    tied = frame.assign(day=np.repeat(np.arange(50), 2))
    train, test = split_frame(tied, Split(method="time", test_size=3, time_column="day"))
    assert len(test) == 4 and train["day"].max() < test["day"].min()


def test_split_problems_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="keep_source"):
        split_frame(_frame(), Split(method="keep_source"))
    with pytest.raises(ConfigError, match="'nope' is not a column"):
        split_frame(_frame(), Split(method="random", test_size=5, stratify="nope"))
    with pytest.raises(ConfigError, match="both sides must be non-empty"):
        split_frame(_frame(), Split(method="random", test_size=100))


def test_shuffled_ids_are_a_seeded_permutation() -> None:
    ids = shuffled_ids(50, seed=0, start=1)
    assert sorted(ids) == list(range(1, 51))
    assert list(ids) == list(shuffled_ids(50, seed=0, start=1)) != list(range(1, 51))


def test_loading_prepare_writes_no_bytecode(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The competition folder is a DVC dependency: importing prepare.py must not add __pycache__ to it."""
    comp, folder, raw = _toy(tmp_path, GOOD_BODY)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    prepare_competition(comp, raw, tmp_path / "prepared", folder=folder)
    assert sorted(p.name for p in folder.iterdir()) == ["competition.yaml", "description.md", "prepare.py"]
    assert sys.dont_write_bytecode is False


def test_answer_only_columns_are_required_in_the_answers_and_may_be_public_features(tmp_path: Path) -> None:
    """Graders such as ventilator's masked MAE need columns the submission does not carry (u_out)."""
    comp, folder, raw = _toy(
        tmp_path,
        GOOD_BODY.replace('"y": [1, 0]}).to_csv(private', '"y": [1, 0], "x": [0.1, 0.2]}).to_csv(private'),
    )
    with_extra = comp.model_copy(
        update={"submission": comp.submission.model_copy(update={"answer_columns": ["x"]})}
    )
    prepare_competition(with_extra, raw, tmp_path / "ok", folder=folder)  # x is also a public test feature
    lacking = comp.model_copy(
        update={"submission": comp.submission.model_copy(update={"answer_columns": ["z"]})}
    )
    with pytest.raises(DataError, match=r"answers.csv lacks column\(s\) \['z'\]"):
        prepare_competition(lacking, raw, tmp_path / "bad", folder=folder)


def test_a_sample_may_carry_unread_columns_only_where_the_grader_drops_them(tmp_path: Path) -> None:
    """v1's facebook sample keeps Title and Body before Tags; its grader reads Id and Tags alone."""
    comp, folder, raw = _toy(
        tmp_path,
        GOOD_BODY.replace('{"id": [3, 4], "y": [0, 0]}', '{"id": [3, 4], "x": [0.1, 0.2], "y": [0, 0]}'),
    )
    with pytest.raises(DataError, match=r"has columns \['id', 'x', 'y'\]; expected \['id', 'y'\]$"):
        prepare_competition(comp, raw, tmp_path / "strict", folder=folder)
    ignoring = comp.model_copy(
        update={"submission": comp.submission.model_copy(update={"extra_columns": "ignore"})}
    )
    prepare_competition(ignoring, raw, tmp_path / "ok", folder=folder)
    swapped = GOOD_BODY.replace('{"id": [3, 4], "y": [0, 0]}', '{"y": [0, 0], "id": [3, 4]}')
    comp, folder, raw = _toy(tmp_path / "swapped", swapped)
    ignoring = comp.model_copy(
        update={"submission": comp.submission.model_copy(update={"extra_columns": "ignore"})}
    )
    with pytest.raises(DataError, match=r"expected \['id', 'y'\] in this order, others allowed"):
        prepare_competition(ignoring, raw, tmp_path / "bad", folder=folder)


def test_answer_columns_may_not_repeat_submission_columns() -> None:
    with pytest.raises(ValueError, match="answer_columns"):
        Submission(id_column="id", columns=["id", "y"], answer_columns=["y"])
