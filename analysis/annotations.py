"""GPUVerify's specification intrinsics (issue 30, class 7).

Kernels from GPUVerify's test suite, common in OpenCL test suites, are annotated with calls
its front end (bugle, `include-blang/annotations/annotations.h`) declares: `__requires`,
`__ensures`, `__assert`, `__assume`, loop invariants (`__invariant`, `__global_invariant`,
`__candidate_invariant`, `__function_wide_invariant`), barrier invariants
(`__barrier_invariant_N`, `__barrier_invariant_binary_N`), access predicates (`__read(p)`,
`__write(p)`, `__read_offset_bytes`, `__no_read`, `__write_implies`...), inter-thread
predicates (`__other_int`, `__uniform_int`, `__distinct_int`, `__all`, `__enabled`) and
overflow-free arithmetic (`__add_noovfl*`). They are statements about the program, never run:
what their arguments read is not a memory access, and none of them is an undeclared function.
`DECLARE_UF_BINARY(NAME, ...)` / `DECLARE_UF_UNARY(NAME, ...)` declare an uninterpreted
function NAME.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence

from tree_sitter import Node

from cllint.analysis.model.walk import nodes_of_kinds
from cllint.analysis.lazy_re import lazy

_NAMES = frozenset({
    "__requires", "__global_requires", "__ensures", "__global_ensures", "__requires_fresh_array",
    "__assert", "__global_assert", "__candidate_assert", "__candidate_global_assert", "__unsafe_assert",
    "__unsafe_global_assert", "__assume", "bugle_assume",
    "__invariant", "__global_invariant", "__candidate_invariant", "__candidate_global_invariant",
    "__function_wide_invariant", "__function_wide_candidate_invariant",
    "__read", "__write", "__no_read", "__no_write", "__read_implies", "__write_implies",
    "__read_offset_bytes", "__write_offset_bytes", "__read_offset", "__write_offset",
    "__ptr_base", "__ptr_offset_bytes", "__reads_from", "__writes_to", "__read_permission",
    "__implies", "__enabled", "__dominator_enabled", "__other_int", "__other_bool", "__other_ptr_base",
    "__uniform_int", "__uniform_bool", "__uniform_ptr_base", "__distinct_int", "__distinct_bool",
    "__distinct_ptr_base", "__all", "__exclusive", "__return_val_int", "__return_val_bool",
    "__return_val_ptr", "__return_val_int4", "__old_int", "__old_bool", "__array_snapshot",
    "__atomic_has_taken_value", "__is_pow2", "__mod_pow2", "__equal_floats", "__equal_doubles",
    "__non_temporal_loads_begin", "__non_temporal_loads_end", "__spec_bar", "__axiom",
})  # fmt: skip
_PATTERNS = lazy(r"__(candidate_)?barrier_invariant(_binary)?_\d+|__add_noovfl\w*|__ite\w*|__add_\w+|"
                       r"__uninterpreted_function_\w+")
DECLARING_MACROS = frozenset({"DECLARE_UF_BINARY", "DECLARE_UF_UNARY"})



def is_annotation(name: str) -> bool:
    """A GPUVerify specification intrinsic."""
    return name in _NAMES or (name.startswith("__") and _PATTERNS.fullmatch(name) is not None)


def annotation_ranges(syntax: Node) -> list[tuple[int, int]]:
    """Byte ranges of the annotation calls in `syntax`, outermost only, in order."""
    text = syntax.text or b""
    if b"__" not in text:
        return []
    out: list[tuple[int, int]] = []
    for call in nodes_of_kinds(syntax, frozenset({"call_expression"})):
        fn = call.child_by_field_name("function")
        if fn is None or fn.type != "identifier" or not is_annotation((fn.text or b"").decode("utf-8", "replace")):
            continue
        if out and call.start_byte < out[-1][1]:
            continue  # inside the previous one
        out.append((call.start_byte, call.end_byte))
    return out


def without_annotations(accesses: list, syntax: Node) -> list:
    """`accesses` less those inside an annotation's arguments: `__barrier_invariant_1(A[0] ==
    0, lid)` reads nothing at run time."""
    if not accesses:
        return accesses
    ranges = annotation_ranges(syntax)
    if not ranges:
        return accesses
    return [a for a in accesses if not _within(ranges, a.node.start_byte)]


def _within(ranges: Sequence[tuple[int, int]], offset: int) -> bool:
    i = bisect_right(ranges, (offset, 1 << 62)) - 1
    return i >= 0 and ranges[i][0] <= offset < ranges[i][1]


def declared_by_macros(source: bytes) -> frozenset[str]:
    """Names `DECLARE_UF_BINARY(NAME, ...)` / `DECLARE_UF_UNARY(NAME, ...)` at file level declare."""
    if b"DECLARE_UF_" not in source:
        return frozenset()
    found = re.findall(rb"^[ \t]*DECLARE_UF_(?:BINARY|UNARY)\s*\(\s*([A-Za-z_]\w*)", source, re.M)
    return frozenset(n.decode() for n in found)
