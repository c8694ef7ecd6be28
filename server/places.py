"""Where an editor request lands: a .cl buffer's own file in the main Host, or, in a Python or
C/C++ buffer, the kernel string under the cursor as a file of the embedded Host
(analysis/embedded/documents.py). Answers come back as document ranges through the same
object, so feature bodies are written once for both; outside the strings there is no place
and the request is answered with nothing (the user's Python or C++ server keeps it)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lsprotocol import types

from cllint.analysis.db import Snapshot
from cllint.analysis.diagnostics import FileId
from cllint.server import convert, embedded

if TYPE_CHECKING:
    from cllint.server.lsp import CllintServer


def _same(start: int, end: int) -> tuple[int, int] | None:
    return start, end


def _verbatim(start: int, end: int) -> bool:
    return True


@dataclass(frozen=True)
class Place:
    snap: Snapshot
    file: FileId  # the file the features read: the .cl buffer, or one kernel of a host buffer
    offset: int  # the cursor, in that file's bytes
    index: convert.LineIndex  # the LSP document's
    to_document: Callable[[int, int], tuple[int, int] | None] = _same
    exact: Callable[[int, int], bool] = _verbatim  # the file's bytes there are the document's, as written

    def range(self, start: int, end: int) -> types.Range | None:
        """The document range of file bytes [start, end); None inside library-generated code."""
        found = self.to_document(start, end)
        return None if found is None else self.index.range(*found)


def place(ls: CllintServer, uri: str, pos: types.Position | None) -> Place | None:
    """The place under `pos` (None: the file's start, for whole-file requests on a .cl buffer)."""
    doc = ls.docs.get(uri)
    if doc is None:
        return None
    offset = doc.index.offset(pos) if pos is not None else 0
    if not embedded.is_host_document(uri):
        snap = ls.host.snapshot()
        return Place(snap, uri, offset, doc.index) if snap.has_file(uri) else None
    found = ls.host_kernels(uri)
    hit = found.at(offset) if found is not None and pos is not None else None
    if hit is None:
        return None
    kernel, at = hit
    snap = ls.kernels.snapshot()
    if not snap.has_file(kernel.file):
        return None
    return Place(snap, kernel.file, at, doc.index, kernel.to_host, kernel.is_exact)


def places(ls: CllintServer, uri: str) -> list[Place]:
    """Every file a whole-document request reads: the .cl buffer, or each kernel of a host buffer."""
    doc = ls.docs.get(uri)
    if doc is None:
        return []
    if not embedded.is_host_document(uri):
        found = place(ls, uri, None)
        return [found] if found is not None else []
    kernels = ls.host_kernels(uri)
    if kernels is None:
        return []
    snap = ls.kernels.snapshot()
    return [Place(snap, k.file, 0, doc.index, k.to_host, k.is_exact) for k in kernels.documents
            if snap.has_file(k.file)]


def host_location(ls: CllintServer, file: FileId, start: int, end: int) -> tuple[str, int, int] | None:
    """A location in a kernel of a host buffer as (host uri, host bytes); None when it lies
    in generated code or the kernel is gone. Any other file passes unchanged."""
    host = embedded.host_of(file)
    if host is None:
        return file, start, end
    doc = ls.docs.get(host)
    kernels = ls.host_kernels(host) if doc is not None else None
    kernel = next((k for k in kernels.documents if k.file == file), None) if kernels is not None else None
    found = kernel.to_host(start, end) if kernel is not None else None
    return None if found is None else (host, *found)
