"""The sandbox's own cgroup: ``cpus``, ``memory (no swap)`` and ``pids`` held however the machine allows.

:func:`make` tries, in order, and takes the first way that holds all three:

1. **cgroup v2, a subtree this process may use**: from this process's own v2 cgroup up to the root of the
   hierarchy (wherever ``cgroup2`` is mounted: ``/sys/fs/cgroup``, or ``/sys/fs/cgroup/unified`` on a hybrid
   machine), the first cgroup that gives ``cpu``, ``memory`` and ``pids`` to its children
   (``cgroup.subtree_control``) and where a child can be made and joined: root on a v2 machine, a delegated
   subtree (a container with its own cgroup namespace, a service with ``Delegate=yes``).
2. **cgroup v1 controllers** (root, or v1 folders delegated to this user): a folder per controller under
   ``/sys/fs/cgroup/{memory,cpu,pids}``, in this process's own group of each.
3. **a transient systemd user scope** (``systemd-run --user --scope``) for an ordinary user on a v2 machine
   whose user manager has the ``cpu``, ``memory`` and ``pids`` controllers (systemd delegates them to
   ``user@.service``): the sandbox runs in a scope of its own with ``MemoryMax``, ``MemorySwapMax=0``,
   ``CPUQuota`` and ``TasksMax``; its ``memory.events`` is read, before the scope ends, to tell an
   out-of-memory kill.

With none, :func:`make` says why each way failed; the sandbox runner records that reason for each limit
it could not hold (run.json's ``limits_not_enforced``) and its cells are not counted. ``memory (no swap)``
is held only where swap cannot be used: the swap limit was set (``memory.swap.max``,
``memory.memsw.limit_in_bytes``) or the machine has no swap.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from mlebench_spec.params import Hardware

CGROUP_ROOT = Path("/sys/fs/cgroup")
CONTROLLERS = ("cpu", "memory", "pids")
PERIOD = 100_000
"""The CFS period, in microseconds, that ``cpus`` is a quota of."""


def bytes_size(size: str) -> int:
    """Return a Docker-style size (``512m``, ``2g``) in bytes.

    >>> bytes_size("512m"), bytes_size("2g"), bytes_size("1024")
    (536870912, 2147483648, 1024)
    """
    units = {"k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4}
    text = size.strip().lower().removesuffix("b")
    return int(float(text[:-1]) * units[text[-1]]) if text[-1] in units else int(text)


def no_swap() -> bool:
    """Tell whether this machine has no swap in use (``/proc/swaps`` lists none)."""
    try:
        return len(Path("/proc/swaps").read_text().splitlines()) <= 1
    except OSError:
        return False


class Cgroup:
    """The cell's own cgroup: its folders (v1: one a controller; v2: ``unified``), what it holds, how."""

    def __init__(self, folders: dict[str, Path], held: list[str], via: str) -> None:
        self.folders, self.held, self.via = folders, held, via

    def enter(self, command: list[str]) -> list[str]:
        """Return the command line that runs ``command`` inside this cgroup (a shell joins it, then execs)."""
        joins = " && ".join(
            f"echo $$ > {shlex.quote(str(f / 'cgroup.procs'))}" for f in self.folders.values()
        )
        return ["sh", "-c", f'{joins} && exec "$@"', "sh", *command]

    def oom_killed(self) -> bool:
        """Tell whether the kernel's out-of-memory killer killed a process in the cgroup."""
        return any(_oom_kills(folder / name) for folder in self.folders.values() for name in _EVENT_FILES)

    def remove(self) -> None:
        """Kill whatever is left in the cgroup and remove it."""
        for folder in self.folders.values():
            _remove(folder)


class SystemdScope(Cgroup):
    """A transient systemd user scope that the sandbox runs in; its cgroup exists only while it runs."""

    def __init__(self, unit: str, hardware: Hardware, mount: Path) -> None:
        super().__init__({}, ["cpus", "memory (no swap)", "pids"], "systemd user scope")
        self.unit, self.hardware, self.mount = unit, hardware, mount
        self.spool = Path(tempfile.mkdtemp(prefix="mlebench-scope-"))

    def properties(self) -> list[str]:
        """Return the scope's ``-p`` options: the profile's limits."""
        hw = self.hardware
        props = [f"MemoryMax={bytes_size(hw.memory)}", "MemorySwapMax=0", f"TasksMax={hw.pids}"]
        props.append(f"CPUQuota={round(hw.cpus * 100)}%")
        return [arg for prop in props for arg in ("-p", prop)]

    def enter(self, command: list[str]) -> list[str]:
        """Run ``command`` in the scope; a shell in it keeps its ``memory.events`` before the scope ends."""
        events = shlex.quote(str(self.spool / "memory.events"))
        script = (
            'p=$(sed -n "s/^0:://p" /proc/self/cgroup); "$@"; c=$?; '
            f'cat {shlex.quote(str(self.mount))}"$p/memory.events" > {events} 2>/dev/null; exit $c'
        )
        return [*systemd_run(self.unit), *self.properties(), "--", "sh", "-c", script, "sh", *command]

    def oom_killed(self) -> bool:
        """Tell whether the scope's ``memory.events``, kept before it ended, counts an out-of-memory kill."""
        return _oom_kills(self.spool / "memory.events")

    def remove(self) -> None:
        """Kill whatever is left in the scope (it then ends by itself) and remove the kept events."""
        subprocess.run(
            ["systemctl", "--user", "kill", "--signal=SIGKILL", f"{self.unit}.scope"],
            capture_output=True,
            timeout=30,
        )
        shutil.rmtree(self.spool, ignore_errors=True)


_EVENT_FILES = ("memory.oom_control", "memory.events")


def _oom_kills(path: Path) -> bool:
    try:
        lines = path.read_text().splitlines() if path.is_file() else []
    except OSError:
        return False
    for line in lines:
        key, _, value = line.partition(" ")
        if key == "oom_kill" and value.strip().isdigit() and int(value) > 0:
            return True
    return False


def _remove(folder: Path) -> None:
    procs = folder / "cgroup.procs"
    for _ in range(50):
        try:
            pids = [int(p) for p in procs.read_text().split()] if procs.is_file() else []
        except OSError:
            pids = []
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        try:
            folder.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.1)


def systemd_run(unit: str) -> list[str]:
    """Return the ``systemd-run`` command line that starts the transient user scope ``unit``."""
    return ["systemd-run", "--user", "--scope", "--quiet", "--collect", f"--unit={unit}"]


def own_cgroups(proc: Path = Path("/proc/self/cgroup")) -> dict[str, str]:
    """Return this process's cgroups by controller list (``""`` for v2), from ``/proc/self/cgroup``."""
    out = {}
    for line in proc.read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        out[controllers] = path
    return out


def v2_mount(mounts: Path = Path("/proc/self/mounts")) -> Path | None:
    """Return where the cgroup v2 hierarchy is mounted (``/sys/fs/cgroup`` or its ``unified``), or None."""
    for line in mounts.read_text().splitlines():
        fields = line.split()
        if len(fields) > 2 and fields[2] == "cgroup2":
            return Path(fields[1])
    return None


def make(
    name: str, hardware: Hardware, root: Path = CGROUP_ROOT, own: dict[str, str] | None = None
) -> tuple[Cgroup | None, str]:
    """Make the sandbox's cgroup with the profile's limits; return it, or None and why none could be made.

    ``root`` is where the hierarchies are mounted and ``own`` this process's cgroups (:func:`own_cgroups`);
    a test passes a folder laid out like a machine's, and the cgroups it says this process is in.
    """
    own = own_cgroups() if own is None else own
    whys = []
    mount = v2_mount() if root == CGROUP_ROOT else root / "unified"
    if mount is not None and "" in own:
        made, why = _make_v2(mount, own[""], name, hardware)
        if made is not None:
            return made, ""
        whys.append(f"cgroup v2 at {mount}: {why}")
    made, why = _make_v1(root, own, name, hardware)
    if made is not None:
        return made, ""
    whys.append(f"cgroup v1: {why}")
    scope, why = _systemd_scope(name, hardware, mount)
    if scope is not None:
        return scope, ""
    whys.append(f"systemd user scope: {why}")
    return None, "no cgroup this process may make (" + "; ".join(whys) + ")"


def _make_v2(mount: Path, own: str, name: str, hardware: Hardware) -> tuple[Cgroup | None, str]:
    """Make a child of the nearest cgroup, from this process's own up, giving children cpu, memory, pids."""
    here = mount / own.lstrip("/")
    whys = []
    for parent in [here, *here.parents]:
        if parent != mount and mount not in parent.parents:
            break
        try:
            enabled = (parent / "cgroup.subtree_control").read_text().split()
        except OSError:
            continue
        lacking = [c for c in CONTROLLERS if c not in enabled]
        if lacking:
            whys.append(f"{parent} gives its children no {'/'.join(lacking)}")
            continue
        if not os.access(parent, os.W_OK) or not os.access(parent / "cgroup.procs", os.W_OK):
            whys.append(f"{parent} is not writable by uid {os.getuid()}")
            continue
        folder = parent / name
        made = Cgroup({"unified": folder}, [], f"cgroup v2 ({parent})")
        try:
            folder.mkdir()
            (folder / "memory.max").write_text(str(bytes_size(hardware.memory)))
            swapless = no_swap()
            if (folder / "memory.swap.max").exists():
                (folder / "memory.swap.max").write_text("0")
                swapless = True
            (folder / "pids.max").write_text(str(hardware.pids))
            (folder / "cpu.max").write_text(f"{int(hardware.cpus * PERIOD)} {PERIOD}")
        except OSError as exc:
            made.remove()
            whys.append(f"{folder}: {exc.strerror or exc}")
            continue
        made.held = ["cpus", "pids", *(["memory (no swap)"] if swapless else [])]
        return made, ""
    return None, "; ".join(whys[:2]) or f"no cgroup at {here}"


def _make_v1(root: Path, own: dict[str, str], name: str, hardware: Hardware) -> tuple[Cgroup | None, str]:
    folders = {}
    for controller in ("memory", "pids", "cpu"):
        key = next((k for k in own if controller in k.split(",")), None)
        mount = root / controller
        if key is None or not mount.is_dir():
            return None, f"no {controller} controller mounted at {mount}"
        folders[controller] = mount / own[key].lstrip("/") / name
    made = Cgroup(folders, [], "cgroup v1")
    try:
        for folder in folders.values():
            folder.mkdir()
        memory = str(bytes_size(hardware.memory))
        (folders["memory"] / "memory.limit_in_bytes").write_text(memory)
        swapless = no_swap()
        if (folders["memory"] / "memory.memsw.limit_in_bytes").exists():
            (folders["memory"] / "memory.memsw.limit_in_bytes").write_text(memory)
            swapless = True
        (folders["pids"] / "pids.max").write_text(str(hardware.pids))
        (folders["cpu"] / "cpu.cfs_period_us").write_text(str(PERIOD))
        (folders["cpu"] / "cpu.cfs_quota_us").write_text(str(int(hardware.cpus * PERIOD)))
    except OSError as exc:
        made.remove()
        return None, f"{exc.filename or 'a v1 folder'}: {exc.strerror or exc} (v1 cgroups need root)"
    made.held = ["cpus", "pids", *(["memory (no swap)"] if swapless else [])]
    return made, ""


def _systemd_scope(name: str, hardware: Hardware, mount: Path | None) -> tuple[SystemdScope | None, str]:
    if os.getuid() == 0:
        return None, "not for root (root makes its cgroup directly)"
    if shutil.which("systemd-run") is None:
        return None, "no systemd-run"
    if mount is None:
        return None, "no cgroup v2 hierarchy"
    manager = mount / f"user.slice/user-{os.getuid()}.slice/user@{os.getuid()}.service"
    try:
        delegated = (manager / "cgroup.controllers").read_text().split()
    except OSError:
        return None, f"no systemd user manager ({manager} is missing)"
    lacking = [c for c in CONTROLLERS if c not in delegated]
    if lacking:
        return (
            None,
            f"the user manager is not given {'/'.join(lacking)} (systemd's Delegate= for user@.service)",
        )
    probe = subprocess.run(
        [*systemd_run(f"{name}-probe"), "--", "true"], capture_output=True, text=True, timeout=30
    )
    if probe.returncode != 0:
        return None, f"systemd-run --user --scope failed: {probe.stderr.strip()[-200:]}"
    return SystemdScope(name, hardware, mount), ""
