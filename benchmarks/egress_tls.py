"""What TLS inspection by the cell's proxy costs (issue 48): run time with inspection against without.

Two agents, each a proxied cell (network ``llm``, its one endpoint a stand-in HTTPS index on this machine,
:class:`authoring.https_standin.HttpsIndex`), ``--cells`` times per runner and arm, the arms alternating:

- the **baseline** (``agents/baseline``: scikit-learn on a small synthetic task; it fetches nothing, so
  what differs is the proxy's setup: the cell's CA, the certificate generator's folder);
- an **egress agent** that fetches ``--requests`` pages over HTTPS, each on a new connection (a new TLS
  handshake with the proxy, which then makes its own with the index), and one ``--payload-mb`` download.

Arm *inspected* is the runner as it is; arm *tunnelled* is the runner with no TLS policy (squid then passes
the encrypted bytes through ``CONNECT`` tunnels, as before issue 48; the agent trusts the index's own
certificate). Reported per runner and agent, medians in seconds: the cell's wall time, the agent's (its own
process), the egress agent's own timing of its requests (``fetch``), and the proxy's setup and teardown as
the runner measured it (``proxy``: run.json's ``overhead_seconds.egress``; the sandbox runner has none).

Usage: ``python benchmarks/egress_tls.py [--cells 3] [--runners docker,sandbox] [--requests 20]
[--payload-mb 8]``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from authoring.https_standin import HttpsIndex  # noqa: E402
from mlebench.execution import egress_tls  # noqa: E402
from mlebench.execution.runners import run_cell  # noqa: E402
from mlebench_spec.cell import Cell  # noqa: E402
from mlebench_spec.manifest import write_manifest  # noqa: E402
from mlebench_spec.params import AgentConfig, DockerSettings, Hardware  # noqa: E402

HW = Hardware(name="bench", cpus=1, memory="1g", shm_size="64m", pids=256, gpus=0, time_limit_secs=600)
FETCHER = """import json, os, shutil, ssl, time, urllib.request
kw = json.loads(os.environ["AGENT_KWARGS"])
ctx = ssl.create_default_context() if os.environ.get("SSL_CERT_FILE") else ssl.create_default_context(
    cadata=kw["server_cert"])
opener = urllib.request.build_opener(urllib.request.HTTPSHandler(context=ctx))
t0 = time.monotonic()
for i in range(int(kw["requests"])):
    assert b"allowed" in opener.open(kw["base"] + "/simple/allowed/", timeout=60).read()
got = len(opener.open(kw["base"] + "/payload", timeout=120).read())
assert got == int(kw["payload"]), got
print("fetched", kw["requests"], "pages and", got, "bytes in", round(time.monotonic() - t0, 3), "s")
shutil.copyfile(os.environ["DATA_DIR"] + "/sample_submission.csv",
                os.environ["SUBMISSION_DIR"] + "/submission.csv")
"""


def _competition(folder: Path, rows: int = 2000) -> Path:
    public = folder / "public"
    public.mkdir(parents=True)
    (public / "description.md").write_text("# Benchmark task\nPredict y from x.\n")
    (public / "train.csv").write_text("id,x,y\n" + "".join(f"{i},{i % 7},{i % 2}\n" for i in range(rows)))
    (public / "test.csv").write_text("id,x\n" + "".join(f"{i},{i % 5}\n" for i in range(rows, 2 * rows)))
    (public / "sample_submission.csv").write_text(
        "id,y\n" + "".join(f"{i},0\n" for i in range(rows, 2 * rows))
    )
    private = folder / "private"
    private.mkdir()
    (private / "answers.csv").write_text("id,y\n" + "".join(f"{i},1\n" for i in range(rows, 2 * rows)))
    write_manifest(folder)
    return public


def _host(runner: str) -> str:
    """Where the runner's proxy reaches this machine: the engine's bridge gateway, or the default route's."""
    sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "docker")]  # the tests' own helpers
    from llm_fixtures import bridge_gateway, host_address

    from mlebench.execution.docker.engine import connect

    return bridge_gateway(connect()) if runner == "docker" else host_address()


def main(argv: list[str] | None = None) -> int:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cells", type=int, default=3)
    parser.add_argument("--runners", default="docker,sandbox")
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--payload-mb", type=float, default=8.0)
    args = parser.parse_args(argv)
    settings = DockerSettings()
    payload = int(args.payload_mb * 1024 * 1024)
    rows = []
    with tempfile.TemporaryDirectory(prefix="mlebench-egress-bench-") as tmp:
        base = Path(tmp)
        base.chmod(0o755)
        public = _competition(base / "comp")
        fetcher = base / "fetcher"
        fetcher.mkdir()
        (fetcher / "main.py").write_text(FETCHER)
        shutil.copyfile(ROOT / "agents" / "dummy" / "Dockerfile", fetcher / "Dockerfile")
        for runner in args.runners.split(","):
            with HttpsIndex(_host(runner), base, payload) as index:
                agents = {
                    "baseline": AgentConfig(
                        path="agents/baseline",
                        command=["python", "main.py"],
                        kwargs={"max_train_rows": 20000},
                        network="llm",
                        endpoints=[index.endpoint],
                    ),
                    "egress agent": AgentConfig(
                        path=str(fetcher),
                        command=["python", "main.py"],
                        kwargs={
                            "base": index.base,
                            "requests": args.requests,
                            "payload": payload,
                            "server_cert": index.cert_pem,
                        },
                        network="llm",
                        endpoints=[index.endpoint],
                    ),
                }
                times: dict[tuple[str, str], list[tuple[float, float]]] = {}
                with mock.patch.dict("os.environ", {egress_tls.UPSTREAM_CA_ENV: str(index.cert_path)}):
                    for i in range(args.cells + 1):  # cell 0 warms up (images), not counted
                        for name, agent in agents.items():
                            for arm in ("inspected", "tunnelled"):
                                out = base / "runs" / runner / name.replace(" ", "-") / arm / str(i)
                                cell = Cell(
                                    "bench", name.replace(" ", "-"), i, ROOT, public, base, out, agent, HW
                                )
                                patch = (
                                    mock.patch.object(egress_tls, "cell_policy", lambda *a: None)
                                    if arm == "tunnelled"
                                    else mock.patch.object(egress_tls, "cell_policy", egress_tls.cell_policy)
                                )
                                t0 = time.monotonic()
                                with patch:
                                    rec = run_cell(cell, runner, settings)
                                wall = time.monotonic() - t0
                                assert rec.status == "ok", (runner, name, arm, rec.status, rec.reason)
                                log = (out / "proxy_access.log").read_text()
                                inspected = "GET https://" in log
                                assert inspected is (arm == "inspected" and name == "egress agent") or (
                                    name == "baseline" and not inspected
                                ), (arm, name, log[-500:])
                                said = (out / "agent_output.log").read_text(errors="replace").split()
                                fetch = float(said[said.index("in") + 1]) if "fetched" in said else 0.0
                                proxy = (getattr(rec, "overhead_seconds", None) or {}).get("egress", 0.0)
                                if i:
                                    times.setdefault((name, arm), []).append(
                                        (wall, rec.agent_seconds, fetch, proxy)
                                    )
                for (name, arm), got in sorted(times.items()):
                    row = {
                        "runner": runner,
                        "agent": name,
                        "arm": arm,
                        "cells": len(got),
                        **{
                            key: round(statistics.median(t[k] for t in got), 2)
                            for k, key in enumerate(("wall_s", "agent_s", "fetch_s", "proxy_s"))
                        },
                    }
                    rows.append(row)
                    print(json.dumps(row), flush=True)
    print(
        f"\n{args.requests} HTTPS requests (a connection each) and {args.payload_mb} MB per egress-agent cell"
    )
    print("medians; fetch: the egress agent's own timing of its requests; proxy: its setup and teardown")
    print(f"{'runner':<9}{'agent':<14}{'arm':<11}{'cell s':>9}{'agent s':>9}{'fetch s':>9}{'proxy s':>9}")
    for r in rows:
        print(
            f"{r['runner']:<9}{r['agent']:<14}{r['arm']:<11}{r['wall_s']:>9.2f}{r['agent_s']:>9.2f}"
            f"{r['fetch_s']:>9.2f}{r['proxy_s']:>9.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
