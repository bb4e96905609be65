"""Reading submission files, validating them against the answers, and the RLE helpers validation uses."""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from graders.errors import InvalidSubmission
from graders.metrics.ranking import map_at_k
from graders.registry import get_metric
from graders.rle import parse_rles, rle_decode, rle_encode
from graders.submission import read_answers, read_submission, validate
from mlebench_spec.declarations import Submission

# ---------------------------------------------------------------------------------------------- reading


def _write(tmp_path, content: str | bytes, name: str = "submission.csv"):
    path = tmp_path / name
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    return path


def test_every_cell_is_read_as_a_string(tmp_path):
    path = _write(tmp_path, "id,score,mask\n0300,nan,\n0301,1e3,1 2\n0302,NA,None\n")
    frame = read_submission(path)
    assert frame.to_dict("list") == {
        "id": ["0300", "0301", "0302"],
        "score": ["nan", "1e3", "NA"],
        "mask": ["", "1 2", "None"],
    }
    assert all(isinstance(v, str) for v in frame.to_numpy().ravel())


def test_quoted_fields_blank_lines_and_a_byte_order_mark(tmp_path):
    path = _write(tmp_path, '\ufeffid,text\n\n"a,b","line one\nline two"\n\nc,""\n')
    assert read_submission(path).to_dict("list") == {"id": ["a,b", "c"], "text": ["line one\nline two", ""]}


def test_a_header_without_rows_is_an_empty_table(tmp_path):
    frame = read_submission(_write(tmp_path, "id,label\n"))
    assert list(frame.columns) == ["id", "label"] and len(frame) == 0


def test_the_suffix_check_ignores_case(tmp_path):
    assert len(read_submission(_write(tmp_path, "id,label\n1,a\n", name="SUBMISSION.CSV"))) == 1


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("submission.txt", "id,label\n1,a\n", "'submission.txt' is not a .csv file"),
        ("submission.csv", "", "submission.csv is empty"),
        ("submission.csv", " \n\n\t\n", "submission.csv is empty"),
        ("submission.csv", b"id,label\n1,caf\xe9\n", "not UTF-8 text: byte 0xe9 at offset 14"),
        ("submission.csv", 'id,label\n1,"unterminated\n', "could not be parsed as CSV"),
        ("submission.csv", "id,label,label\n1,a,b\n", "repeats column names in its header: 'label'"),
        (
            "submission.csv",
            "id,label\n1,a\n2,b,c\n",
            "1 row does not have the header's 2 fields: data row 2 has 3",
        ),
        (
            "submission.csv",
            "id,label\n1\n2\n",
            "2 rows do not have the header's 2 fields: data row 1 has 1, data row 2",
        ),
    ],
)
def test_unreadable_files_are_invalid_submissions(tmp_path, name, content, reason):
    with pytest.raises(InvalidSubmission, match=re.escape(reason)):
        read_submission(_write(tmp_path, content, name))


def test_a_missing_file_is_an_invalid_submission(tmp_path):
    with pytest.raises(InvalidSubmission, match="no file at"):
        read_submission(tmp_path / "nope.csv")


def test_a_directory_is_not_a_submission(tmp_path):
    (tmp_path / "dir.csv").mkdir()
    with pytest.raises(InvalidSubmission, match="dir.csv is a folder, not a regular file"):
        read_submission(tmp_path / "dir.csv")


def test_an_unreadable_answers_file_is_a_plain_value_error(tmp_path):
    with pytest.raises(ValueError, match="is empty") as caught:
        read_answers(_write(tmp_path, "", "answers.csv"))
    assert not isinstance(caught.value, InvalidSubmission)


# ------------------------------------------------------------------------------------------- validation


def _table(**columns) -> pd.DataFrame:
    return pd.DataFrame({k: [str(v) for v in vs] for k, vs in columns.items()}, dtype=object)


def _spec(*targets: str) -> Submission:
    return Submission(id_column="id", columns=["id", *targets])


def _reasons(submission, answers, spec, metric, **kwargs) -> list[str]:
    with pytest.raises(InvalidSubmission) as caught:
        validate(submission, answers, spec, get_metric(metric), **kwargs)
    return caught.value.reasons


REGRESSION_ANSWERS = _table(id=["a", "b", "c"], y=[1.0, 2.0, 3.0])


def test_aligns_the_submission_to_the_answers_by_id():
    submission = _table(y=[30, 10, 20], id=["c", "a", "b"])
    y_true, y_pred = validate(submission, REGRESSION_ANSWERS, _spec("y"), get_metric("rmse"))
    assert y_true.tolist() == [1.0, 2.0, 3.0]
    assert y_pred.tolist() == [10.0, 20.0, 30.0]
    assert y_pred.dtype == np.float64


def test_returns_labels_as_exact_strings():
    answers = _table(id=["1", "2"], label=["True", "False"])
    y_true, y_pred = validate(
        _table(id=["2", "1"], label=["false", "True"]), answers, _spec("label"), get_metric("accuracy")
    )
    assert y_true.tolist() == ["True", "False"] and y_pred.tolist() == ["True", "false"]


def test_returns_class_probabilities_in_declared_column_order():
    answers = _table(id=["a", "b"], x=[1, 0], y=[0, 1])
    submission = _table(y=[0.25, 0.9], id=["a", "b"], x=[0.75, 0.1])
    y_true, y_pred = validate(submission, answers, _spec("x", "y"), get_metric("log_loss"))
    assert y_true.tolist() == [[1, 0], [0, 1]]
    assert y_pred.tolist() == [[0.75, 0.25], [0.1, 0.9]]


def test_numbers_may_carry_spaces_and_exponents():
    submission = _table(id=["a", "b", "c"], y=[" 1.5 ", "2e0", "-3"])
    assert validate(submission, REGRESSION_ANSWERS, _spec("y"), get_metric("rmse"))[1].tolist() == [
        1.5,
        2.0,
        -3.0,
    ]


def test_missing_and_unexpected_columns():
    reasons = _reasons(_table(id=["a", "b", "c"], z=[1, 2, 3]), REGRESSION_ANSWERS, _spec("y"), "rmse")
    assert reasons == [
        "missing columns: 'y' (expected columns: 'id', 'y')",
        "unexpected columns: 'z' (expected columns: 'id', 'y')",
    ]


def test_missing_ids_are_counted_and_at_most_five_are_shown():
    answers = _table(id=[f"r{i}" for i in range(9)], y=range(9))
    reasons = _reasons(_table(id=["r0", "r1"], y=[0, 1]), answers, _spec("y"), "rmse")
    assert reasons == [
        "missing ids: 7 of the 9 ids in the answers are not in column 'id': "
        "'r2', 'r3', 'r4', 'r5', 'r6' and 2 more",
        "wrong number of rows: expected 9 (one per id in the answers), got 2",
    ]


def test_unexpected_and_duplicate_ids():
    submission = _table(id=["a", "b", "c", "d", "a", "a"], y=[1, 2, 3, 4, 5, 6])
    reasons = _reasons(submission, REGRESSION_ANSWERS, _spec("y"), "rmse")
    assert reasons == [
        "duplicate ids in column 'id': 1 id appears more than once: 'a' (3 times)",
        "unexpected ids: 1 id in column 'id' is not in the answers: 'd'",
        "wrong number of rows: expected 3 (one per id in the answers), got 6",
    ]


def test_a_wrong_row_count_alone():
    """Only a duplicate can make the count wrong while every id is accounted for."""
    reasons = _reasons(
        _table(id=["a", "b", "c", "c"], y=[1, 2, 3, 3]), REGRESSION_ANSWERS, _spec("y"), "rmse"
    )
    assert "wrong number of rows: expected 3 (one per id in the answers), got 4" in reasons


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("", "column 'y': 1 empty value: id 'b'"),
        ("  ", "column 'y': 1 empty value: id 'b'"),
        ("nan", "column 'y': 1 NaN value: id 'b': 'nan'"),
        ("NaN", "column 'y': 1 NaN value: id 'b': 'NaN'"),
        ("inf", "column 'y': 1 infinite value: id 'b': 'inf'"),
        ("-Infinity", "column 'y': 1 infinite value: id 'b': '-Infinity'"),
        ("abc", "column 'y': 1 value is not a number: id 'b': 'abc'"),
        ("NA", "column 'y': 1 value is not a number: id 'b': 'NA'"),
        ("1,5", "column 'y': 1 value is not a number: id 'b': '1,5'"),
        ("0x10", "column 'y': 1 value is not a number: id 'b': '0x10'"),
    ],
)
def test_bad_numbers(value, reason):
    submission = _table(id=["a", "b", "c"], y=["1", value, "3"])
    assert _reasons(submission, REGRESSION_ANSWERS, _spec("y"), "rmse") == [reason]


def test_problems_are_named_by_row_number_when_the_id_column_is_missing():
    reasons = _reasons(_table(y=["1", "x", "3"]), REGRESSION_ANSWERS, _spec("y"), "rmse")
    assert "column 'y': 1 value is not a number: row 2: 'x'" in reasons


def test_probabilities_outside_zero_one():
    answers = _table(id=["a", "b", "c"], p=[0, 1, 1])
    submission = _table(id=["a", "b", "c"], p=["1.5", "-0.1", "1"])
    assert _reasons(submission, answers, _spec("p"), "roc_auc") == [
        "column 'p': 2 values are outside [0, 1] (a probability): id 'a': '1.5', id 'b': '-0.1'"
    ]


def test_class_probability_rows_must_sum_to_one():
    answers = _table(id=["a", "b", "c", "d"], x=[1, 0, 1, 0], y=[0, 1, 0, 1])
    submission = _table(id=["a", "b", "c", "d"], x=[0.5, 0, 0.499998, 0.49998], y=[0.4, 0, 0.5, 0.5])
    assert _reasons(submission, answers, _spec("x", "y"), "log_loss") == [  # v1: isclose(atol=1e-6)
        "class probabilities must sum to 1 (within 1.1e-05) in every row: 3 rows do not: "
        "id 'a' sums to 0.9, id 'b' sums to 0, id 'd' sums to 0.99998"
    ]
    strict = _spec("x", "y").model_copy(update={"row_sum_tolerance": 5e-7})
    assert "id 'c' sums to 0.999998" in _reasons(submission, answers, strict, "log_loss")[0]


def test_rmsle_rejects_negative_predictions_and_rmse_does_not():
    submission = _table(id=["a", "b", "c"], y=["-1", "2", "-0.5"])
    assert _reasons(submission, REGRESSION_ANSWERS, _spec("y"), "rmsle") == [
        "column 'y': 2 values are below 0, which rmsle does not accept: id 'a': '-1', id 'c': '-0.5'"
    ]
    validate(submission, REGRESSION_ANSWERS, _spec("y"), get_metric("rmse"))


def test_empty_labels_are_invalid_but_any_other_string_is_a_label():
    answers = _table(id=["a", "b", "c"], label=["x", "y", "nan"])
    assert _reasons(
        _table(id=["a", "b", "c"], label=["x", " ", "nan"]), answers, _spec("label"), "accuracy"
    ) == ["column 'label': 1 empty value: id 'b'"]


RLE_ANSWERS = _table(id=["a", "b"], mask=["1 2", ""])


@pytest.mark.parametrize(
    ("rle", "problem"),
    [
        ("1 2 3", "odd number of values (3); expected start/length pairs"),
        ("1 2.5", "'2.5' is not a whole number"),
        ("1 -2", "'-2' is not a whole number"),
        ("a b", "'a' is not a whole number"),
        ("3 1 1 1", "run starts are not ascending: 3 then 1"),
        ("1 3 2 1", "runs overlap: 1 3 and 2 1"),
        ("0 2", "run start 0 is not >= 1 (starts are 1-based)"),
        ("3 0", "run length 0 at start 3 is not >= 1"),
        ("5 2", "run 5 2 ends at pixel 6, past the last pixel 4 of a 2x2 mask"),
        ("1 1234567890123456789", "'1234567890123456789' is too large"),
    ],
)
def test_malformed_rle(rle, problem):
    submission = _table(id=["a", "b"], mask=["1 2", rle])
    reasons = _reasons(
        submission, RLE_ANSWERS, _spec("mask"), "dice_rle", metric_args={"height": 2, "width": 2}
    )
    assert reasons == [f"column 'mask': 1 malformed RLE value: id 'b': {rle!r} ({problem})"]
    with pytest.raises(ValueError, match="malformed RLE"):
        rle_decode(rle, height=2, width=2)


def test_empty_rle_cells_are_empty_masks():
    submission = _table(id=["a", "b"], mask=["", "  "])
    y_true, y_pred = validate(
        submission, RLE_ANSWERS, _spec("mask"), get_metric("dice_rle"), metric_args={"height": 2, "width": 2}
    )
    assert y_pred.tolist() == ["", "  "] and y_true.tolist() == ["1 2", ""]


def test_many_problems_are_reported_at_once():
    submission = _table(id=["a", "a", "x"], y=["nan", "1", "oops"], extra=[1, 2, 3])
    reasons = _reasons(submission, REGRESSION_ANSWERS, _spec("y"), "rmsle")
    assert reasons == [
        "unexpected columns: 'extra' (expected columns: 'id', 'y')",
        "duplicate ids in column 'id': 1 id appears more than once: 'a' (2 times)",
        "missing ids: 2 of the 3 ids in the answers are not in column 'id': 'b', 'c'",
        "unexpected ids: 1 id in column 'id' is not in the answers: 'x'",
        "column 'y': 1 NaN value: id 'a': 'nan'",
        "column 'y': 1 value is not a number: id 'x': 'oops'",
    ]


def test_the_message_joins_the_reasons():
    error = InvalidSubmission(["one", "two"])
    assert str(error) == "one; two" and error.reasons == ["one", "two"]
    assert InvalidSubmission("single").reasons == ["single"]
    with pytest.raises(ValueError):
        InvalidSubmission([])


@pytest.mark.parametrize(
    ("answers", "spec", "metric", "message"),
    [
        (_table(id=["a"], z=[1]), _spec("y"), "rmse", "the answers lack columns"),
        (_table(id=["a", "a"], y=[1, 2]), _spec("y"), "rmse", "the answers repeat ids in 'id': 'a'"),
        (
            _table(id=["a"], y=["x"]),
            _spec("y"),
            "rmse",
            "column 'y': 1 value is not a number: answers id 'a'",
        ),
        (_table(id=[], y=[]), _spec("y"), "rmse", "the answers have no rows"),
        (_table(id=["a"], y=[1], z=[2]), _spec("y", "z"), "rmse", "takes exactly one answer column"),
        (_table(id=["a"], y=[1]), _spec("y"), "log_loss", "needs one answer column per class"),
    ],
)
def test_problems_with_the_answers_are_our_bugs_not_invalid_submissions(answers, spec, metric, message):
    with pytest.raises(ValueError, match=message) as caught:
        validate(_table(id=["a"], y=[1]), answers, spec, get_metric(metric))
    assert not isinstance(caught.value, InvalidSubmission)


# -------------------------------------------------------------------------------------------------- RLE


def test_rle_pixels_are_numbered_down_the_columns_from_one():
    expected = np.array([[1, 0], [1, 1], [0, 0]], dtype=bool)
    assert (rle_decode("1 2 5 1", height=3, width=2) == expected).all()
    assert rle_encode(expected) == "1 2 5 1"


@pytest.mark.parametrize("shape", [(1, 1), (1, 9), (9, 1), (7, 5), (16, 16)])
@pytest.mark.parametrize("density", [0.0, 0.3, 0.8, 1.0])
def test_rle_round_trip(shape, density):
    rng = np.random.default_rng(sum(shape))
    mask = rng.random(shape) < density
    text = rle_encode(mask)
    assert (rle_decode(text, *shape) == mask).all()
    assert rle_encode(rle_decode(text, *shape)) == text


def test_rle_touching_runs_and_extra_whitespace_decode_like_the_canonical_form():
    assert (rle_decode("  1 2\t3 2 ", 2, 2) == rle_decode("1 4", 2, 2)).all()


@pytest.mark.parametrize("empty", ["", "   ", None, float("nan")])
def test_rle_blank_or_missing_is_the_empty_mask(empty):
    assert not rle_decode(empty, 3, 3).any()


def test_rle_encode_needs_a_2d_mask():
    with pytest.raises(ValueError, match="2-D"):
        rle_encode(np.zeros(4))


@pytest.mark.parametrize(("height", "width"), [(0, 2), (2, -1), (2.0, 2), (True, 2)])
def test_rle_sizes_must_be_positive_integers(height, width):
    with pytest.raises(ValueError, match="must be a positive integer"):
        rle_decode("1 1", height, width)


def test_parse_rles_without_a_size_checks_structure_only():
    runs = parse_rles(["1000000 5", "3 1 1 1"])
    assert list(runs.problems) == [1]
    assert runs.pixel_sums().tolist() == [5.0, 0.0]


# ------------------------------------------------------------------------- family A kinds (metrics-A)


def test_binary_scores_may_leave_zero_one_but_probabilities_may_not():
    answers = _table(id=["a", "b"], Label=[0, 1])
    submission = _table(id=["a", "b"], Label=["-2.5", "7"])
    _, y_pred = validate(submission, answers, _spec("Label"), get_metric("roc_auc_weighted_tpr"))
    assert y_pred.tolist() == [-2.5, 7.0]
    assert _reasons(submission, answers, _spec("Label"), "binary_log_loss") == [
        "column 'Label': 2 values are outside [0, 1] (a probability): id 'a': '-2.5', id 'b': '7'"
    ]


def test_numeric_columns_come_back_as_a_matrix_in_declared_order():
    answers = _table(id=["a", "b"], x=[0, 1], y=[1, 0])
    submission = _table(y=["0.9", "0.2"], x=["0.1", "0.8"], id=["a", "b"])
    y_true, y_pred = validate(submission, answers, _spec("x", "y"), get_metric("roc_auc_mean_columns"))
    assert y_true.tolist() == [[0, 1], [1, 0]] and y_pred.tolist() == [[0.1, 0.9], [0.8, 0.2]]


def test_text_cells_may_be_blank():
    answers = _table(id=["a", "b"], Tags=["c# java", "python"])
    submission = _table(id=["b", "a"], Tags=["", "java"])
    y_true, y_pred = validate(submission, answers, _spec("Tags"), get_metric("f1_micro_multilabel"))
    assert y_true.tolist() == ["c# java", "python"] and y_pred.tolist() == ["java", ""]


def test_a_permutation_must_hold_exactly_the_answer_tokens():
    answers = _table(id=["n1", "n2", "n3", "n4"], cell_order=["a b c", "x y", "p q", "k"])
    submission = _table(id=["n1", "n2", "n3", "n4"], cell_order=["c b a", "x", "p z", "k k"])
    assert _reasons(submission, answers, _spec("cell_order"), "kendall_tau_cell_order") == [
        "column 'cell_order': 3 values are not a reordering of the expected tokens: "
        "id 'n2': 1 tokens for 2 expected, missing ['y'], "
        "id 'n3': 2 tokens for 2 expected, missing ['q'], unknown ['z'], "
        "id 'n4': 2 tokens for 1 expected, repeated tokens"
    ]


def test_point_lists_must_be_label_x_y_triples():
    answers = _table(id=["p1", "p2", "p3"], labels=["U+0041 0 0 10 10", "", "U+0042 1 1 2 2"])
    submission = _table(id=["p1", "p2", "p3"], labels=["U+0041 5 5", "U+0041 5", "U+0042 x 1"])
    assert _reasons(submission, answers, _spec("labels"), "kuzushiji_f1") == [
        "column 'labels': 2 malformed point lists: id 'p2': 'U+0041 5' (2 values; expected groups of 3), "
        "id 'p3': 'U+0042 x 1' ('x' is not a finite number)"
    ]
    blank_ok = submission.assign(labels=["U+0041 5 5", "", ""])
    validate(blank_ok, answers, _spec("labels"), get_metric("kuzushiji_f1"))


def test_integer_sequences_must_be_non_blank_integers():
    answers = _table(id=["a", "b", "c"], Sequence=["1 2", "3", "4 5"])
    submission = _table(id=["a", "b", "c"], Sequence=["2 1", "", "4 x"])
    assert _reasons(submission, answers, _spec("Sequence"), "normalized_levenshtein") == [
        "column 'Sequence': 2 values are not a whitespace-separated list of integers: "
        "id 'b': '', id 'c': '4 x'"
    ]


def test_integer_labels_compare_as_integers_like_v1s_astype_int():
    answers = _table(id=["a", "b", "c", "d"], Predicted=[7, 12, 3, 3])
    submission = _table(id=["a", "b", "c", "d"], Predicted=["07", "12.0", "3.9", "1e0"])
    y_true, y_pred = validate(submission, answers, _spec("Predicted"), get_metric("f1_macro"))
    assert y_true.tolist() == [7, 12, 3, 3] and y_pred.tolist() == [7, 12, 3, 1]
    broken = submission.assign(Predicted=["7", "", "x", "3"])
    assert _reasons(broken, answers, _spec("Predicted"), "f1_macro") == [
        "column 'Predicted': 1 empty value: id 'b'",
        "column 'Predicted': 1 value is not a number: id 'c': 'x'",
    ]


def test_kl_divergence_rows_need_only_round_to_one_at_five_decimals():
    """v1's hms grader checks ``round(row_sum, 5) == 1``; lmsys (log loss) rounds at 6 decimals."""
    answers = _table(id=["a", "b"], x=[3, 0], y=[1, 2])
    submission = _table(id=["a", "b"], x=["0.500004", "0.50001"], y=["0.5", "0.5"])
    assert _reasons(submission, answers, _spec("x", "y"), "kl_divergence") == [
        "class probabilities must sum to 1 (within 5e-06) in every row: 1 row does not: "
        "id 'b' sums to 1.00001"
    ]
    lmsys = _spec("x", "y").model_copy(update={"row_sum_tolerance": 5e-7})
    assert "id 'a' sums to 1.000004" in " ".join(_reasons(submission, answers, lmsys, "log_loss"))


# ------------------------------------------------------------------------- family B kinds (metrics-B)


def test_numeric_tables_keep_every_answer_column_and_the_submission_file_positions():
    answers = _table(id=["a", "b", "c"], y=[1, 2, 3], type=["p", "q", "p"])
    submission = _table(id=["c", "a", "b"], y=["30", "10", "20"])
    y_true, y_pred = validate(submission, answers, _spec("y"), get_metric("log_mae_by_group"))
    assert list(y_true.columns) == ["id", "y", "type"] and y_true["type"].tolist() == ["p", "q", "p"]
    assert y_pred["y"].tolist() == [10.0, 20.0, 30.0]  # answers' row order ...
    assert y_pred.index.tolist() == [1, 2, 0]  # ... indexed by the row's position in the submission file


def test_numeric_tables_reject_nan_and_negative_values_where_the_metric_does():
    answers = _table(id=["a", "b"], f=[0.1, 0.2], g=[1, 2])
    submission = _table(id=["a", "b"], f=["nan", "0.1"], g=["-1", "2"])
    assert _reasons(submission, answers, _spec("f", "g"), "mean_rmsle_columns") == [
        "column 'f': 1 NaN value: id 'a': 'nan'",
        "column 'g': 1 value is below 0, which mean_rmsle_columns does not accept: id 'a': '-1'",
    ]


def test_rle_tables_accept_a_dash_as_the_empty_mask_and_name_malformed_cells():
    answers = _table(id=["a", "b"], encoded_pixels=["1 2", "-"], height=[2, 2], width=[2, 2])
    submission = _table(id=["a", "b"], encoded_pixels=["-", "3 1 1 1"])
    assert _reasons(submission, answers, _spec("encoded_pixels"), "dice_global_rle") == [
        "column 'encoded_pixels': 1 malformed RLE value: id 'b': '3 1 1 1' "
        "(run starts are not ascending: 3 then 1)"
    ]
    spec, metric = _spec("encoded_pixels"), get_metric("dice_global_rle")
    _, y_pred = validate(submission.iloc[:1], answers.iloc[:1], spec, metric)
    assert y_pred["encoded_pixels"].tolist() == [""]


def test_box_strings_must_hold_whole_tuples_of_finite_numbers():
    answers = _table(id=["a", "b", "c"], PredictionString=["none 1 0 0 1 1"] * 3)
    submission = _table(id=["a", "b", "c"], PredictionString=["none 1 0 0 1", "opacity x 0 0 1 1", ""])
    assert _reasons(submission, answers, _spec("PredictionString"), "voc_map") == [
        "column 'PredictionString': 3 malformed prediction strings: "
        "id 'a': 'none 1 0 0 1' (5 values; expected groups of 6), "
        "id 'b': 'opacity x 0 0 1 1' ('x' is not a finite number), id 'c': '' (empty value)"
    ]


def test_3d_boxes_may_be_blank_but_sizes_must_be_positive():
    answers = _table(id=["a", "b"], PredictionString=["1 0 0 0 2 4 2 0 car"] * 2)
    submission = _table(id=["a", "b"], PredictionString=["", "0.5 0 0 0 2 -4 2 0 car"])
    assert _reasons(submission, answers, _spec("PredictionString"), "map_3d") == [
        "column 'PredictionString': 1 malformed prediction string: id 'b': '0.5 0 0 0 2 -4 2 0 car' "
        "(box size '-4' is not > 0)"
    ]


@pytest.fixture(params=["python", "arrow"])
def id_path(request, monkeypatch) -> str:
    """Run an id-matching test on both ways of keying ids: Python's (a few thousand ids) and Arrow's."""
    import graders.submission as submission

    if request.param == "arrow":
        monkeypatch.setattr(submission, "SMALL", 0)
    return request.param


def test_integer_ids_match_only_their_exact_text(id_path: str) -> None:
    """The integer fast path must not make "007" equal "7" or "+7", and must report ids as written."""
    spec = Submission(id_column="id", columns=["id", "y"])
    answers = pd.DataFrame({"id": ["7", "10", "-3"], "y": ["1", "2", "3"]})
    good = pd.DataFrame({"id": ["-3", "7", "10"], "y": ["3", "1", "2"]})
    y_true, y_pred = validate(good, answers, spec, get_metric("rmse"))
    assert list(y_pred) == [1.0, 2.0, 3.0]
    padded = pd.DataFrame({"id": ["007", "10", "-3"], "y": ["1", "2", "3"]})
    with pytest.raises(InvalidSubmission) as info:
        validate(padded, answers, spec, get_metric("rmse"))
    assert "missing ids: 1 of the 3 ids in the answers are not in column 'id': '7'" in str(info.value)
    assert "'007'" in str(info.value)


@pytest.mark.parametrize(
    "second",
    [
        "8",
        "0",
        "08",
        "00",
        "-8",
        "-0",
        "+8",
        " 8",
        "8 ",
        "",
        "8.0",
        "1e3",
        "\u0668",
        "\u0660",
        "0x1F",
        "123456789012345678",
        "1234567890123456789",
        "-123456789012345678",
    ],
)
def test_the_canonical_integer_check_agrees_with_its_regex(second: str) -> None:
    """Arrow's digit kernels decide plain digits; whatever they leave must still get the regex's answer."""
    import pyarrow as pa

    from graders.submission import _CANONICAL_INT, _all_canonical_ints

    for ids in (["7", second], [second, "7"], ["7"] * 40 + [second]):
        chunked = pa.chunked_array([ids[:1], ids[1:]], type=pa.large_string())
        expected = all(re.match(_CANONICAL_INT, text) for text in ids)
        assert _all_canonical_ints([chunked]) is expected, ids
        assert _all_canonical_ints([pa.array(["7"], type=pa.large_string()), chunked]) is expected, ids


def test_composite_integer_ids_match_only_their_exact_text(id_path: str) -> None:
    """The fast path for ids like "12_3_45" (denoising, text normalization) keeps exact text equality."""
    spec = Submission(id_column="id", columns=["id", "y"])
    answers = pd.DataFrame({"id": ["1_1_1", "1_1_2", "2_10_3", "0_0_0"], "y": ["1", "2", "3", "4"]})
    shuffled = pd.DataFrame({"id": ["2_10_3", "0_0_0", "1_1_2", "1_1_1"], "y": ["3", "4", "2", "1"]})
    assert list(validate(shuffled, answers, spec, get_metric("rmse"))[1]) == [1.0, 2.0, 3.0, 4.0]
    cases = {
        # leading zeros and other part counts fall back to exact text matching; the messages name the ids
        ("1_1_1", "1_01_2", "2_10_3", "0_0_0"): ["'1_1_2'", "unexpected ids", "'1_01_2'"],
        ("1_1_1", "1_1_2", "2_10_3", "0_0"): ["'0_0_0'", "unexpected ids", "'0_0'"],
        ("1_1_1", "1_1_1", "2_10_3", "0_0_0"): ["'1_1_1' (2 times)", "missing ids", "'1_1_2'"],
        ("1_1_1", "1_1_2", "2_10_3", "0_0_0", "9_99_9"): ["unexpected ids", "'9_99_9'"],
        ("1_1_1", "1_1_2", "3_10_2", "0_0_0"): ["'2_10_3'", "'3_10_2'"],
    }
    for ids, named in cases.items():
        submission = pd.DataFrame({"id": list(ids), "y": ["1"] * len(ids)})
        with pytest.raises(InvalidSubmission) as info:
            validate(submission, answers, spec, get_metric("rmse"))
        for text in named:
            assert text in str(info.value), (ids, text, str(info.value))


def test_composite_ids_too_large_for_one_int64_still_match(id_path: str) -> None:
    big = "999999999999999999"
    spec = Submission(id_column="id", columns=["id", "y"])
    answers = pd.DataFrame({"id": [f"{big}_{big}", f"1_{big}"], "y": ["1", "2"]})
    submission = pd.DataFrame({"id": [f"1_{big}", f"{big}_{big}"], "y": ["2", "1"]})
    assert list(validate(submission, answers, spec, get_metric("rmse"))[1]) == [1.0, 2.0]
    wrong = submission.assign(id=[f"1_{big}", f"{big}_99999999999999999"])
    with pytest.raises(InvalidSubmission, match=f"unexpected ids: .*'{big}_99999999999999999'"):
        validate(wrong, answers, spec, get_metric("rmse"))


def test_key_columns_must_follow_the_answers_row_by_row() -> None:
    """uw-madison: `class` identifies a row (matched by position), it is not an answer."""
    spec = Submission(id_column="id", columns=["id", "class", "y"], match="position", key_columns=["class"])
    assert spec.target_columns == ["y"]
    answers = pd.DataFrame({"id": ["a", "a"], "class": ["large", "small"], "y": ["1", "2"]})
    ok = pd.DataFrame({"id": ["a", "a"], "class": ["large", "small"], "y": ["1", "2"]})
    assert list(validate(ok, answers, spec, get_metric("rmse"))[1]) == [1.0, 2.0]
    swapped = pd.DataFrame({"id": ["a", "a"], "class": ["small", "large"], "y": ["1", "2"]})
    with pytest.raises(
        InvalidSubmission, match="column 'class' must list the answers' values in their order"
    ):
        validate(swapped, answers, spec, get_metric("rmse"))
    with pytest.raises(ValueError, match="key_columns needs submission.match: position"):
        Submission(id_column="id", columns=["id", "class", "y"], key_columns=["class"])


def test_integer_ids_compare_by_value_when_declared(id_path: str) -> None:
    """rsna-miccai: the answers say "00012", a submission written by pandas says "12"; v1 matches them."""
    spec = Submission(id_column="id", columns=["id", "y"], integer_ids=True)
    answers = pd.DataFrame({"id": ["00012", "00300", "00007"], "y": ["1", "2", "3"]})
    sub = pd.DataFrame({"id": ["12", "300.0", " 7"], "y": ["1", "2", "3"]})
    assert list(validate(sub, answers, spec, get_metric("rmse"))[1]) == [1.0, 2.0, 3.0]
    with pytest.raises(InvalidSubmission, match="missing ids"):
        validate(sub, answers, Submission(id_column="id", columns=["id", "y"]), get_metric("rmse"))


def test_occurrence_matching_pairs_the_kth_row_of_each_id(id_path: str) -> None:
    """The hms and smartphone answers repeat ids: v1 sorts by id and pairs rows (each id's order counts)."""
    spec = Submission(id_column="id", columns=["id", "y"], match="occurrence")
    answers = pd.DataFrame({"id": ["a", "a", "b", "b"], "y": ["1", "2", "3", "4"]})
    trips_swapped = pd.DataFrame({"id": ["b", "b", "a", "a"], "y": ["30", "40", "10", "20"]})
    assert list(validate(trips_swapped, answers, spec, get_metric("rmse"))[1]) == [10.0, 20.0, 30.0, 40.0]
    missing_row = pd.DataFrame({"id": ["b", "b", "a"], "y": ["3", "4", "1"]})
    with pytest.raises(InvalidSubmission, match=r"missing ids: 1 of the 4 ids .*'a #2'"):
        validate(missing_row, answers, spec, get_metric("rmse"))


@pytest.mark.parametrize("metric", ["quadratic_weighted_kappa", "mcc"])
def test_class_label_metrics_refuse_fractions_as_v1(metric: str) -> None:
    """aptos, essay scoring, nfl: scikit-learn refuses 2.5 as a class label, so v1 gives no score."""
    spec = Submission(id_column="id", columns=["id", "y"])
    answers = pd.DataFrame({"id": ["a", "b", "c"], "y": ["1", "0", "1"]})
    whole = pd.DataFrame({"id": ["a", "b", "c"], "y": ["1.0", "0", "1"]})
    validate(whole, answers, spec, get_metric(metric))
    with pytest.raises(InvalidSubmission, match=r"1 value is not a whole number .*: id 'b': '0.5'"):
        validate(whole.assign(y=["1", "0.5", "1"]), answers, spec, get_metric(metric))


# ------------------------------------------------------------------------- extra columns and extra ids


def test_extra_columns_are_dropped_unread_where_declared() -> None:
    """v1's `prepare_for_accuracy_metric` looks only for its two columns: a leftover index is scored."""
    spec = Submission(id_column="id", columns=["id", "y"], extra_columns="ignore")
    submission = _table(
        **{"Unnamed: 0": ["0", "1", "2"]}, id=["c", "a", "b"], y=[30, 10, 20], note=["", "x", "nan"]
    )
    y_true, y_pred = validate(submission, REGRESSION_ANSWERS, spec, get_metric("rmse"))
    assert y_true.tolist() == [1.0, 2.0, 3.0] and y_pred.tolist() == [10.0, 20.0, 30.0]


def test_ignored_extra_columns_still_leave_missing_columns_a_problem() -> None:
    spec = Submission(id_column="id", columns=["id", "y"], extra_columns="ignore")
    reasons = _reasons(_table(id=["a", "b", "c"], z=[1, 2, 3]), REGRESSION_ANSWERS, spec, "rmse")
    assert reasons == ["missing columns: 'y' (expected columns: 'id', 'y')"]


def test_ignored_extra_columns_do_not_enter_class_probabilities() -> None:
    """As lmsys in v1 (it keeps `["id"] + classes`), an extra number cannot spoil the row sum."""
    spec = Submission(id_column="id", columns=["id", "x", "y"], extra_columns="ignore")
    answers = _table(id=["a", "b"], x=[1, 0], y=[0, 1])
    submission = _table(id=["a", "b"], x=[0.75, 0.1], y=[0.25, 0.9], index=[5, 7])
    assert validate(submission, answers, spec, get_metric("log_loss"))[1].tolist() == [
        [0.75, 0.25],
        [0.1, 0.9],
    ]
    reject = Submission(id_column="id", columns=["id", "x", "y"])
    assert _reasons(submission, answers, reject, "log_loss") == [
        "unexpected columns: 'index' (expected columns: 'id', 'x', 'y')"
    ]


def _hm_answers() -> pd.DataFrame:
    return _table(customer_id=["c1", "c2"], prediction=["a b", "x"])


HM = Submission(id_column="customer_id", columns=["customer_id", "prediction"], extra_ids="ignore")


def test_extra_ids_are_dropped_before_matching_where_declared() -> None:
    """h-and-m: v1 keeps only the answers' customers, so a submission in the public sample's form is scored.

    v1 on these rows: c1 -> ["b", "a"] against {a, b}: (1/1 + 2/2) / 2 = 1; c2 -> ["", "x"] against {x}:
    (1/2) / 1 = 0.5; the mean is 0.75. c0 and c3 are not in the answers and count for nothing.
    """
    submission = _table(customer_id=["c0", "c2", "c3", "c1"], prediction=["a", " x", "x", "b a"])
    y_true, y_pred = validate(submission, _hm_answers(), HM, get_metric("map_at_k"))
    assert y_true.tolist() == ["a b", "x"] and y_pred.tolist() == ["b a", " x"]
    assert map_at_k(y_true, y_pred, k=12) == 0.75


def test_ignored_extra_ids_leave_duplicates_and_missing_ids_problems() -> None:
    duplicated = _table(customer_id=["c1", "c9", "c2", "c1"], prediction=["a", "a", "x", "b"])
    assert _reasons(duplicated, _hm_answers(), HM, "map_at_k") == [
        "duplicate ids in column 'customer_id': 1 id appears more than once: 'c1' (2 times)",
        "wrong number of rows: expected 2 (one per id in the answers), got 3",
    ]
    missing = _table(customer_id=["c1", "c9"], prediction=["a", "x"])
    assert _reasons(missing, _hm_answers(), HM, "map_at_k") == [
        "missing ids: 1 of the 2 ids in the answers are not in column 'customer_id': 'c2'",
        "wrong number of rows: expected 2 (one per id in the answers), got 1",
    ]
    strict = Submission(id_column="customer_id", columns=["customer_id", "prediction"])
    extra = _table(customer_id=["c1", "c9", "c2"], prediction=["a", "a", "x"])
    assert _reasons(extra, _hm_answers(), strict, "map_at_k") == [
        "unexpected ids: 1 id in column 'customer_id' is not in the answers: 'c9'",
        "wrong number of rows: expected 2 (one per id in the answers), got 3",
    ]


def test_ignored_extra_ids_compare_ids_as_matching_does(id_path: str) -> None:
    """With `integer_ids`, "0012" is the answers' 12 and is kept; "13" is not an answer id and is dropped."""
    spec = Submission(id_column="id", columns=["id", "y"], integer_ids=True, extra_ids="ignore")
    answers = _table(id=["12", "7"], y=[1, 2])
    submission = _table(id=["13", "0012", "7.0"], y=[9, 1, 2])
    assert validate(submission, answers, spec, get_metric("rmse"))[1].tolist() == [1.0, 2.0]


def test_extra_ids_ignore_needs_matching_by_id() -> None:
    with pytest.raises(ValueError, match="extra_ids: ignore needs submission.match: id"):
        Submission(id_column="id", columns=["id", "y"], match="occurrence", extra_ids="ignore")
    with pytest.raises(ValueError, match="extra_columns"):
        Submission(id_column="id", columns=["id", "y"], extra_columns="drop")


EXACT_COLUMNS_IN_V1 = {
    "freesound-audio-tagging-2019": "column order must equal CLASS_NAMES",
    "google-quest-challenge": "column count must be len(CLASSES) + 1",
    "h-and-m-personalized-fashion-recommendations": "set(columns) == {customer_id, prediction}",
    "herbarium-2020-fgvc7": "v1's grade.py is not available to check",
    "hms-harmful-brain-activity-classification": "every non-id column must be a probability summing to 1",
    "icecube-neutrinos-in-deep-ice": "set(columns) == {azimuth, zenith, event_id}",
    "jigsaw-toxic-comment-classification-challenge": "every non-id column goes into y_score",
    "leaf-classification": "set(columns) == {id} | CLASSES",
    "plant-pathology-2020-fgvc7": "set(columns) == the sample's columns",
    "spooky-author-identification": "submission.shape == (n, len(CLASSES) + 1)",
    "tgs-salt-identification-challenge": "set(columns) == {id, rle_mask}",
    "vesuvius-challenge-ink-detection": "each row must have exactly 2 fields",
    "whale-categorization-playground": "set(columns) == {Image, Id}",
}


def test_extra_columns_are_ignored_exactly_where_v1_scores_them() -> None:
    """Every other Kaggle competition's v1 grader checks only that its columns are there, then reads them."""
    from mlebench_spec.declarations import all_competition_ids, load_competition

    kaggle = [load_competition(c) for c in all_competition_ids()]
    kaggle = [c for c in kaggle if c.source.kind == "kaggle"]
    assert len(kaggle) == 82
    rejecting = {c.id for c in kaggle if c.submission.extra_columns == "reject"}
    assert rejecting == set(EXACT_COLUMNS_IN_V1)
    assert {c.id for c in kaggle if c.submission.extra_ids == "ignore"} == {
        "h-and-m-personalized-fashion-recommendations"
    }


def test_a_megabyte_long_field_is_read(tmp_path):
    """vesuvius: one RLE cell can hold millions of characters; both readers must take it."""
    rle = " ".join(str(i) for i in range(1, 400_000))  # ~2.7 MB in one field
    plain = tmp_path / "submission.csv"
    plain.write_text(f"Id,Predicted\na,{rle}\n")
    assert read_submission(plain)["Predicted"].iloc[0] == rle
    quoted_broken = tmp_path / "broken.csv"  # an odd quote sends it to the csv-module reader
    quoted_broken.write_text(f'Id,Predicted\na,{rle}\nb,"x\n')
    with pytest.raises(InvalidSubmission, match="could not be parsed as CSV"):
        read_submission(quoted_broken)


@pytest.mark.parametrize("seed", range(90))
def test_the_same_texts_shortcuts_agree_with_matching_the_ids(seed: int, id_path: str, monkeypatch) -> None:
    """A submission listing the answers' ids text for text is matched as keying both lists matches it.

    In order when the ids increase by (length, text); else by keying the answers alone, which must still
    refuse answers that repeat an id (as text, or as an integer with ``integer_ids``).
    """
    import graders.submission as submission

    rng = np.random.default_rng(seed)
    pools = [
        [str(i) for i in rng.integers(0, 60, 12)] + ["a", "b", "aa", "007", "7", "10", "9"],
        [f"{i}_{j}_{k}" for i, j, k in rng.integers(0, 12, (12, 3))] + ["1_1_1", "1_1_10", "1_2_1"],
        [str(i) for i in rng.integers(0, 30, 12)] + ["12", "12.0", "3.0"],
    ]
    pool = pools[seed % 3]
    answers = list(dict.fromkeys(rng.choice(pool, rng.integers(2, 10))))
    if seed % 3 == 2 and rng.random() < 0.8:
        answers += [t for t in ("12", "12.0") if t not in answers]  # one id as integers, two as texts
    if rng.random() < 0.5:  # answers in (length, text) order, as prepared answers usually are
        answers.sort(key=lambda t: (len(t), t))
    if rng.random() < 0.2:
        answers.append(answers[0])  # a repeated answer id: never in order
    ids = list(answers) if rng.random() < 0.6 else list(rng.permutation(answers))
    a, s = pd.Series(answers, dtype="str"), pd.Series(ids, dtype="str")
    integer_ids = seed % 3 == 2 and rng.random() < 0.8

    def outcome() -> tuple:
        try:
            reasons, order = submission._match_ids(a, s, "id", integer_ids)
        except ValueError as error:  # the answers repeat an id
            return "refused", str(error)
        return reasons, None if order is None else list(order)

    same = submission._same_texts(a, s)
    in_order = same is not None and submission._strictly_increasing(same, rows=int(rng.integers(1, 4)))
    shortcut = outcome()
    monkeypatch.setattr(submission, "_same_texts", lambda *args, **kwargs: None)
    assert shortcut == outcome()
    assert same is not None or ids != answers
    assert not in_order or shortcut == ([], list(range(len(answers)))) or integer_ids


@pytest.mark.parametrize("seed", range(40))
def test_ids_meet_their_answer_row_whichever_way_they_are_matched(seed: int, id_path: str) -> None:
    """Each answer row gets the submission row of its id, however the ids are keyed; else reasons.

    In order or shuffled; ids as text, as canonical ints (dense, or sparse and negative) or as composite ints.
    """
    import graders.submission as submission

    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 30))
    form = seed % 4
    if form == 0:
        pool = [f"id{i}" for i in range(60)]
    elif form == 1:
        pool = [str(i) for i in range(60)]  # dense ints: looked up in a table
    elif form == 2:
        pool = [str(i) for i in rng.integers(-(10**12), 10**12, 60)]  # sparse or negative ints: hashed
    else:
        pool = [f"{i // 8}_{i % 8}_{i % 3}" for i in range(60)]  # composite ints
    answers = list(dict.fromkeys(rng.choice(pool, n)))
    ids = list(answers) if seed % 3 == 0 else list(rng.permutation(answers))
    broken = seed % 5
    if broken == 1 and len(ids) > 1:
        ids[-1] = ids[0]  # one id twice, another missing
    elif broken == 2:
        ids[-1] = "nope"  # an id not in the answers
    elif broken == 3:
        ids = ids[:-1]  # a row short
    a, s = pd.Series(answers, dtype="str"), pd.Series(ids, dtype="str")
    reasons, order = submission._match_ids(a, s, "id")
    if sorted(ids) == sorted(answers):
        assert not reasons and [ids[j] for j in order] == answers
    else:
        assert order is None and (reasons or len(ids) != len(answers))


@pytest.mark.parametrize("seed", range(30))
def test_occurrence_keys_pair_the_kth_row_of_each_id(seed: int, id_path: str) -> None:
    """Integer (id, k) keys pair rows as the texts "id #k" would, whatever the ids look like."""
    import graders.submission as submission

    rng = np.random.default_rng(seed)
    pool = ["7", "007", "a_1", "x #2", "x", "", "é", str(rng.integers(10**12))][: int(rng.integers(2, 9))]
    answers = [pool[i] for i in rng.integers(0, len(pool), int(rng.integers(1, 40)))]
    ids = list(rng.permutation(answers))
    if seed % 4 == 1:
        ids[int(rng.integers(len(ids)))] = pool[int(rng.integers(len(pool)))]  # one row of another id
    if seed % 4 == 2:
        ids = list(answers)  # the answers' own order
    a, s = pd.Series(answers, dtype="str"), pd.Series(ids, dtype="str")
    reasons, order = submission._match_ids(a, s, "id", occurrence=True)

    def texts(values: list[str]) -> list[str]:
        seen: Counter[str] = Counter()
        out = []
        for value in values:
            seen[value] += 1
            out.append(f"{value} #{seen[value]}")
        return out

    want, got = texts(answers), texts(ids)
    if sorted(want) == sorted(got):
        assert not reasons and [got[j] for j in order] == want
    else:
        assert order is None and reasons
        missing = [w for w in want if w not in got]
        assert all(repr(m) in " ".join(reasons) for m in missing[:3])


@pytest.mark.parametrize("seed", range(60))
def test_python_and_arrow_id_keys_agree(seed: int) -> None:
    """A few thousand ids are keyed in Python, more by Arrow: the same ids meet, under the same names."""
    import graders.submission as submission

    rng = np.random.default_rng(seed)
    pool = ["7", "007", "+7", "-7", "-0", "0", " 7", "7 ", "7.0", "7.", "7.5", "\v7", "\u00a07", "\t7\n"]
    pool += ["1_2", "01_2", "1_2_3", "", "é", "\u0667", str(rng.integers(10**17)), "9" * 19, "a"]
    pool = list(rng.choice(pool, int(rng.integers(1, 8)), replace=False))
    if seed % 3 == 0:  # all plain integers, or all composite ones, so Arrow's fast paths are taken
        pool = [str(v) for v in rng.integers(0, 50, 5)] if seed % 2 else ["1_2", "3_4", "10_0", "0_0"]
    answers, ids = (pd.Series(rng.choice(pool, int(rng.integers(1, 12))), dtype="str") for _ in range(2))
    for integer_ids in (False, True):
        by_python = submission._keys(answers, ids, integer_ids)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(submission, "SMALL", 0)
            by_arrow = submission._keys(answers, ids, integer_ids)
        (python_keys, python_name), (arrow_keys, arrow_name) = by_python, by_arrow
        assert list(pd.factorize(python_keys)[0]) == list(pd.factorize(arrow_keys)[0]), integer_ids
        assert [python_name(k) for k in python_keys] == [arrow_name(k) for k in arrow_keys], integer_ids
