"""Programs whose kernels take pipes (issue 29): their host decides, not a guard.

The reasoning of image_programs.py and fp64_programs.py: a kernel with a `pipe` parameter cannot
be declared without `__opencl_c_pipes`, so a guard only removes the kernel. Where every kernel
of the program takes a pipe (a file of helpers taking pipes, with no kernel, likewise) pipes are
the program's requirement, checked by its host (CL_DEVICE_PIPE_SUPPORT); a program with a
kernel without one reports as before. Heads only, read by their words.
"""

from __future__ import annotations

from typing import Any

from tree_sitter import Node, Tree

from cllint.analysis.gating.image_programs import ImageProgram, prelude_kernels, program_needing
from cllint.analysis.lazy_re import lazy
from cllint.analysis.model.walk import head_end

_PIPE_WORD = lazy(rb"\bpipe\b")


def _takes_pipe(definition: Node, text: bytes) -> bool:
    return _PIPE_WORD.search(text[definition.start_byte:head_end(definition)]) is not None


def pipe_program(tree: Tree, source: bytes, dead: Any, before: tuple[bool, bool],
                 guarded: Any = None) -> ImageProgram | None:
    """The file as a program every kernel of which takes a pipe (or a fragment whose helpers
    do), or None; `guarded(offset)`: a guard for pipes there (see `program_needing`)."""
    return program_needing(tree, dead, before, lambda d: _takes_pipe(d, source), guarded)


def pipe_prelude(view: Any, file: str) -> tuple[bool, bool]:
    """Whether the sources read before the file define a kernel without a pipe parameter, and
    one with."""
    return prelude_kernels(view, file, _takes_pipe, "gating.pipe_prelude")
