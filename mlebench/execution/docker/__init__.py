"""The ``docker`` runner: images, the agent's container, safe extraction, and the grader container.

Nothing here imports the docker SDK at import time, so the local runner and the grader image work without it.
"""
