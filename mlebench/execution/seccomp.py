"""The system calls an agent may not make, as a seccomp filter for bubblewrap and a profile for Podman.

Docker's default profile is the reference. It allows a list of calls and refuses the rest; what it refuses
to a container without capabilities (ours drop them all) is, by purpose: loading kernel code (modules,
kexec, BPF), the kernel's key store, mounting and changing the root, the clock, swap, accounting, reboot,
quotas, raw I/O ports, NUMA memory policy, other processes' memory and file handles, performance counters,
``userfaultfd``, the obsolete calls, joining a namespace (``setns``), making one (``unshare``, and ``clone``
with any ``CLONE_NEW*`` flag; ``clone3``, whose flags a filter cannot read, fails with ``ENOSYS`` so the C
library falls back to ``clone``), and ``io_uring``. :data:`DENIED` is that set by name; everything else is
allowed, as Docker allows it (``ptrace`` included: the agent's PID namespace holds only its own processes),
except that ``personality`` is left free where Docker allows a few of its values only.

:func:`bpf` compiles it for x86-64 as a classic BPF program (what ``bwrap --seccomp FD`` loads): a call
of another ABI (i386: the process is killed; x32: ``ENOSYS``) is refused outright. :func:`oci_profile`
writes the same facts as an OCI seccomp profile (the JSON Podman and Docker read), and
:func:`gvisor_profile` as one gVisor's ``runsc --oci-seccomp`` enforces as meant. No library is needed.
"""

from __future__ import annotations

import errno
import platform
import struct

DENIED: dict[str, int] = {
    # kernel code
    "create_module": 174,
    "init_module": 175,
    "finit_module": 313,
    "delete_module": 176,
    "get_kernel_syms": 177,
    "query_module": 178,
    "kexec_load": 246,
    "kexec_file_load": 320,
    "bpf": 321,
    # the kernel's key store
    "add_key": 248,
    "request_key": 249,
    "keyctl": 250,
    # mounts and the root
    "mount": 165,
    "umount2": 166,
    "pivot_root": 155,
    "open_tree": 428,
    "move_mount": 429,
    "fsopen": 430,
    "fsconfig": 431,
    "fsmount": 432,
    "fspick": 433,
    "mount_setattr": 442,
    # namespaces
    "unshare": 272,
    "setns": 308,
    # clock, swap, accounting, reboot, quotas, the console
    "settimeofday": 164,
    "clock_settime": 227,
    "clock_adjtime": 305,
    "swapon": 167,
    "swapoff": 168,
    "acct": 163,
    "reboot": 169,
    "quotactl": 179,
    "syslog": 103,
    "vhangup": 153,
    # raw I/O ports
    "ioperm": 173,
    "iopl": 172,
    # NUMA memory policy
    "mbind": 237,
    "set_mempolicy": 238,
    "get_mempolicy": 239,
    "move_pages": 279,
    # other processes' memory, file handles, the performance counters
    "process_vm_readv": 310,
    "process_vm_writev": 311,
    "kcmp": 312,
    "name_to_handle_at": 303,
    "open_by_handle_at": 304,
    "perf_event_open": 298,
    "lookup_dcookie": 212,
    "userfaultfd": 323,
    # io_uring (outside the filter's sight)
    "io_uring_setup": 425,
    "io_uring_enter": 426,
    "io_uring_register": 427,
    # obsolete
    "uselib": 134,
    "ustat": 136,
    "sysfs": 139,
    "_sysctl": 156,
    "nfsservctl": 180,
}
"""Refused with ``EPERM``: name → its x86-64 number."""

CLONE = 56
CLONE3 = 435
CLONE_NEW_FLAGS = {
    "CLONE_NEWTIME": 0x00000080,
    "CLONE_NEWNS": 0x00020000,
    "CLONE_NEWCGROUP": 0x02000000,
    "CLONE_NEWUTS": 0x04000000,
    "CLONE_NEWIPC": 0x08000000,
    "CLONE_NEWUSER": 0x10000000,
    "CLONE_NEWPID": 0x20000000,
    "CLONE_NEWNET": 0x40000000,
}
"""``clone`` with any of these flags is refused (``EPERM``)."""

AUDIT_ARCH_X86_64 = 0xC000003E
X32_SYSCALL_BIT = 0x40000000
_LD_W_ABS, _JEQ, _JGE, _JSET, _RET = 0x20, 0x15, 0x35, 0x45, 0x06
_ALLOW = 0x7FFF0000
_KILL_PROCESS = 0x80000000
_ERRNO = 0x00050000
_NR, _ARCH, _ARG0 = 0, 4, 16  # offsets in struct seccomp_data (args[0]'s low half on little-endian)


class Unsupported(Exception):
    """No filter is built for this machine's architecture."""


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("<HBBI", code, jt, jf, k)


def bpf(machine: str | None = None) -> bytes:
    """Return the filter as a classic BPF program (``struct sock_filter`` array) for x86-64.

    >>> len(bpf("x86_64")) // 8 == 8 + 2 * len(DENIED) + 5
    True
    """
    machine = machine or platform.machine()
    if machine not in ("x86_64", "amd64"):
        raise Unsupported(f"no seccomp filter is built for {machine} (x86-64 only)")
    eperm, enosys = _ERRNO | errno.EPERM, _ERRNO | errno.ENOSYS
    prog = [
        _op(_LD_W_ABS, _ARCH),
        _op(_JEQ, AUDIT_ARCH_X86_64, jt=1),
        _op(_RET, _KILL_PROCESS),  # another ABI (i386): not run at all
        _op(_LD_W_ABS, _NR),
        _op(_JGE, X32_SYSCALL_BIT, jf=1),
        _op(_RET, enosys),  # the x32 ABI: refused
        _op(_JEQ, CLONE3, jf=1),
        _op(_RET, enosys),  # the C library falls back to clone, whose flags are read below
    ]
    for number in sorted(DENIED.values()):
        prog += [_op(_JEQ, number, jf=1), _op(_RET, eperm)]
    mask = 0
    for flag in CLONE_NEW_FLAGS.values():
        mask |= flag
    prog += [
        _op(_JEQ, CLONE, jf=3),
        _op(_LD_W_ABS, _ARG0),
        _op(_JSET, mask, jf=1),
        _op(_RET, eperm),
        _op(_RET, _ALLOW),
    ]
    return b"".join(prog)


def oci_profile() -> dict:
    """Return the same refusals as an OCI seccomp profile (every other call allowed)."""
    rules: list[dict] = [
        {"names": sorted(DENIED), "action": "SCMP_ACT_ERRNO", "errnoRet": errno.EPERM},
        {"names": ["clone3"], "action": "SCMP_ACT_ERRNO", "errnoRet": errno.ENOSYS},
    ]
    for flag in CLONE_NEW_FLAGS.values():  # one rule a flag: the rules of a call are OR'd
        rules.append(
            {
                "names": ["clone"],
                "action": "SCMP_ACT_ERRNO",
                "errnoRet": errno.EPERM,
                "args": [{"index": 0, "value": flag, "valueTwo": flag, "op": "SCMP_CMP_MASKED_EQ"}],
            }
        )
    return {
        "defaultAction": "SCMP_ACT_ALLOW",
        "architectures": ["SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_X32"],
        "syscalls": rules,
    }


def gvisor_profile() -> dict:
    """Return :func:`oci_profile` in the form gVisor's kernel applies as meant (``runsc --oci-seccomp``).

    runsc releases that ignore a rule's ``errnoRet`` (Debian's 20221219 among them) answer every
    ``SCMP_ACT_ERRNO`` with ``EPERM``. ``clone3`` must answer ``ENOSYS``, the one error on which the C
    library falls back to ``clone`` (whose flags the rules read); refused with ``EPERM``, no thread starts
    (OpenBLAS, jemalloc, Python's ``threading``). So ``clone3`` is ``SCMP_ACT_TRACE`` instead, which any
    kernel, gVisor's included, answers with ``ENOSYS`` when no tracer is attached (measured under runsc
    20221219: a traced call returned ``ENOSYS``). A process that traces its own child with
    ``PTRACE_O_TRACESECCOMP`` may let that child's ``clone3`` run: runsc 20221219 does not implement
    ``clone3`` (it answers ``ENOSYS`` itself); gVisor's current sources do. Every other refusal is ``EPERM``
    already, as runsc gives it.
    """
    profile = oci_profile()
    for rule in profile["syscalls"]:
        if rule["names"] == ["clone3"]:
            rule["action"] = "SCMP_ACT_TRACE"
            del rule["errnoRet"]
    return profile
