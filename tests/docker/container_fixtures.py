"""Fixtures for the container tests: a real engine, the images, a prepared competition with a planted secret.

Test modules import the fixtures they use from here (a module name of its own, so it never shadows the
``conftest`` module that tests/*.py import). Tests that need the engine carry the ``docker`` marker and ask
for ``docker_client``. Without a reachable
engine they are skipped with the reason, unless ``CI=true``: in CI a missing engine (or base image) fails
them loudly, because CI is where the container path must be tested for real.

Every test that asks for ``docker_client`` (directly or through ``settings``, ``env_ref``, ``hostile``) runs
once per container runner (``runner``: ``docker``, ``podman``). Under ``podman`` the engine is rootless
Podman's service run by an ordinary user (``MLEBENCH_PODMAN_USER``, default ``mlebench-ci``, which .ci/run
creates) when the tests run as root, or the tester's own service otherwise; images come from Docker's
engine by ``podman load`` (once per image). The test's folders are opened to that user (:func:`share`).
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cells import GVISOR_RUNTIME, PODMAN_ROOTFUL, engine_env, run_docker, share

from mlebench.execution.docker.agent import ContainerRunRecord
from mlebench.execution.docker.engine import connect, engine_problem, in_ci
from mlebench.execution.docker.images import ImageRef, env_image
from mlebench_spec.manifest import write_manifest
from mlebench_spec.params import AgentConfig, DockerSettings, Hardware

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = "tests/docker/hostile_agent"
BASE_IMAGE = os.environ.get("MLEBENCH_BASE_IMAGE", DockerSettings().base_image)
HW = Hardware(name="test", cpus=1, memory="512m", shm_size="64m", pids=64, gpus=0, time_limit_secs=120)


@pytest.fixture(scope="session")
def hw() -> Hardware:
    """Return the tests' hardware profile: 1 CPU, 512 MB, 64 pids, 2 minutes."""
    return HW


PODMAN_USER = os.environ.get("MLEBENCH_PODMAN_USER", "mlebench-ci")
ISOLATING = ["docker", "podman", "sandbox"]
"""The runners the hostile-agent suite runs under (modules opt in with :func:`under`)."""
GVISOR = "gvisor"
"""The ``docker`` runner under gVisor (``docker.runtime: runsc``), where the engine offers that runtime."""
ENGINES = ["docker", "podman", GVISOR]
"""The runners with a container engine (and a ``docker_client``) that whole suites run under."""
WITH_ENGINE = [*ENGINES, PODMAN_ROOTFUL]
"""Those and the podman runner on root's own service (tests/docker/test_podman_rootful.py)."""
GAPS: dict[tuple[str, str], str] = {}
"""The probes a runner never passes (strict xfail, so a closed gap fails loudly), and why.

Gaps that depend on the machine (a limit without a cgroup to hold it) are told by the record itself, in the
test.
"""


def under(*runners: str) -> pytest.MarkDecorator:
    """Run a module's (or a test's) container tests under each of ``runners`` (the ``runner`` fixture)."""
    return pytest.mark.parametrize("runner", list(runners), indirect=True, scope="session")


@pytest.fixture(scope="session")
def runner(request: pytest.FixtureRequest) -> str:
    """Return the runner the test runs under: ``docker`` unless its module says others (:func:`under`)."""
    return getattr(request, "param", "docker")


def expect_gaps(request: pytest.FixtureRequest, runner: str) -> None:
    """Mark the test as a known gap of ``runner`` (see :data:`GAPS`): it must then fail."""
    name = request.node.originalname
    if (runner, name) in GAPS:
        request.applymarker(pytest.mark.xfail(reason=f"{runner}: {GAPS[(runner, name)]}", strict=True))


REFUSED: dict[str, tuple[str, ...]] = {}
"""The network policies each runner refuses (docs/runners-and-isolation.md): none now. ``egress`` and
``llm`` leave through the cell's own proxy under every isolating runner (podman and sandbox by a relay on
the agent's loopback to the proxy's UNIX socket)."""


def needs_network(runner: str, policy: str) -> None:
    """Skip under a runner that refuses network ``policy``."""
    if policy in REFUSED.get(runner, ()):
        pytest.skip(
            f"network {policy!r} is refused under the {runner} runner (docs/runners-and-isolation.md)"
        )


def _unavailable(message: str) -> None:
    if in_ci():
        pytest.fail(f"CI=true but {message}", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def podman_service() -> Iterator[str]:
    """Start rootless Podman's service as an ordinary user for the session; yield its ``CONTAINER_HOST``.

    Run as root, it is ``PODMAN_USER``'s service (the tests then reach it through ``CONTAINER_HOST``, as a
    user's own shell would); run as an ordinary user, the runner starts the tester's own service itself.
    """
    from mlebench.execution.podman import HOST_ENV, podman_problem

    if shutil.which("podman") is None:
        _unavailable(
            "podman is not installed (.ci/run installs it: apt-get install podman uidmap slirp4netns)"
        )
    if os.getuid() != 0:
        problem = podman_problem()
        if problem:
            _unavailable(f"rootless Podman is not usable: {problem}")
        yield ""
        return
    try:
        user = pwd.getpwnam(PODMAN_USER)
    except KeyError:
        _unavailable(f"user {PODMAN_USER!r} is missing: .ci/run creates it (useradd; subuid/subgid ranges)")
    runtime = Path(f"/run/user/{user.pw_uid}")
    runtime.mkdir(parents=True, exist_ok=True)
    os.chown(runtime, user.pw_uid, user.pw_gid)
    runtime.chmod(0o700)
    url = f"unix://{runtime}/podman/podman.sock"
    path = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"
    env = {"HOME": user.pw_dir, "USER": user.pw_name, "XDG_RUNTIME_DIR": str(runtime), "PATH": path}
    script = f"mkdir -p {runtime}/podman && exec podman system service --time=0 {url}"
    log = open(Path(tempfile.gettempdir()) / f"mlebench-podman-service-{os.getpid()}.log", "ab")  # noqa: SIM115
    service = subprocess.Popen(
        [shutil.which("runuser", path=path) or "runuser", "-u", user.pw_name, "--", "sh", "-c", script],
        env=env,
        cwd="/",
        stdout=log,
        stderr=log,
        start_new_session=True,
    )
    previous = os.environ.get(HOST_ENV)
    os.environ[HOST_ENV] = url
    deadline = time.monotonic() + 60
    while (problem := podman_problem()) and time.monotonic() < deadline and service.poll() is None:
        time.sleep(0.5)
    try:
        if problem:
            _unavailable(f"the Podman service of {user.pw_name} did not answer: {problem}")
        yield url
    finally:
        os.killpg(service.pid, signal.SIGTERM)
        service.wait(timeout=30)
        log.close()
        if previous is None:
            os.environ.pop(HOST_ENV, None)
        else:
            os.environ[HOST_ENV] = previous


@pytest.fixture(scope="session")
def docker_client(runner: str, request: pytest.FixtureRequest) -> Iterator[Any]:
    """Yield a client for the runner's real engine; skip without one, except in CI where that is a failure.

    A module that asks for it imports ``runner`` too (``docker`` unless the module says: :func:`under`).
    """
    if runner not in WITH_ENGINE:
        pytest.skip(f"the {runner} runner has no container engine")
    if runner == PODMAN_ROOTFUL:
        yield from _rootful_podman()
        return
    if runner == "podman":
        from mlebench.execution.podman import connect as podman_connect

        request.getfixturevalue("podman_service")
        client = podman_connect()
        yield client
        try:
            for container in leftovers(client):
                container.remove(force=True)
        except Exception as exc:  # noqa: BLE001 - the service may have stopped first (it goes with the session)
            print(f"podman leftovers not checked: {exc}")
        client.close()
        return
    problem = engine_problem()
    if problem:
        if in_ci():
            pytest.fail(
                f"CI=true but the Docker engine is unreachable: {problem}. .ci/run installs and starts it "
                "(apt-get install docker.io; dockerd).",
                pytrace=False,
            )
        pytest.skip(
            f"no Docker engine reachable ({problem}); start dockerd to run the container tests "
            "(CI=true turns this skip into a failure)"
        )
    client = connect()
    if runner == GVISOR and (gvisor_problem := _gvisor_problem(client)):
        client.close()
        _unavailable(gvisor_problem)
    yield client
    for container in leftovers(client):
        container.remove(force=True)  # nothing should be left; test_no_container_is_left_behind asserts it
    client.close()


def _rootful_podman() -> Iterator[Any]:
    """Yield a client for root's own Podman service, started by the runner's own code as it starts it."""
    from mlebench.execution.podman import connect as podman_connect

    if shutil.which("podman") is None:
        _unavailable("podman is not installed (.ci/run installs it: apt-get install podman)")
    if os.getuid() != 0:
        pytest.skip("rootful Podman is root's: run the tests as root (CI does)")
    with engine_env(PODMAN_ROOTFUL):
        client = podman_connect()
    yield client
    client.close()
    # the service exits after SERVICE_IDLE_SECS idle, likely long before the session ends; its containers
    # outlive it (conmon holds them), so the leftovers are checked on a service started again
    with engine_env(PODMAN_ROOTFUL):
        client = podman_connect()
    try:
        for container in leftovers(client):
            container.remove(force=True)
    finally:
        client.close()


_GVISOR_PROBED: dict[str, str] = {}


def _gvisor_problem(client: Any) -> str:
    """Why the engine cannot run the suite under gVisor ('' when it can), probed once per session.

    The runtime must be offered, with a ``--network=host`` one for proxied agents
    (:func:`mlebench.execution.docker.gvisor.resolve`), and each must start a container without a network:
    Debian bookworm's runsc, with its own network stack, refuses every container on this project's kernel
    (6.x: "cannot run with network enabled in root network namespace"; environment/start_engine.sh then
    registers it with ``--network=none``), so each cell would fail for the machine's reason, not the agent's.
    """
    from mlebench.execution.docker.gvisor import engine_runtime
    from mlebench_spec.network import NetworkPolicy

    if "problem" in _GVISOR_PROBED:
        return _GVISOR_PROBED["problem"]
    problem = ""
    try:
        names = {engine_runtime(client, GVISOR_RUNTIME, NetworkPolicy(k))[0] for k in ("none", "egress")}
    except Exception as exc:  # noqa: BLE001 - a ConfigError naming the fix
        names, problem = set(), f"no gVisor runtime to run the suite under: {exc}"
    for name in sorted(names):
        probe = client.containers.create(BASE_IMAGE, ["true"], runtime=name, network_mode="none")
        try:
            probe.start()
        except Exception as exc:  # noqa: BLE001 - the engine's answer is the reason
            problem = f"the engine's runtime {name!r} cannot start a container: {str(exc)[-400:]}"
        finally:
            probe.remove(force=True)
    _GVISOR_PROBED["problem"] = problem
    return problem


def leftovers(client: Any) -> list[Any]:
    """Containers of this suite's hostile agent still on the engine (other runs' containers are not ours)."""
    return client.containers.list(all=True, filters={"label": "mlebench.cell=hostile/titanic-lite/0"})


@pytest.fixture(scope="session")
def settings(docker_client: Any) -> DockerSettings:
    """Docker settings for the tests: the configured (or ``MLEBENCH_BASE_IMAGE``) base image.

    Engine failures get the users' retries (the default): a test with fewer would fail where a user's run
    goes on, as Podman's service did once in CI for a cell that passes alone. Tests of the retries themselves
    set their own.
    """
    import docker.errors

    try:
        docker_client.images.get(BASE_IMAGE)  # Podman loads it from Docker's engine
    except docker.errors.ImageNotFound:
        message = (
            f"base image {BASE_IMAGE!r} is missing: run `sudo environment/bootstrap_base.sh {BASE_IMAGE}`"
        )
        if in_ci():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return DockerSettings(base_image=BASE_IMAGE)


@pytest.fixture(scope="session")
def env_ref(docker_client: Any, settings: DockerSettings) -> ImageRef:
    """Return the base environment image, built once (a no-op when its content hash is already built)."""
    return env_image(docker_client, settings, ROOT)


@dataclass
class Competition:
    """A competition laid out like ``data/prepared/<id>/{public,private}``, a token planted in private/."""

    id: str
    public: Path
    private: Path
    token: str


@pytest.fixture(scope="session")
def titanic(prepare_once: Callable[[str], Any], tmp_path_factory: pytest.TempPathFactory) -> Competition:
    """titanic-lite, prepared once, copied so the private side can carry a secret token no agent may find."""
    prepared = prepare_once("titanic-lite")
    base = tmp_path_factory.mktemp("docker-data") / "prepared" / "titanic-lite"
    shutil.copytree(prepared.public, base / "public")
    shutil.copytree(prepared.private, base / "private")
    token = f"SECRET-{uuid.uuid4().hex}"
    (base / "private" / "secret_token.txt").write_text(token + "\n", encoding="utf-8")
    write_manifest(base)
    share(base)
    return Competition("titanic-lite", base / "public", base / "private", token)


@dataclass
class HostileRun:
    """One run of the hostile agent: the run record, its result.json and the run directory."""

    record: ContainerRunRecord
    result: dict[str, Any]
    out: Path
    seconds: float


@pytest.fixture
def hostile(
    runner: str, titanic: Competition, tmp_path: Path, request: pytest.FixtureRequest
) -> Callable[..., HostileRun]:
    """Run the hostile agent with an attack (and its kwargs) on titanic-lite; return what came out.

    ``network``, ``endpoints`` and ``api_key_env`` are the agent config's; the other keywords are kwargs.
    Under ``runner``; a known gap of the runner (:data:`GAPS`) is an expected failure.
    """
    import time

    expect_gaps(request, runner)
    if runner in WITH_ENGINE:
        request.getfixturevalue("env_ref")  # the env image is built (or loaded) once, before any run
        settings = request.getfixturevalue("settings")
    else:
        settings = DockerSettings()

    def run(
        attack: str,
        hardware: Hardware = HW,
        network: str = "none",
        endpoints: tuple[str, ...] = (),
        api_key_env: str | None = None,
        **kwargs: Any,
    ) -> HostileRun:
        agent = AgentConfig(
            path=HOSTILE,
            command=["python", "hostile.py"],
            kwargs={"attack": attack, **kwargs},
            network=network,
            endpoints=list(endpoints),
            api_key_env=api_key_env,
        )
        out = tmp_path / "runs" / attack
        t0 = time.monotonic()
        record = run_docker(
            titanic.id, "hostile", agent, hardware, 0, titanic.public, out, ROOT, settings, runner=runner
        )
        seconds = time.monotonic() - t0
        result_file = out / "logs" / "result.json"
        result = json.loads(result_file.read_text()) if result_file.is_file() else {}
        return HostileRun(record, result, out, seconds)

    return run
