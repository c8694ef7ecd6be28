"""The memories a barrier's flags fence, read through the file's object-like macros
(`#define LFENCE CLK_LOCAL_MEM_FENCE`, chains of them, `(A | B)`).

A flag argument that is the integer 0 (`barrier(0)`, or a macro for it) fences no memory:
the barrier orders execution only, and accesses on its two sides still race (CL212).
Anything else (a variable, a function-like macro, a macro defined in an arm whose
activity is unknown, a flag word this module does not know) is unknown: the barrier is
then taken to fence every memory, so no CL212 hangs on a guess.
"""

from __future__ import annotations

from typing import Any

from cllint.analysis.preprocessor.expr import tokenize

ALL = frozenset({"local", "global"})
_FLAGS = {"CLK_LOCAL_MEM_FENCE": "local", "CLK_GLOBAL_MEM_FENCE": "global", "CLK_IMAGE_MEM_FENCE": "image"}
_MAX_DEPTH = 8


def fenced_spaces(flags: str, at: int, view: Any) -> frozenset[str]:
    """`flags`: the argument's text; `at`: where the barrier is (the macros visible there)."""
    words = _flag_words(flags, at, view, frozenset(), 0)
    if words is None:
        return ALL  # unknown: not judged
    return frozenset(_FLAGS[w] for w in words if w != "0")


def _flag_words(text: str, at: int, view: Any, hide: frozenset[str], depth: int) -> set[str] | None:
    """The CLK_*_MEM_FENCE words `text` ORs together ("0" for a literal 0, which fences
    nothing); None when it is anything else."""
    if depth > _MAX_DEPTH:
        return None
    out: set[str] = set()
    toks = list(tokenize(text))
    if not toks:
        return None
    for tok in toks:
        if tok.kind == "op" and tok.text in ("|", "(", ")"):
            continue
        if tok.kind == "num" and tok.text.rstrip("uUlL") in ("0", "0x0", "0X0"):
            out.add("0")
            continue
        if tok.kind != "id":
            return None
        if tok.text in _FLAGS:
            out.add(tok.text)
            continue
        macro = _macro(view, tok.text, at) if tok.text not in hide else None
        if macro is None or macro.params is not None or getattr(macro, "conditional", False):
            return None
        inner = _flag_words(macro.body, at, view, hide | {tok.text}, depth + 1)
        if inner is None:
            return None
        out |= inner
    return out


def _macro(view: Any, name: str, at: int) -> Any:
    if view is None:
        return None
    try:
        return view.macro_at(name, at)
    except Exception:  # noqa: BLE001 - a view we cannot read: unknown
        return None
