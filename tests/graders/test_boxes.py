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
