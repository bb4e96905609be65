"""The runners a cell can run under, in one explicit registry."""

from __future__ import annotations

from pathlib import Path


def stage_image_sources(kind: str, root: Path) -> list[str]:
    """Checkout files of the images a stage of ``kind`` builds (empty for stages that build none)."""
    from mlebench.execution.docker.images import context_sources, env_context, grader_context

    if kind == "run_agent":
        return context_sources(env_context(root), root)
    if kind == "grade":
        return sorted(
            set(context_sources(env_context(root), root)) | set(context_sources(grader_context(root), root))
        )
    return []
