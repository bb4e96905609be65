"""The ``validate`` command inside an agent's container: is this submission's format right.

It runs the graders' own validation (``graders.submission``), with the public sample submission standing
in for the answers: the sample has exactly the answers' ids and columns, so every format problem the grader
would reject (columns, ids, row count, empty cells, NaN, values the metric cannot take) is reported with the
grader's own words. Only public information is used — the sample submission in ``$DATA_DIR`` and the
competition's submission format and metric name in ``/opt/mlebench/competition.json`` — and no score is
ever computed or printed. The metric is looked up in ``graders.inputs`` (kind and bounds), so no metric
function is loaded, nor shipped in the agent's image.

Usage: ``validate [PATH]`` (default ``$SUBMISSION_DIR/submission.csv``). Exit status 0 when valid, 1 when
invalid, 2 when the check itself could not run.

``validate --serve`` answers the same check over HTTP on ``127.0.0.1:5000`` the way MLE-bench v1's
in-container server does, so agents written for v1 work unchanged: ``POST /validate`` with a multipart
form field named ``file`` (``curl -X POST -F "file=@submission.csv" http://localhost:5000/validate``)
returns 200 and ``{"result": "Submission is valid."}`` or ``{"result": "Submission invalid! <reasons>"}``,
or 500 and ``{"error": ..., "details": ...}`` when the check could not run; ``GET /health`` returns
``{"status": "running"}``. It binds the loopback interface only and reads nothing but the uploaded bytes
and the public inputs above. ``POST /check`` answers the ``validate`` command's own way
(``{"status": 0|1|2, "message": ...}``): the command sends its file there when the runner started the
server; it also takes the file as the whole body (``Content-Type: application/octet-stream``) and answers
``Accept: text/plain`` with the status on the first line and the message after it (the ``validate`` shell
command's way, ``environment/validate``).

The server is the only place a submission is checked: ``validate`` (the command, or this file run with a
path) sends its file there, and without an answer it checks nothing (exit 2), never locally and uncounted.
``validate --serve --record FILE`` appends one JSON line per call to ``FILE`` (time, endpoint, bytes,
sha256, result). The runners start the server so, as its own user (``validator``, uid 1001) in a folder
only that user can enter (``/var/lib/mlebench-validations``, mode 700): the agent, uid 1000, can neither
read, erase nor rewrite the record, which the runner collects after the agent stops. This code and the
modules it imports are the validator's only (mode 700 in the env image; not in the sandboxed agent's view):
the agent cannot run the check itself.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

SPEC = Path(os.environ.get("MLEBENCH_VALIDATION_SPEC", "/opt/mlebench/competition.json"))
EXIT_VALID, EXIT_INVALID, EXIT_UNCHECKED = 0, 1, 2
HOST, PORT = "127.0.0.1", 5000
RESULTS = {EXIT_VALID: "valid", EXIT_INVALID: "invalid", EXIT_UNCHECKED: "unchecked"}
MAX_UPLOAD = 512 * 1024 * 1024
"""The largest upload the server reads: the runner collects no larger submission either."""


def check(submission: Path, data_dir: Path, spec_path: Path) -> tuple[int, str]:
    """Validate ``submission`` against the public sample in ``data_dir``; return (status, message)."""
    status, detail, sample = _verdict(submission, data_dir, spec_path)
    if status == EXIT_VALID:
        return status, f"Submission is valid: {submission} has the format of {sample} (no score is given)."
    if status == EXIT_INVALID:
        return status, "Submission invalid: " + detail
    return status, detail


def v1_reply(submission: Path, data_dir: Path, spec_path: Path) -> tuple[int, dict[str, str]]:
    """Check ``submission``; return the HTTP status and JSON body v1's ``/validate`` answers with."""
    status, detail, _ = _verdict(submission, data_dir, spec_path)
    return _v1_body(status, detail)


def _v1_body(status: int, detail: str) -> tuple[int, dict[str, str]]:
    if status == EXIT_VALID:
        return 200, {"result": "Submission is valid."}
    if status == EXIT_INVALID:
        return 200, {"result": "Submission invalid! " + detail}
    return 500, {"error": "An unexpected error occurred.", "details": detail}


def _verdict(submission: Path, data_dir: Path, spec_path: Path) -> tuple[int, str, str]:
    """Return (status, the reasons or the problem, the sample's name)."""
    from graders.errors import InvalidSubmission
    from graders.inputs import get_inputs
    from graders.submission import read_answers, read_submission, validate
    from mlebench_spec.declarations import Submission

    try:
        spec = json.loads(spec_path.read_text(encoding="utf-8"))
        fmt = Submission.model_validate(spec["submission"])
        where, _, name = fmt.sample.partition("/")
        if where != "public":
            return EXIT_UNCHECKED, f"Could not check the submission: no public sample ({fmt.sample})", name
        sample = data_dir / name
        inputs = get_inputs(spec["metric"]["name"])
        reference = read_answers(sample)
    except Exception as exc:  # noqa: BLE001 - any failure here means "could not check", never "invalid"
        return EXIT_UNCHECKED, f"Could not check the submission: {type(exc).__name__}: {exc}", ""
    try:
        table = read_submission(submission)
        validate(table, reference, fmt, inputs, metric_args=spec["metric"].get("args", {}))
    except InvalidSubmission as exc:
        return EXIT_INVALID, "; ".join(exc.reasons), sample.name
    except ValueError as exc:
        return EXIT_UNCHECKED, f"Could not check the submission against {sample.name}: {exc}", sample.name
    return EXIT_VALID, "", sample.name


class _BadRequest(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _form_file(content_type: str, body: bytes) -> bytes:
    """Return the bytes of the multipart form field named ``file``, exactly as uploaded."""
    from email.message import Message

    header = Message()
    header["Content-Type"] = content_type
    boundary = header.get_param("boundary")
    if header.get_content_type() != "multipart/form-data" or not isinstance(boundary, str):
        raise _BadRequest(400, "expected a multipart/form-data upload: curl -X POST -F file=@submission.csv")
    for part in body.split(b"--" + boundary.encode("latin-1"))[1:]:
        head, sep, content = part.partition(b"\r\n\r\n")
        if not sep:
            continue
        disposition = Message()
        for line in head.decode("latin-1").strip().split("\r\n"):
            name, _, value = line.partition(":")
            disposition[name.strip()] = value.strip()
        if disposition.get_param("name", header="content-disposition") == "file":
            return content[:-2] if content.endswith(b"\r\n") else content
    raise _BadRequest(400, "the upload has no form field named 'file': curl -X POST -F file=@submission.csv")


def serve(data_dir: Path, spec_path: Path, record: Path | None = None) -> None:
    """Answer v1's ``POST /validate`` and ``GET /health`` on :data:`HOST`:data:`PORT` until killed."""
    with make_server(data_dir, spec_path, record=record) as server:
        print(f"validation server on http://{HOST}:{PORT} (POST /validate, GET /health)", flush=True)
        server.serve_forever()


def make_server(
    data_dir: Path, spec_path: Path, host: str = HOST, port: int = PORT, record: Path | None = None
) -> Any:
    """Return the HTTP server (an ``http.server.ThreadingHTTPServer``) bound to ``host:port``, not started.

    With ``record``, every ``/validate`` and ``/check`` call appends a JSON line to that file.
    """
    import hashlib
    import tempfile
    import threading
    import time

    lock = threading.Lock()

    def note(endpoint: str, data: bytes, status: int) -> None:
        if record is None:
            return
        line = {"t": round(time.time(), 3), "endpoint": endpoint, "bytes": len(data)}
        line.update(sha256=hashlib.sha256(data).hexdigest(), result=RESULTS.get(status, "error"))
        with lock, record.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(line) + "\n")

    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    from urllib.parse import urlsplit

    class Handler(BaseHTTPRequestHandler):
        timeout = 120

        def do_GET(self) -> None:  # noqa: N802 - the http.server hook
            if urlsplit(self.path).path == "/health":
                self._reply(200, {"status": "running"})
            else:
                self._reply(404, {"error": "not found: the endpoints are POST /validate and GET /health"})

        def do_POST(self) -> None:  # noqa: N802 - the http.server hook
            endpoint = urlsplit(self.path).path
            if endpoint not in ("/validate", "/check"):
                self._reply(404, {"error": "not found: the endpoints are POST /validate and GET /health"})
                return
            try:
                kind = self.headers.get("Content-Type", "")
                raw = endpoint == "/check" and kind.split(";")[0].strip() == "application/octet-stream"
                data = self._body() if raw else _form_file(kind, self._body())
            except _BadRequest as exc:
                note(endpoint, b"", -1)
                self._reply(exc.status, {"error": str(exc)})
                return
            with tempfile.TemporaryDirectory(prefix="validate-") as tmp:
                path = Path(tmp) / "submission.csv"
                path.write_bytes(data)
                if endpoint == "/check":
                    status, message = check(path, data_dir, spec_path)
                    shown = self.headers.get("X-Submission-Path", "")
                    if shown:
                        message = message.replace(str(path), shown)
                    note(endpoint, data, status)
                    if "text/plain" in self.headers.get("Accept", ""):  # the `validate` command's way
                        self._reply_text(f"{status}\n{message}\n")
                    else:
                        self._reply(200, {"status": status, "message": message})
                    return
                status, detail, _ = _verdict(path, data_dir, spec_path)
                note(endpoint, data, status)
                self._reply(*_v1_body(status, detail))

        def _body(self) -> bytes:
            try:
                length = int(self.headers.get("Content-Length", ""))
            except ValueError:
                raise _BadRequest(411, "the request needs a Content-Length") from None
            if not 0 <= length <= MAX_UPLOAD:
                raise _BadRequest(413, f"uploads are limited to {MAX_UPLOAD} bytes")
            return self.rfile.read(length)

        def _reply_text(self, text: str) -> None:
            data = text.encode("utf-8")
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _reply(self, status: int, body: dict[str, Any]) -> None:
            data = (json.dumps(body) + "\n").encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    return server


def _via_server(submission: Path) -> tuple[int, str] | None:
    """Check ``submission`` through the server on the loopback (so the call is counted); None without one."""
    import urllib.error
    import urllib.request

    try:
        data = submission.read_bytes()
    except OSError:
        return None  # the local check reports the problem in its own words
    boundary = "mlebench-validate-" + os.urandom(8).hex()
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="submission.csv"\r\n\r\n'
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    request = urllib.request.Request(
        f"http://{HOST}:{PORT}/check",
        data=body,
        headers={
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "X-Submission-Path": str(submission),
        },
    )
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # the loopback, never a proxy
    try:
        with opener.open(request, timeout=600) as response:
            reply = json.loads(response.read())
        return int(reply["status"]), str(reply["message"])
    except (OSError, urllib.error.URLError, ValueError, KeyError):
        return None


def main(argv: list[str]) -> int:
    """Command-line entry: ``validate [PATH]``, or ``validate --serve [--record FILE]``."""
    serving = argv[:1] == ["--serve"]
    if serving and argv[1:2] == ["--record"] and len(argv) == 3:
        record: Path | None = Path(argv[2])
    elif serving and len(argv) == 1:
        record = None
    elif serving or len(argv) > 1 or (argv and argv[0] in ("-h", "--help")):
        print(__doc__)
        return EXIT_UNCHECKED
    data_dir = Path(os.environ.get("DATA_DIR", "/home/data"))
    if serving:
        serve(data_dir, SPEC, record)
        return EXIT_VALID
    default = Path(os.environ.get("SUBMISSION_DIR", "/home/submission")) / "submission.csv"
    submission = Path(argv[0]) if argv else default
    # Through the counted server only: no answer is no check, never an uncounted one in this process.
    answered = _via_server(submission) if submission.is_file() else None
    if answered is None:
        print(
            f"Could not check {submission}: "
            + (
                "the validation server on localhost:5000 did not answer"
                if submission.is_file()
                else "no such file"
            )
            + " (submissions are checked there only, where every call is counted)"
        )
        return EXIT_UNCHECKED
    status, message = answered
    print(message)
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
