"""Use the sample submission as the submission, finding the folders by v1's layout (``/home/<folder>``).

Written for the v1-contract test: it reports who it runs as and with which interpreter, then copies
``../data/sample_submission.csv`` (relative to its own folder, ``/home/agent``) to
``../submission/submission.csv``, as MLE-bench v1's dummy agent does.
"""

import os
import shutil
import sys
from pathlib import Path


def main() -> None:
    """Copy the sample submission into place, saying who runs it."""
    home = Path(__file__).resolve().parent.parent
    print("running as root" if os.getuid() == 0 else f"running as uid {os.getuid()} (no root access)")
    print(f"interpreter: {sys.executable}")
    shutil.copy(home / "data" / "sample_submission.csv", home / "submission" / "submission.csv")
    print(f"copied the sample submission to {home / 'submission' / 'submission.csv'}")


if __name__ == "__main__":
    main()
