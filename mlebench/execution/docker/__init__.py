"""Docker execution: images, the agent's container, safe extraction, and the grader container.

Nothing here imports the docker SDK at import time, so the local runner and the grader image work without
it. Entry points: :func:`run_cell` (pick a runner and run a cell), :func:`run_docker`, :func:`grade_run`.
"""

from mlebench.execution.docker.agent import ContainerRunRecord, container_env, run_docker
from mlebench.execution.docker.dispatch import resolve_runner, run_cell
from mlebench.execution.docker.engine import InfraError, connect, engine_problem, in_ci, with_retries
from mlebench.execution.docker.grading import apply_rejected_submission, grade_in_container, grade_run
from mlebench.execution.docker.images import ImageRef, agent_image, env_image, grader_image

__all__ = [
    "ContainerRunRecord",
    "ImageRef",
    "InfraError",
    "agent_image",
    "apply_rejected_submission",
    "connect",
    "container_env",
    "engine_problem",
    "env_image",
    "grade_in_container",
    "grade_run",
    "grader_image",
    "in_ci",
    "resolve_runner",
    "run_cell",
    "run_docker",
    "with_retries",
]
