"""Notebooks as code: the code cells of a Jupyter notebook, for similarity checks and log reading."""

from __future__ import annotations


def notebook_code(text: str) -> str:
    """Return the code cells of a notebook (read with nbformat), joined by blank lines.

    Text that is not a notebook comes back unchanged, so a misnamed or damaged file is still read.

    >>> notebook_code('{"cells": [{"cell_type": "code", "source": "x = 1", "metadata": {}, "outputs": [],'
    ...               ' "execution_count": null}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}')
    'x = 1'
    >>> notebook_code("print('not a notebook')")
    "print('not a notebook')"
    """
    import warnings

    try:
        import nbformat

        with warnings.catch_warnings():  # notebooks without cell ids read fine; nbformat warns about them
            warnings.simplefilter("ignore")
            nb = nbformat.reads(text, as_version=4)
    except Exception:  # noqa: BLE001 - an unreadable notebook is read as plain text instead
        return text
    return "\n\n".join(cell.source for cell in nb.cells if cell.cell_type == "code")
