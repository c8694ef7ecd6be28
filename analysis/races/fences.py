"""The memories a barrier's flags fence, read through the file's object-like macros
(`#define LFENCE CLK_LOCAL_MEM_FENCE`, chains of them, `(A | B)`).

A flag argument that is the integer 0 (`barrier(0)`, or a macro for it) fences no memory:
the barrier orders execution only, and accesses on its two sides still race (CL212).
Anything else (a variable, a function-like macro, a macro defined in an arm whose
activity is unknown, a flag word this module does not know) is unknown: the barrier is
then taken to fence every memory, so no CL212 hangs on a guess. A call of a helper that
reaches barriers fences what any of them fences (`void sync(void) { barrier(0); }`: nothing).
"""

from __future__ import annotations

from typing import Any

from cllint.analysis.preprocessor.expr import tokenize
from cllint.analysis.syntax import walk
from cllint.analysis.uniformity import builtins as B
from cllint.analysis.uniformity.dataflow import callee_name

ALL = frozenset({"local", "global"})
_FLAGS = {"CLK_LOCAL_MEM_FENCE": "local", "CLK_GLOBAL_MEM_FENCE": "global", "CLK_IMAGE_MEM_FENCE": "image"}
_MAX_DEPTH = 8


def fenced_spaces(flags: str, at: int, view: Any) -> frozenset[str]:
    """`flags`: the argument's text; `at`: where the barrier is (the macros visible there)."""
    words = _flag_words(flags, at, view, frozenset(), 0)
    if words is None:
        return ALL  # unknown: not judged
    return frozenset(_FLAGS[w] for w in words if w != "0")


def helper_fenced_spaces(fa: Any, name: str, view: Any, depth: int = 0) -> frozenset[str]:
    """What a call of the helper `name` that reaches a barrier fences: the union over the
    barriers it calls, directly or through helpers of its own (a union: a helper's barrier
    that fences local memory somewhere fences it, no CL212 on a guess); every memory where
    one is reached some other way (a macro standing for it) or the helpers nest too deep."""
    if depth > _MAX_DEPTH or name not in fa.functions or fa.macro_syncs.get(name):
        return ALL
    out: set[str] = set()
    found = False
    for n in walk(fa.functions[name]):
        if n.type != "call_expression":
            continue
        callee = callee_name(n)
        if callee in B.BARRIERS:
            args = n.child_by_field_name("arguments")
            arg = args.named_children[0] if args is not None and args.named_children else None
            if arg is None:
                return ALL
            out |= fenced_spaces(arg.text.decode("utf-8", "replace"), n.start_byte, view)
            found = True
        elif callee is not None and callee != name and callee in fa.syncs:
            out |= helper_fenced_spaces(fa, callee, view, depth + 1)
            found = True
    return frozenset(out) if found else ALL


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
