"""The kernels of open host buffers as files of an analysis Host of their own, so that hover,
completion, signature help, definition and semantic tokens read them exactly as they read a
.cl file; host offsets map to kernel offsets and back through each kernel's PositionMap.

A kernel's file id is the host's id plus `#cllint-kernel-N` (N: its order in the host file).
They live in their own Host so that no workspace-wide query over .cl files meets them.
"""

from __future__ import annotations

from dataclasses import dataclass

from cllint.analysis.db import Change, Host, IncludeResolver, Snapshot, TextEdit
from cllint.analysis.diagnostics import Diagnostic, FileId
from cllint.analysis.lint import LintOptions

from .kernel import HostKernel
from .languages import HostLanguage
from .lint import find_kernels

SEPARATOR = "#cllint-kernel-"


def kernel_file(host_file: FileId, index: int) -> FileId:
    return f"{host_file}{SEPARATOR}{index}"


def host_file_of(file: FileId) -> FileId | None:
    """The host buffer a kernel file id belongs to; None for any other file."""
    host, sep, index = file.rpartition(SEPARATOR)
    return host if sep and index.isdigit() else None


def text_edit(old: bytes, new: bytes) -> TextEdit:
    """One edit turning `old` into `new`: what lies between their common prefix and suffix
    (found by halving, each step one C-level comparison)."""
    limit = min(len(old), len(new))
    lo, hi = 0, limit  # the common prefix is at least lo, less than hi + 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if old[:mid] == new[:mid]:
            lo = mid
        else:
            hi = mid - 1
    prefix = lo
    lo, hi = 0, limit - prefix
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if old[len(old) - mid:] == new[len(new) - mid:]:
            lo = mid
        else:
            hi = mid - 1
    return TextEdit(prefix, len(old) - lo, new[prefix:len(new) - lo])


@dataclass(frozen=True)
class KernelDocument:
    file: FileId
    kernel: HostKernel

    def to_kernel(self, host_offset: int) -> int | None:
        return self.kernel.positions.to_kernel(host_offset)

    def to_host(self, start: int, end: int) -> tuple[int, int] | None:
        """Host range of kernel range [start, end); None when it lies in library-generated code."""
        return self.kernel.positions.to_host(start, end)

    def is_exact(self, start: int, end: int) -> bool:
        """The kernel text there is the host's, byte for byte (no escape or placeholder)."""
        return self.kernel.positions.is_exact(start, end)


@dataclass(frozen=True)
class HostKernels:
    """The kernels of one version of one host buffer."""

    version: int
    documents: tuple[KernelDocument, ...]

    def at(self, host_offset: int) -> tuple[KernelDocument, int] | None:
        """The kernel under a host cursor and the cursor's kernel offset; None outside the strings."""
        for doc in self.documents:  # the first, where one literal feeds two programs
            if (offset := doc.to_kernel(host_offset)) is not None:
                return doc, offset
        return None


class EmbeddedHost:
    """Kernel files of every open host buffer, kept at each buffer's latest version."""

    def __init__(self, include_resolver: IncludeResolver | None = None, tree_capacity: int | None = None):
        self.host = Host(include_resolver=include_resolver, tree_capacity=tree_capacity)
        self._buffers: dict[FileId, HostKernels] = {}

    def get(self, uri: FileId, version: int) -> HostKernels | None:
        found = self._buffers.get(uri)
        return found if found is not None and found.version == version else None

    def update(self, uri: FileId, version: int, text: bytes, options: LintOptions,
               language: HostLanguage | None = None) -> HostKernels:
        """The buffer's kernels at `version` (found once per version), their files up to date."""
        if (found := self.get(uri, version)) is not None:
            return found
        kernels = find_kernels(uri, text, language)
        docs = tuple(KernelDocument(kernel_file(uri, i), k) for i, k in enumerate(kernels))
        snap = self.host.snapshot()
        change = Change()
        for doc in docs:
            if not snap.has_file(doc.file):
                change.files[doc.file] = doc.kernel.source
            elif (old_text := snap.text(doc.file)) != doc.kernel.source:
                # as an edit, so that the kernel is reparsed and re-linted incrementally
                change.edits[doc.file] = [text_edit(old_text, doc.kernel.source)]
            if not snap.has_file(doc.file) or snap.options(doc.file) != options:
                change.options[doc.file] = options
        old = self._buffers.get(uri)
        for gone in (old.documents[len(docs):] if old is not None else ()):
            change.files[gone.file] = None
        if change.files or change.edits or change.options:
            self.host.apply_change(change)
        self._buffers[uri] = found = HostKernels(version, docs)
        return found

    def diagnostics(self, document: KernelDocument) -> list[Diagnostic]:
        """The kernel's diagnostics in kernel offsets (file: its kernel file id), linted
        incrementally: only the functions an edit touched are analysed again."""
        return self.host.snapshot().diagnostics(document.file)

    def close(self, uri: FileId) -> None:
        old = self._buffers.pop(uri, None)
        if old is not None and old.documents:
            self.host.apply_change(Change(files={d.file: None for d in old.documents}))

    def snapshot(self) -> Snapshot:
        return self.host.snapshot()
