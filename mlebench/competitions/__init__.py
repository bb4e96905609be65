"""MLE-bench v1's ``mlebench.competitions`` package: only its shared helpers (:mod:`.utils`) exist here.

v1 keeps one module per competition here (``prepare.py``, ``grade.py``); this project keeps each competition
in ``competitions/<id>/`` and grades with :mod:`graders`, so forks that add competitions import the helpers
from :mod:`mlebench.competitions.utils` as they do with v1.
"""
