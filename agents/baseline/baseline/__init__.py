"""A generic, LLM-free baseline agent: infer the task from the public files and fit scikit-learn models.

Modules, one concept each: :mod:`~baseline.env` (contract and options), :mod:`~baseline.data`
(reading the public files), :mod:`~baseline.detect` (task inference), :mod:`~baseline.columns`
(column typing), :mod:`~baseline.tables` (auxiliary tables), :mod:`~baseline.images` (pixels),
:mod:`~baseline.features` (encoders), :mod:`~baseline.models` (candidates),
:mod:`~baseline.selection` (internal validation), :mod:`~baseline.metrics`,
:mod:`~baseline.tabular` (row-wise learning), :mod:`~baseline.segmentation` and
:mod:`~baseline.rle` (masks), :mod:`~baseline.seq2seq` (string transduction),
:mod:`~baseline.submission`, :mod:`~baseline.parallel` (worker processes) and :mod:`~baseline.run` (the
whole run).
"""

from .detect import TargetSpec, TaskSpec, detect_task
from .env import AgentEnv, Options
from .run import run

__all__ = ["AgentEnv", "Options", "TargetSpec", "TaskSpec", "detect_task", "run"]
