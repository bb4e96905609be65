"""``validate --serve``: MLE-bench v1's validation endpoint, answered by our format-only validator.

The server runs here on an ephemeral loopback port; the container tests (tests/docker/
test_docker_v1_contract.py) reach it at v1's ``localhost:5000`` through curl and v1's helper script.
"""

from __future__ import annotations

import importlib.util
import json
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from embedded_fixtures import Prepared

from mlebench_spec.declarations import load_competition

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("env_validate", ROOT / "environment" / "validate.py")
validator = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(validator)
BOUNDARY = "----mlebench-test-boundary"


@pytest.fixture
def server(prepare_once: Callable[[str], Prepared], tmp_path: Path) -> Iterator[str]:
    prepared = prepare_once("titanic-lite")
    comp = load_competition("titanic-lite")
    spec = tmp_path / "competition.json"
    spec.write_text(
        json.dumps({"submission": comp.submission.model_dump(), "metric": {"name": comp.metric.name}})
    )
    httpd = validator.make_server(prepared.public, spec, port=0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))
"""Straight to the loopback server: the session's Kaggle stand-in sets HTTP_PROXY for the real client."""


def _request(url: str, body: bytes | None = None, content_type: str = "") -> tuple[int, dict]:
    request = urllib.request.Request(url, data=body, method="POST" if body is not None else "GET")
    if content_type:
        request.add_header("Content-Type", content_type)
    try:
        with _DIRECT.open(request, timeout=60) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _post_file(url: str, data: bytes, field: str = "file") -> tuple[int, dict]:
    body = (
        (
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{field}"; filename="any.txt"\r\n'
            "Content-Type: application/octet-stream\r\n\r\n"
        ).encode()
        + data
        + f"\r\n--{BOUNDARY}--\r\n".encode()
    )
    return _request(url + "/validate", body, f"multipart/form-data; boundary={BOUNDARY}")


def test_health_answers_as_v1s_does(server: str) -> None:
    assert _request(server + "/health") == (200, {"status": "running"})


def test_a_valid_file_is_valid_whatever_its_uploaded_name(
    server: str, prepare_once: Callable[[str], Prepared]
) -> None:
    sample = (prepare_once("titanic-lite").public / "sample_submission.csv").read_bytes()
    assert _post_file(server, sample) == (200, {"result": "Submission is valid."})
    crlf = sample.replace(b"\n", b"\r\n")  # the uploaded bytes reach the validator exactly
    assert _post_file(server, crlf) == (200, {"result": "Submission is valid."})


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"PassengerId,Survived\n1,\x00\xff\r\n", "not UTF-8 text: byte 0xff"),
        (b"nope,cols\n1,2\n", "missing columns: 'PassengerId', 'Survived'"),
        (b"", "submission.csv is empty"),
    ],
)
def test_an_invalid_file_gets_v1s_wording_and_the_graders_reasons(
    server: str, data: bytes, reason: str
) -> None:
    status, body = _post_file(server, data)
    assert status == 200 and body["result"].startswith("Submission invalid! ") and reason in body["result"]


def test_bad_requests_say_how_to_post(server: str) -> None:
    status, body = _post_file(server, b"x", field="upload")
    assert status == 400 and "no form field named 'file'" in body["error"]
    status, body = _request(server + "/validate", b"PassengerId,Survived\n", "text/csv")
    assert status == 400 and "multipart/form-data" in body["error"]
    status, body = _request(server + "/../../etc/passwd")
    assert status == 404 and "POST /validate" in body["error"]


def test_a_check_that_cannot_run_is_a_server_error_not_a_verdict(
    prepare_once: Callable[[str], Prepared], tmp_path: Path
) -> None:
    data = tmp_path / "submission.csv"
    data.write_text("PassengerId,Survived\n1,0\n")
    status, body = validator.v1_reply(data, prepare_once("titanic-lite").public, tmp_path / "absent.json")
    assert status == 500 and body["error"] and "Could not check" in body["details"]
