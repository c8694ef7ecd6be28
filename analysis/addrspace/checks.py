"""What both address-space passes share: the model, the findings, and the focus."""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node

from cllint.analysis.model import SemanticModel
from cllint.analysis.model.walk import in_ranges

from .certainty import Certainty
from ..findings import Finding, FixPlan


def in_focus(focus: list[tuple[int, int]] | None, node: Node) -> bool:
    """False only for code the incremental driver takes from its cache."""
    return in_ranges(focus, node.start_byte)


class Checks:
    def __init__(self, model: SemanticModel, certainty: Certainty,
                 focus: list[tuple[int, int]] | None = None,
                 extension_enabled: Callable[[int, str], bool] | None = None) -> None:
        """`extension_enabled(offset, name)`: whether a `#pragma OPENCL EXTENSION name : enable`
        is in force at `offset` (None: no preprocessor, no pragma known)."""
        self.focus = focus
        self.extension_enabled = extension_enabled
        self.m = model
        self.src = model.source
        self.target = model.target
        self.cert = certainty
        self.out: list[Finding] = []

    def text(self, n: Node | None) -> str:
        return "" if n is None else self.src[n.start_byte:n.end_byte].decode("utf-8", "replace")

    def add(self, code: str, node: Node, message: str, notes=(), fix: FixPlan | None = None) -> None:  # noqa: ANN001
        self.out.append(Finding(code, node.start_byte, node.end_byte, message, tuple(notes), fix))

    def add_span(self, code: str, start: int, end: int, message: str, notes=(),  # noqa: ANN001
                 fix: FixPlan | None = None) -> None:
        self.out.append(Finding(code, start, end, message, tuple(notes), fix))
