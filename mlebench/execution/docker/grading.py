"""Grade a cell after its agent has exited: in a grader container for Docker runs, on the host otherwise.

A cell the Docker runner ran (``runner: docker`` in its run.json) is graded in its own container from the
grader image (``environment/grader.Dockerfile``): no network, uid 1000, every capability dropped, and the
competition's ``private/`` mounted read-only next to the public split and the run directory, also
read-only. The agent's container is long gone by then; the answers and the agent never share a container.
Cells the local runner ran are graded by the host process (:func:`mlebench.reporting.records.grade_cell`), which stays
available for any cell with ``grader="host"``.

Both paths then apply the same two rules: a submission.csv the runner refused to collect (a symlink, a
folder, a file over the size bound) makes the cell ``invalid_submission`` with that reason rather than
``no_submission``; and the lineage gains the images (agent, env, grader: tag and content-addressed id),
the agent's network setting and which grader ran.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Literal

from mlebench.spec.declarations import Competition
from mlebench.spec.errors import ConfigError
from mlebench.spec.params import DockerSettings
from mlebench.reporting.records import grade_cell
from mlebench.execution.docker import extract
from mlebench.execution.docker.agent import AGENT_USER
from mlebench.execution.docker.engine import InfraError, connect, is_engine_failure, with_retries
from mlebench.execution.docker.images import ImageRef, env_image, grader_image

GRADER_ROOT = "/mlebench"
GRADER_OUT = "/home/grader/out/record.json"
GRADER_TIMEOUT_SECS = 3 * 3600
GRADER_PIDS = 512


def grade_run(
    comp: Competition,
    agent: str,
    seed: int,
    run: Path,
    public: Path,
    private: Path,
    root: Path,
    grader: Literal["auto", "host", "docker"] = "auto",
) -> dict[str, Any]:
    """Grade one cell and return its record; ``auto`` grades in a container when the agent ran in one."""
    info = _run_info(run)
    if grader == "docker" or (grader == "auto" and info.get("runner") == "docker"):
        record = grade_in_container(comp, agent, seed, run, public, private, root, _settings(info))
    else:
        record = grade_cell(comp, agent, seed, run, public, private, root)
        record["lineage"]["grader_runner"] = "host"
    apply_rejected_submission(record, info)
    images = info.get("images") or {}
    for name in ("agent", "env"):
        if name in images:
            record["lineage"][f"{name}_image_id"] = images[name]["id"]
    if "network" in info:
        record["lineage"]["agent_network"] = info["network"]
    return record


def grade_in_container(
    comp: Competition,
    agent: str,
    seed: int,
    run: Path,
    public: Path,
    private: Path,
    root: Path,
    settings: DockerSettings,
) -> dict[str, Any]:
    """Grade one cell in a fresh grader container and return the record it wrote.

    Engine failures are retried (bounded); when they persist, or the grader container fails without writing
    a record, this raises so the grade stage fails and is re-run later (the agent's run is kept).
    """
    try:
        client = with_retries(connect, "connecting to the Docker engine", settings.infra_retries)
        image = grader_image(client, env_image(client, settings, root), root, settings.infra_retries)
        record = with_retries(
            lambda: _grade_once(
                client, image, comp, agent, seed, run, public, private, root, settings.runtime
            ),
            "grading in the grader container",
            settings.infra_retries,
        )
    except InfraError as exc:
        raise ConfigError(
            f"{agent}/{comp.id}/seed {seed}: could not grade in the grader container: {exc}\n"
            "The agent's run is kept; start the Docker engine and re-run `dvc repro`."
        ) from None
    record["lineage"]["git_revision"] = _git_revision(root)
    record["lineage"]["grader_runner"] = "docker"
    record["lineage"]["grader_image_id"] = image.id
    record["lineage"]["grader_image_tag"] = image.tag
    return record


def apply_rejected_submission(record: dict[str, Any], info: dict[str, Any]) -> None:
    """Make "no submission" ``invalid_submission`` when the runner refused a submission.csv that existed."""
    rejected = info.get("submission_rejected") or next(
        (note for note in info.get("extraction_notes", []) if note.startswith("submission.csv:")), ""
    )
    if not rejected:
        return
    if record["status"] == "no_submission":
        record.update(
            status="invalid_submission",
            reason=f"submission rejected when collected: {rejected}",
            submission_exists=True,
            valid_submission=False,
        )
    elif record["status"] in ("agent_timeout", "agent_error", "infra_error"):
        record["reason"] = f"{record['reason']}; submission rejected when collected: {rejected}"


def _grade_once(
    client: Any,
    image: ImageRef,
    comp: Competition,
    agent: str,
    seed: int,
    run: Path,
    public: Path,
    private: Path,
    root: Path,
    runtime: str,
) -> dict[str, Any]:
    from docker.types import Mount

    rel = {
        "competitions": f"competitions/{comp.id}",
        "public": f"data/prepared/{comp.id}/public",
        "private": f"data/prepared/{comp.id}/private",
        "run": f"runs/{agent}/{comp.id}/{seed}",
    }
    sources = {
        "competitions": root / "competitions" / comp.id,
        "public": public,
        "private": private,
        "run": run,
    }
    mounts = [
        Mount(
            target=f"{GRADER_ROOT}/{rel[k]}",
            source=str(Path(sources[k]).resolve()),
            type="bind",
            read_only=True,
        )
        for k in rel
    ]
    command = [
        "python",
        "-m",
        "mlebench.execution.docker.grade_entry",
        "--competition",
        comp.id,
        "--agent",
        agent,
        "--seed",
        str(seed),
        "--out",
        GRADER_OUT,
    ]
    container = client.containers.create(
        image=image.id,
        command=command,
        user=AGENT_USER,
        runtime=runtime,
        mounts=mounts,
        network_mode="none",
        detach=True,
        init=True,
        cap_drop=["ALL"],
        security_opt=["no-new-privileges:true"],
        pids_limit=GRADER_PIDS,
        labels={"mlebench.role": "grader", "mlebench.cell": f"{agent}/{comp.id}/{seed}"},
        working_dir=GRADER_ROOT,
    )
    try:
        container.start()
        status = container.wait(timeout=GRADER_TIMEOUT_SECS)
        with tempfile.TemporaryDirectory(prefix="mlebench-grade-") as tmp:
            notes: list[str] = []
            got = extract.fetch_file(container, GRADER_OUT, Path(tmp) / "record.json", notes)
            if got != "copied" or status.get("StatusCode") != 0:
                output = container.logs(stdout=True, stderr=True, tail=60).decode("utf-8", "replace")
                raise RuntimeError(
                    f"the grader container for {agent}/{comp.id}/seed {seed} exited with "
                    f"{status.get('StatusCode')} and record {got} {notes}:\n{output}"
                )
            return json.loads((Path(tmp) / "record.json").read_text(encoding="utf-8"))
    finally:
        try:
            container.remove(force=True, v=True)
        except Exception as exc:  # noqa: BLE001 - a leftover container must not hide the grading outcome
            if not is_engine_failure(exc):
                raise


def _settings(info: dict[str, Any]) -> DockerSettings:
    recorded = info.get("docker") or {}
    return DockerSettings.model_validate(
        {k: v for k, v in recorded.items() if k in DockerSettings.model_fields}
    )


def _run_info(run: Path) -> dict[str, Any]:
    try:
        return json.loads((run / "run.json").read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return {}


def _git_revision(root: Path) -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


__all__ = ["apply_rejected_submission", "grade_in_container", "grade_run"]
