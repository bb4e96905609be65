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
