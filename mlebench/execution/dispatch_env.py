"""How a stage learns it was dispatched by ``mlebench run``: one environment variable, named once.

The scheduler sets :data:`EXECUTOR_ENV` (JSON: executor, settings, stage, attempt, session) for every job
it dispatches; the run stage adds host and GPUs and writes it into run.json. It is the one name the
cell's side and the grid's side share: the run stage reads it here, :mod:`mlebench.scheduling` imports it from
here, and a run stage imports nothing of the scheduler's, so editing executors makes no run stale.
"""

EXECUTOR_ENV = "MLEBENCH_EXECUTOR"
