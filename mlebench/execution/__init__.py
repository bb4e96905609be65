"""Execution: one cell. Runners (local, sandbox, docker, podman), grading, scoring, snapshots, secrets.

What stages call and images ship. The grid over DVC and the engines that run it are
:mod:`mlebench.scheduling`, above this package; nothing here imports it.
"""
