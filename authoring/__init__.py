"""Authoring tools beside the runtime: reference leaderboards, the Kaggle stand-in, threshold recomputation.

Also the synthetic grading inputs the competitions' fixtures build for ``benchmarks/grading.py``. Nothing
in mlebench/, graders/ or stages/ imports this package (the CLI excepted), and no image holds it.
"""
