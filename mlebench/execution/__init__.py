"""Execution: cells, runners (local, docker) and grading a finished cell."""
