"""One pass over a file's semantic model producing every CL1xx finding."""

from __future__ import annotations

from collections.abc import Callable

from cllint.analysis.model import SemanticModel

from .certainty import Certainty
from .declarations import DeclarationChecks
from .expressions import ExpressionChecks
from .head_memo import HeadMemo
from ..findings import Finding


def analyse(model: SemanticModel, focus: list[tuple[int, int]] | None = None,
            extension_enabled: Callable[[int, str], bool] | None = None,
            heads: HeadMemo | None = None) -> list[Finding]:
    """All address-space findings of the file; never raises on user source.

    With `focus` (function ranges), findings outside it may be left out: the
    incremental driver takes those from its cache. Call sites everywhere are still
    read, since a helper's findings (CL114) depend on all of its callers.
    `extension_enabled(offset, name)` tells where a `#pragma OPENCL EXTENSION` enables an
    extension (`half` by value needs cl_khr_fp16). `heads`: the findings of function heads
    the last lint of the file read (an editor's buffer)."""
    cert = Certainty(model)
    out: list[Finding] = []
    for checks in (DeclarationChecks(model, cert, focus, extension_enabled, heads), ExpressionChecks(model, cert, focus)):
        try:
            out.extend(checks.run())
        except RecursionError:
            out.extend(checks.out)
    seen: set[tuple[str, int, int]] = set()
    unique = []
    for f in sorted(out, key=lambda f: (f.start, f.code)):
        key = (f.code, f.start, f.end)
        if key not in seen:
            seen.add(key)
            unique.append(f)
    return unique


__all__ = ["analyse"]
