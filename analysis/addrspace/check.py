"""One pass over a file's semantic model producing every CL1xx finding."""

from __future__ import annotations

from cllint.analysis.model import SemanticModel

from .certainty import Certainty
from .declarations import DeclarationChecks
from .expressions import ExpressionChecks
from .findings import Finding


def analyse(model: SemanticModel) -> list[Finding]:
    """All address-space findings of the file; never raises on user source."""
    cert = Certainty(model)
    out: list[Finding] = []
    for checks in (DeclarationChecks(model, cert), ExpressionChecks(model, cert)):
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
