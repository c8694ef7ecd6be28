"""Macros the program defines that switch an extension on (issue 29: build options as hosts
pass them).

OpenCV's kernels open with `#if defined (DOUBLE_SUPPORT)` / `#pragma OPENCL EXTENSION
cl_khr_fp64:enable` / `#endif` and use `double` under `#ifdef DOUBLE_SUPPORT`; the host passes
`-D DOUBLE_SUPPORT` only for a device with doubles. The file itself ties the macro to the
extension, so a build that defines the macro has decided that the device has the extension, as
a host that checks the device before building has (features.py `_host_checks`). A macro no
pragma ties to an extension, a pragma outside every such arm, and a macro the file defines
itself decide nothing.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any


def switched_on(view: Any) -> frozenset[str]:
    """The extensions an enabling pragma turns on inside an arm opened by a macro the program
    (its `-D` options) defines."""
    pragmas = getattr(view, "pragmas", ())
    if not pragmas:
        return frozenset()
    program = _program_macros(view)
    if not program:
        return frozenset()
    out: set[str] = set()
    for p in pragmas:
        if p.behavior != "enable" or p.name in out:
            continue
        b = p.branch
        while b is not None:
            if b.active is True and _opened_by(b.own, program):
                out.add(p.name)
                break
            b = b.parent
    return frozenset(out)


def _program_macros(view: Any) -> frozenset[str]:
    from cllint.analysis.preprocessor.clang19 import PREDEFINED

    macros = getattr(getattr(view, "env", None), "macros", {})
    # (an extension or feature macro is the target's, tested as such elsewhere)
    return frozenset(n for n in macros if n not in PREDEFINED and not n.startswith(("cl_", "__")))


def _opened_by(condition: Any, program: Collection[str]) -> bool:
    """The arm's condition requires, in some alternative, that a program macro be defined."""
    terms = condition.terms()
    return terms is not None and any(lit[0] == "def" and lit[2] and lit[1] in program
                                     for term in terms for lit in term)
