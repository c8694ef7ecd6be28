"""The builds a compiler test's lit `RUN:` lines give a source (issue 29, item 2).

Compiler projects keep OpenCL C test files whose build is written in the file itself:

    // RUN: %clang_cc1 -triple spir -cl-std=CL2.0 -finclude-default-header -emit-llvm-bc %s -o %t.bc
    // RUN: llvm-spirv %t.bc -o %t.spv

A RUN command (a pipeline segment, after `not` and `env X=Y`) is a compile of the file when it
names `%s` and is a compiler (`%clang_cc1`, `%clang`, `clang-19`, `clspv`, Intel's `ocloc`, whose
`-options "..."` and `-internal_options "..."` strings hold the build options; each branch of
lit's `%if FEATURE %{ ... %} %else %{ ... %}` is a command) or carries an
option only an OpenCL compiler takes (`-cl-std=`, `-x cl`, `-triple`, `-cl-ext=`). Its options
are read as clang reads them: the language (`-cl-std=`, `-std=`, `-x cl`/`-x clcpp`), `-D`/`-U`
in order, `-I`, `-include`, `-cl-ext=`, the target, `-verify`, and whether the command is
negated (`not`: the build is expected to fail). `%S` and `%p` are the file's folder.

Pure text: the project model (cllint/project/lit_options.py) merges a file's builds into its
options, and source_kind.py skips a file no build of which is OpenCL C that compiles.
"""

from __future__ import annotations

import re

from cllint.analysis.lazy_re import lazy
from cllint.analysis.records import SlotRecord

_RUN = lazy(rb"\bRUN:(.*)$", re.M)
_SEPARATORS = frozenset({"|", "||", "&&", ";", "|&"})
# Tools that read `%s` without compiling it (FileCheck also takes `-D`).
_NOT_COMPILERS = lazy(r"^(?:%?FileCheck|%?not|count|grep|sed|echo|cat|diff|cmp|rm|mkdir|cp|mv|touch|env|"
                      r"%?python\d*|split-file|%?opt|%?llc|%?lli|llvm-[\w-]+|%?llvm-[\w-]+|spirv-[\w-]+|"
                      r"%?spirv-[\w-]+|%?llvm-spirv)$", re.I)
_COMPILER = lazy(r"^(?:%\{?clang[\w+-]*\}?|%\{?cc1\}?|(?:[\w./-]*/)?clang(?:\+\+|-cl)?(?:-\d+)?|"
                 r"%?clspv\w*|(?:[\w./-]*/)?clspv|%?ocloc)$", re.I)
# Options only an OpenCL (or clang) compile of the file carries.
_OPENCL_OPTION = lazy(r"^(?:-?-cl-std(?:=.*)?|-x(?:cl|clcpp)?|-triple(?:=.*)?|-cl-ext=.*|-cc1|"
                      r"-finclude-default-header|-fdeclare-opencl-builtins|-emit-llvm(?:-bc)?|-fsyntax-only)$")
FILE_DIR = ("%S", "%p", "%{S}", "%{p}")  # lit's names for the test file's own folder


class LitBuild(SlotRecord):
    """One RUN command that compiles the file."""

    __slots__ = ("language", "std", "macros", "include_dirs", "includes", "cl_ext", "triple", "verify",
                 "negated", "default_header")
    language: str  # "cl" (OpenCL C), "clcpp" (C++ for OpenCL) or "other" (`-x c`: not ours)
    std: str | None  # "CL2.0"; None: the compiler's default (OpenCL C 1.2)
    macros: tuple[tuple[str, str | None], ...]  # `-D NAME=V` (value) and `-U NAME` (None), in order
    include_dirs: tuple[str, ...]  # `-I DIR`, as written (`%S` kept)
    includes: tuple[str, ...]  # `-include FILE`, as written (`%S` kept, see `resolve`)
    cl_ext: tuple[str, ...]  # `-cl-ext=` values, in order
    triple: str | None  # `-triple`/`-target`; None: the host's
    verify: tuple[str, ...] | None  # `-verify` prefixes (("expected",) for a plain one); None: no -verify
    negated: bool  # `not %clang_cc1 ...`: the build is expected to fail
    # Whether the compiler declares the built-ins (a driver, or `-cc1` with -finclude-default-header
    # or -fdeclare-opencl-builtins); a bare `-cc1` build has the file declare those it uses.
    default_header: bool

    __match_args__ = ("language", "std", "macros", "include_dirs", "includes", "cl_ext", "triple", "verify",
                      "negated", "default_header")

    def __init__(self, language: str = "cl", std: str | None = None,
                 macros: tuple[tuple[str, str | None], ...] = (), include_dirs: tuple[str, ...] = (),
                 includes: tuple[str, ...] = (), cl_ext: tuple[str, ...] = (), triple: str | None = None,
                 verify: tuple[str, ...] | None = None, negated: bool = False, default_header: bool = True) -> None:
        self.language = language
        self.std = std
        self.macros = macros
        self.include_dirs = include_dirs
        self.includes = includes
        self.cl_ext = cl_ext
        self.triple = triple
        self.verify = verify
        self.negated = negated
        self.default_header = default_header


def run_lines(data: bytes) -> list[str]:
    """The file's RUN commands, `\\` continuations joined."""
    out: list[str] = []
    pending = ""
    for m in _RUN.finditer(data):
        text = m.group(1).decode("utf-8", "replace").rstrip()
        if text.endswith("*/"):
            text = text[:-2].rstrip()
        if text.endswith("\\"):
            pending += text[:-1] + " "
            continue
        out.append(pending + text)
        pending = ""
    if pending:
        out.append(pending)
    return out


def _words(command: str) -> list[str]:
    import shlex  # (compiler tests' RUN lines only)

    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars="|&;")
        lexer.whitespace_split = True
        return list(lexer)
    except ValueError:  # an unbalanced quote: words as written
        return command.split()


def _segments(words: list[str]) -> list[list[str]]:
    out: list[list[str]] = [[]]
    for w in words:
        if w in _SEPARATORS:
            out.append([])
        else:
            out[-1].append(w)
    return [s for s in out if s]


def _std(value: str) -> tuple[str, str | None] | None:
    """(language, version) of a `-cl-std=`/`-std=` value; None: not an OpenCL one."""
    v = value.strip().upper()
    if v.startswith("CLC++") or v.startswith("CLCPP"):
        return "clcpp", None
    m = re.fullmatch(r"CL([123])\.([0-9])", v)
    if m is not None:
        return "cl", f"CL{m.group(1)}.{m.group(2)}"
    return None


def _build(words: list[str], negated: bool) -> LitBuild | None:
    """The build of one compile command (`words[0]` the tool), or None when it is not one."""
    tool, args = words[0], words[1:]
    if "%s" not in args or _NOT_COMPILERS.match(tool):
        return None
    ocloc = tool.lower().lstrip("%") == "ocloc"
    if ocloc:  # Intel's offline compiler: the build options are one quoted word each
        args = _ocloc_options(args)
    if not _COMPILER.match(tool) and not any(_OPENCL_OPTION.match(a) for a in args):
        return None
    language, std = "cl", None
    macros: list[tuple[str, str | None]] = []
    dirs: list[str] = []
    includes: list[str] = []
    cl_ext: list[str] = []
    triple: str | None = None
    verify: tuple[str, ...] | None = None
    i = 0
    while i < len(args):
        a = args[i]
        nxt = args[i + 1] if i + 1 < len(args) else ""
        taken = 0  # words after `a` it consumes
        if a in ("-cl-std", "--cl-std", "-std") and nxt:
            value, taken = nxt, 1
        elif a.startswith(("-cl-std=", "--cl-std=", "-std=", "--std=")):
            value = a.split("=", 1)[1]
        else:
            value = None
        if value is not None:
            got = _std(value)
            if got is not None:
                language, std = got
        elif a == "-x" and nxt or a.startswith("-x") and len(a) > 2:
            kind = nxt if a == "-x" else a[2:]
            taken = 1 if a == "-x" else 0
            language = {"cl": "cl", "clcpp": "clcpp", "cl-cpp-output": "cl"}.get(kind.lower(), "other")
        elif a in ("-D", "-U") and nxt:
            name, eq, val = nxt.partition("=")
            macros.append((name, (val if eq else "1") if a == "-D" else None))
            taken = 1
        elif a.startswith(("-D", "-U")) and len(a) > 2:
            name, eq, val = a[2:].partition("=")
            macros.append((name, (val if eq else "1") if a.startswith("-D") else None))
        elif a in ("-I", "-isystem", "-iquote", "-idirafter") and nxt:
            dirs.append(nxt)
            taken = 1
        elif a.startswith("-I") and len(a) > 2:
            dirs.append(a[2:])
        elif a in ("-include", "--include") and nxt:
            includes.append(nxt)
            taken = 1
        elif a.startswith("--include="):
            includes.append(a.split("=", 1)[1])
        elif a.startswith("-cl-ext="):
            cl_ext.append(a.split("=", 1)[1])
        elif a in ("-triple", "-target", "--target") and nxt:
            triple, taken = nxt, 1
        elif a.startswith(("-triple=", "--target=", "-target=")):
            triple = a.split("=", 1)[1]
        elif a == "-verify":
            verify = ("expected",)
        elif a.startswith("-verify="):
            verify = tuple(p for p in a.split("=", 1)[1].split(",") if p)
        i += 1 + taken
    if triple is None and "clspv" in tool.lower():
        triple = "clspv"  # Vulkan's, not the host's
    if triple is None and ocloc:
        triple = "ocloc"  # an Intel GPU's (`-device`), not the host's
    cc1 = "cc1" in tool.lower() or "-cc1" in args
    declared = {"-finclude-default-header", "-fdeclare-opencl-builtins"} & set(args)
    header = not ("-cl-no-stdinc" in args or cc1 and not declared)
    return LitBuild(language, std, tuple(macros), tuple(dirs), tuple(includes), tuple(cl_ext), triple, verify,
                    negated, header)


def _ocloc_options(args: list[str]) -> list[str]:
    """`ocloc compile -file %s -options "-cl-std=CL2.0 -DN=4" -internal_options "-cl-ext=..."`:
    the words of its option strings in their place (what `clBuildProgram` would be given)."""
    out: list[str] = []
    i = 0
    while i < len(args):
        if args[i] in ("-options", "-internal_options") and i + 1 < len(args):
            out += _words(args[i + 1])
            i += 2
            continue
        out.append(args[i])
        i += 1
    return out


def _unconditional(words: list[str]) -> list[str]:
    """lit's `%if FEATURE %{ COMMAND %} %else %{ OTHER %}`: each branch a command of its own (a
    build the suite runs where the feature is), the markers separators."""
    out: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w == "%if" and i + 2 < len(words) and words[i + 2] == "%{":
            out.append(";")
            i += 3
            continue
        if w == "%else" and i + 1 < len(words) and words[i + 1] == "%{":
            out.append(";")
            i += 2
            continue
        out.append(";" if w == "%}" else w)
        i += 1
    return out


def lit_builds(data: bytes) -> list[LitBuild]:
    """Every RUN command of the file that compiles it (`%s`), in order."""
    if b"RUN:" not in data:
        return []
    out: list[LitBuild] = []
    for command in run_lines(data):
        if "%s" not in command:
            continue
        for words in _segments(_unconditional(_words(command))):
            negated = False
            while words:
                if words[0] in ("not", "%not"):
                    negated = not negated
                elif words[0] == "env":
                    while len(words) > 1 and "=" in words[1] and not words[1].startswith("-"):
                        words = words[1:]
                elif words[0] != "--crash":
                    break
                words = words[1:]
            if words and (built := _build(words, negated)) is not None:
                out.append(built)
    return out


def expects_errors(build: LitBuild, data: bytes) -> bool:
    """Whether the build expects the compiler to fail or to report errors the file marks."""
    if build.negated:
        return True
    if build.verify is None:
        return False
    return any(f"{prefix}-error".encode() in data for prefix in build.verify)


def declares_own_builtins(data: bytes) -> bool:
    """Whether every RUN build that compiles the file as OpenCL C, expecting success, is a bare
    `-cc1` one: the compiler declares no built-in, the file its own (`typedef ... ndrange_t;`)."""
    builds = [b for b in lit_builds(data) if b.language == "cl" and not expects_errors(b, data)] \
        if b"RUN:" in data else []
    return bool(builds) and not any(b.default_header for b in builds)


def lit_kind_reason(data: bytes) -> str | None:
    """Why a file whose RUN lines compile it is not an OpenCL C program to check: every build
    expected to compile is C++ for OpenCL, or every build expects errors; None otherwise."""
    builds = lit_builds(data)
    if not builds:
        return None
    passing = [b for b in builds if not expects_errors(b, data)]
    if any(b.language == "cl" for b in passing):
        return None
    if any(b.language == "clcpp" for b in passing):
        return "C++ for OpenCL (its RUN lines compile it with -cl-std=clc++ or -x clcpp)"
    if not passing and any(b.language == "cl" for b in builds):
        if any(b.verify is not None and not b.negated for b in builds):
            return "a compiler test of diagnostics: its RUN lines expect the errors it marks (-verify, expected-error)"
        return "a compiler test that must fail: its RUN lines expect the build to fail (not %clang...)"
    return None

