"""No bytes crash a grader: any submission.csv is scored or rejected with a reason, never an exception.

A property test over every competition (the 82 Kaggle ones from their fixtures' synthetic answers, the
embedded ones prepared for real): the submission is random bytes, or a valid submission mutated (cut short,
bytes flipped, NULs, quotes, newlines and separators inserted, a huge field, re-encoded). Both the grader
(:func:`graders.grade.grade`) and the in-container validator (``environment/validate.py``) must answer
cleanly. Non-regular files (a folder, a named pipe, a symbolic link, an unreadable file) are tested
explicitly below, through ``grade``, the grading record and ``mlebench grade-sample``.

The example budget is fixed and derandomized so the run is reproducible and bounded (about a minute on a
2-core machine); ``MLEBENCH_FUZZ_EXAMPLES`` raises it for a longer hunt.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from embedded_fixtures import EMBEDDED, Prepared
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from authoring.grading_inputs import scaled
from authoring.kaggle_standin import load_fixture
from graders.errors import MAX_REASON
from graders.grade import GradeResult, grade
from graders.submission import read_answers
from mlebench.cli import main
from mlebench.execution.scoring import score_cell
from mlebench_spec.cell import Cell
from mlebench_spec.declarations import Competition, load_competition

ROOT = Path(__file__).resolve().parents[1]
KAGGLE = sorted(p.parent.name for p in (ROOT / "competitions").glob("*/fixture.py"))
EXAMPLES = int(os.environ.get("MLEBENCH_FUZZ_EXAMPLES", "12"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
MAX_MESSAGE = 10 * MAX_REASON
"""Reasons are clipped: a huge field must not come back whole."""

_spec = importlib.util.spec_from_file_location("env_validate", ROOT / "environment" / "validate.py")
validator = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(validator)


@dataclass
class Case:
    """One competition ready to grade and validate.

    Its declaration, answers folder and a valid submission, and the validator's public inputs: the data
    folder with the sample submission, and the spec ``validate`` reads.
    """

    comp: Competition
    private: Path
    valid: bytes
    data: Path
    spec: Path
    work: Path


def _kaggle_case(competition_id: str, folder: Path) -> Case:
    declared = load_competition(competition_id)
    rows = declared.real_size.test_rows
    for scale in (min(1e-2, 40 / rows), 1e-2):  # small and fast, unless a rare class then has no example
        comp, size = declared, scaled(declared.real_size, scale, floor=40)
        inputs = load_fixture(comp).grading_inputs(comp, size, np.random.default_rng(0))
        args = {**comp.metric.args, **inputs.metric_args}
        comp = comp.model_copy(update={"metric": comp.metric.model_copy(update={"args": args})})
        private, data = folder / "private", folder / "public"
        private.mkdir(parents=True, exist_ok=True)
        data.mkdir(exist_ok=True)
        inputs.answers.to_csv(private / comp.submission.answers, index=False)
        valid = inputs.submission.to_csv(index=False).encode()
        (folder / "valid.csv").write_bytes(valid)
        try:
            if grade(comp, folder / "valid.csv", private).status == "ok":
                break
        except ValueError:  # e.g. roc_auc on an answer column holding one class only
            continue
    where, _, name = comp.submission.sample.partition("/")
    if where == "public":  # the validator's reference: what the prepared public split would hold
        (data / name).write_bytes(valid)
    return _case(comp, private, data, valid, folder)


def _embedded_case(prepared: Prepared, folder: Path) -> Case:
    comp = prepared.comp
    answers = read_answers(prepared.private / comp.submission.answers)
    valid = answers[comp.submission.columns].to_csv(index=False).encode()  # the answers: a gold submission
    return _case(comp, prepared.private, prepared.public, valid, folder)


def _case(comp: Competition, private: Path, data: Path, valid: bytes, folder: Path) -> Case:
    spec = folder / "competition.json"
    metric = {"name": comp.metric.name, "args": dict(comp.metric.args)}
    spec.write_text(json.dumps({"submission": comp.submission.model_dump(), "metric": metric}))
    work = folder / "work"
    work.mkdir(exist_ok=True)
    return Case(comp, private, valid, data, spec, work)


@pytest.fixture(scope="module")
def cases(
    prepare_once: Callable[[str], Prepared], tmp_path_factory: pytest.TempPathFactory
) -> Callable[[str], Case]:
    made: dict[str, Case] = {}

    def get(competition_id: str) -> Case:
        if competition_id not in made:
            folder = tmp_path_factory.mktemp(competition_id)
            made[competition_id] = (
                _kaggle_case(competition_id, folder)
                if competition_id in KAGGLE
                else _embedded_case(prepare_once(competition_id), folder)
            )
        return made[competition_id]

    return get


def assert_clean(result: GradeResult) -> None:
    """Check for a score, or a short readable reason: never an empty or runaway message."""
    assert result.status in ("ok", "invalid_submission"), result
    if result.status == "ok":
        assert isinstance(result.score, float)
    else:
        assert result.reason.strip() and len(result.reason) <= MAX_MESSAGE, result.reason[:MAX_MESSAGE]


SPECIAL = [
    b"\x00",
    b'"',
    b"\n",
    b"\r",
    b"\r\n",
    b",",
    b";",
    b"\t",
    b" ",
    b"\xff",
    b"\xef\xbb\xbf",
    b"nan",
    b"-inf",
    b"1e999",
    b"-",
    b"\\",
    b"'",
    b"\x1a",
    "é".encode(),
    "\u2028".encode(),
]
ENCODINGS = ["utf-16", "utf-16-be", "utf-32", "latin-1", "cp1252", "shift_jis", "utf-8-sig", "cp037"]


def mutated(valid: bytes) -> st.SearchStrategy[bytes]:
    """Return ``valid`` with one to four edits, or re-encoded from UTF-8 into another encoding."""
    return _mutate(lambda: valid)  # behind a closure, so the strategy's repr is not the whole file


@st.composite
def _mutate(draw: st.DrawFn, original: Callable[[], bytes]) -> bytes:
    valid = original()
    if draw(st.integers(0, 9)) == 0:
        text = valid.decode("utf-8") + draw(st.sampled_from(["", "é", "日本", "\u00a0"]))
        return text.encode(draw(st.sampled_from(ENCODINGS)), errors="replace")
    data = bytearray(valid)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        edit = draw(st.sampled_from(["cut", "flip", "insert", "delete", "repeat", "huge"]))
        if edit == "cut":
            del data[at:]
        elif edit == "flip" and at < len(data):
            data[at] = draw(st.integers(0, 255))
        elif edit == "insert":
            data[at:at] = draw(st.sampled_from(SPECIAL)) * draw(st.integers(1, 3))
        elif edit == "delete":
            del data[at : at + draw(st.integers(1, 40))]
        elif edit == "repeat":
            end = data.find(b"\n", at)
            data[at:at] = data[at : end + 1 if end >= 0 else len(data)]
        elif edit == "huge":
            data[at:at] = draw(st.sampled_from([b"9", b"x", b'"', b"1 "])) * (1 << 20)
    return bytes(data)


def submissions(valid: bytes) -> st.SearchStrategy[bytes]:
    """Random bytes, random bytes after the valid header, or a mutation of the valid file."""
    header = valid.split(b"\n", 1)[0] + b"\n"
    return st.one_of(
        st.binary(max_size=600),
        st.binary(max_size=300).map(lambda tail: header + tail),
        mutated(valid),
    )


@pytest.mark.parametrize("competition_id", KAGGLE + EMBEDDED)
def test_any_bytes_are_graded_or_rejected_with_a_reason(competition_id: str, cases) -> None:
    case = cases(competition_id)
    path = case.work / "submission.csv"
    path.write_bytes(case.valid)
    assert grade(case.comp, path, case.private).status == "ok"  # the seed of every mutation is valid
    can_validate = validator.check(path, case.data, case.spec)[0] == validator.EXIT_VALID

    @FUZZ
    @given(submissions(case.valid))
    def property(data: bytes) -> None:
        path.write_bytes(data)
        assert_clean(grade(case.comp, path, case.private))
        if can_validate:
            status, message = validator.check(path, case.data, case.spec)
            assert status in (validator.EXIT_VALID, validator.EXIT_INVALID), message
            assert message.startswith("Submission ") and len(message) <= MAX_MESSAGE

    property()


# ------------------------------------------------------------------------------------ non-regular files


def _folder(path: Path) -> str:
    path.mkdir()
    (path / "inner.csv").write_text("PassengerId,Survived\n")
    return "is a folder"


def _fifo(path: Path) -> str:
    os.mkfifo(path)  # opening it for reading would block forever: it must never be opened
    return "is a named pipe (FIFO)"


def _symlink(path: Path) -> str:
    path.symlink_to(path.parent / "real.csv")  # a valid file behind it: still refused, never followed
    return "is a symbolic link"


def _dangling(path: Path) -> str:
    path.symlink_to(path.parent / "nowhere.csv")
    return "is a symbolic link"


def _unreadable(path: Path) -> str:
    path.write_text("PassengerId,Survived\n")
    path.chmod(0)
    return "could not be read"


NOT_REGULAR = {"folder": _folder, "fifo": _fifo, "symlink": _symlink, "dangling": _dangling}
if os.geteuid() != 0:  # root reads a mode-000 file anyway
    NOT_REGULAR["unreadable"] = _unreadable


@pytest.fixture
def titanic_cell(prepare_once: Callable[[str], Prepared], tmp_path: Path) -> Cell:
    prepared = prepare_once("titanic-lite")
    run = tmp_path / "runs" / "x" / "titanic-lite" / "0"
    run.mkdir(parents=True)
    shutil.copyfile(prepared.public / "sample_submission.csv", run / "real.csv")
    return Cell("titanic-lite", "x", 0, ROOT, prepared.public, prepared.private, run)


@pytest.mark.parametrize("kind", sorted(NOT_REGULAR))
def test_a_submission_that_is_not_a_regular_file_is_invalid_with_a_reason(
    kind: str, titanic_cell: Cell, capsys: pytest.CaptureFixture[str]
) -> None:
    """Regression: a folder or FIFO at submission.csv was "no_submission" (or blocked); now each is named."""
    path = titanic_cell.run_dir / "submission.csv"
    expected = NOT_REGULAR[kind](path)
    comp = load_competition("titanic-lite")
    result = grade(comp, path, titanic_cell.private)
    assert (result.status, result.submission_exists) == ("invalid_submission", True)
    assert expected in result.reason, result.reason
    outcome = score_cell(titanic_cell)  # the grade stage's and the grader container's call
    assert outcome.status == "invalid_submission" and expected in outcome.reason
    data_dir = titanic_cell.public.parent.parent  # data/<id>/{public,private}
    assert main(["grade-sample", str(path), comp.id, "--data-dir", str(data_dir)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["status"] == "invalid_submission" and expected in printed["reason"]
    spec = titanic_cell.run_dir / "competition.json"
    spec.write_text(
        json.dumps({"submission": comp.submission.model_dump(), "metric": {"name": comp.metric.name}})
    )
    status, message = validator.check(path, titanic_cell.public, spec)
    assert status == validator.EXIT_INVALID and expected in message


def test_random_bytes_regression(titanic_cell: Cell) -> None:
    """Regression: random bytes as submission.csv raised ``_csv.Error`` (grader_error) everywhere."""
    path = titanic_cell.run_dir / "submission.csv"
    path.write_bytes(b"\x8f\r\x00\xc3(" + bytes(range(256)))
    result = grade(load_competition("titanic-lite"), path, titanic_cell.private)
    assert result.status == "invalid_submission" and "not UTF-8 text" in result.reason, result.reason


def test_a_huge_value_is_clipped_in_its_reason(titanic_cell: Cell) -> None:
    """Regression (found by the fuzz test): a 1 MB id came back whole inside the reason."""
    path = titanic_cell.run_dir / "submission.csv"
    sample = (titanic_cell.run_dir / "real.csv").read_text().splitlines()
    path.write_text("\n".join([sample[0], "9" * (1 << 20) + ",0", *sample[2:]]) + "\n")
    result = grade(load_competition("titanic-lite"), path, titanic_cell.private)
    assert result.status == "invalid_submission" and "unexpected ids" in result.reason
    assert "characters cut" in result.reason and len(result.reason) < 3 * MAX_REASON, len(result.reason)


@pytest.mark.parametrize("metric", ["accuracy", "f1_micro", "f1_macro"])
def test_one_huge_label_does_not_blow_up_a_label_metric(metric: str) -> None:
    """Regression (found by the fuzz test on cmudict-g2p): one huge label asked numpy for 39 GiB.

    ``astype(str)`` made a fixed-width array, so one 2 MB label among 5,000 rows took 39 GiB
    (MemoryError, a grader_error; or the OOM killer).
    """
    from graders.registry import get_metric

    labels = np.array(["a", "b"] * 2500, dtype=object)
    pred = labels.copy()
    pred[0] = "x" * (8 << 20)  # fixed width: 5,000 rows x 8 Mi chars x 4 bytes = 160 GiB
    score = get_metric(metric).fn(labels, pred)
    assert 0.0 < score < 1.0
