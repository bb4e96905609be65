"""stream-change-points: 60 three-channel sensor streams with hidden change points of four kinds.

``generate(dest, seed)`` writes, from ``seed`` alone (numpy's PCG64 stream; values rounded to 4 decimals):

- ``stream.csv``: ``series_id, t, c0, c1, c2``, 1,000 readings per series;
- ``changes.csv``: every change point: ``series_id, position, kind, channel, size``.

Each series has its own level, scale, autocorrelation (AR(1), phi up to 0.5) and a weak correlation
between channels. It has 1 to 4 change points, at least 80 readings apart and 50 from either end; at
``position`` the new regime starts (the first reading that follows it). The kinds:

- ``mean``: one channel's level moves by 0.8 to 2.5 of its scale;
- ``variance``: one channel's scale is multiplied or divided by 2 to 4;
- ``correlation``: the three channels' common correlation jumps to 0.7-0.95 (or back to 0-0.2), each
  channel's variance unchanged, so no single channel shows it;
- ``freeze``: one sensor stops and repeats its last reading to the end (only ever the last change).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

SERIES = 60
LENGTH = 1000
CHANNELS = 3
MIN_GAP = 80
EDGE = 50
KINDS = ("mean", "variance", "correlation", "freeze")


def _positions(rng: np.random.Generator, k: int) -> list[int]:
    while True:
        cps = np.sort(rng.integers(EDGE, LENGTH - EDGE, k))
        if k == 1 or np.diff(cps).min() >= MIN_GAP:
            return [int(c) for c in cps]


def _series(rng: np.random.Generator, sid: int) -> tuple[pd.DataFrame, list[dict]]:
    level = rng.uniform(-5.0, 5.0, CHANNELS)
    scale = rng.uniform(0.5, 2.0, CHANNELS)
    phi = rng.uniform(0.0, 0.5, CHANNELS)
    rho = float(rng.uniform(0.0, 0.3))
    k = int(rng.integers(1, 5))
    cps = _positions(rng, k)
    kinds = [str(rng.choice(KINDS[:3])) for _ in cps]
    if rng.random() < 0.35:
        kinds[-1] = "freeze"
    # per-reading regime parameters
    mean = np.tile(level, (LENGTH, 1))
    spread = np.tile(scale, (LENGTH, 1))
    corr = np.full(LENGTH, rho)
    frozen = np.full(CHANNELS, LENGTH)
    events = []
    for cp, kind in zip(cps, kinds, strict=True):
        channel = int(rng.integers(CHANNELS))
        if kind == "mean":
            size = float(rng.uniform(0.8, 2.5) * rng.choice([-1.0, 1.0]))
            mean[cp:, channel] += size * scale[channel]
        elif kind == "variance":
            size = float(rng.uniform(2.0, 4.0) ** rng.choice([-1.0, 1.0]))
            spread[cp:, channel] *= size
        elif kind == "correlation":
            size = float(rng.uniform(0.7, 0.95)) if abs(corr[cp - 1]) < 0.5 else float(rng.uniform(0.0, 0.2))
            corr[cp:] = size
            channel = -1
        else:
            size = 0.0
            frozen[channel] = cp
        events.append(
            {"series_id": sid, "position": cp, "kind": kind, "channel": channel, "size": round(size, 4)}
        )
    noise = np.empty((LENGTH, CHANNELS))
    z = np.zeros(CHANNELS)
    own = rng.standard_normal((LENGTH, CHANNELS))
    shared = rng.standard_normal(LENGTH)
    for t in range(LENGTH):
        # equicorrelated innovations with unit variance: a shared factor plus each channel's own part
        e = np.sqrt(corr[t]) * shared[t] + np.sqrt(1.0 - corr[t]) * own[t]
        z = phi * z + np.sqrt(1.0 - phi**2) * e
        noise[t] = z
    values = np.round(mean + spread * noise, 4)
    for channel in range(CHANNELS):
        if frozen[channel] < LENGTH:
            values[frozen[channel] :, channel] = values[frozen[channel] - 1, channel]
    frame = pd.DataFrame(values, columns=[f"c{c}" for c in range(CHANNELS)])
    frame.insert(0, "t", np.arange(LENGTH))
    frame.insert(0, "series_id", sid)
    return frame, events


def generate(dest: Path, seed: int) -> None:
    """Write stream.csv and changes.csv into ``dest`` from ``seed``."""
    rng = np.random.default_rng(seed)
    frames, events = [], []
    ids = rng.permutation(np.arange(1000, 1000 + 10 * SERIES, 10))[:SERIES]  # ids that carry no order
    for sid in ids:
        frame, found = _series(rng, int(sid))
        frames.append(frame)
        events += found
    stream = pd.concat(frames, ignore_index=True)
    stream.to_csv(dest / "stream.csv", index=False, lineterminator="\n", float_format="%.4f")
    pd.DataFrame(events).to_csv(dest / "changes.csv", index=False, lineterminator="\n", float_format="%.4f")
