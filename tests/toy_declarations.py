"""Declarations of tiny synthetic competitions for tests (built from numpy data, nothing fetched)."""

from __future__ import annotations


def toy_declaration(cid: str, category: str, test_fraction: float, columns: list[str], metric: str) -> str:
    """Return the ``competition.yaml`` text of an embedded toy competition (id column first)."""
    name = " ".join(word.capitalize() for word in cid.split("-"))
    return f"""\
id: {cid}
name: {name}
version: 1
complexity: embedded
category: {category}
dataset_size: "0.01 MB"
source:
  kind: package
  module: numpy
  distribution: numpy
  version: "0"
  files:
    - path: none.csv
split: {{method: random, test_fraction: {test_fraction}, seed: 0}}
submission:
  id_column: {columns[0]}
  columns: [{", ".join(columns)}]
metric: {{name: {metric}, args: {{}}}}
"""
