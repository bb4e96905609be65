"""Execution: one cell. Runners (local, docker), grading and scoring a finished cell, snapshots, secrets.

What stages call and images ship. The grid over DVC and the engines that run it are
:mod:`mlebench.scheduling`, above this package; nothing here imports it.
"""
