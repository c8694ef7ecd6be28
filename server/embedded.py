"""Host documents in the language server: Python buffers that import pyopencl (on by
default, setting `embeddedPython`) and C/C++ buffers (opt-in, setting `embeddedCpp`). They
never enter the OpenCL Host; their diagnostics come from analysis/embedded, the module
`cllint check` uses, so editor and command line agree. Their kernels, found once per
version, are files of a Host of their own (analysis/embedded/documents.py) that the editor
features read (server/places.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cllint.analysis.diagnostics import Diagnostic, FileId
from cllint.analysis.embedded import HostLanguage, host_language, lint_host
from cllint.analysis.embedded.search import worth_searching
from cllint.analysis.lint import LintOptions
from cllint.server.settings import EditorSettings

if TYPE_CHECKING:
    from cllint.analysis.embedded.documents import EmbeddedHost, HostKernels

SETTINGS = {HostLanguage.PYTHON: ("embeddedPython", True), HostLanguage.CPP: ("embeddedCpp", False)}


def is_host_document(uri: str) -> bool:
    """A Python or C/C++ buffer: the server never reads it as OpenCL C."""
    return host_language(uri) is not None


def enabled(uri: str, editor: EditorSettings) -> bool:
    language = host_language(uri)
    if language is None:
        return False
    key, default = SETTINGS[language]
    value = editor.extra.get(key, default)
    return value if isinstance(value, bool) else default


def new_host(include_resolver) -> EmbeddedHost:
    from cllint.analysis.embedded.documents import EmbeddedHost  # loads the host grammars

    return EmbeddedHost(include_resolver=include_resolver)


def kernels(store: EmbeddedHost, uri: str, version: int, text: bytes, options: LintOptions,
            editor: EditorSettings) -> HostKernels | None:
    """The buffer's kernels at `version`; None where the setting is off or the buffer is no
    pyopencl or OpenCL host (checked on every version: an import may come)."""
    if not enabled(uri, editor) or not worth_searching(uri, text):
        store.close(uri)
        return None
    return store.update(uri, version, text, options, host_language(uri))


def diagnostics(store: EmbeddedHost, uri: str, text: bytes, options: LintOptions,
                found: HostKernels | None) -> list[Diagnostic]:
    """The embedded kernels' diagnostics in host offsets (none without kernels to read), each
    kernel linted incrementally in `store`; the host checks as `cllint check` runs them."""
    if found is None:
        return []
    docs = found.documents
    return lint_host(uri, text, options, kernels=[d.kernel for d in docs],
                     lint_kernel=lambda i, _: (docs[i].file, store.diagnostics(docs[i])))


def host_of(file: FileId) -> str | None:
    """The host buffer whose kernel `file` is, or None (a .cl file or header)."""
    if "#cllint-kernel-" not in file:  # no import for the common case
        return None
    from cllint.analysis.embedded.documents import host_file_of

    return host_file_of(file)
