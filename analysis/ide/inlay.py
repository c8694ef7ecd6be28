"""Inlay hints: the inferred address space of unqualified pointers (spec 6.7, Inference).

After the name of each parameter or local whose pointer type names no address space, the
space it points to on the file's target: `__generic` in OpenCL C 2.0 (and 3.0 with
`__opencl_c_generic_address_space`), `__private` before. Kernel parameters are left out:
they must be qualified, and a rule says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from cllint.analysis.diagnostics import FileId
from cllint.analysis.ide.hover import inference_reason, written
from cllint.analysis.ide.model_cache import model as model_of
from cllint.analysis.model import Pointer, Symbol


@dataclass(frozen=True)
class InlayHint:
    offset: int  # byte offset the hint sits at (the end of the declared name)
    label: str  # "__generic"; shown with padding on its left
    tooltip: str
    kind: str = "type"


def _hint(sym: Symbol, reason: str) -> InlayHint | None:
    t = sym.type
    if not isinstance(t, Pointer) or t.explicit or sym.node is None:
        return None
    space = t.space.spelling
    return InlayHint(sym.node.end_byte, space,
                     f"`{written(t)}` points to `{space}` (inferred: {reason})")


def inlay_hints(snap, file: FileId, start: int = 0, end: int | None = None) -> list[InlayHint]:
    """Hints for `file` whose offsets fall in [start, end]."""
    m = model_of(snap, file)
    reason = inference_reason(m.target)
    stop = len(snap.text(file)) if end is None else end
    out: list[InlayHint] = []
    for fm in m.function_models():
        if fm.node.end_byte < start or fm.node.start_byte > stop:
            continue
        symbols = [*([] if fm.is_kernel else fm.params), *fm.locals]
        for sym in symbols:
            hint = _hint(sym, reason)
            if hint is not None and start <= hint.offset <= stop:
                out.append(hint)
    out.sort(key=lambda h: h.offset)
    return out
