"""Metric functions: pure, aligned arrays in, one float out, one concept per module.

Import a function from its module (``graders.metrics.regression.rmse``); register new ones in
``graders/registry.py`` (scoring) and ``graders/inputs.py`` (validation).
"""
