"""The Docker engine: connecting, telling whether one is reachable, and retrying its transient failures.

Infrastructure failures (engine unreachable, an image build or a container create that fails) are retried
a bounded number of times with exponential backoff; when the retries are spent they surface as
:class:`InfraError`, which the runner records as ``infra_error``. An agent's own failure is never an
``InfraError`` and is never retried.
"""

from __future__ import annotations

import io
import os
import tarfile
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    import docker

T = TypeVar("T")

PING_TIMEOUT_SECS = 5
API_TIMEOUT_SECS = 600
_BACKOFF_FIRST_SECS = 2.0
_BACKOFF_MAX_SECS = 30.0


class InfraError(Exception):
    """The engine could not do what was asked, after the bounded retries: an ``infra_error`` cell."""


def in_ci() -> bool:
    """Tell whether this is CI (``CI=true``), where a missing engine is a failure, never a skip."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def connect(timeout: int = API_TIMEOUT_SECS) -> docker.DockerClient:
    """Return a client for the engine ``DOCKER_HOST`` (or the default socket) names, checked with a ping.

    Raises
    ------
    InfraError
        If no engine answers.

    """
    import docker

    try:
        client = docker.from_env(timeout=timeout)
        client.ping()
    except Exception as exc:  # noqa: BLE001 - docker raises DockerException, requests errors, OSError
        raise InfraError(f"no Docker engine reachable ({_where()}): {_short(exc)}") from exc
    return client


def engine_problem() -> str | None:
    """Why no engine is usable, or None when one answers a ping within a few seconds."""
    try:
        client = connect(timeout=PING_TIMEOUT_SECS)
    except InfraError as exc:
        return str(exc)
    client.close()
    return None


def with_retries(
    operation: Callable[[], T], what: str, retries: int, sleep: Callable[[float], None] = time.sleep
) -> T:
    """Run ``operation``; on an engine failure retry up to ``retries`` times, waiting 2, 4, 8 … s (max 30).

    Engine failures are the docker SDK's errors, connection errors and :class:`InfraError`; anything else
    (a bug, a config error) propagates at once. When the retries are spent, raise :class:`InfraError`
    naming ``what`` and every attempt's error.
    """
    errors: list[str] = []
    for attempt in range(retries + 1):
        try:
            return operation()
        except Exception as exc:  # noqa: BLE001 - filtered just below
            if not is_engine_failure(exc):
                raise
            errors.append(f"attempt {attempt + 1}: {_short(exc)}")
            if attempt < retries:
                sleep(min(_BACKOFF_FIRST_SECS * 2**attempt, _BACKOFF_MAX_SECS))
    raise InfraError(f"{what} failed after {retries + 1} attempt(s): " + "; ".join(errors))


def is_engine_failure(exc: BaseException) -> bool:
    """Whether an exception comes from the engine or the connection to it (and so may be retried)."""
    import docker.errors
    import requests.exceptions

    return isinstance(
        exc,
        (InfraError, docker.errors.DockerException, requests.exceptions.RequestException, ConnectionError),
    )


def _where() -> str:
    return (
        f"DOCKER_HOST={os.environ['DOCKER_HOST']}"
        if os.environ.get("DOCKER_HOST")
        else "unix:///var/run/docker.sock"
    )


def _short(exc: BaseException, limit: int = 2000) -> str:
    text = f"{type(exc).__name__}: {exc}"
    return text if len(text) <= limit else text[:limit] + " …"


def read_only_files_tar(files: dict[str, str]) -> bytes:
    """Return a tar of text files by absolute path, each read-only (0444), to ``put_archive`` at ``/``.

    >>> import io, tarfile
    >>> tar = tarfile.open(fileobj=io.BytesIO(read_only_files_tar({"/etc/x.conf": "a=12"})))
    >>> [(m.name, m.mode, m.size) for m in tar.getmembers()]
    [('etc/x.conf', 292, 4)]
    """
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for path, text in files.items():
            data = text.encode("utf-8")
            info = tarfile.TarInfo(path.lstrip("/"))
            info.size, info.mode, info.mtime = len(data), 0o444, int(time.time())
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


_QUOTA_DRIVERS = ("btrfs", "zfs", "devicemapper", "windowsfilter")


def storage_limit_problem(info: dict) -> str | None:
    """Why this engine cannot limit a container's writable layer (``--storage-opt size=``); None if it can.

    ``info`` is the engine's ``docker info``. overlay2 can only on xfs mounted with ``pquota`` (which the
    engine reports only when a create with the option fails); btrfs, zfs and devicemapper can.

    >>> storage_limit_problem({"Driver": "overlay2", "DriverStatus": [["Backing Filesystem", "extfs"]]})
    'storage driver overlay2 on extfs: a size limit needs overlay2 on xfs with pquota (or btrfs, zfs)'
    >>> storage_limit_problem({"Driver": "btrfs"}) is None
    True
    """
    driver = str(info.get("Driver", ""))
    backing = dict((str(k), str(v)) for k, v in info.get("DriverStatus") or [] if isinstance(k, str))
    if driver in _QUOTA_DRIVERS:
        return None
    fs = backing.get("Backing Filesystem", "unknown")
    if driver == "overlay2" and fs == "xfs":
        return None
    return f"storage driver {driver} on {fs}: a size limit needs overlay2 on xfs with pquota (or btrfs, zfs)"
