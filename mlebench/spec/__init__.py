"""The bottom layer every other one shares: declaration and params schemas, YAML, paths, errors, hashes.

It imports nothing else of ours.
"""
