"""The semantic model of one file in one snapshot: `Snapshot.model` (analysis/db.py), a
query kept in the Host's database, so that a hover, the inlay hints and the tokens of one
revision build the model once."""

from __future__ import annotations

from cllint.analysis.diagnostics import FileId
from cllint.analysis.model import SemanticModel


def model(snap, file: FileId) -> SemanticModel:
    """`SemanticModel` of `file` for its target, type macros expanded through the preprocessor view."""
    return snap.model(file)
