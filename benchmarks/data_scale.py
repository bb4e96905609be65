"""The data plane at real size: download → prepared → committed → pushed to S3 → pulled into a fresh clone.

Three shapes of synthesized Kaggle downloads (the real layouts; file bytes random, so nothing compresses):

- **many files**: dogs-vs-cats-redux-kernels-edition, Kaggle's 25,000 train and 12,500 test images
  (``--image-kb`` each, 22.7 KB by default: the real train.zip's 569 MB over 25,000);
- **one huge CSV**: new-york-city-taxi-fare-prediction's ``train.csv`` at ``--taxi-rows`` rows (the real file
  has 55M rows, 5.5 GB; a smaller size is measured and projected linearly, which the table says);
- **large archives**: multi-modal-gesture-recognition, whose ``*.tar.gz`` and ``*.7z`` archives prepare
  publishes as they are, ``--archive-gb`` in all.

For each, on identical copies of the download and in this one run:

- **copy floor**: ``unzip`` the download, ``cp -r`` what prepare publishes unchanged, ``zip`` what it
  re-archives (the least any prepare could write);
- **v1**: MLE-bench v1's ``extract`` of the download into ``raw/`` and the competition's v1 ``prepare``
  (from ``--v1-checkout``, in its own process, as ``benchmarks/v1_prepare_crosscheck.py`` runs it; v1's
  checksum step after prepare is left out, which only makes v1 faster), then its raw folder removed as v1
  does without ``--keep-raw``; footprint = the download v1 keeps + its prepared folders;
- **ours**: a copy of this checkout as a git + DVC project, the download in ``data/downloads/<id>/``,
  the pipeline's fetch (the archive moved into ``data/raw/<id>``, unextracted) and prepare stages run by
  ``dvc repro``, then DVC's commit; footprint = ``data/`` + ``.dvc/cache`` (blocks of distinct inodes: a
  link is counted once); then ``dvc push`` to SeaweedFS on loopback (public and answers on their own
  buckets and keys) and ``dvc pull`` into a fresh ``git clone`` with ``dvc status`` checked clean.

Printed: seconds of each step, download-to-committed against the floor and v1, prepare against v1, peak RSS
(prepare processes; v1's likewise), footprints and their ratio, push/pull MB/s, and a projection for
Lite (158 GB) and All (3.3 TB) from the measured seconds per GB. Everything is made under ``--work``
(default: a temporary folder) and deleted shape by shape.

Usage: ``python benchmarks/data_scale.py --v1-checkout PATH [--shapes many,csv,archives] [--taxi-rows N]
[--archive-gb G] [--images N] [--json OUT]``; ``--no-v1`` instead of ``--v1-checkout`` leaves v1 out (for the
taxi file's real 55M rows, whose whole frame v1 would hold in about 27 GB of RAM).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

LITE_GB, ALL_GB = 158.0, 3300.0
DOGS = "dogs-vs-cats-redux-kernels-edition"
TAXI = "new-york-city-taxi-fare-prediction"
GESTURE = "multi-modal-gesture-recognition"

_V1 = r"""
import json, resource, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import yaml
from mlebench.utils import extract, import_fn
cid, download, work = sys.argv[2], Path(sys.argv[3]), Path(sys.argv[4])
config = yaml.safe_load(open(Path(sys.argv[1]) / "mlebench" / "competitions" / cid / "config.yaml"))
prepare = import_fn(config["preparer"])
raw, public, private = work / "raw", work / "prepared" / "public", work / "prepared" / "private"
for folder in (raw, public, private):
    folder.mkdir(parents=True)
started = time.perf_counter()
extract(download, raw, recursive=False)
extracted = time.perf_counter()
prepare(raw=raw, public=public, private=private)
done = time.perf_counter()
print(json.dumps({"extract_s": extracted - started, "prepare_s": done - extracted,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

_V1_VERIFY = r"""
import json, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from mlebench.data import generate_checksums, get_checksum
download, prepared = Path(sys.argv[2]), Path(sys.argv[3])
started = time.perf_counter()
get_checksum.__wrapped__(download)  # v1's md5 of the download, without its on-disk memo
generate_checksums(prepared / "public"), generate_checksums(prepared / "private")
print(json.dumps({"verify_s": time.perf_counter() - started}))
"""


@dataclass
class Shape:
    """One shape's measurements (seconds, MB, ratios)."""

    name: str
    competition: str
    download_mb: float
    note: str = ""
    floor_s: float = 0.0
    v1_s: float = 0.0
    v1_prepare_s: float = 0.0
    v1_verify_s: float = 0.0
    v1_rss_mb: float = 0.0
    v1_footprint_mb: float = 0.0
    fetch_s: float = 0.0
    prepare_s: float = 0.0
    prepare_rss_mb: float = 0.0
    repro_s: float = 0.0
    commit_s: float = 0.0
    committed_s: float = 0.0
    footprint_mb: float = 0.0
    pushed_mb: float = 0.0
    push_s: float = 0.0
    pull_s: float = 0.0
    status_clean: bool = False
    pairs: list[tuple[float, float]] = field(default_factory=list)
    extra: dict = field(default_factory=dict)


# --------------------------------------------------------------------------------------------------------
# Synthesized downloads


def _stored_zip(archive: Path, members: dict[str, Path | bytes]) -> None:
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_STORED, allowZip64=True) as zf:
        for name, data in members.items():
            if isinstance(data, Path):
                zf.write(data, name)
            else:
                zf.writestr(name, data)


def _fixture(cid: str):  # noqa: ANN202 - a module
    """Import ``competitions/<cid>/fixture.py`` under a name of its own (each competition has one)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        f"fixture_{cid.replace('-', '_')}", ROOT / "competitions" / cid / "fixture.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def synth_dogs(folder: Path, images: int, image_kb: float) -> Path:
    """Kaggle's dogs-vs-cats-redux download: train.zip (cat.N/dog.N), test.zip (N.jpg), the sample."""
    import numpy as np

    rng = np.random.default_rng(0)
    size = int(image_kb * 1024)
    parts = folder / "parts"
    parts.mkdir(parents=True)

    def image() -> bytes:
        return b"\xff\xd8\xff\xe0" + rng.bytes(size + int(rng.integers(-size // 3, size // 3)))

    with zipfile.ZipFile(parts / "train.zip", "w", compression=zipfile.ZIP_STORED) as zf:
        for label in ("cat", "dog"):
            for i in range(images // 2):
                zf.writestr(f"train/{label}.{i}.jpg", image())
    with zipfile.ZipFile(parts / "test.zip", "w", compression=zipfile.ZIP_STORED) as zf:
        for i in range(1, images // 2 + 1):
            zf.writestr(f"test/{i}.jpg", image())
    sample = "id,label\n" + "".join(f"{i},0.5\n" for i in range(1, images // 2 + 1))
    download = folder / f"{DOGS}.zip"
    _stored_zip(
        download,
        {
            "train.zip": parts / "train.zip",
            "test.zip": parts / "test.zip",
            "sample_submission.csv": sample.encode(),
        },
    )
    shutil.rmtree(parts)
    return download


def synth_taxi(folder: Path, rows: int) -> Path:
    """Kaggle's taxi download: train.csv at ``rows`` rows (the fixture's generator), test, sample, coupons."""
    import numpy as np

    taxi_rides = _fixture(TAXI).taxi_rides  # the competition's own fixture generator

    parts = folder / "parts"
    parts.mkdir(parents=True)
    rng = np.random.default_rng(0)
    with (parts / "train.csv").open("w") as out:
        for start in range(0, rows, 500_000):
            rides = taxi_rides(min(500_000, rows - start), rng)
            rides["key"] = [f"{k}.{start}" for k in rides["key"]]
            rides.to_csv(out, index=False, header=start == 0)
    test = taxi_rides(9914, rng).drop(columns="fare_amount")
    download = folder / "new-york-city-taxi-fare-prediction.zip"
    _stored_zip(
        download,
        {
            "train.csv": parts / "train.csv",
            "test.csv": test.to_csv(index=False).encode(),
            "sample_submission.csv": test[["key"]].assign(fare_amount=11.35).to_csv(index=False).encode(),
            "GCP-Coupons-Instructions.rtf": b"{\\rtf1 coupons}\n",
        },
    )
    shutil.rmtree(parts)
    return download


def synth_gesture(folder: Path, total_gb: float) -> Path:
    """Kaggle's gesture download from the fixture, its pass-through archives grown to ``total_gb`` in all."""
    import numpy as np

    make_download = _fixture(GESTURE).make_download

    parts = folder / "parts"
    parts.mkdir(parents=True)
    make_download(parts, np.random.default_rng(0))
    big = [f"training{k}.tar.gz" for k in (1, 2, 3)] + [f"validation{k}.tar.gz" for k in (1, 2, 3)]
    big += ["devel01-40.7z", "valid_all_files_combined.7z"]
    each = int(total_gb * 1e9 / len(big))
    rng = np.random.default_rng(1)
    for name in big:  # prepare and v1 copy these without opening them
        with (parts / name).open("wb") as out:
            for _ in range(max(1, each >> 24)):
                out.write(rng.bytes(1 << 24))
    download = folder / "multi-modal-gesture-recognition.zip"
    _stored_zip(download, {p.name: p for p in sorted(parts.iterdir())})
    shutil.rmtree(parts)
    return download


# --------------------------------------------------------------------------------------------------------
# Measuring


def footprint_mb(*folders: Path) -> float:
    """Disk blocks of the distinct inodes under ``folders`` (a hard link counted once), in MB."""
    seen, blocks = set(), 0
    for folder in folders:
        if not folder.exists():
            continue
        for dirpath, _dirs, files in os.walk(folder):
            for name in files:
                st = os.lstat(os.path.join(dirpath, name))
                if (st.st_dev, st.st_ino) not in seen:
                    seen.add((st.st_dev, st.st_ino))
                    blocks += st.st_blocks
    return blocks * 512 / 1e6


def _timed(args: list[str], cwd: Path, env: dict | None = None) -> tuple[float, subprocess.CompletedProcess]:
    started = time.perf_counter()
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - started
    if done.returncode:
        raise RuntimeError(
            f"{' '.join(args)} exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        )
    return seconds, done


def copy_floor(download: Path, work: Path, shape: str) -> float:
    """``unzip`` the download, ``cp -r`` what is published unchanged, ``zip`` what is re-archived."""
    raw, out = work / "raw", work / "out"
    out.mkdir(parents=True)
    seconds, _ = _timed(["unzip", "-q", str(download), "-d", str(raw)], work)
    if shape == "many":
        s, _ = _timed(["unzip", "-q", str(raw / "train.zip"), "-d", str(raw / "x")], work)
        seconds += s
        s, _ = _timed(["cp", "-r", str(raw / "x" / "train"), str(out / "all")], work)
        seconds += s
        s, _ = _timed(["zip", "-q", "-r", str(out / "train.zip"), "all"], out)
        seconds += s
    else:
        s, _ = _timed(["cp", "-r", str(raw), str(out / "public")], work)
        seconds += s
    shutil.rmtree(raw)
    shutil.rmtree(out)
    return seconds


def run_v1(v1: Path, cid: str, download: Path, work: Path, *, verify: bool = True) -> dict:
    """v1's extract + prepare in its own process; its footprint after removing raw/ as v1 does.

    With ``verify``, then v1's default verification (``mlebench prepare`` without ``--skip-verification``)
    in a second process, its seconds apart (``verify_s``): the run above leaves it out.
    """
    work.mkdir(parents=True)
    kept = work / download.name
    os.link(download, kept)  # the download v1 keeps beside raw/
    subprocess.run(["sync"], check=True)  # every timed prepare starts with nothing left to write back
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _V1, str(v1), cid, str(kept), str(work)],
        capture_output=True,
        text=True,
        cwd=work,
    )
    seconds = time.perf_counter() - started
    if done.returncode:
        raise RuntimeError(f"v1's prepare of {cid} failed:\n{done.stderr[-3000:]}")
    record = json.loads(done.stdout.strip().splitlines()[-1])
    shutil.rmtree(work / "raw")  # v1 without --keep-raw
    record["seconds"] = seconds
    if verify:  # v1's default checks, timed apart: its md5 of the download and of the prepared tables
        args = [sys.executable, "-c", _V1_VERIFY, str(v1), str(kept), str(work / "prepared")]
        _, checked = _timed(args, work)
        record["verify_s"] = json.loads(checked.stdout.strip().splitlines()[-1])["verify_s"]
        shutil.rmtree(work / "cache", ignore_errors=True)  # v1's on-disk memo of checksums
    record["footprint_mb"] = footprint_mb(work)
    return record


class _Downloaded:
    """A Kaggle API whose download finds the archive already in place (the download is not measured)."""

    def competition_download_files(self, slug: str, path: str, quiet: bool = True) -> None:
        if not (Path(path) / f"{slug}.zip").is_file():
            raise FileNotFoundError(f"{path}/{slug}.zip")


def fetch_stage(cid: str) -> int:
    """Run the pipeline's fetch for ``cid`` with the archive already downloaded (run by ``dvc repro``)."""
    from mlebench.data.kaggle_source import fetch_kaggle
    from mlebench_spec.declarations import load_competition
    from mlebench_spec.paths import downloads_dir, raw_dir

    comp = load_competition(cid)
    fetch_kaggle(comp, raw_dir(comp.id), downloads_dir(comp.id), api=_Downloaded(), extract=False)
    return 0


def measured(name: str, args: list[str]) -> int:
    """Run ``args``; write its seconds and peak RSS to ``.bench/<name>.json`` (in the stage's wdir)."""
    started = time.perf_counter()
    code = subprocess.run(args).returncode
    seconds = time.perf_counter() - started
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    Path(".bench").mkdir(exist_ok=True)
    Path(".bench", f"{name}.json").write_text(json.dumps({"seconds": seconds, "rss_mb": rss}))
    return code


DVC_YAML = """stages:
  fetch:
    cmd: >-
      python benchmarks/data_scale.py --measure fetch --
      python benchmarks/data_scale.py --fetch-stage {cid}
    deps:
    - competitions/{cid}/competition.yaml
    outs:
    - data/raw/{cid}
  prepare:
    cmd: python benchmarks/data_scale.py --measure prepare -- python -m stages.prepare --competition {cid}
    deps:
    - competitions/{cid}/prepare.py
    - data/raw/{cid}
    params:
    - descriptions
    outs:
    - data/prepared/{cid}/public
    - data/prepared/{cid}/private:
        remote: answers
    - data/prepared/{cid}/manifest.json
"""


def run_ours(cid: str, download: Path, work: Path, s3, shape: Shape) -> tuple[Path, dict]:
    """Fetch, prepare, commit, push and pull ``cid`` in a git + DVC copy of this checkout.

    Returns the copy and the environment its commands ran in.
    """
    from checkout_copy import copy_checkout

    repo = copy_checkout(work)
    for stale in ("dvc.yaml", "dvc.lock"):
        (repo / stale).unlink(missing_ok=True)
    shutil.rmtree(repo / "pipelines")
    (repo / "dvc.yaml").write_text(DVC_YAML.format(cid=cid))
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@localhost"]
    dvc = [sys.executable, "-m", "dvc"]
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    env.pop("MLEBENCH_ROOT", None)
    for name in ("storage", "answers"):
        key, secret = s3.keys[name]
        for setting, value in (
            ("url", f"s3://{name}/{cid}"),
            ("endpointurl", s3.endpoint),
            ("access_key_id", key),
            ("secret_access_key", secret),
        ):
            _timed([*dvc, "remote", "modify", "--local", name, setting, value], repo, env)
    _timed([*git, "add", "-A"], repo, env)
    _timed([*git, "commit", "-qm", "bench"], repo, env)
    downloads = repo / "data" / "downloads" / cid
    downloads.mkdir(parents=True)
    os.link(download, downloads / download.name)

    subprocess.run(["sync"], check=True)  # as before v1's run
    shape.repro_s, _ = _timed([*dvc, "repro", "--no-commit"], repo, env)
    fetch = json.loads((repo / ".bench" / "fetch.json").read_text())
    prep = json.loads((repo / ".bench" / "prepare.json").read_text())
    shape.fetch_s, shape.prepare_s, shape.prepare_rss_mb = fetch["seconds"], prep["seconds"], prep["rss_mb"]
    shape.commit_s, _ = _timed([*dvc, "commit", "-f", "-q"], repo, env)
    shape.committed_s = shape.repro_s + shape.commit_s
    shape.footprint_mb = footprint_mb(repo / "data", repo / ".dvc" / "cache")
    shape.extra["dvc_overhead_s"] = round(shape.repro_s - shape.fetch_s - shape.prepare_s, 1)
    shape.pushed_mb = footprint_mb(repo / ".dvc" / "cache")
    _timed([*git, "add", "-A"], repo, env)
    _timed([*git, "commit", "-qm", "prepared"], repo, env)
    shape.push_s, _ = _timed([*dvc, "push", "-q"], repo, env)
    clone = work / "clone"
    _timed(["git", "clone", "-q", str(repo), str(clone)], work, env)
    shutil.copyfile(repo / ".dvc" / "config.local", clone / ".dvc" / "config.local")
    shape.pull_s, _ = _timed([*dvc, "pull", "-q"], clone, env)
    _, status = _timed([*dvc, "status"], clone, env)
    shape.status_clean = "up to date" in status.stdout
    shape.extra["clone_footprint_mb"] = round(footprint_mb(clone / "data", clone / ".dvc" / "cache"))
    return repo, env


def prepare_again(cid: str, repo: Path, env: dict) -> float:
    """Our prepare stage once more in its own process, its earlier output removed first; its seconds."""
    shutil.rmtree(repo / "data" / "prepared" / cid)
    subprocess.run(["sync"], check=True)
    seconds, _ = _timed([sys.executable, "-m", "stages.prepare", "--competition", cid], repo, env)
    return seconds


def measure_shape(kind: str, args: argparse.Namespace, work: Path, s3) -> Shape:
    """Synthesize one shape's download and measure the floor, v1 and ours on it; delete everything after."""
    folder = work / kind
    folder.mkdir()
    started = time.perf_counter()
    extra: dict = {}
    if kind == "many":
        cid = DOGS
        download = synth_dogs(folder, args.images, args.image_kb)
        note = f"{args.images:,} train + {args.images // 2:,} test images"
    elif kind == "csv":
        cid = TAXI
        download = synth_taxi(folder, args.taxi_rows)
        note = f"{args.taxi_rows:,} rows (real: 55M)"
        extra = {"rows": args.taxi_rows}
    else:
        cid = GESTURE
        download = synth_gesture(folder, args.archive_gb)
        note = f"{args.archive_gb:g} GB of archives"
    shape = Shape(kind, cid, download.stat().st_size / 1e6, note, extra=extra)
    print(
        f"[{kind}] synthesized {shape.download_mb:,.0f} MB in {time.perf_counter() - started:.0f} s",
        flush=True,
    )
    shape.floor_s = copy_floor(download, folder / "floor", kind)
    print(f"[{kind}] copy floor {shape.floor_s:.1f} s", flush=True)
    if args.no_v1:
        shape.note += "; v1 not run (--no-v1)"
    else:
        v1 = run_v1(args.v1_checkout, cid, download, folder / "v1")
        shape.v1_s, shape.v1_prepare_s, shape.v1_rss_mb = v1["seconds"], v1["prepare_s"], v1["rss_mb"]
        shape.v1_verify_s = v1["verify_s"]
        shape.v1_footprint_mb = v1["footprint_mb"]
        shutil.rmtree(folder / "v1")
        print(f"[{kind}] v1 {shape.v1_s:.1f} s", flush=True)
    repo, env = run_ours(cid, download, folder / "ours", s3, shape)
    for _ in range(0 if args.no_v1 else args.pairs):  # v1 and our prepare in turn, for a median ratio
        again = run_v1(args.v1_checkout, cid, download, folder / "v1", verify=False)
        shutil.rmtree(folder / "v1")
        shape.pairs.append((again["seconds"], prepare_again(cid, repo, env)))
        print(f"[{kind}] pair: v1 {shape.pairs[-1][0]:.1f} s, ours {shape.pairs[-1][1]:.1f} s", flush=True)
    for bucket in ("storage", "answers"):
        s3.client(bucket).rm(f"{bucket}/{cid}", recursive=True)
    shutil.rmtree(folder)
    print(f"[{kind}] ours {shape.committed_s:.1f} s to committed", flush=True)
    return shape


def table(shapes: list[Shape]) -> str:
    """Return the results as a Markdown table, then the projection."""
    rows = [
        "| shape | download MB | floor s | v1 s (prepare; + its verification) "
        "| ours to committed s (fetch / prepare / commit) "
        "| vs floor | vs v1 | prepare vs v1 (median of pairs) | fetch + prepare vs v1 + verification "
        "| RSS MB ours / v1 | footprint MB ours / v1 | push MB/s | pull MB/s | status |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]

    def ratio(a: float, b: float) -> str:
        return f"{a / b:.2f}x" if b else "—"

    for s in shapes:
        paired = ""
        if s.pairs:
            paired = f" ({statistics.median(ours / v1 for v1, ours in s.pairs):.2f}x of {len(s.pairs)})"
        rows.append(
            f"| {s.name} ({s.note}) | {s.download_mb:,.0f} | {s.floor_s:.1f} | "
            f"{f'{s.v1_s:.1f} ({s.v1_prepare_s:.1f}; + {s.v1_verify_s:.1f})' if s.v1_s else '—'} | "
            f"{s.committed_s:.1f} ({s.fetch_s:.1f} / {s.prepare_s:.1f} / {s.commit_s:.1f}) | "
            f"{ratio(s.committed_s, s.floor_s)} | {ratio(s.committed_s, s.v1_s)} | "
            f"{ratio(s.prepare_s, s.v1_s)}{paired} | "
            f"{ratio(s.fetch_s + s.prepare_s, s.v1_s + s.v1_verify_s)} | "
            f"{s.prepare_rss_mb:,.0f} / {s.v1_rss_mb:,.0f} | "
            f"{s.footprint_mb:,.0f} / {s.v1_footprint_mb:,.0f} "
            f"({ratio(s.footprint_mb, s.v1_footprint_mb)}) | "
            f"{s.pushed_mb / s.push_s:.0f} | {s.pushed_mb / s.pull_s:.0f} | "
            f"{'clean' if s.status_clean else 'NOT CLEAN'} |"
        )
    for s in shapes:
        if s.name == "csv" and s.extra.get("rows"):
            per_row = [f"ours prepare {s.prepare_s / s.extra['rows'] * 1e6:.2f} µs/row"]
            if s.v1_s:
                per_row.append(f"v1 extract + prepare {s.v1_s / s.extra['rows'] * 1e6:.2f} µs/row")
            rows += ["", f"CSV at {s.extra['rows']:,} rows: " + "; ".join(per_row)]
    rows += ["", "Projection from the measured seconds per GB of download (each shape's rate; hours):", ""]
    rows += [
        "| shape | committed s/GB | push s/GB | pull s/GB | Lite 158 GB: committed / push / pull h | "
        "All 3.3 TB: committed / push / pull h | footprint ratio |",
        "|---|---:|---:|---:|---|---|---:|",
    ]
    for s in shapes:
        gb = s.download_mb / 1e3
        per = [s.committed_s / gb, s.push_s / gb, s.pull_s / gb]
        lite = " / ".join(f"{p * LITE_GB / 3600:.1f}" for p in per)
        full = " / ".join(f"{p * ALL_GB / 3600:.1f}" for p in per)
        rows.append(
            f"| {s.name} | {per[0]:.0f} | {per[1]:.0f} | {per[2]:.0f} | {lite} | {full} | "
            f"{ratio(s.footprint_mb, s.v1_footprint_mb)} |"
        )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    """Measure the shapes asked for and print the table."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--fetch-stage"]:
        return fetch_stage(argv[1])
    if argv[:1] == ["--measure"]:
        return measured(argv[1], argv[3:])
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--v1-checkout", type=Path, default=None, help="MLE-bench v1's source (a scratch folder)"
    )
    parser.add_argument("--shapes", default="many,csv,archives")
    parser.add_argument("--images", type=int, default=25_000)
    parser.add_argument("--image-kb", type=float, default=22.7)
    parser.add_argument("--taxi-rows", type=int, default=8_000_000)
    parser.add_argument("--archive-gb", type=float, default=2.0)
    parser.add_argument("--work", type=Path, default=None)
    parser.add_argument(
        "--no-v1",
        action="store_true",
        help="leave v1 out (its whole-frame pandas holds ~0.5 KB per taxi row: ~27 GB at 55M rows)",
    )
    parser.add_argument(
        "--pairs",
        type=int,
        default=0,
        help="then run v1's extract + prepare and our prepare stage N more times in turn (median ratio)",
    )
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.v1_checkout is None and not args.no_v1:
        parser.error("--v1-checkout PATH is required (or --no-v1)")
    from authoring.seaweedfs import SeaweedS3

    base = Path(tempfile.mkdtemp(prefix="mlebench-data-scale-", dir=args.work))
    shapes = []
    try:
        with SeaweedS3(base / "s3", buckets=("storage", "answers")) as s3:
            for kind in args.shapes.split(","):
                shapes.append(measure_shape(kind, args, base, s3))
                print(table(shapes[-1:]), flush=True)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print()
    print(table(shapes))
    if args.json:
        args.json.write_text(json.dumps([asdict(s) for s in shapes], indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
