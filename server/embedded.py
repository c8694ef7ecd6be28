"""Host documents in the language server: Python buffers that import pyopencl (on by
default, setting `embeddedPython`) and C/C++ buffers (opt-in, setting `embeddedCpp`). They
never enter the OpenCL Host; their diagnostics come from analysis/embedded, the module
`cllint check` uses, so editor and command line agree."""

from __future__ import annotations

from cllint.analysis.diagnostics import Diagnostic
from cllint.analysis.embedded import HostLanguage, host_language, lint_host
from cllint.analysis.embedded.search import worth_searching
from cllint.analysis.lint import LintOptions
from cllint.server.settings import EditorSettings

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


def diagnostics(uri: str, text: bytes, options: LintOptions, editor: EditorSettings) -> list[Diagnostic]:
    """The embedded kernels' diagnostics in host offsets; none where the setting is off or
    the buffer is no pyopencl or OpenCL host (checked on every analysis: an import may come)."""
    if not enabled(uri, editor) or not worth_searching(uri, text):
        return []
    return lint_host(uri, text, options)
