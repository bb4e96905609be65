"""Errors that reach a user: config problems are reported cleanly, bugs keep their tracebacks."""

from __future__ import annotations


class ConfigError(Exception):
    """A problem with a user's input: a declaration, params.yaml, a missing data file, a bad flag.

    The message names the file, the key, the value and a fix; stage wrappers print it without a traceback.
    """


class DataError(ConfigError):
    """Raw or prepared data is missing or does not match its recorded checksum."""
