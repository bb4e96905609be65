"""environment/bootstrap_base.sh takes its Debian mirror from this machine's apt sources, not a built-in one.

The script runs for real on a fake apt tree (``APT_SOURCES_DIR``) as a dry run (``MIRROR_ONLY=1``), which
prints the mirror and security mirror it would debootstrap from and stops before needing root or an engine.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "environment" / "bootstrap_base.sh"


def _dry_run(apt: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "APT_SOURCES_DIR": str(apt), "MIRROR_ONLY": "1"}
    return subprocess.run(["bash", str(SCRIPT), *args], env=env, capture_output=True, text=True, timeout=30)


def _apt(tmp_path: Path, files: dict[str, str]) -> Path:
    apt = tmp_path / "apt"
    (apt / "sources.list.d").mkdir(parents=True)
    for name, text in files.items():
        (apt / name).write_text(text)
    return apt


ONE_LINE = """\
# deb http://commented.example/debian bookworm main
deb-src http://source.example/debian bookworm main
deb [arch=amd64 signed-by=/usr/share/keyrings/k.gpg] http://mirror.example/debian bookworm main contrib
deb http://mirror.example/debian-security bookworm-security main
"""
DEB822 = """\
Types: deb-src
URIs: http://source.example/debian
Suites: bookworm

Types: deb
URIs: http://off.example/debian
Suites: bookworm
Enabled: no

Types: deb deb-src
URIs: http://first.example/debian http://second.example/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://security.example/debian-security
Suites: bookworm-security
Components: main
"""


@pytest.mark.parametrize(
    ("files", "mirror", "security"),
    [
        ({"sources.list": ONE_LINE}, "http://mirror.example/debian", "http://mirror.example/debian-security"),
        (
            {"sources.list.d/debian.sources": DEB822},
            "http://first.example/debian",
            "http://security.example/debian-security",
        ),
        (  # files apt ignores (other extensions) are ignored; a suite without a security source is fine
            {
                "sources.list.d/old.list.disabled": "deb http://ignored.example/debian bookworm main\n",
                "sources.list.d/local.list": "deb http://local.example/debian bookworm main # local\n",
            },
            "http://local.example/debian",
            "",
        ),
    ],
)
def test_the_mirror_comes_from_the_apt_sources(
    tmp_path: Path, files: dict, mirror: str, security: str
) -> None:
    done = _dry_run(_apt(tmp_path, files), "img:tag", "bookworm")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"mirror={mirror}", f"security={security}"]


def test_a_mirror_given_on_the_command_line_wins(tmp_path: Path) -> None:
    done = _dry_run(
        _apt(tmp_path, {"sources.list": ONE_LINE}), "img:tag", "bookworm", "http://given.example/d"
    )
    assert done.returncode == 0 and done.stdout.splitlines()[0] == "mirror=http://given.example/d"


@pytest.mark.parametrize(
    ("files", "suite"),
    [
        ({}, "bookworm"),
        ({"sources.list": ONE_LINE.replace("bookworm ", "trixie ")}, "bookworm"),
        ({"sources.list.d/d.sources": DEB822}, "trixie"),
    ],
)
def test_no_source_for_the_suite_is_a_clear_error(tmp_path: Path, files: dict, suite: str) -> None:
    done = _dry_run(_apt(tmp_path, files), "img:tag", suite)
    assert done.returncode == 1 and done.stdout == ""
    assert f"no apt source for suite '{suite}'" in done.stderr and "pass the mirror" in done.stderr
