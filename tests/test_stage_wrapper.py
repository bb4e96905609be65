"""The stage wrapper (mlebench/stage.py): a stage process skips the shutdown's collections, nothing else."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = textwrap.dedent(
    """
    import atexit, gc, sys, tempfile, threading, time
    from pathlib import Path

    from mlebench.stage import run_stage

    out = Path(sys.argv[1])

    def main(argv):
        atexit.register(lambda: (out / "atexit").write_text("ran"))
        kept = tempfile.TemporaryDirectory(dir=out)  # its finalizer removes it at exit
        main.kept = kept.name
        threading.Thread(target=lambda: (time.sleep(0.3), (out / "thread").write_text("done"))).start()
        sys.stdout.write("unflushed")  # no newline: still in the buffer when main returns
        return 3

    sys.argv = sys.argv[:1]  # the wrapper sees a stage's own command line
    code = run_stage(main)
    print(f" frozen={gc.get_freeze_count() > 0} {main.kept}")
    raise SystemExit(code)
    """
)


def test_a_stage_process_exits_without_collecting_but_keeps_the_shutdown(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 3, done.stderr
    text, kept = done.stdout.rsplit(" ", 1)
    assert text == "unflushed frozen=True"
    assert (tmp_path / "atexit").read_text() == "ran"
    assert (tmp_path / "thread").read_text() == "done"  # non-daemon threads are still joined
    assert not Path(kept).exists()  # temporary folders are still removed


def test_run_stage_called_with_arguments_leaves_the_collector_alone():
    code = (
        "import gc; from mlebench.stage import run_stage; run_stage(lambda a: 0, []); "
        "print(gc.get_freeze_count())"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "0", done.stderr


def test_python_dash_m_imports_a_stage_with_the_collector_off_and_runs_it_with_the_collector_on(tmp_path):
    # the premise: while `python -m pkg.mod` imports pkg, sys.argv[0] is "-m" (what stages/__init__.py checks)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("import sys\nprint(repr(sys.argv[0]))\n")
    (tmp_path / "pkg" / "mod.py").write_text("")
    done = subprocess.run(
        [sys.executable, "-m", "pkg.mod"], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.stdout.strip() == "'-m'", done.stderr
    code = (
        "import gc, sys; sys.argv = ['-m']; import stages; off = not gc.isenabled(); "
        "from mlebench.stage import run_stage; "
        "run_stage(lambda a: print(off, gc.isenabled(), gc.get_freeze_count() > 0) or 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["True", "True", "True"], done.stderr
    plain = "import gc, stages; print(gc.isenabled())"  # the scheduler and the tests import it too
    done = subprocess.run(
        [sys.executable, "-c", plain], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.stdout.strip() == "True", done.stderr
