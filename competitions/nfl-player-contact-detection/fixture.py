"""A small stand-in for Kaggle's nfl-player-contact-detection download: four train tables and mp4 files."""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, regression
from authoring.synthetic import ids
from mlebench_spec.declarations import Competition, RealSize

VIEWS = ["All29", "Endzone", "Sideline"]


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write 20 plays of labels, helmets, tracking and video metadata, and three tiny mp4s per play."""
    labels, helmets, tracking, videos = [], [], [], []
    for play in range(20):
        game_key, play_id = 58000 + play * 7, 100 + play * 31
        game_play = f"{game_key}_{play_id:06d}"
        players = sorted(rng.choice(np.arange(37000, 48000), size=4, replace=False))
        start = pd.Timestamp("2020-09-11 03:01:43") + pd.Timedelta(days=play)
        for step in range(5):
            when = (start + pd.Timedelta(milliseconds=100 * step)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
            for i, first in enumerate(players):
                partners = [*players[i + 1 :], "G"]
                for second in partners:
                    contact_id = f"{game_play}_{step}_{first}_{second}"
                    labels.append((contact_id, game_play, when, step, first, second, int(rng.random() < 0.3)))
                tracking.append(
                    (game_play, game_key, play_id, first, step, ("away", "home")[i % 2], "WR", 10 + i, when,
                     *rng.uniform(0, 100, 2).round(2), *rng.uniform(0, 8, 2).round(2),
                     *rng.uniform(0, 360, 2).round(2), *rng.uniform(-3, 3, 2).round(2))
                )  # fmt: skip
                for view in VIEWS[1:]:
                    box = rng.integers(0, 700, 4)
                    video = f"{game_play}_{view}.mp4"
                    helmets.append(
                        (game_play, game_key, play_id, view, video, step, first, f"H{10 + i}", *box)
                    )
        for view in VIEWS:
            videos.append((game_play, game_key, play_id, view, "2020-09-11T03:01:43.134Z",
                           "2020-09-11T03:01:54.971Z", "2020-09-11T03:01:48.134Z"))  # fmt: skip
            (dest / "train").mkdir(exist_ok=True)
            (dest / "train" / f"{game_play}_{view}.mp4").write_bytes(
                b"\x00\x00\x00\x18ftypmp42" + rng.bytes(16)
            )
    tables = {
        "train_labels.csv": (
            labels,
            "contact_id game_play datetime step nfl_player_id_1 nfl_player_id_2 contact",
        ),
        "train_baseline_helmets.csv": (
            helmets,
            "game_play game_key play_id view video frame nfl_player_id player_label left width top height",
        ),
        "train_player_tracking.csv": (
            tracking,
            "game_play game_key play_id nfl_player_id step team position jersey_number datetime x_position "
            "y_position speed distance direction orientation acceleration sa",
        ),
        "train_video_metadata.csv": (
            videos,
            "game_play game_key play_id view start_time end_time snap_time",
        ),
    }
    for name, (rows, columns) in tables.items():
        pd.DataFrame(rows, columns=columns.split()).to_csv(dest / name, index=False)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: 0/1 contact per pair and frame, noisy predictions."""
    n = size.test_rows
    return regression(comp, ids("", n), rng.integers(0, 2, n), 0.8, rng)
