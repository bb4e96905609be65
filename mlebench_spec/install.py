"""Refuse to run beside MLE-bench v1 installed in the same environment.

MLE-bench v1's distribution (``mlebench``, from openai/mle-bench) and this one (``mlebench-dvc``) both install
the Python package ``mlebench`` and the ``mlebench`` command. Installed together, files of one replace files
of the other, and a harness would run a mix of the two. :func:`refuse_v1_beside_us` runs when any module of
ours is imported (from :mod:`mlebench_spec`, which every module imports and v1 does not have) and stops with
what to do.
"""

from __future__ import annotations

from importlib import metadata

V1_DISTRIBUTION = "mlebench"
"""The distribution name MLE-bench v1 installs under (ours is ``mlebench-dvc``)."""


class MixedInstallError(ImportError):
    """MLE-bench v1 is installed in the environment this package runs in."""


def refuse_v1_beside_us() -> None:
    """Raise :class:`MixedInstallError` when v1's distribution is installed here, naming where and the fix."""
    try:
        v1 = metadata.distribution(V1_DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return
    where = v1.locate_file("")
    raise MixedInstallError(
        f"MLE-bench v1 (distribution `{V1_DISTRIBUTION}` {v1.version}, installed in {where}) is in the same "
        "Python environment as mlebench-dvc. Both install the package `mlebench` and the `mlebench` command, "
        "so each overwrites the other's files. Remove both, then install mlebench-dvc alone: "
        "`pip uninstall -y mlebench mlebench-dvc && pip install -e <this checkout>`; or keep v1 in its own "
        "virtual environment. mlebench-dvc provides v1's Python API (mlebench.registry, mlebench.grade, ...) "
        "itself, so harnesses built on v1 need only it."
    )


__all__ = ["MixedInstallError", "V1_DISTRIBUTION", "refuse_v1_beside_us"]
