"""nfl-player-contact-detection: MLE-bench v1's split of Kaggle's training plays.

v1 holds out ``train_test_split(unique game_play, test_size=0.1, random_state=0)`` (the plays in order of
first appearance in ``train_labels.csv``). The test plays' label rows become the answers; the helmet,
tracking and video-metadata tables are split into ``train_*``/``test_*`` by play, and each play's three
mp4s go to ``train/`` or ``test/``. The tables are large, so they are filtered in chunks of rows read as
text, which writes each kept line as v1's pandas round trip does for these integer, string and
short-decimal columns.
"""

import shutil
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench.data.prepare import write_csv
from mlebench_spec.declarations import Competition

TABLES = ["baseline_helmets", "player_tracking", "video_metadata"]
VIEWS = ["All29", "Endzone", "Sideline"]
CHUNK_ROWS = 500_000


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write v1's public and private files from ``raw``."""
    plays = (
        pd.read_csv(raw / "train_labels.csv", usecols=["game_play"], dtype=str)["game_play"].unique().tolist()
    )
    size = comp.split.test_size or comp.split.test_fraction
    train_plays, test_plays = train_test_split(plays, test_size=size, random_state=comp.split.seed)
    train_plays, test_plays = set(train_plays), set(test_plays)
    labels = raw / "train_labels.csv"
    split_csv(
        labels, {public / "train_labels.csv": train_plays, private / comp.submission.answers: test_plays}
    )
    answers = pd.read_csv(private / comp.submission.answers, usecols=["contact_id"], dtype=str)
    write_csv(answers.assign(contact=0), public / "sample_submission.csv")
    for table in TABLES:
        outputs = {public / f"train_{table}.csv": train_plays, public / f"test_{table}.csv": test_plays}
        split_csv(raw / f"train_{table}.csv", outputs)
    for name, chosen in (("train", train_plays), ("test", test_plays)):
        (public / name).mkdir(parents=True, exist_ok=True)
        for play in sorted(chosen):
            for view in VIEWS:
                video = raw / "train" / f"{play}_{view}.mp4"
                if video.is_file():
                    shutil.copyfile(video, public / name / video.name)


def split_csv(source: Path, outputs: dict[Path, set[str]]) -> None:
    """Write each output with the header and, in order, the rows of ``source`` whose play it takes."""
    for path in outputs:
        path.parent.mkdir(parents=True, exist_ok=True)
    chunks = pd.read_csv(source, dtype=str, keep_default_na=False, chunksize=CHUNK_ROWS)
    for first, chunk in enumerate(chunks):
        for path, chosen in outputs.items():
            rows = chunk[chunk["game_play"].isin(chosen)]
            rows.to_csv(
                path, mode="w" if first == 0 else "a", header=first == 0, index=False, lineterminator="\n"
            )
