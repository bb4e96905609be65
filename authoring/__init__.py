"""Authoring tools beside the runtime: reference leaderboards, the Kaggle stand-in, threshold recomputation.

Nothing in mlebench/, graders/ or stages/ imports this package (the CLI excepted), and no image holds it.
"""
