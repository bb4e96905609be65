"""Executors: the engines the scheduler dispatches stages to (local pool, Slurm, Ray)."""
