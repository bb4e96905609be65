"""Scoring library: metrics by name, submission validation, medals and the grade function.

Import names from the module that defines them (``graders.grade``, ``graders.registry``,
``graders.submission``, ...): this file imports nothing, so importing one module loads only what it
needs; validating a submission (``graders.submission`` with ``graders.inputs``) never loads metric code.
"""
