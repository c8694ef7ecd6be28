"""Which host language a file name means. `.h` stays OpenCL C: kernel headers use it."""

from __future__ import annotations

from pathlib import PurePath


class HostLanguage:
    """The host languages, compared by identity (`language is HostLanguage.PYTHON`) and used as
    keys: plain strings, not an `Enum`, which every start-up would make (~0.5M instructions,
    issue 32) for a file name's lookup."""

    PYTHON = "python"
    CPP = "cpp"


_SUFFIXES = {
    ".py": HostLanguage.PYTHON, ".pyw": HostLanguage.PYTHON,
    ".c": HostLanguage.CPP, ".cc": HostLanguage.CPP, ".cpp": HostLanguage.CPP, ".cxx": HostLanguage.CPP,
    ".c++": HostLanguage.CPP, ".hpp": HostLanguage.CPP, ".hh": HostLanguage.CPP, ".hxx": HostLanguage.CPP,
}


def host_language(path: str) -> HostLanguage | None:
    return _SUFFIXES.get(PurePath(path).suffix.lower())


def is_host_file(path: str) -> bool:
    return host_language(path) is not None
