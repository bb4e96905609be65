"""The composed plan (``params.yaml``): its schema, and the loader stages use to read their own section.

``params.yaml`` is written by ``mlebench plan`` from ``conf/``; DVC hashes it and stages read it, never
``conf/``. A stage asks only for the keys it declares in its pipeline entry, so an undeclared read fails
instead of escaping DVC's tracking.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_serializer,
    model_validator,
)

from mlebench_spec.errors import ConfigError
from mlebench_spec.network import Kind, NetworkPolicy
from mlebench_spec.paths import repo_root
from mlebench_spec.yamlio import load_yaml

PARAMS_FILE = "params.yaml"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Disclosures(_Strict):
    """What an agent declares about how it worked, recorded with every score it gets; nothing is assumed.

    ``models``: the models the agent calls (``[]``: none). ``uses_test_feedback``: whether the agent gets
    any feedback computed from the test answers (MLE-bench's #138, e.g. grading against them to pick a
    submission). ``web_search``: whether it searches the web. Every key is required.
    """

    models: list[str]
    uses_test_feedback: bool
    web_search: bool


class Prices(_Strict):
    """What a model's tokens cost: per 1,000 prompt and per 1,000 completion tokens, in ``currency``."""

    prompt_per_1k: float = Field(ge=0)
    completion_per_1k: float = Field(ge=0)
    currency: str = "USD"


class V1Agent(_Strict):
    """Where an agent of a v1 agents folder comes from (:mod:`mlebench.execution.v1_agents`).

    ``id``: its id in v1's ``config.yaml``; ``config``: that file and the line of the id (``path:line``);
    ``dockerfile``: the Dockerfile's name in the agent's folder (its build context); ``env_vars``: the
    variables its container gets, as written (``${{ secrets.NAME }}`` resolved only when the cell runs).
    """

    id: str
    config: str
    dockerfile: str = "Dockerfile"
    env_vars: dict[str, str] = {}


class V1Source(_Strict):
    """One ``v1_agents`` entry of conf/config.yaml: a v1 agents folder, the ids to run, their disclosures."""

    dir: str
    ids: list[str] = Field(min_length=1)
    disclosures: Disclosures


class AgentConfig(_Strict):
    """One agent: its folder (main.py, requirements.txt, Dockerfile), the command that starts it, its options.

    ``network`` is what the Docker runner gives the agent's container: ``none`` (the default: no network at
    all), ``egress`` (any public host) or ``llm`` (only the ``endpoints``); under both, every request goes
    through the cell's own logging proxy, whose access log is kept with the run, and private addresses
    (other cells, the host) are unreachable (:mod:`mlebench.execution.docker.egress`). It is recorded in
    the lineage and shown beside every headline figure.
    ``endpoints``: the ``host:port`` pairs an ``llm`` agent may reach (a DNS name or an IPv4 address, and a
    port); required under ``llm`` and refused under any other policy. ``api_key_env``: the name of the
    runner's environment variable that holds the agent's API key; that one variable (read at run time)
    reaches the agent under the same name, and its value is redacted from everything the run keeps.
    Both serialise only when set, so the params of agents without them are what they were.
    ``disclosures`` is what the agent declares (:class:`Disclosures`): required of every agent a plan
    holds (:class:`Plan`), optional here only so a test can build a bare config to run.
    ``prices`` (optional, :class:`Prices`) prices the tokens the agent's usage file reports: run.json's
    ``usage.cost`` (:mod:`mlebench.reporting.usage`).
    ``reproduce`` (optional): the argv that re-runs the agent's kept code in ``$CODE_DIR`` to write
    ``$SUBMISSION_DIR/submission.csv`` again (the reproduce stage, :mod:`mlebench.execution.reproduce`);
    without it the kept code may declare itself (``code/reproduce.sh``) or fall to the documented default.
    ``reproduce_inputs`` (optional): globs, relative to the kept ``code/``, of the files the re-run gets
    beside the source files it always gets (pretrained weights, a vocabulary): nothing else the agent kept
    reaches it (:mod:`mlebench.execution.reproduce_inputs`). Both serialise only when set.
    ``v1`` (optional, :class:`V1Agent`): the agent is an id of a v1 agents folder, run as v1 runs it;
    serialised only when set.
    """

    path: str
    command: list[str] = Field(min_length=1)
    kwargs: dict[str, Any] = {}
    network: Kind = "none"
    endpoints: list[str] = []
    api_key_env: str | None = None
    disclosures: Disclosures | None = None
    prices: Prices | None = None
    reproduce: list[str] = []
    reproduce_inputs: list[str] = []
    v1: V1Agent | None = None

    @field_validator("reproduce_inputs")
    @classmethod
    def _relative_globs(cls, value: list[str]) -> list[str]:
        for glob in value:
            problem = _glob_problem(glob)
            if problem:
                raise ValueError(
                    f"reproduce_inputs: {glob!r} {problem}; write a glob relative to the kept code/, e.g. "
                    "'weights/*.pt'"
                )
        if len(set(value)) != len(value):
            raise ValueError(f"reproduce_inputs names a glob twice: {value}")
        return value

    @property
    def policy(self) -> NetworkPolicy:
        """The agent's network policy, typed (:class:`mlebench_spec.network.NetworkPolicy`), not yet held."""
        return NetworkPolicy(self.network, tuple(self.endpoints))

    @model_validator(mode="after")
    def _endpoints_for_llm(self) -> AgentConfig:
        problem = self.policy.endpoints_problem()
        if problem:
            raise ValueError(f"agent at {self.path}: {problem}")
        for endpoint in self.endpoints:
            problem = endpoint_problem(endpoint)
            if problem:
                raise ValueError(f"agent at {self.path}: endpoint {endpoint!r}: {problem}")
        if self.api_key_env is not None:
            if not _ENV_NAME.fullmatch(self.api_key_env):
                raise ValueError(
                    f"agent at {self.path}: api_key_env {self.api_key_env!r} is not an environment variable "
                    "name (letters, digits and _, not starting with a digit)"
                )
            if self.api_key_env.upper() in RESERVED_ENV:
                raise ValueError(
                    f"agent at {self.path}: api_key_env {self.api_key_env!r} is a variable the runner sets "
                    "itself: name the variable that holds the key, e.g. OPENAI_API_KEY"
                )
        return self

    @model_serializer(mode="wrap")
    def _without_undeclared(self, handler: Any) -> dict[str, Any]:
        data = handler(self)
        for key in ("disclosures", "api_key_env", "prices", "v1"):
            if data.get(key) is None:
                data.pop(key, None)
        if not self.endpoints:
            data.pop("endpoints", None)
        if not self.reproduce:
            data.pop("reproduce", None)
        if not self.reproduce_inputs:
            data.pop("reproduce_inputs", None)
        return data


def _glob_problem(glob: str) -> str:
    """Why ``glob`` is not a glob inside the kept code/ ("" when it is).

    >>> _glob_problem("weights/*.pt"), _glob_problem("../answers.csv"), _glob_problem("/etc/*")
    ('', 'leaves code/ (..)', 'is absolute')
    """
    if not glob.strip() or glob != glob.strip():
        return "is empty or has surrounding spaces"
    if glob.startswith("/") or "\\" in glob or ":" in glob:
        return "is absolute" if glob.startswith("/") else "has a backslash or colon"
    if ".." in PurePosixPath(glob).parts:
        return "leaves code/ (..)"
    if glob.strip("*/.") == "":
        return "matches everything kept (the re-run would get stored outputs back)"
    return ""


_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOSTNAME = re.compile(rf"(?=.{{1,253}}$){_LABEL}(?:\.{_LABEL})*")
RESERVED_ENV = frozenset(
    {
        "PATH",
        "HOME",
        "LANG",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "NO_PROXY",
        "ALL_PROXY",
        "DATA_DIR",
        "SUBMISSION_DIR",
        "CODE_DIR",
        "LOGS_DIR",
        "AGENT_DIR",
        "INSTRUCTIONS_FILE",
        "COMPETITION_ID",
        "SEED",
        "TIME_LIMIT_SECS",
        "AGENT_KWARGS",
        "LD_PRELOAD",
        "LD_LIBRARY_PATH",
        "PYTHONPATH",
    }
)
"""Variables the runner sets (or that change what runs): never the name of an API key."""


def endpoint_problem(endpoint: str) -> str | None:
    """Return what is wrong with a ``host:port`` endpoint (DNS name or IPv4, port 1-65535), or None."""
    import ipaddress

    host, sep, port = endpoint.rpartition(":")
    if not sep or not host:
        return "expected host:port, e.g. api.openai.com:443"
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        return f"port {port!r} is not a number from 1 to 65535"
    if host.startswith("["):
        return "IPv6 addresses are not supported (the agent's network has no IPv6): use a name or IPv4"
    if re.fullmatch(r"[0-9.]+", host):
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            return f"{host!r} is not an IPv4 address"
        return None
    if not _HOSTNAME.fullmatch(host):
        return f"{host!r} is not a DNS name (letters, digits, '-' and '.') or an IPv4 address"
    return None


class Hardware(_Strict):
    """A hardware profile: what a cell may use, enforced by the runner and recorded with every score.

    ``gpu_sharing``: how many cells may hold one GPU at once; 1 (the default) gives each cell its GPUs
    exclusively. A profile that opts in serialises the field (so its cells' params change); one that does
    not serialises exactly as before. ``disk``: the size limit of a container's writable layer (``"20g"``;
    empty: none), applied where the engine's storage driver can enforce one (``docker.storage_limit`` in
    run.json says whether it was); serialised, like ``gpu_sharing``, only when set.
    """

    name: str
    cpus: float = Field(gt=0)
    memory: str
    shm_size: str
    pids: int = Field(gt=0)
    gpus: int = Field(ge=0)
    time_limit_secs: int = Field(gt=0)
    gpu_sharing: int = Field(default=1, ge=1, le=64)
    disk: str = Field(default="", pattern=r"^(\d+[kmgt]?)?$")

    @model_serializer(mode="wrap")
    def _sharing_only_when_opted_in(self, handler: Any) -> dict[str, Any]:
        data = handler(self)
        if data.get("gpu_sharing") == 1:
            del data["gpu_sharing"]
        if data.get("disk") == "":
            del data["disk"]
        return data


class DockerSettings(_Strict):
    """How the Docker runner builds its images (see environment/README.md).

    ``base_image`` is the FROM of the base environment image: the default is the Debian image that
    ``environment/bootstrap_base.sh`` builds locally (no registry needed); with registry access use e.g.
    ``debian:bookworm-slim``. ``runtime`` is the OCI runtime containers use (``runc``, or ``sysbox-runc``
    where installed). ``infra_retries`` bounds how often an engine failure (unreachable, build, create)
    is retried before the cell is recorded as ``infra_error``; an agent's own failure is never retried.
    ``install_heavy_dependencies`` is v1's build arg of the same name: on, the env image's conda environment
    ``agent`` also gets v1's deep-learning packages (``environment/requirements-heavy.txt``); off (here the
    default, unlike v1) keeps the image light.
    """

    base_image: str = "mlebench-debian:bookworm"
    runtime: str = "runc"
    infra_retries: int = Field(default=2, ge=0, le=10)
    install_heavy_dependencies: bool = False


class ReportSettings(_Strict):
    """How the report aggregates: ``pad_missing`` pads incomplete seeds with failing entries.

    Off (the default, MLE-bench's default): a split's seed count is the smallest number of graded entries
    among its competitions. On (MLE-bench's ``--pad-missing``, the leaderboard's footnoted rows): the
    largest, with absent entries counted as no submission and no medal.

    ``count_flagged``: off (the default), a cell its integrity verdict flags keeps its score but counts as
    no medal in the headline; on, it counts as scored. The report shows both figures either way.
    """

    pad_missing: bool = False
    count_flagged: bool = False


class TextSettings(_Strict):
    """Which task texts agents read (:mod:`mlebench_spec.texts`): ``ours`` or ``mlebench`` (v1's, checked).

    ``checkout`` is a checkout of MLE-bench v1 (absolute, or relative to the repository root), needed for
    ``mlebench``: v1's description and instructions files are read from it and checked against the git blob
    ids our declarations record. ``obfuscate`` (v1's ``OBFUSCATE``) gives agents v1's obfuscated texts
    instead: each competition's ``description_obfuscated.md`` and ``instructions_obfuscated.txt``.
    """

    source: Literal["ours", "mlebench"] = "ours"
    checkout: str = ""
    obfuscate: bool = False

    @model_validator(mode="after")
    def _checkout_for_mlebench(self) -> TextSettings:
        if self.source == "mlebench" and not self.checkout:
            raise ValueError("descriptions.source 'mlebench' needs descriptions.checkout: a v1 checkout")
        if self.obfuscate and self.source != "mlebench":
            raise ValueError(
                "descriptions.obfuscate gives agents v1's obfuscated texts: it needs descriptions.source "
                "'mlebench' and descriptions.checkout"
            )
        return self


class DataSettings(_Strict):
    """Where the grade stage reads the private answers.

    ``dir`` empty (the default): the checkout's ``data/prepared/<id>/private``, which the prepare stage
    writes. Otherwise a data directory prepared elsewhere, in this project's layout (``<dir>/<id>/private``)
    or MLE-bench v1's (``<dir>/<id>/prepared/private``, graded as v1 wrote it); ``layout`` names which, or
    ``auto`` finds it (:func:`mlebench_spec.datadir.prepared_in`).
    """

    dir: str = ""
    layout: Literal["auto", "ours", "v1"] = "auto"


class GradingSettings(_Strict):
    """How submissions are graded: ``mode`` is ``v1`` (the default) or ``strict``.

    ``v1`` pairs rows and columns as MLE-bench v1's graders do where a competition declares that they differ
    (``submission.v1``: position matching, id subsets, repeated ids, extra or reordered columns), so scores
    compare with the published leaderboard; ``strict`` refuses those submissions, or scores them by id.
    Every grading record says which mode decided it and keeps both verdicts where they differ.
    """

    mode: Literal["v1", "strict"] = "v1"


class SnapshotSettings(_Strict):
    """When the runner copies ``submission.csv`` while the agent runs (any-time snapshots; off by default).

    ``every_secs``: a mark every N seconds of the agent's run (0: none). ``fractions``: marks at these
    fractions of the hardware profile's time limit (each in (0, 1), e.g. ``[0.25, 0.5, 0.75]``). Both may be
    set; their union is taken (:func:`mlebench.execution.snapshots.marks`). Off, the plan writes no
    ``snapshots`` key, so no stage's params or hashes change.
    """

    every_secs: int = Field(default=0, ge=0)
    fractions: list[float] = []

    @field_validator("fractions")
    @classmethod
    def _fractions(cls, value: list[float]) -> list[float]:
        bad = [f for f in value if not 0 < f < 1]
        if bad:
            raise ValueError(f"snapshots.fractions must each lie strictly between 0 and 1, got {bad}")
        if len(set(value)) != len(value):
            raise ValueError(f"snapshots.fractions must be distinct, got {value}")
        return sorted(value)

    @property
    def enabled(self) -> bool:
        """Whether any mark is configured."""
        return bool(self.every_secs or self.fractions)


class Tolerance(_Strict):
    """How far a reproduced score may lie from the original and still count as reproduced.

    Relative to the original score's magnitude (``max(|original|, 1e-9)``), per metric direction:
    ``worse`` bounds a reproduced score that is worse than the original (lower for a higher-is-better
    metric, higher for a lower-is-better one), ``better`` one that is better.
    """

    worse: float = Field(default=0.01, ge=0)
    better: float = Field(default=0.01, ge=0)


class ReproduceSettings(_Strict):
    """The reproduce stage (process evaluation; off by default): re-run each cell's kept code, grade it.

    ``enabled``: plan a reproduce stage per sampled cell. ``fraction``: the share of cells sampled (by a
    hash of agent, competition and seed, so a larger fraction keeps the cells a smaller one had).
    ``time_fraction``: the reproduction's time limit as a fraction of the hardware profile's.
    ``tolerance``: :class:`Tolerance`. ``headline``: ``all`` (reproduction is reported only) or
    ``reproduced`` (the headline counts a cell's medal only when its code reproduced it).
    ``flag``: the reproduction verdicts the integrity verdict flags (check ``reproduction``): by default
    ``differs`` (the code wrote a valid submission far from the cell's own); add ``failed`` to flag code that
    writes none at all, ``not_declared`` to require a declaration; ``[]`` flags nothing. Off, the plan writes
    no ``reproduce`` key, so no stage's params change.
    """

    enabled: bool = False
    fraction: float = Field(default=1.0, gt=0, le=1)
    time_fraction: float = Field(default=0.5, gt=0, le=1)
    tolerance: Tolerance = Tolerance()
    headline: Literal["all", "reproduced"] = "all"
    flag: list[Literal["differs", "failed", "not_declared"]] = ["differs"]

    @field_validator("flag")
    @classmethod
    def _distinct(cls, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise ValueError(f"reproduce.flag must name each verdict once, got {value}")
        return value


class ForbiddenPattern(_Strict):
    """One entry of the shared forbidden-resource list: a case-insensitive regex and why it is forbidden."""

    pattern: str = Field(min_length=1)
    reason: str = Field(min_length=1)

    @field_validator("pattern")
    @classmethod
    def _linear(cls, value: str) -> str:
        from mlebench_spec.declarations import linear_pattern

        return linear_pattern(value)


class JudgeSettings(_Strict):
    """The optional model judge of the integrity stage (off by default).

    ``base_url`` and ``model`` name an OpenAI-compatible chat-completions endpoint; the key is read from the
    environment variable ``api_key_env`` and written nowhere. Logs and code are sent in chunks of at most
    ``chunk_chars`` characters; any chunk answered "yes" flags the cell.
    """

    enabled: bool = False
    base_url: str = "http://127.0.0.1:8000/v1"
    model: str = "gpt-4o-mini"
    api_key_env: str = "MLEBENCH_JUDGE_API_KEY"
    chunk_chars: int = Field(default=128_000, gt=0)
    timeout_secs: float = Field(default=120.0, gt=0)


class IntegritySettings(_Strict):
    """What the integrity stage checks, and where it draws its lines (conf/integrity/, DESIGN.md §8).

    ``max_validations``: a run that called the format validator more often than this is flagged.
    ``plagiarism_threshold``: a run whose code reproduces at least this share of a reference notebook's
    fingerprints is flagged. ``forbidden_resources``: the shared list every competition's own list adds to.
    ``download_window``: how many lines around a download command a forbidden resource may be named on.
    ``time_budget_secs``: the wall-clock budget of one cell's checks; a run that outlasts it is recorded
    ``unchecked`` with the reason (and loses its medal, as a flagged one does) instead of holding the stage.
    """

    max_validations: int = Field(default=100, ge=0)
    plagiarism_threshold: float = Field(default=0.5, gt=0, le=1)
    download_window: int = Field(default=3, ge=0)
    time_budget_secs: float = Field(default=180.0, gt=0)
    forbidden_resources: list[ForbiddenPattern] = []
    judge: JudgeSettings = JudgeSettings()


class CompetitionSet(_Strict):
    """A named set of competitions: an explicit id list, or a query over the declarations."""

    name: str
    where: dict[str, list[Any]] = {}
    ids: list[str] = []


class Plan(_Strict):
    """The whole composed grid: agents × competitions × seeds under one hardware profile."""

    agent: dict[str, AgentConfig] = Field(min_length=1)
    competition_set: CompetitionSet
    hardware: Hardware
    seeds: list[int] = Field(min_length=1)
    runner: str
    """``auto`` or a key of the runner registry (:data:`mlebench.execution.runners.RUNNERS`)."""
    docker: DockerSettings = DockerSettings()
    report: ReportSettings = ReportSettings()
    descriptions: TextSettings = TextSettings()
    data: DataSettings = DataSettings()
    grading: GradingSettings = GradingSettings()
    integrity: IntegritySettings = IntegritySettings()
    snapshots: SnapshotSettings = SnapshotSettings()
    reproduce: ReproduceSettings = ReproduceSettings()
    v1_agents: list[V1Source] = []
    """Sources of v1 agents (conf/config.yaml); ``mlebench plan`` expands them into ``agent`` entries, so
    ``params.yaml`` never holds this key."""

    @model_serializer(mode="wrap")
    def _snapshots_only_when_on(self, handler: Any) -> dict[str, Any]:
        data = handler(self)
        data.pop("v1_agents", None)
        if not self.snapshots.enabled:
            data.pop("snapshots", None)
        if not self.reproduce.enabled:
            data.pop("reproduce", None)
        return data

    @field_validator("agent")
    @classmethod
    def _disclosed(cls, value: dict[str, AgentConfig]) -> dict[str, AgentConfig]:
        undeclared = [name for name, cfg in value.items() if cfg.disclosures is None]
        if undeclared:
            raise ValueError(
                f"agent(s) {', '.join(undeclared)} declare no disclosures: add to conf/agent/<name>.yaml "
                "`disclosures: {models: [...], uses_test_feedback: true|false, web_search: true|false}`"
            )
        return value

    @field_validator("seeds")
    @classmethod
    def _unique(cls, value: list[int]) -> list[int]:
        if len(set(value)) != len(value):
            raise ValueError(f"seeds must be unique, got {value}")
        if any(s < 0 for s in value):
            raise ValueError(f"seeds must be >= 0, got {value}")
        return value


def validate_plan(data: Any, where: str) -> Plan:
    """Validate a composed config; ``???`` placeholders and schema errors name the key."""
    missing = list(_placeholders(data))
    if missing:
        raise ConfigError(
            f"{where}: value still '???' (set it in conf/ or as an override) at: {', '.join(missing)}"
        )
    try:
        return Plan.model_validate(data)
    except ValidationError as exc:
        lines = [
            f"{where}: {'.'.join(map(str, e['loc']))}: {e['msg']} (value {e.get('input')!r})"
            for e in exc.errors()
        ]
        raise ConfigError("\n".join(lines)) from None


def load_plan(root: Path | None = None) -> Plan:
    """Read and validate the whole ``params.yaml``."""
    path = (root or repo_root()) / PARAMS_FILE
    if not path.is_file():
        raise ConfigError(f"{path} is missing: run `mlebench plan` to compose it from conf/")
    return validate_plan(load_yaml(path), str(path))


def stage_params(keys: list[str], root: Path | None = None) -> dict[str, Any]:
    """Only the declared keys (dotted paths) of ``params.yaml``, validated as part of the whole plan."""
    plan = load_plan(root).model_dump()
    out: dict[str, Any] = {}
    for key in keys:
        node: Any = plan
        for part in key.split("."):
            if not isinstance(node, dict) or part not in node:
                raise ConfigError(f"params.yaml has no key {key!r}: re-run `mlebench plan` (is it in conf/?)")
            node = node[part]
        out[key] = node
    return out


def plan_snapshots(root: Path | None = None) -> SnapshotSettings:
    """Return the plan's snapshot marks.

    The run stage declares ``snapshots`` only when the plan holds the key (marks are on); when it is absent
    (off) this is the default, which takes no snapshot.
    """
    return load_plan(root).snapshots


def plan_reproduce(root: Path | None = None) -> ReproduceSettings:
    """Return the plan's reproduce settings.

    The reproduce stage declares ``reproduce`` only when the plan holds the key (process evaluation on); a
    competition graded on a re-run (``rerun:``) is re-run without it, under these defaults.
    """
    return load_plan(root).reproduce


def _placeholders(node: Any, prefix: str = "") -> Any:
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _placeholders(value, f"{prefix}{key}.")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _placeholders(value, f"{prefix}{i}.")
    elif node == "???":
        yield prefix.rstrip(".")
