"""Headers the host hands the OpenCL compiler by name (issue 29): their `#include` finds them
when the host builds, though no file of the workspace holds them.

Three forms, each a call whose purpose is to supply a header, read only where the name is a
string literal:
- the core API, `clCompileProgram(program, n, devices, options, num_input_headers,
  input_headers, header_include_names, ...)` (OpenCL 1.2, 5.6.3): the literals of the
  `header_include_names` argument, or of the array, vector or pointer variable it names;
- pyopencl's `prg.compile(headers=[("pi.h", pi_prg)])`: the first item of each tuple;
- a C++ method whose name says it adds a header (`AddHeader`, `add_custom_header`, `addHeader`)
  called with a literal first argument that ends like a header or an OpenCL source
  (`program.AddHeader("inputmaps.cl", src)`, `kernel_ctx.add_custom_header("gemm_kq.h", ...)`).

A name a host only mentions (a log message, a file it reads) is no header the compiler gets.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from cllint.analysis.lazy_re import lazy

from .host_files import HOST_NAMES
from .hosts import _arguments

# A literal that names a header: no blanks or quotes, at most a path's length.
_NAME = rb"[^\"'\s\\]{1,200}"
_LITERAL = lazy(rb'"(' + _NAME + rb')"')
_PY_LITERAL = lazy(rb"""[rRuU]?["'](""" + _NAME + rb""")["']""")
_HEADER_SUFFIXES = (b".h", b".hh", b".hpp", b".hxx", b".inc", b".cl", b".clh", b".ocl", b".opencl")

# `obj.AddHeader("x.cl"`, `ctx->add_custom_header("gemm_kq.h"`: the name ends in "header(s)" and
# starts with "add" (not `header_path(`, `add_header_dir(`).
# Found by its literal tail (a pattern that starts with a literal is searched fast), then the
# method's head read back.
_HEADER_CALL = lazy(rb'eaders?\s*\(\s*"(' + _NAME + rb')"')
_ADD_HEAD = lazy(rb'(?:\.|->)\s*[Aa]dd\w*[Hh]\Z')
_COMPILE = lazy(rb"\bclCompileProgram\s*\(")
_HEADER_NAMES_ARG = 6  # `header_include_names`, the seventh argument
_PY_COMPILE = lazy(rb"\.compile\s*\(")
_PY_HEADERS = lazy(rb"\bheaders\s*=\s*\[")
_PY_TUPLE_NAME = lazy(rb"""\(\s*[rRuU]?["'](""" + _NAME + rb""")["']\s*,""")
_IDENT = lazy(rb"[A-Za-z_]\w*")
# Words of an argument that name no variable: casts, `.data()`, null pointers.
_NOT_VARIABLES = frozenset({b"const", b"char", b"signed", b"unsigned", b"data", b"NULL", b"nullptr",
                            b"static_cast", b"reinterpret_cast", b"const_cast", b"std", b"string", b"c_str"})
_MAX_CALL = 2000  # bytes of a call's arguments read


def host_header_names(hosts: Mapping[Path, bytes]) -> frozenset[str]:
    """The header names the host files supply to the compiler as literals."""
    out: set[bytes] = set()
    for path, text in hosts.items():
        if path.suffix.lower() == ".py":
            if b"headers" in text and b".compile" in text:
                out.update(_pyopencl_names(text))
            continue
        if b"eader" in text:
            out.update(name for m in _HEADER_CALL.finditer(text)
                       if (name := m.group(1)).lower().endswith(_HEADER_SUFFIXES)
                       and _ADD_HEAD.search(text, max(0, m.start() - 80), m.start()))
        if b"clCompileProgram" in text:
            out.update(_compile_program_names(text))
    return frozenset(n.decode("utf-8", "replace") for n in out)


# An option in a host's string literal naming an absolute include folder: `"-I /usr/local/include"`,
# `"-I/opt/x/include -DN=4"` (a build against an installed library's headers).
_ABSOLUTE_I = lazy(rb'"[^"\n]*?(?<![\w-])-I[ \t]*(/[^\s"]+)')
# Or a folder the host fills in at run time: `(format "-DN=%d -I%s/" n dir)`, `f"-I{inc}"`,
# `"-I" + dir`, `["-I", inc]` (a dependency's headers unpacked to a temporary folder: bayadera's
# Random123).
_COMPUTED_I = lazy(rb"""(?<![\w-])-I[ \t]*(?:%s|\{|\$\{|["']s?[ \t]*(?:\+|<<|,[ \t]*[A-Za-z_]))""")
# (only in a file that builds OpenCL programs: build files and tools pass `-I${DIR}` to C compilers)
_OPENCL_BUILD = lazy(rb"\b(?:clBuildProgram|clCompileProgram)\b|\bbuild-program!|\.build\s*\(")


def _computed_elsewhere(text: bytes) -> bool:
    """Whether a host file that builds OpenCL programs passes a computed include folder, not
    its own (`["-I", dirname(__file__)]`: the workspace's, found by include_dirs.py)."""
    return _OPENCL_BUILD.search(text) is not None and any(
        b"__file__" not in text[m.end():m.end() + _OWN_FOLDER] for m in _COMPUTED_I.finditer(text))


_OWN_FOLDER = 80  # bytes after the option that say the folder is the host's own


# A host that builds with such a folder makes the project model add `EXTERNAL`
# (supplied_headers.py): any header the workspace lacks may come from it (preprocessor/view.py).


def external_include_dirs(hosts: Mapping[Path, bytes], roots: Iterable[Path]) -> bool:
    """Whether a host builds with an absolute include folder outside the workspace, or one it
    computes."""
    inside = [Path(r).resolve() for r in roots]
    for path, text in hosts.items():
        if b"-I" not in text:
            continue
        if path.name not in HOST_NAMES and path.suffix.lower() != ".cmake" and _computed_elsewhere(text):
            return True
        for m in _ABSOLUTE_I.finditer(text):
            folder = Path(m.group(1).decode("utf-8", "replace"))
            if not any(folder == r or r in folder.parents for r in inside):
                return True
    return False


def _pyopencl_names(text: bytes) -> set[bytes]:
    """`.compile(..., headers=[("pi.h", prg), ...])`: the tuples' literal names."""
    out: set[bytes] = set()
    for call in _PY_COMPILE.finditer(text):
        end = _closing(text, call.end() - 1)
        for h in _PY_HEADERS.finditer(text, call.end(), end):
            close = _closing(text, h.end() - 1)
            out.update(m.group(1) for m in _PY_TUPLE_NAME.finditer(text, h.end(), close))
    return out


def _compile_program_names(text: bytes) -> set[bytes]:
    """`clCompileProgram`'s `header_include_names`: its literals, or those the variable it
    names is given in the same file (`names[] = {"a.h"}`, `names = {"a.h"}`, `*name = "a.h"`,
    `names.push_back("a.h")`)."""
    out: set[bytes] = set()
    for call in _COMPILE.finditer(text):
        args = _arguments(text, call.end(), _MAX_CALL)
        if len(args) <= _HEADER_NAMES_ARG:
            continue
        arg = args[_HEADER_NAMES_ARG]
        literals = _LITERAL.findall(arg)
        if literals:  # `(const char *[]){"a.h"}`
            out.update(literals)
            continue
        for word in _IDENT.findall(arg):
            if word not in _NOT_VARIABLES:
                out.update(_given_to(text, word))
    return out


def _given_to(text: bytes, name: bytes) -> set[bytes]:
    word = re.escape(name)
    out: set[bytes] = set()
    # `names[2] = {...}`, `names = {...}`, `names{...}`, `vector<...> names({...})`
    for m in re.finditer(rb"\b" + word + rb"\s*(?:\[[^\]\n]*\]\s*)*(?:=\s*)?\(?\{([^{}]{0,2000})\}", text):
        out.update(_LITERAL.findall(m.group(1)))
    for m in re.finditer(rb"\b" + word + rb"\s*=\s*\"(" + _NAME + rb")\"", text):
        out.add(m.group(1))
    for m in re.finditer(rb"\b" + word + rb"\s*\.\s*(?:push_back|emplace_back)\s*\(\s*\"(" + _NAME + rb")\"", text):
        out.add(m.group(1))
    return out


def _closing(text: bytes, at: int) -> int:
    """The offset of the bracket that closes the one at `at` (the text's end if none)."""
    depth = 0
    quote = 0
    i = at
    end = min(len(text), at + _MAX_CALL)
    while i < end:
        c = text[i]
        if quote:
            if c == 0x5C:  # backslash
                i += 1
            elif c == quote:
                quote = 0
        elif c in (0x22, 0x27):
            quote = c
        elif c in (0x28, 0x5B, 0x7B):
            depth += 1
        elif c in (0x29, 0x5D, 0x7D):
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return end


# A host that drops its kernels' `#include` lines before building them: the directive's word
# alone in a string a line is tested with (`l.startswith("#include ")`, `line.rfind("#include",
# 0) == 0`, `"#include" in line`, `re.sub(r"^#include.*", ...)`). A host that writes an include
# into a kernel writes a name after it (`"#include \"defs.h\"\n" + src`), which this is not.
_DIRECTIVE_WORD = lazy(rb"""(?:startswith|find|match|search|sub)\s*\(\s*[rbu]?(["'])\^?\s*#\s*include\s*(?:\.\*)?\1"""
                       rb"""|(["'])#include\s*\2\s+(?:not\s+)?in\b""")


def strips_includes(hosts: Mapping[Path, bytes]) -> bool:
    """Whether a host of the workspace drops `#include` lines from what it reads."""
    return any(b"include" in text and _DIRECTIVE_WORD.search(text) for text in hosts.values())

