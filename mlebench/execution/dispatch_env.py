"""How a stage learns it was dispatched by ``mlebench run``: one environment variable, named once.

The scheduler sets :data:`EXECUTOR_ENV` (JSON: executor, settings, stage, attempt, session) for every job
it dispatches; the run stage adds host and GPUs and writes it into run.json. This module is all a run
stage imports of the scheduler's side, so editing executors makes no run stale.
"""

EXECUTOR_ENV = "MLEBENCH_EXECUTOR"
