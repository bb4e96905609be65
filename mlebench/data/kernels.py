"""A competition's reference notebooks: pulled once with the official ``kaggle`` client, kept as code, pinned.

``competitions/<id>/kernels.txt`` lists them, one ``owner/slug`` per line (MLE-bench v1's lists), optionally
followed by the sha256 of the source the client pulls, which pins it: a pulled notebook whose sha256
differs is an error. :func:`fetch_kernels` pulls each with ``kaggle kernels pull``'s own call
(``KernelsApi.kernels_pull``), converts notebooks to their code cells, and publishes the folder
``data/kernels/<id>/`` atomically with a ``manifest.json`` naming every file, its source's and its code's
sha256, and every notebook Kaggle refused (403, as v1 met for some) or no longer has (404), which is
skipped, as v1 skips it. DVC tracks the folder (the ``fetch_kernels`` stage), so it is fetched once.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from mlebench.data.notebooks import notebook_code
from mlebench_spec.declarations import KERNELS_FILE, KernelRef, kernel_refs, kernels_file
from mlebench_spec.errors import ConfigError, DataError
from mlebench_spec.files import published, write_json
from mlebench_spec.hashing import sha256_file

__all__ = ["KERNELS_FILE", "KernelRef", "fetch_kernels", "kernel_refs", "kernels_file"]

MANIFEST = "manifest.json"
_CODE = {".py": "script", ".ipynb": "notebook"}


def fetch_kernels(refs: list[KernelRef], dest: Path, api: Any = None) -> dict[str, Any]:
    """Pull every reference into ``dest`` (published atomically) and return its manifest."""
    from mlebench.data.kaggle_source import kaggle_api

    api = api or kaggle_api()
    entries = []
    with published(dest) as staging, tempfile.TemporaryDirectory(prefix="mlebench-kernels-") as tmp:
        for ref in refs:
            entries.append(_pull(api, ref, Path(tmp) / ref.file_name, staging))
        manifest = {"kernels": entries, "pulled": sum(e["status"] == "pulled" for e in entries)}
        write_json(staging / MANIFEST, manifest)
    return manifest


def _pull(api: Any, ref: KernelRef, scratch: Path, staging: Path) -> dict[str, Any]:
    from requests import HTTPError

    try:
        api.kernels_pull(ref.ref, path=str(scratch), metadata=False, quiet=True)
    except ValueError as exc:  # the client checks the reference's form before asking
        raise ConfigError(f"{KERNELS_FILE}: {ref.ref!r}: the kaggle client refuses it: {exc}") from None
    except HTTPError as exc:
        code = exc.response.status_code if exc.response is not None else None
        if code in (403, 404):
            return {"ref": ref.ref, "status": "forbidden" if code == 403 else "not found", "file": ""}
        raise DataError(f"kaggle kernels pull {ref.ref}: {exc}") from exc
    pulled = sorted(p for p in scratch.iterdir() if p.is_file())
    if len(pulled) != 1:
        raise DataError(f"kaggle kernels pull {ref.ref}: expected one file, got {[p.name for p in pulled]}")
    source = pulled[0]
    actual = sha256_file(source)
    if ref.sha256 and actual != ref.sha256:
        raise DataError(
            f"kaggle kernels pull {ref.ref}: sha256 {actual}, but kernels.txt pins {ref.sha256}; the "
            "notebook changed on Kaggle: check it and update the pin"
        )
    if source.suffix not in _CODE:
        status = f"not python ({source.suffix})"
        return {"ref": ref.ref, "status": status, "file": "", "source_sha256": actual}
    text = source.read_text(encoding="utf-8", errors="replace")
    code = notebook_code(text) if source.suffix == ".ipynb" else text
    (staging / ref.file_name).write_text(code, encoding="utf-8")
    return {
        "ref": ref.ref,
        "status": "pulled",
        "file": ref.file_name,
        "source_sha256": actual,
        "code_sha256": sha256_file(staging / ref.file_name),
        "pinned": bool(ref.sha256),
    }
