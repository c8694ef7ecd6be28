"""FPGA vendors' OpenCL C dialects (issue 29). Intel's FPGA compiler has channels
(`cl_intel_channels`, formerly `cl_altera_channels`): `channel T c;` at program scope and the
built-ins below; Xilinx's declares pipes at program scope with a depth attribute
(`pipe int p __attribute__((xcl_reqd_pipe_depth(32)));`) and reads and writes them with blocking
built-ins. Both are the vendors' own (their programming guides define them; clang-19 knows
neither), so a file using them is read as the vendor compiler reads it: the built-ins are
declared, such a pipe is no program-scope variable and no OpenCL C 2.0 pipe.

Intel's arbitrary-precision integers (`cl_intel_arbitrary_precision_integers`) are C++-style
`ap_int<N>` and `ap_uint<N>` types, which the parser reads as comparisons (`ap_int < N > x`):
the names such declarations make, and the two type names, are declared (`apint_declared`)."""

from __future__ import annotations

from tree_sitter import Node

from cllint.analysis.lazy_re import lazy

# Intel FPGA SDK for OpenCL (and the Altera spellings it keeps); Xilinx's blocking pipe calls.
DIALECT_FUNCTIONS = frozenset({
    "read_channel_intel", "write_channel_intel", "read_channel_nb_intel", "write_channel_nb_intel",
    "read_channel_altera", "write_channel_altera", "read_channel_nb_altera", "write_channel_nb_altera",
    "read_pipe_block", "write_pipe_block",
})
_XILINX_PIPE = b"xcl_reqd_pipe_depth"


def vendor_pipe_declaration(node: Node | None, source: bytes) -> bool:
    """Whether `node` is, or is inside, a program-scope declaration of a Xilinx pipe (a
    declaration whose attributes name `xcl_reqd_pipe_depth`)."""
    while node is not None and node.type != "declaration":
        if node.type in ("function_definition", "compound_statement"):
            return False
        node = node.parent
    if node is None or node.parent is None or node.parent.type not in ("translation_unit", "preproc_if",
                                                                          "preproc_ifdef", "preproc_else",
                                                                          "preproc_elif"):
        return False
    return _XILINX_PIPE in source[node.start_byte:node.end_byte]


# `ap_int<SUM_BIT> conv_out[...]`, `ap_uint<7> narrow(int x)`: the declared name after the type
_APINT_DECLARATION = lazy(rb"\bap_u?int[ \t]*<[^<>;{}\n]*>[\s*]*([A-Za-z_]\w*)")
APINT_TYPES = frozenset({"ap_int", "ap_uint"})


def apint_declared(source: bytes) -> frozenset[str]:
    """The names `ap_int<N>`/`ap_uint<N>` declarations of `source` make, and the type names."""
    if b"ap_" not in source:
        return frozenset()
    names = {m.group(1).decode() for m in _APINT_DECLARATION.finditer(source)}
    return frozenset(names | APINT_TYPES) if names else frozenset()
