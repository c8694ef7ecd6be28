"""Arms clang-19's own macros decide, whatever the device: `#if __clang_major__ >= 19`,
`#if defined(__clang__) && __clang_major__ < 10`, `#ifdef __cplusplus` (issue 30, class 3).

The compiler is clang-19 (the values are its `-x cl -dM -E` answers, analysis/preprocessor/
clang19.py; `__has_builtin(...)` and friends are already numbers in the parsed condition).
Only the names that say which compiler and language this is are decided here: the target's
names (`__OPENCL_C_VERSION__`, features, extensions), the host's `-D` names and the names of
one triple (`__x86_64__`, `__SPIR__`) stay open, so an arm counts as dropped only when it is
false for every device and every build.
"""

from __future__ import annotations

from functools import cache

from ..preprocessor.foreign import NOT_OPENCL_C
from ..preprocessor.expr import Binary, Condition, Defined, Env, Ident, Node, Num, Ternary, Unary, Unknown, _eval

# The compiler and its version, as clang-19 defines them for OpenCL C.
_COMPILER = ("__clang__", "__clang_major__", "__clang_minor__", "__clang_patchlevel__", "__llvm__",
             "__GNUC__", "__GNUC_MINOR__", "__GNUC_PATCHLEVEL__", "__STDC__", "__STDC_VERSION__")
_EMPTY = Env({})


@cache
def _values() -> dict[str, int]:
    from ..preprocessor.clang19 import PREDEFINED

    env = Env({n: PREDEFINED[n] for n in _COMPILER if n in PREDEFINED})
    out = {}
    for name in _COMPILER:
        v = env.value(name)
        if name in PREDEFINED and v is not None:
            out[name] = v[0]
    return out


def _known(node: Node) -> Node:
    """`node` with the compiler's names replaced by their values and every other name unknown."""
    values = _values()
    if isinstance(node, Ident):
        if node.name in values:
            return Num(values[node.name])
        return Num(0) if node.name in NOT_OPENCL_C else Unknown(node.name)
    if isinstance(node, Defined):
        if node.name in values:
            return Num(1)
        return Num(0) if node.name in NOT_OPENCL_C else Unknown(node.name)
    if isinstance(node, Unary):
        return Unary(node.op, _known(node.operand))
    if isinstance(node, Binary):
        return Binary(node.op, _known(node.left), _known(node.right))
    if isinstance(node, Ternary):
        return Ternary(_known(node.cond), _known(node.then), _known(node.other))
    return node


def decided_false(condition: Condition) -> bool:
    """False for clang-19 whatever the target and the host's `-D`s."""
    try:
        v = _eval(_known(condition.node), _EMPTY)
    except RecursionError:
        return False
    return v is not None and not v[0]
