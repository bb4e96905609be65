"""What the cell's proxy sees of HTTPS, and what it refuses: TLS inspection and the forbidden sources.

Under networks ``egress`` and ``llm`` every runner sends its agent through a squid of the cell's own
(:mod:`.docker.egress`, :mod:`.docker.relayed`, :mod:`.host_proxy`). Without inspection an HTTPS download
shows in its access log as ``CONNECT host:443`` only, so the integrity stage cannot tell a package index's
listing from the competition's own source package. Here, per cell:

- a **CA of the cell's own** (:func:`new_ca`: a fresh key, valid two days, made with the ``openssl`` tool);
  its private key goes to the proxy only, never into the agent's view. Squid (Debian's ``squid-openssl``)
  *bumps* every CONNECT: it reads the client's hello, connects to the server and checks its certificate
  against the system's CAs (plus :data:`UPSTREAM_CA_ENV`'s file where set), then answers the agent with a
  certificate it mints for that host, signed by the cell's CA. Every request is then an ordinary one
  with its whole URL (``GET https://host/path``), logged, and matched against the ACLs;
- the agent's **trust**: its environment names the CA certificate for every common client
  (:data:`TRUST_VARS`: OpenSSL, requests, pip, curl, git, Node), and the container runners also put it
  in place of the system's bundle (the agent reaches TLS through the proxy only, so the cell's CA is the
  only one it needs);
- the **refusals** (:func:`refusals`): the competition's forbidden resources (its declared ones, and its
  source package's files, :meth:`~mlebench_spec.declarations.Competition.forbidden`), translated from RE2 to
  the POSIX extended syntax squid's ``url_regex`` uses (:func:`posix_pattern`), refused at the proxy
  (403, logged) before anything is fetched;
- a connection squid cannot inspect (not TLS on a CONNECT, a client that refuses the minted certificate
  as a pinned one does, a server whose certificate does not verify) is closed or answered with an error,
  and logged with squid's error code (the access log's last field, :data:`LOGFORMAT`).
"""

from __future__ import annotations

import os
import re
import re._constants as sre_c  # the standard library's own parser of the syntax RE2 shares
import re._parser as sre_p
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mlebench_spec.errors import ConfigError

CERTGEN = "/usr/lib/squid/security_file_certgen"
"""Squid's certificate generator (``squid-openssl``), which mints the per-host certificates."""
UPSTREAM_CA_ENV = "MLEBENCH_EGRESS_UPSTREAM_CA"
"""A PEM file of CAs the cell's proxy trusts for upstream servers besides the system's (a site's own
TLS-inspecting gateway; the tests' stand-in index on this machine). Unset: the system's CAs only."""
TRUST_VARS = (
    "SSL_CERT_FILE",
    "REQUESTS_CA_BUNDLE",
    "CURL_CA_BUNDLE",
    "PIP_CERT",
    "NODE_EXTRA_CA_CERTS",
    "GIT_SSL_CAINFO",
    "AWS_CA_BUNDLE",
)
"""The environment variables by which the common clients take a CA bundle."""
SYSTEM_BUNDLE = "/etc/ssl/certs/ca-certificates.crt"
"""Debian's system bundle, replaced by the cell's CA in the container runners' agent containers."""
LOGFORMAT = (
    "logformat mlebench %ts.%03tu %6tr %>a %Ss/%03>Hs %<st %rm %ru %[un %Sh/%<a %mt %err_code/%err_detail"
)
"""Squid's native access-log line plus the error code and detail (``-/-`` when none)."""
ROUTE_TLS = "inspected: ssl-bump with a CA of the cell's own; uninspectable connections refused"


@dataclass
class CellCA:
    """The cell's CA: its certificate (PEM, the agent trusts it) and private key (PEM, the proxy's only)."""

    cert: str
    key: str


@dataclass
class TlsPolicy:
    """One cell's TLS inspection and refusals, as every runner's proxy applies them.

    ``refuse`` holds the forbidden patterns in squid's syntax; ``kept_out`` the RE2 patterns that have no
    translation (still matched in the access log by the integrity stage, only not refused up front).
    """

    ca: CellCA
    refuse: list[str] = field(default_factory=list)
    patterns: list[str] = field(default_factory=list)
    kept_out: list[str] = field(default_factory=list)
    upstream_ca: str = ""

    def lineage(self) -> dict[str, Any]:
        """Return what run.json keeps of it (``egress.tls``)."""
        return {
            "inspection": ROUTE_TLS,
            "refused_at_proxy": list(self.patterns),
            "not_refused_untranslatable": list(self.kept_out),
            "upstream_ca": self.upstream_ca,
        }


def new_ca(common_name: str = "mlebench cell egress CA") -> CellCA:
    """Make a fresh CA (P-256 key, two days) with the ``openssl`` tool; raise ConfigError without it."""
    tool = shutil.which("openssl")
    if tool is None:
        raise ConfigError("TLS inspection of a proxied cell needs the openssl tool (apt-get install openssl)")
    with tempfile.TemporaryDirectory(prefix="mlebench-ca-") as tmp:
        key, cert = Path(tmp) / "ca.key", Path(tmp) / "ca.pem"
        subprocess.run(  # noqa: S603 - a fixed command line
            [tool, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
            + ["-days", "2", "-subj", f"/CN={common_name}", "-keyout", str(key), "-out", str(cert)]
            + ["-addext", "basicConstraints=critical,CA:TRUE"]
            + ["-addext", "keyUsage=critical,keyCertSign,cRLSign"],
            check=True,
            capture_output=True,
        )
        return CellCA(cert=cert.read_text(encoding="ascii"), key=key.read_text(encoding="ascii"))


def upstream_ca() -> str:
    """Return the PEM text of :data:`UPSTREAM_CA_ENV`'s file, or "" where unset."""
    path = os.environ.get(UPSTREAM_CA_ENV, "")
    if not path:
        return ""
    try:
        return Path(path).read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{UPSTREAM_CA_ENV}={path}: not a readable PEM file ({exc})") from None


def policy(forbidden: list[Any]) -> TlsPolicy:
    """Return a cell's policy: a fresh CA, and its forbidden resources (``pattern`` fields) as refusals."""
    refuse, patterns, kept_out = refusals([f.pattern for f in forbidden])
    return TlsPolicy(new_ca(), refuse, patterns, kept_out, upstream_ca())


def cell_policy(competition_id: str, root: Path) -> TlsPolicy:
    """Return the policy of a cell of ``competition_id``: its declaration's forbidden resources refused.

    An undeclared competition (a test's own) has none; the inspection is the same.
    """
    from mlebench_spec.declarations import declaration_path, load_competition

    if not declaration_path(competition_id, root).is_file():
        return policy([])
    return policy(load_competition(competition_id, root).forbidden())


def refusals(patterns: list[str]) -> tuple[list[str], list[str], list[str]]:
    """Translate ``patterns``: (squid's patterns, the RE2 ones they came from, those with no translation)."""
    refuse, done, kept_out = [], [], []
    for pattern in dict.fromkeys(patterns):
        try:
            refuse.append(posix_pattern(pattern))
            done.append(pattern)
        except ValueError:
            kept_out.append(pattern)
    return refuse, done, kept_out


def trust_env(ca_path: str) -> dict[str, str]:
    """Return the agent's environment variables that make its clients trust the CA at ``ca_path``."""
    return dict.fromkeys(TRUST_VARS, ca_path)


def squid_lines(cert: str, key: str, db: str, upstream: str = "", certgen: str = CERTGEN) -> list[str]:
    """Return squid's directives for inspection: the ``http_port`` options, the generator, the bump rules.

    The first item is what the ``http_port`` line adds; the rest are directives. ``cert``/``key`` are the
    CA's files, ``db`` the generator's folder (made by :func:`certgen_init_command`), ``upstream`` a PEM
    file of extra upstream CAs.
    """
    port = (
        f" ssl-bump tls-cert={cert} tls-key={key} generate-host-certificates=on "
        "dynamic_cert_mem_cache_size=4MB"
    )
    lines = [
        port,
        f"sslcrtd_program {certgen} -s {db} -M 4MB",
        "sslcrtd_children 4 startup=1 idle=1",
        "acl tls_hello at_step SslBump1",
        "ssl_bump peek tls_hello",
        "ssl_bump bump all",
        "on_unsupported_protocol respond all",
        "sslproxy_cert_error deny all",
    ]
    if upstream:
        lines.append(f"tls_outgoing_options cafile={upstream}")
    return lines


def certgen_init_command(db: str, certgen: str = CERTGEN) -> list[str]:
    """Return the command that makes the generator's folder ``db`` (which must not exist yet)."""
    return [certgen, "-c", "-s", db, "-M", "4MB"]


_ERE_SPECIAL = set(".[]()*+?{}|^$\\")
_CATEGORIES = {
    sre_c.CATEGORY_DIGIT: "0-9",
    sre_c.CATEGORY_WORD: "[:alnum:]_",
    sre_c.CATEGORY_SPACE: "[:space:]",
}
_NEGATED = {
    sre_c.CATEGORY_NOT_DIGIT: sre_c.CATEGORY_DIGIT,
    sre_c.CATEGORY_NOT_WORD: sre_c.CATEGORY_WORD,
    sre_c.CATEGORY_NOT_SPACE: sre_c.CATEGORY_SPACE,
}
_ANCHORS = {
    sre_c.AT_BEGINNING: "^",
    sre_c.AT_BEGINNING_STRING: "^",
    sre_c.AT_END: "$",
    sre_c.AT_END_STRING: "$",
    sre_c.AT_BOUNDARY: "\\b",  # a GNU extension of the POSIX syntax, which glibc's regcomp (squid's) has
    sre_c.AT_NON_BOUNDARY: "\\B",
}


def posix_pattern(pattern: str) -> str:
    r"""Return ``pattern`` (the RE2 syntax the declarations use) in POSIX extended syntax, as squid reads it.

    Matching is case-insensitive either way (squid's ``url_regex -i``). Lazy quantifiers become greedy (the
    same strings match somewhere), non-capturing groups capturing ones; ``\w``, ``\d``, ``\s`` become
    bracket classes; ``\b`` stays (glibc's extension). Raises ValueError for what has no equivalent.

    >>> posix_pattern(r"kaggle\.com/(?:c|competitions)/[\w-]+")
    'kaggle\\.com/c(ompetitions)?/[-[:alnum:]_]+'
    >>> posix_pattern(r"\brdatasets\b")
    '\\brdatasets\\b'
    """
    try:
        parsed = sre_p.parse(pattern, re.IGNORECASE)
    except re.error as exc:
        raise ValueError(f"{pattern!r}: {exc}") from None
    return _seq(list(parsed))


def _seq(items: list[Any]) -> str:
    return "".join(_item(op, av) for op, av in items)


def _atom(items: list[Any]) -> str:
    text = _seq(items)
    single = len(items) == 1 and items[0][0] in (sre_c.LITERAL, sre_c.NOT_LITERAL, sre_c.IN, sre_c.ANY)
    grouped = len(items) == 1 and items[0][0] in (sre_c.SUBPATTERN, sre_c.BRANCH)
    return text if single or grouped else f"({text})"


def _item(op: Any, av: Any) -> str:  # noqa: PLR0911 - one return per node kind
    if op is sre_c.LITERAL:
        ch = chr(av)
        if ch.isspace():  # squid's configuration splits on whitespace; a URL holds none either way
            return "[[:space:]]"
        if ch == '"':  # a leading quote would make squid read a file name
            return '["]'
        return f"\\{ch}" if ch in _ERE_SPECIAL else ch
    if op is sre_c.NOT_LITERAL:
        return _bracket([(sre_c.LITERAL, av)], negate=True)
    if op is sre_c.ANY:
        return "."
    if op is sre_c.IN:
        negate = bool(av) and av[0][0] is sre_c.NEGATE
        return _bracket(av[1:] if negate else av, negate)
    if op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT, getattr(sre_c, "POSSESSIVE_REPEAT", None)):
        lo, hi, sub = av
        atom = _atom(list(sub))
        if (lo, hi) == (0, sre_c.MAXREPEAT):
            return atom + "*"
        if (lo, hi) == (1, sre_c.MAXREPEAT):
            return atom + "+"
        if (lo, hi) == (0, 1):
            return atom + "?"
        if hi == sre_c.MAXREPEAT:
            return f"{atom}{{{lo},}}"
        if lo > 255 or hi > 255:
            raise ValueError(f"a repeat count above 255 ({lo}, {hi})")
        return f"{atom}{{{lo},{hi}}}" if lo != hi else f"{atom}{{{lo}}}"
    if op is sre_c.SUBPATTERN:
        _, add, remove, sub = av
        if (add | remove) & ~(re.IGNORECASE | re.UNICODE):
            raise ValueError("inline flags other than i")
        return f"({_seq(list(sub))})"
    if op is getattr(sre_c, "ATOMIC_GROUP", None):
        return f"({_seq(list(av))})"
    if op is sre_c.BRANCH:
        alternatives = [_seq(list(alt)) for alt in av[1]]
        filled = [a for a in alternatives if a]
        if not filled:
            return ""
        body = "|".join(filled)
        return f"({body})?" if len(filled) < len(alternatives) else f"({body})"
    if op is sre_c.AT and av in _ANCHORS:
        return _ANCHORS[av]
    raise ValueError(f"no POSIX equivalent for {op} {av!r}")


def _bracket(items: list[Any], negate: bool = False) -> str:
    parts: list[str] = []
    dash = close = caret = False
    for op, av in items:
        if op is sre_c.LITERAL:
            ch = chr(av)
            if ch == "-":
                dash = True
            elif ch == "]":
                close = True
            elif ch == "^":
                caret = True
            elif ch.isspace():
                parts.append("[:space:]")
            else:
                parts.append(ch)
        elif op is sre_c.RANGE:
            lo, hi = chr(av[0]), chr(av[1])
            if "]" in (lo, hi) or "-" in (lo, hi) or "^" in (lo, hi):
                raise ValueError(f"a range bounded by a bracket metacharacter ({lo}-{hi})")
            parts.append(f"{lo}-{hi}")
        elif op is sre_c.CATEGORY and av in _CATEGORIES:
            parts.append(_CATEGORIES[av])
        elif op is sre_c.CATEGORY and av in _NEGATED and len(items) == 1 and not negate:
            return f"[^{_CATEGORIES[_NEGATED[av]]}]"
        else:
            raise ValueError(f"no POSIX bracket for {op} {av!r}")
    body = ("]" if close else "") + "".join(parts) + ("^" if caret else "")
    if dash:
        body = "-" + body if not close else body + "-"
    if not body:
        raise ValueError("an empty bracket")
    if body == "^" and not negate:
        return "\\^"
    return f"[{'^' if negate else ''}{body}]"
