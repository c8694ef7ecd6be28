"""The kernels pyopencl generates around ElementwiseKernel, ReductionKernel and
GenericScanKernel snippets (pyopencl/elementwise.py, reduction.py, scan.py): the user's
pieces go where the library puts them, so `i`, `n`, `a`, `b`, `item` and the arguments are
declared as they are when the library builds the kernel. Only the user's bytes map back."""

from __future__ import annotations

import re
from collections.abc import Callable

from .posmap import KernelBuilder

Piece = Callable[[KernelBuilder], None]  # appends one user string to the kernel

# numpy scalar types pyopencl maps to OpenCL C types (pyopencl.tools.dtype_to_ctype)
NUMPY_CTYPES = {
    "float32": "float", "float64": "double", "float16": "half", "int8": "char", "uint8": "uchar",
    "int16": "short", "uint16": "ushort", "int32": "int", "uint32": "uint", "int64": "long",
    "uint64": "ulong", "intp": "long", "uintp": "ulong", "bool_": "char", "single": "float",
    "double": "double", "float": "double", "int": "long",
}
_ADDRESS_SPACE = re.compile(rb"\b(?:__)?(?:global|local|constant|private)\b")


def arguments(builder: KernelBuilder, piece: Piece) -> None:
    """pyopencl's argument list, where a pointer is a `__global` one (parse_c_arg adds it):
    the user's text, with `__global ` inserted before each pointer argument that lacks an
    address space."""
    start = len(builder)
    piece(builder)
    text = builder.text_since(start)
    if not text.strip():  # no arguments: drop the comma the template puts after them
        builder.synthetic("int pyopencl_no_arguments")
        return
    for offset, qualifier in reversed(qualify_pointer_args(text)):
        builder.insert_synthetic(start + offset, qualifier)


def qualify_pointer_args(text: bytes) -> list[tuple[int, bytes]]:
    """Offsets in an argument list where `__global ` goes (pointer arguments without an
    address space of their own), as pyopencl's VectorArg.declarator() writes them."""
    out: list[tuple[int, bytes]] = []
    pos = 0
    for part in text.split(b","):
        if b"*" in part and not _ADDRESS_SPACE.search(part):
            lead = len(part) - len(part.lstrip())
            out.append((pos + lead, b"__global "))
        pos += len(part) + 1
    return out


def elementwise(b: KernelBuilder, args: Piece, operation: Piece, preamble: Piece | None,
                name: str = "elwise_kernel") -> None:
    b.synthetic("//CL//\n")
    if preamble:
        preamble(b)
    b.synthetic(f"\n#define PYOPENCL_ELWISE_CONTINUE continue\n__kernel void {name}(")
    args(b)
    b.synthetic(", long n)\n{\n  int lid = get_local_id(0);\n  int gsize = get_global_size(0);\n"
                "  int work_group_start = get_local_size(0)*get_group_id(0);\n"
                "  long i = get_global_id(0);\n"
                # pyopencl loops `i` from work_group_start + lid by gsize; one step of that
                # loop has the same names and keeps each work-item's `i` its own to analyses
                "  if (i < n)\n  {\n    ")
    operation(b)
    b.synthetic(";\n  }\n}\n")


def reduction(b: KernelBuilder, ctype: str, neutral: Piece, reduce_expr: Piece, map_expr: Piece,
              args: Piece, preamble: Piece | None, name: str = "reduce_kernel") -> None:
    b.synthetic("//CL//\n")
    if preamble:
        preamble(b)
    b.synthetic(f"\ntypedef {ctype} out_type;\n__kernel void {name}(__global out_type *pyopencl_out, ")
    args(b)
    b.synthetic(", long n)\n{\n  long i = get_global_id(0);\n  out_type acc = ")
    neutral(b)
    b.synthetic(";\n  if (i < n)\n  {\n    out_type a = acc, b = ")
    map_expr(b)
    b.synthetic(";\n    acc = ")
    reduce_expr(b)
    b.synthetic(";\n  }\n  pyopencl_out[get_group_id(0)] = acc;\n}\n")


def scan(b: KernelBuilder, ctype: str, args: Piece, input_expr: Piece, scan_expr: Piece, neutral: Piece,
         output_statement: Piece, segment_start: Piece | None, preamble: Piece | None,
         name: str = "scan_scan_intervals") -> None:
    """Two kernels, as pyopencl launches them: the scan reads the input (`input_expr`), and
    a later launch, the final update, runs `output_statement` with the scanned `item`. So an
    in-place scan (`input_expr="ary[i]"`, `output_statement="ary[i+1] = item;"`, pyopencl's
    own list builder) is no race: the writes start after every read has finished."""
    b.synthetic("//CL//\n")
    if preamble:
        preamble(b)
    b.synthetic(f"\ntypedef {ctype} scan_type;\n__kernel void {name}(")
    start = len(b)
    args(b)
    arg_text = b.text_since(start)
    b.synthetic(", long N)\n{\n  long i = get_global_id(0);\n  if (i >= N) return;\n"
                "  bool across_seg_boundary = false;\n  scan_type a = ")
    input_expr(b)
    b.synthetic(";\n  scan_type b = ")
    neutral(b)
    b.synthetic(";\n  scan_type item = ")
    scan_expr(b)
    b.synthetic(";\n")
    if segment_start:
        b.synthetic("  bool pyopencl_segment_start = ")
        segment_start(b)
        b.synthetic(";\n")
    # The arguments again, as generated text: what they say is reported once, from the first.
    b.synthetic("  (void)item;\n}\n\n__kernel void scan_final_update(")
    b.synthetic(arg_text)
    # `item`, `prev_item` and `last_item` come from the scan's results in pyopencl's
    # buffers: to the analyses, values of this work-item's own.
    b.synthetic(", long N, __global const scan_type *pyopencl_scanned)\n{\n  long i = get_global_id(0);\n"
                "  if (i >= N) return;\n  scan_type item = pyopencl_scanned[i];\n"
                "  scan_type prev_item = i > 0 ? pyopencl_scanned[i - 1] : item, last_item = pyopencl_scanned[N - 1];\n"
                "  {\n    ")
    output_statement(b)
    b.synthetic(";\n  }\n}\n")
