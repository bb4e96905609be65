"""Prepared splits through a real S3 server: DVC (``dvc-s3``) against SeaweedFS on loopback.

One SeaweedFS server for the module, two buckets with a key pair each (``storage`` for what agents see,
``answers`` for ``private/``; a key reaches only its own bucket). A producer repository prepares a real
embedded competition with our prepare (DVC's cache linked, not copied), pushes it, and then:

- the answers' objects are on the answers bucket only, the public ones on the storage bucket only;
- a clone holding only the public key pulls ``public/`` and the manifest, checks them against it, is refused
  the answers, and ``mlebench remotes`` names the remote and the missing key;
- a clone holding both keys pulls everything, and ``dvc status`` is clean.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from authoring.seaweedfs import SeaweedS3
from mlebench.data.remotes import missing_credentials
from mlebench_spec.hashing import sha256_tree
from mlebench_spec.manifest import verify_split

ROOT = Path(__file__).resolve().parents[1]
COMP = "titanic-lite"
PREPARED = f"data/prepared/{COMP}"

PREP = f"""
import sys, tempfile
from pathlib import Path
sys.path.insert(0, {str(ROOT)!r})
from mlebench.data.fetch import fetch
from mlebench.data.prepare import prepare_competition
from mlebench_spec.declarations import load_competition
comp = load_competition({COMP!r})
with tempfile.TemporaryDirectory(dir=".") as tmp:
    fetch(comp, Path(tmp) / "raw")
    prepare_competition(comp, Path(tmp) / "raw", Path({PREPARED!r}))
"""

DVC_YAML = f"""stages:
  prepare:
    cmd: python prep.py
    deps:
    - prep.py
    outs:
    - {PREPARED}/public
    - {PREPARED}/private:
        remote: answers
    - {PREPARED}/manifest.json
"""


def _run(args: list[str], cwd: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=env)
    if check and done.returncode:
        raise AssertionError(f"{args} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done


def _dvc(args: list[str], cwd: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    return _run([sys.executable, "-m", "dvc", *args], cwd, check)


def _keys(repo: Path, s3: SeaweedS3, names: tuple[str, ...]) -> None:
    for name in names:
        key, secret = s3.keys[name]
        _dvc(["remote", "modify", "--local", name, "access_key_id", key], repo)
        _dvc(["remote", "modify", "--local", name, "secret_access_key", secret], repo)


PROXY_VARIABLES = ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy")


@pytest.fixture(scope="module")
def s3(tmp_path_factory: pytest.TempPathFactory):
    """Run SeaweedFS on the loopback for the module, reached directly.

    The session's Kaggle stand-in (``standin`` in conftest.py) points ``HTTP_PROXY`` at itself, for the real
    Kaggle client; an S3 request sent through it gets 501 Not Implemented. The S3 client and every DVC
    process these tests start must go straight to the server, so the proxy variables are unset meanwhile.
    """
    folder = tmp_path_factory.mktemp("seaweedfs")
    with pytest.MonkeyPatch.context() as patch:
        for name in PROXY_VARIABLES:
            patch.delenv(name, raising=False)
        with SeaweedS3(folder, buckets=("storage", "answers")) as server:
            yield server
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def producer(s3: SeaweedS3, tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = tmp_path_factory.mktemp("producer")
    _run(["git", "init", "-q"], repo)
    _dvc(["init", "-q"], repo)
    config = (
        "[core]\n    remote = storage\n    autostage = false\n"
        '[cache]\n    type = "hardlink,reflink,copy"\n'
        + "".join(
            f"['remote \"{name}\"']\n    url = s3://{name}/dvc\n    endpointurl = {s3.endpoint}\n"
            for name in ("storage", "answers")
        )
    )
    (repo / ".dvc" / "config").write_text(config)
    (repo / "prep.py").write_text(PREP)
    (repo / "dvc.yaml").write_text(DVC_YAML)
    _keys(repo, s3, ("storage", "answers"))
    _dvc(["repro", "-q"], repo)
    _run(["git", "add", "-A"], repo)
    _run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "prepared"], repo)
    _dvc(["push", "-q"], repo)
    return repo


def _objects(s3: SeaweedS3, bucket: str) -> set[str]:
    return {Path(p).parent.name + Path(p).name for p in s3.client(bucket).find(f"{bucket}/dvc")}


def _md5s(repo: Path, side: str) -> set[str]:
    """Return the md5 of every file DVC recorded for ``side`` (its ``.dir`` object, from dvc.lock)."""
    import yaml

    lock = yaml.safe_load((repo / "dvc.lock").read_text())
    out = next(o for o in lock["stages"]["prepare"]["outs"] if o["path"] == f"{PREPARED}/{side}")
    digest = out["md5"].removesuffix(".dir")
    listing = repo / ".dvc" / "cache" / "files" / "md5" / digest[:2] / (digest[2:] + ".dir")
    return {entry["md5"] for entry in json.loads(listing.read_text())}


def test_prepared_outputs_are_linked_to_the_cache_read_only(producer: Path) -> None:
    for side in ("public", "private"):
        for path in (producer / PREPARED / side).rglob("*"):
            if path.is_file():
                st = path.stat()
                assert st.st_nlink >= 2, f"{path} is a copy of its cache file, not a link"
                assert not st.st_mode & 0o222, f"{path} is writable: writing it would change DVC's cache"
    assert _dvc(["status"], producer).stdout.strip().endswith("up to date.")


def test_answers_travel_only_on_their_own_remote(producer: Path, s3: SeaweedS3) -> None:
    storage, answers = _objects(s3, "storage"), _objects(s3, "answers")
    private, public = _md5s(producer, "private"), _md5s(producer, "public")
    assert private and private <= answers
    assert not private & storage, "an answer file is on the public remote"
    assert public <= storage
    assert not public & answers


def test_an_agent_machine_pulls_public_without_the_answers_key(
    producer: Path, s3: SeaweedS3, tmp_path: Path
) -> None:
    clone = tmp_path / "agents"
    _run(["git", "clone", "-q", str(producer), str(clone)], tmp_path)
    _keys(clone, s3, ("storage",))
    _dvc(["pull", "-q", f"{PREPARED}/public", f"{PREPARED}/manifest.json"], clone)
    assert sha256_tree(clone / PREPARED / "public") == sha256_tree(producer / PREPARED / "public")
    verify_split(clone / PREPARED / "public")
    assert not (clone / PREPARED / "private").exists()
    refused = _dvc(["pull", "-q", f"{PREPARED}/private"], clone, check=False)
    assert refused.returncode != 0
    assert not (clone / PREPARED / "private").exists()
    # Before DVC is asked: the missing key, named with its remote and the command that sets it.
    checked = _run([sys.executable, "-m", "mlebench.cli", "remotes", "answers"], clone, check=False)
    assert checked.returncode == 1
    assert "remote 'answers' (s3://answers/dvc) has no access_key_id" in checked.stderr
    assert "dvc remote modify --local answers access_key_id" in checked.stderr
    assert _run([sys.executable, "-m", "mlebench.cli", "remotes", "storage"], clone).returncode == 0
    # The public key is refused by the answers bucket too: keys are per bucket on the server.
    key, secret = s3.keys["storage"]
    _dvc(["remote", "modify", "--local", "answers", "access_key_id", key], clone)
    _dvc(["remote", "modify", "--local", "answers", "secret_access_key", secret], clone)
    assert _dvc(["pull", "-q", f"{PREPARED}/private"], clone, check=False).returncode != 0


def test_a_second_clone_with_both_keys_pulls_everything_and_is_clean(
    producer: Path, s3: SeaweedS3, tmp_path: Path
) -> None:
    clone = tmp_path / "grader"
    _run(["git", "clone", "-q", str(producer), str(clone)], tmp_path)
    _keys(clone, s3, ("storage", "answers"))
    _dvc(["pull", "-q"], clone)
    for side in ("public", "private"):
        assert sha256_tree(clone / PREPARED / side) == sha256_tree(producer / PREPARED / side)
        verify_split(clone / PREPARED / side)
    status = _dvc(["status"], clone).stdout
    assert "up to date" in status, status
    assert "changed" not in _dvc(["status", "--cloud"], clone).stdout


def test_missing_credentials_name_the_remote_and_the_key() -> None:
    remotes = {
        "storage": {"url": "s3://b/x", "access_key_id": "k", "secret_access_key": "s"},
        "answers": {"url": "s3://a/x", "access_key_id": "k"},
        "local": {"url": "/srv/dvc"},
        "profiled": {"url": "s3://p/x", "profile": "nobody", "credentialpath": "/nonexistent"},
    }
    problems = missing_credentials(remotes, ["storage", "answers", "local", "profiled", "gone"], env={})
    assert problems[0].startswith("remote 'answers' (s3://a/x) has access_key_id but no secret_access_key")
    assert "remote 'profiled' (s3://p/x) uses profile 'nobody'" in problems[1]
    assert problems[2].startswith("remote 'gone' is not configured")
    assert len(problems) == 3
    env = {"AWS_ACCESS_KEY_ID": "k", "AWS_SECRET_ACCESS_KEY": "s"}
    assert missing_credentials({"s": {"url": "s3://b"}}, ["s"], env=env) == []


def _handoff_scratch(root: Path, s3: SeaweedS3, prefix: str) -> None:
    """Build test_handoff's scratch pipeline with S3 remotes; this (coordinator) host has both keys."""
    import yaml
    from test_handoff import MAKE, PIPELINE, USE

    root.mkdir()
    (root / "dvc.yaml").write_text(yaml.safe_dump(PIPELINE, sort_keys=False))
    (root / "params.yaml").write_text("factor: 2\n")
    (root / "make.py").write_text(MAKE)
    (root / "use.py").write_text(USE)
    (root / "src.txt").write_text("hello\n")
    (root / "extra.txt").write_text("extra\n")
    (root / ".gitignore").write_text("/data/\n/result.txt\n/peek.txt\n/never.txt\n")
    _run(["git", "init", "-q"], root)
    _dvc(["init", "-q"], root)
    (root / ".dvc" / "config").write_text(
        "[core]\n    remote = storage\n"
        + "".join(
            f"['remote \"{n}\"']\n    url = s3://{n}/{prefix}\n    endpointurl = {s3.endpoint}\n"
            for n in ("storage", "answers")
        )
    )
    _keys(root, s3, ("storage", "answers"))
    _dvc(["add", "-q", "src.txt"], root)
    _run(["git", "add", "-A"], root)
    _run(["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "scratch"], root)


def _worker_keys(folder: Path, s3: SeaweedS3, names: tuple[str, ...]) -> None:
    """Write a worker host's own keys into its global DVC config (the coordinator never sends any)."""
    folder.mkdir()
    text = ""
    for name in names:
        key, secret = s3.keys[name]
        text += f"['remote \"{name}\"']\n    access_key_id = {key}\n    secret_access_key = {secret}\n"
    (folder / "config").write_text(text)


@pytest.mark.slow
@pytest.mark.parametrize("worker_has", [("storage", "answers"), ("storage",)])
def test_the_ray_hand_off_without_a_shared_disk_goes_through_s3(
    s3: SeaweedS3, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, worker_has: tuple[str, ...]
) -> None:
    from test_handoff import _count, _hand_off

    from mlebench.scheduling.executors.handoff import Coordinator

    root = tmp_path / "coordinator"
    monkeypatch.setenv("HANDOFF_COUNT", str(tmp_path / "count"))
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    _handoff_scratch(root, s3, tmp_path.name)
    monkeypatch.chdir(root)
    _dvc(["repro", "-q", "dvc.yaml:make"], root)
    coordinator = Coordinator.open(root, checkout=str(tmp_path / "workers"))
    spec = coordinator.spec("dvc.yaml:use", "x")
    assert spec["remotes"]["answers"]["endpointurl"] == s3.endpoint
    sent = json.dumps(spec)
    assert not any(secret in sent for pair in s3.keys.values() for secret in pair), "a key left this host"
    _worker_keys(tmp_path / "worker-config", s3, worker_has)
    monkeypatch.setenv("DVC_GLOBAL_CONFIG_DIR", str(tmp_path / "worker-config"))
    log = tmp_path / "use.log"
    done = _hand_off(coordinator, root, "dvc.yaml:use", log)
    if "answers" in worker_has:
        assert done["result"]["ok"], log.read_text()
        assert _count(root) == ["make", "use"]
        clone = next((tmp_path / "workers").glob("*/clone-0"))
        assert (root / "result.txt").read_bytes() == (clone / "result.txt").read_bytes()
        assert s3.client("answers").find(f"answers/{tmp_path.name}"), "the answers did not travel on theirs"
    else:
        assert not done["result"]["ok"]
        assert done["result"]["step"] == "check the remotes' credentials"
        assert "remote 'answers'" in done["result"]["error"]
        assert "has no access_key_id and no secret_access_key" in done["result"]["error"]
        assert _count(root) == ["make"], "the stage ran on a host that cannot push its answers"
