"""Scheduling: ``mlebench run``, the planned grid over DVC dispatched to an executor (local pool, Slurm, Ray).

The scheduler (:mod:`~mlebench.scheduling.scheduler`) asks DVC which stages are stale
(:mod:`~mlebench.scheduling.dvc_stages`; DVC's private internals are reached only through
:mod:`~mlebench.data.dvc_internals`), hands them to an engine (:mod:`~mlebench.scheduling.executors`)
and records what ran (:mod:`~mlebench.scheduling.lockfiles`, :mod:`~mlebench.scheduling.events`).
Only the CLI imports this package: stages and images run a single cell (:mod:`mlebench.execution`) and
never load the scheduler, so editing it makes no run stale.
"""
