"""The bottom layer every other one shares: declaration and params schemas, YAML, paths, errors, hashes.

It imports nothing else of ours. Importing it first refuses an environment where MLE-bench v1 is installed
too (:mod:`mlebench_spec.install`).
"""

from mlebench_spec.install import refuse_v1_beside_us

refuse_v1_beside_us()
