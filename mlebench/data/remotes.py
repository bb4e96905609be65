"""DVC remotes: which settings may travel to another machine, and whether this one holds a remote's keys.

The prepared splits travel through DVC remotes: ``storage`` (the default) for everything an agent may see,
``answers`` for ``private/`` (each prepare stage's ``private`` output says ``remote: answers``). On an S3
service each remote has its own credentials, kept per machine and never committed (``dvc remote modify
--local NAME access_key_id ...``, or an AWS profile named by the remote's ``profile``), so a machine that
only runs agents holds the public key and not the answers' one.

:func:`missing_credentials` tells, before DVC is asked to move anything, which of the named remotes lack
keys here, naming the remote, the key that is missing and the command that sets it; DVC's own message for
the same case is a bare "Unable to locate credentials" from the S3 client. :func:`shareable_settings` is
what a coordinator may hand a worker about its remotes (URL, endpoint, region, profile name): never a key.
"""

from __future__ import annotations

import configparser
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from mlebench_spec.errors import ConfigError

__all__ = ["SECRET_KEYS", "missing_credentials", "require_credentials", "shareable_settings"]

SECRET_KEYS = frozenset({"access_key_id", "secret_access_key", "session_token", "password", "credentialpath"})
"""Remote settings that are secrets or machine-local paths: never handed to another machine."""


def shareable_settings(remotes: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every remote's settings minus :data:`SECRET_KEYS` (JSON values): what a worker may be told."""
    return {
        name: {
            key: value if isinstance(value, bool | int | float | str) else str(value)
            for key, value in conf.items()
            if key not in SECRET_KEYS
        }
        for name, conf in remotes.items()
    }


def missing_credentials(
    remotes: Mapping[str, Mapping[str, Any]], names: Iterable[str], env: Mapping[str, str] | None = None
) -> list[str]:
    """One line per named S3 remote that has no credentials on this machine (empty when all have them).

    A remote has credentials when its config gives both ``access_key_id`` and ``secret_access_key``; or
    names a ``profile`` (or ``AWS_PROFILE`` is set) found in the credentials file (``credentialpath``,
    ``AWS_SHARED_CREDENTIALS_FILE`` or ``~/.aws/credentials``); or the environment has
    ``AWS_ACCESS_KEY_ID`` and ``AWS_SECRET_ACCESS_KEY``. Remotes that are not on S3 need no keys here.
    """
    env = os.environ if env is None else env
    problems = []
    for name in dict.fromkeys(names):
        conf = remotes.get(name)
        if conf is None:
            problems.append(f"remote {name!r} is not configured (dvc remote list shows the ones that are)")
            continue
        url = str(conf.get("url", ""))
        if not url.startswith("s3://"):
            continue
        problem = _s3_problem(name, url, conf, env)
        if problem:
            problems.append(problem)
    return problems


def require_credentials(
    remotes: Mapping[str, Mapping[str, Any]], names: Iterable[str], env: Mapping[str, str] | None = None
) -> None:
    """Raise ConfigError naming each named remote without credentials here (:func:`missing_credentials`)."""
    problems = missing_credentials(remotes, names, env)
    if problems:
        raise ConfigError("DVC remote credentials are missing on this machine:\n  " + "\n  ".join(problems))


def _s3_problem(name: str, url: str, conf: Mapping[str, Any], env: Mapping[str, str]) -> str | None:
    key, secret = conf.get("access_key_id"), conf.get("secret_access_key")
    fix = (
        f"set it for this machine only: `dvc remote modify --local {name} access_key_id ID` and "
        f"`dvc remote modify --local {name} secret_access_key SECRET` (or `dvc remote modify --local {name} "
        "profile NAME` with that profile in ~/.aws/credentials)"
    )
    if key and secret:
        return None
    if key or secret:
        pair = ("access_key_id", "secret_access_key")
        has, lacking = pair if key else pair[::-1]
        return f"remote {name!r} ({url}) has {has} but no {lacking}: {fix}"
    profile = conf.get("profile") or env.get("AWS_PROFILE")
    if profile:
        path = Path(
            os.path.expanduser(
                str(
                    conf.get("credentialpath")
                    or env.get("AWS_SHARED_CREDENTIALS_FILE")
                    or "~/.aws/credentials"
                )
            )
        )
        parser = configparser.ConfigParser()
        try:
            parser.read(path)
        except configparser.Error as exc:
            return f"remote {name!r} ({url}): {path} cannot be read as a credentials file ({exc})"
        if parser.has_section(str(profile)) and parser.get(str(profile), "aws_access_key_id", fallback=""):
            return None
        return (
            f"remote {name!r} ({url}) uses profile {profile!r}, which has no aws_access_key_id in {path}: "
            f"add the profile there, or {fix}"
        )
    if env.get("AWS_ACCESS_KEY_ID") and env.get("AWS_SECRET_ACCESS_KEY"):
        return None
    return f"remote {name!r} ({url}) has no access_key_id and no secret_access_key: {fix}"
