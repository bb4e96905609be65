"""Prediction strings of box tuples (:mod:`graders.boxes`)."""

from __future__ import annotations

import numpy as np

from graders.boxes import parse_boxes
from graders.inputs import get_inputs


def test_grading_a_short_row_does_not_shift_the_box_checks_of_the_rows_after_it() -> None:
    """A short row no longer shifts the box-size checks of the rows after it.

    Bug: the check counted numbers across rows, so after a row whose token count was not a multiple of the
    group size (an ``NA`` cell), well-formed rows were reported as having negative box sizes.
    """
    layout = get_inputs("map_3d").layout
    box = "0.5 10 20 -15.3 2 3 4 0.1 car"  # a negative centre z, positive sizes
    found = parse_boxes(np.array([box, "NA", box, f"{box} {box}"], dtype=object), layout).problems
    assert found == {1: "1 values; expected groups of 9"}
    bad = parse_boxes(np.array(["NA", "0.5 10 20 -15.3 -2 3 4 0.1 car"], dtype=object), layout).problems
    assert bad == {0: "1 values; expected groups of 9", 1: "box size '-2' is not > 0"}


def test_arrow_splits_ascii_text_into_the_tokens_python_does() -> None:
    """Arrow splits as ``str.split()`` does; text with a control Arrow keeps, or not ASCII, is Python's."""
    import pandas as pd
    import pyarrow as pa

    from graders.boxes import _python_tokens, _tokens

    rng = np.random.default_rng(0)
    alphabet = [*"ab 1.5e-x\t\n\r\x0b\x0c", "\x1c", "\x1f", "\u00a0", "\u2003", "  ", "nan", "-0", "é"]
    arrow_used = 0
    for _ in range(500):
        cells = ["".join(rng.choice(alphabet, rng.integers(0, 12))) for _ in range(rng.integers(0, 6))]
        values = pd.Series(cells, dtype=object).astype(str)
        counts, flat = _tokens(values)
        arrow_used += isinstance(flat, pa.Array)
        expected_counts, expected = _python_tokens(values)
        assert counts.tolist() == expected_counts.tolist(), cells
        assert (flat.to_pylist() if isinstance(flat, pa.Array) else list(flat)) == list(expected), cells
    assert arrow_used > 100  # most draws are ASCII without \x1c-\x1f, so Arrow split them


def test_validation_finds_the_same_problems_slice_by_slice() -> None:
    """``box_problems`` scans a few rows at a time and finds what parsing all of them finds, by row."""
    import pandas as pd
    import pyarrow as pa

    from graders.boxes import box_problems

    layout = get_inputs("map_3d").layout
    rng = np.random.default_rng(1)
    box = "0.5 10 20 -15.3 2 3 4 0.1 car"
    kinds = [box, f"{box} {box}", "", "NA", box.replace(" 2 ", " -2 "), box.replace("10", "x"), None]
    for _ in range(40):
        cells = [kinds[i] for i in rng.integers(0, len(kinds), rng.integers(0, 30))]
        whole = parse_boxes(np.array(cells, dtype=object), layout).problems
        for text in (1, 40, 1 << 20):
            assert box_problems(np.array(cells, dtype=object), layout, text=text) == whole
            assert box_problems(pd.Series(cells, dtype="str"), layout, text=text) == whole
            blocks = pa.chunked_array([cells[:5], cells[5:]], type=pa.large_string())  # as read from a file
            assert box_problems(pd.arrays.ArrowStringArray(blocks), layout, text=text) == whole
