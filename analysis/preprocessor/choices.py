"""Conditional groups whose arm the host picks: `#if`/`#ifdef` on a macro that neither the
file, its includes, its program's other sources, its build options nor the compiler defines.

A kernel written `#ifdef USE_DOUBLE ... #else ... #endif`, or `#if (LOOKUP_GAP != 2) wrong
lookup gap! #endif`, is built by a host that passes `-D` for it. Until a program says which
options the host gives (`[[program]]` in the configuration), the compiler's default (an
undefined macro is 0) is only one of the builds: a report in either arm may be about a build
that never happens, so none is made there (issue 29: "report nothing that depends on that
choice"). The syntax of every arm is still parsed; only the reports are held back.

A default the file gives a macro only when it is not already defined (`#ifndef USE_FP32` /
`#define USE_FP32 0` / `#endif`) does not decide it when the host passes `-D USE_FP32`: the
host overrides it, so the arms on it are still the host's choice.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..diagnostics import Diagnostic
from cllint.analysis.lazy_re import lazy

_WORD = lazy(r"(?<![\w.])[A-Za-z_]\w*")  # not a number's suffix (`2u`)
# Names the compiler or the target may define: the feature and extension macros keep their
# own meaning (the gating rules read conditions on them), and clang's `__...` names.
_PREDEFINED_PREFIXES = ("__", "cl_", "CL_", "FP_FAST_FMA", "FLT_", "DBL_", "HALF_", "INT_", "UINT_", "CHAR_",
                        "SCHAR_", "UCHAR_", "SHRT_", "USHRT_", "LONG_", "ULONG_", "M_PI", "MAXFLOAT", "HUGE_",
                        "INFINITY", "NAN")
_NOT_MACROS = frozenset({"defined", "__has_include", "__has_builtin", "__has_feature", "__has_extension",
                         "__has_attribute"})


def host_choices(view: object) -> list[tuple[int, int]]:
    """Byte ranges of the main file's conditional groups (after the `#if` line, to the end of
    the `#endif` line: reports on the condition itself stay) whose conditions name a macro nothing in the program defines. Nested groups inside one
    are covered by it; an unterminated group is not a choice (CL003 reports it)."""
    memo = getattr(view, "__dict__", {})
    if "_host_choices" in memo:  # a view is built once per text; a keystroke's lint asks again
        return memo["_host_choices"]
    directives = getattr(view, "directives", ())
    if not directives:
        return []
    env = getattr(getattr(view, "env", None), "macros", {})
    defined = view.defined_names() - overridable(directives, view.host_macros)  # type: ignore[attr-defined]
    out: list[tuple[int, int]] = []
    stack: list[tuple[int, bool]] = []  # (group start, a host macro in its conditions so far)
    for d in directives:
        k = d.kind
        if k in ("if", "ifdef", "ifndef"):
            stack.append((d.end, names_host_macro(d, env, defined)))
        elif k in ("elif", "elifdef", "elifndef") and stack:
            start, host = stack[-1]
            stack[-1] = (start, host or names_host_macro(d, env, defined))
        elif k == "endif" and stack:
            start, host = stack.pop()
            if host and not (out and out[-1][0] <= start and d.end <= out[-1][1]):
                while out and start <= out[-1][0]:
                    out.pop()  # an inner group, now covered by this one
                out.append((start, d.end))
    out.sort()
    memo["_host_choices"] = out
    return out


_NOT_DEFINED = lazy(r"^\s*!\s*defined\s*\(?\s*([A-Za-z_]\w*)\s*\)?\s*$")


def overridable(directives: Iterable, host: Iterable[str]) -> frozenset[str]:  # noqa: ANN001 - Directives
    """Names the host passes with `-D` that the file defines only as a default: every
    `#define` of it sits directly in an `#ifndef` (or `#if !defined`) of the same name."""
    host = frozenset(host)
    if not host:
        return frozenset()
    stack: list[str | None] = []  # the name each open group's first arm tests for undefinedness
    defaults: set[str] = set()
    other: set[str] = set()
    for d in directives:
        k = d.kind
        if k == "ifndef":
            stack.append(d.name)
        elif k == "if":
            m = _NOT_DEFINED.match(d.args or "")
            stack.append(m.group(1) if m else None)
        elif k == "ifdef":
            stack.append(None)
        elif k in ("elif", "else", "elifdef", "elifndef") and stack:
            stack[-1] = None
        elif k == "endif" and stack:
            stack.pop()
        elif k in ("define", "undef") and d.name in host:
            (defaults if k == "define" and stack and stack[-1] == d.name else other).add(d.name)
    return frozenset(defaults - other)


def names_host_macro(d, env: dict[str, str], defined: Iterable[str]) -> bool:  # noqa: ANN001 - a Directive
    words = [d.name] if d.kind in ("ifdef", "ifndef", "elifdef", "elifndef") and d.name else _WORD.findall(d.args)
    return any(_host_macro(w, env, defined) for w in words)


def _host_macro(word: str, env: dict[str, str], defined: Iterable[str]) -> bool:
    if word in _NOT_MACROS or word in env or word.startswith(_PREDEFINED_PREFIXES):
        return False
    return word not in defined


def without_host_choices(view: object, file: object, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """`diagnostics` less those that start in the main file inside a host's choice."""
    ranges = host_choices(view)
    if not ranges:
        return diagnostics
    from bisect import bisect_right

    starts = [r[0] for r in ranges]

    def inside(d: Diagnostic) -> bool:
        if d.span.file != file:
            return False
        i = bisect_right(starts, d.span.start) - 1
        return i >= 0 and d.span.start < ranges[i][1]

    return [d for d in diagnostics if not inside(d)]
