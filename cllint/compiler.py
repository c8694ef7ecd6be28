"""The optional clang layer (CL099): runs `clang -fsyntax-only` over one OpenCL C file
with the file's include paths, defines and target as clang flags, and keeps the errors
that no native rule reported on the same line.

Shared by `cllint check --compiler clang` and the language server; it runs a process,
so it lives outside `analysis/` (which does no IO).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from cllint.analysis.diagnostics import Diagnostic, Note, Severity, Span
from cllint.analysis.lint import LintOptions
from cllint.analysis.suppression import apply_suppressions

CODE = "CL099"
PACKAGE = "clang-19"  # the Debian package scripts/setup installs
MIN_VERSION = 15  # the first clang with OpenCL C 3.0 and -cl-ext for its features
CANDIDATES = ("clang-19", "clang")
TIMEOUT_S = 30.0

# `<stdin>:3:5:{3:5-3:8}{...}: error: message [-Wflag]`, as printed with
# -fdiagnostics-print-source-range-info -fno-caret-diagnostics -fno-color-diagnostics
_LINE = re.compile(
    r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+):(?P<ranges>(?:\{\d+:\d+-\d+:\d+\})*):? "
    r"(?P<kind>fatal error|error|warning|note|remark): (?P<msg>.*)$")
_RANGE = re.compile(r"\{(\d+):(\d+)-(\d+):(\d+)\}")
_FLAG = re.compile(r" \[-W[^\]]*\]$")
_IDENT = re.compile(rb"[A-Za-z_0-9]+")
# clang's error for a name spelled like a macro the host passes with -D (BLOCK_SIZE): that is
# CL012's warning, once a name, not an error at every use (issue 23, item 2)
_HOST_MACRO = re.compile(r"^use of undeclared identifier '[A-Z][A-Z0-9_]*[A-Z0-9]'$")


class CompilerMissing(RuntimeError):
    """No usable clang on PATH; `str()` is the message for the user."""


@cache
def find_clang() -> str | None:
    """`clang-19`, else a `clang` whose major version is MIN_VERSION or newer."""
    for name in CANDIDATES:
        exe = shutil.which(name)
        if exe and _major(exe) >= MIN_VERSION:
            return exe
    return None


def require_clang() -> str:
    exe = find_clang()
    if exe is None:
        raise CompilerMissing(f"--compiler clang: no clang {MIN_VERSION} or newer found on PATH "
                              f"(looked for {', '.join(CANDIDATES)}); install the '{PACKAGE}' package")
    return exe


def _major(exe: str) -> int:
    try:
        out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return 0
    m = re.search(r"clang version (\d+)", out)
    return int(m.group(1)) if m else 0


# Vendor extensions clang-19 defines for spir64 whose built-ins it does not declare (its driver's
# -fdeclare-opencl-builtins leaves them out): with the macro on, code written for both sides
# of `#ifdef cl_amd_media_ops` meets "use of undeclared identifier 'amd_bitalign'". Off, clang
# compiles the side that does without them.
_NO_BUILTINS = frozenset({"cl_amd_media_ops", "cl_amd_media_ops2", "cl_intel_subgroups", "cl_intel_subgroups_short",
                          "cl_intel_device_side_avc_motion_estimation"})


def clang_flags(options: LintOptions, folder: Path | None) -> list[str]:
    """The target as clang reads it. Portability mode names only the version: clang's
    spir64 default then has every extension, as the guards under test assume; target
    mode lists exactly the target's features and extensions (`-cl-ext=-all,+...`)."""
    t = options.target
    flags = ["-x", "cl", "-target", "spir64", f"-cl-std=CL{t.version.major}.{t.version.minor}",
             "-Xclang", "-finclude-default-header", "-fsyntax-only", "-fno-color-diagnostics",
             "-fno-caret-diagnostics", "-fdiagnostics-print-source-range-info", "-ferror-limit=0"]
    if options.mode == "target":
        ext = ",".join(["-all", *(f"+{n}" for n in sorted((t.features | t.extensions) - _NO_BUILTINS))])
        flags += ["-Xclang", f"-cl-ext={ext}"]
    else:
        flags += ["-Xclang", "-cl-ext=" + ",".join(f"-{n}" for n in sorted(_NO_BUILTINS))]
    flags += [f"-D{name}=1" for name in host_feature_macros(options)]
    if not any(name == "__OPENCL_VERSION__" for name, _ in options.defines):
        # every device compiler defines it (the spec's predefined macros); clang leaves it to the runtime
        flags.append(f"-D__OPENCL_VERSION__={t.version.number}")
    if folder is not None:  # the buffer arrives on stdin: quoted includes search its folder
        flags += ["-iquote", str(folder)]
    flags += [f"-I{p}" for p in options.include_paths]
    flags += [f"-D{name}={value}" for name, value in options.defines]
    return flags


# The sub-group built-ins' own switch in clang-19's header (opencl-c-base.h), which a vendor's
# sub-group extension turns on too: its intel_* built-ins clang never declares, its
# get_sub_group_*() and sub_group_*() it does, once this is defined.
_SUBGROUP_BUILTINS = "__opencl_subgroup_builtins"


def host_feature_macros(options: LintOptions) -> list[str]:
    """Extensions and features the host checks the device for before it builds (issue 29;
    cllint/project/hosts.py `checked_extensions`) that clang-19 knows but does not define at
    the version judged: defined with `-D`, its header then declares their built-ins
    (`dot_acc_sat_4x8packed_ss_int` of cl_khr_integer_dot_product, `get_sub_group_size` of
    cl_khr_subgroups at 1.2). Portability mode only: a target lists its own. Vendor extensions
    whose built-ins clang lacks stay off (a `#ifdef` on them would pick code clang cannot
    read), and a feature macro comes with its extension as clang defines them together."""
    checked = set(options.host_features)
    if not checked or options.mode == "target":
        return []
    from cllint.analysis.clang19_targets import SPIR64
    from cllint.analysis.features import FEATURES

    t = options.target
    now = SPIR64.get(f"CL{t.version.major}.{t.version.minor}", frozenset())
    known = frozenset().union(*SPIR64.values())
    out = {n for n in checked if n.startswith("cl_") and n in known and n not in now and n not in _NO_BUILTINS}
    have = out | now
    for f in FEATURES.values():  # `__opencl_c_integer_dot_product_input_4x8bit` with its extension
        if f.name in known and f.name not in now and any(
                alt and any(n.startswith("cl_") for n in alt) and all(n in have for n in alt) for alt in f.requires):
            out.add(f.name)
    if checked & {"cl_intel_subgroups", "cl_khr_subgroups", "__opencl_c_subgroups"} and _SUBGROUP_BUILTINS not in now:
        out.add(_SUBGROUP_BUILTINS)
    return sorted(out)


@dataclass(frozen=True)
class _Raw:
    line: int  # 1-based
    col: int  # 1-based, in bytes
    ranges: tuple[tuple[int, int, int, int], ...]
    kind: str
    message: str


def prelude_texts(options: LintOptions) -> list[tuple[str, bytes]]:
    """The sources the file's program reads before it (issue 29), as they are on disk."""
    from cllint.analysis.preprocessor.includer_heads import read_head

    out = []
    for path in options.prelude:
        try:
            # an includer's text before its `#include` of the file (includer_heads.py)
            head = read_head(path, lambda p: (p, Path(p).read_bytes()))
            out.append(head if head is not None else (path, Path(path).read_bytes()))
        except OSError:
            continue
    return out


def run_clang(exe: str, source: bytes, options: LintOptions, folder: Path | None,
              timeout: float = TIMEOUT_S, prelude: list[tuple[str, bytes]] | None = None) -> str:
    """clang's diagnostics for `source` (given on stdin, so an unsaved buffer works), after the
    sources its program reads first (`prelude`: `prelude_texts(options)` unless given), each
    under a `#line` naming it so that only the file's own errors read as `<stdin>`'s."""
    from cllint.analysis.source_kind import without_raw_string

    text = b""
    for path, data in prelude_texts(options) if prelude is None else prelude:
        text += b'#line 1 "' + path.replace("\\", "/").replace('"', "").encode() + b'"\n' \
            + without_raw_string(data) + b"\n"
    if text:
        text += b'#line 1 "<stdin>"\n'
    text += without_raw_string(source)
    flags = clang_flags(options, folder)
    from cllint.analysis.preprocessor.includer_heads import split_head

    for entry in options.prelude:  # an includer's head: its own `#include "x"` lines search its folder
        if (head := split_head(entry)) is not None:
            flags += ["-iquote", str(Path(head[0]).parent)]
    if b"RUN:" in source:
        from cllint.analysis.lit_runs import declares_own_builtins

        if declares_own_builtins(source):  # its RUN lines' bare `%clang_cc1`: no default header
            at = flags.index("-finclude-default-header")
            flags[at - 1:at + 1] = ["-cl-no-stdinc"]  # (the driver's own default header too)
    try:
        done = subprocess.run([exe, *flags, "-"], input=text,
                              capture_output=True, timeout=timeout)
    except (OSError, subprocess.SubprocessError):
        return ""  # a clang that cannot run or hangs adds nothing; the native results stand
    return done.stderr.decode("utf-8", "replace")


def parse_output(text: str) -> list[tuple[_Raw, list[_Raw]]]:
    """Errors in the main file (`<stdin>`), each with its notes in that file."""
    out: list[tuple[_Raw, list[_Raw]]] = []
    for raw_line in text.splitlines():
        m = _LINE.match(raw_line)
        if m is None:
            continue
        if m["file"] != "<stdin>":
            continue  # a header's own errors belong to the header (and its 'In file included from')
        raw = _Raw(int(m["line"]), int(m["col"]),
                   tuple(tuple(map(int, r)) for r in _RANGE.findall(m["ranges"])),  # type: ignore[misc]
                   m["kind"], _FLAG.sub("", m["msg"]))
        if raw.kind in ("error", "fatal error"):
            out.append((raw, []))
        elif raw.kind == "note" and out:
            out[-1][1].append(raw)
    return out


class _Lines:
    def __init__(self, source: bytes) -> None:
        self.source = source
        self.starts = [0] + [i + 1 for i, b in enumerate(source) if b == 0x0A]

    def offset(self, line: int, col: int) -> int:
        start = self.starts[min(max(line, 1), len(self.starts)) - 1]
        return min(start + max(col, 1) - 1, len(self.source))

    def line_of(self, offset: int) -> int:
        lo, hi = 0, len(self.starts)
        while lo + 1 < hi:
            mid = (lo + hi) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid
        return lo + 1


def _span(file: str, lines: _Lines, raw: _Raw) -> Span:
    """The caret's token joined with clang's highlighted ranges on its line (their ends are
    exclusive): `~a[1]` for an invalid unary operand, `a % b` for invalid operands."""
    start = lines.offset(raw.line, raw.col)
    m = _IDENT.match(lines.source, start)
    lo, hi = start, m.end() if m else min(start + 1, len(lines.source))
    for l1, c1, l2, c2 in raw.ranges:
        if l1 == l2 == raw.line:
            lo, hi = min(lo, lines.offset(l1, c1)), max(hi, lines.offset(l2, c2))
    return Span(file, lo, hi)


def compiler_diagnostics(file: str, source: bytes, clang_output: str,
                         native: Iterable[Diagnostic]) -> list[Diagnostic]:
    """clang's errors as CL099, less those on a line where a native rule already reports, and
    its "undeclared" errors on a name a native rule reports undeclared (once, its other uses
    as notes: clang says it on every line)."""
    lines = _Lines(source)
    native = [d for d in native if d.span.file == file]
    taken = {lines.line_of(d.span.start) for d in native}
    undeclared = {m.group(1) for d in native if d.code in _NATIVE_UNDECLARED
                  for m in [_QUOTED.search(d.message)] if m is not None}
    out: list[Diagnostic] = []
    # One error in a macro's body is one report however often the macro is used (issue 29,
    # item 6): its other uses are notes of the first, by (message, place in the macro).
    in_macro: dict[tuple[str, int, int], tuple[int, list[Note]]] = {}
    for raw, notes in parse_output(clang_output):
        if raw.line in taken or _HOST_MACRO.match(raw.message):
            continue
        if (m := _UNDECLARED.match(raw.message)) is not None and m.group(1) in undeclared:
            continue
        taken.add(raw.line)  # one report a line: clang's follow-on errors repeat the first
        origin = next(((raw.message, n.line, n.col) for n in notes if n.message.startswith(_EXPANDED)), None)
        if origin is not None and origin in in_macro:
            _, more = in_macro[origin]
            more.append(Note(_span(file, lines, raw), f"{_AGAIN}{raw.message}"))
            continue
        if origin is not None:
            in_macro[origin] = (len(out), [])
        out.append(Diagnostic(CODE, Severity.ERROR, f"clang: {raw.message}", _span(file, lines, raw),
                              tuple(Note(_span(file, lines, n), n.message) for n in notes)))
    for at, more in in_macro.values():
        if more:
            d = out[at]
            shown = more[:_MAX_AGAIN]
            if len(more) > len(shown):
                shown.append(Note(more[len(shown)].span, f"and {len(more) - len(shown)} more uses of the macro"))
            uses = f" ({len(more)} more use{'s' if len(more) > 1 else ''} of the macro)"
            out[at] = Diagnostic(d.code, d.severity, d.message + uses, d.span, (*d.notes, *shown))
    return out


_EXPANDED = "expanded from macro "
_AGAIN = "the same error, from the same macro: "
_MAX_AGAIN = 8  # notes shown, then a count (as the other once-per rules)


def wanted(options: LintOptions) -> bool:
    """CL099 is selected (and not ignored) by the file's options."""
    return any(r.code == CODE for r in options.rules())


# The native reports of a name nothing declares (the name: the first `_QUOTED` of the message).
_NATIVE_UNDECLARED = frozenset({"CL010", "CL011", "CL012"})
# clang's errors on a name nothing declares; the host may define it with `-D`.
_UNDECLARED = re.compile(r"^(?:use of undeclared identifier|call to undeclared function|unknown type name|"
                         r"call to undeclared library function) '([A-Za-z_]\w*)'")


def _vendor_builtin(d: Diagnostic) -> bool:
    """clang-19 on spir64 declares no vendor built-in (`intel_sub_group_shuffle`, `amd_bitalign`,
    their types): its "undeclared" is about itself, not the kernel, and what follows from it
    (a variable of such a type is then undeclared too) as well. The native rules take these names
    as the device compiler's (CL011 is silent); a file built on them is not one clang can build."""
    from cllint.analysis.semantic.context import VENDOR_PREFIXES

    m = _UNDECLARED.match(d.message.removeprefix("clang: "))
    if m is not None and (m.group(1) in _INLINE_ASSEMBLY or m.group(1).startswith(_TARGET_BUILTINS)):
        return True  # inline PTX, or a GPU target's own clang built-ins: built for that target
    return m is not None and m.group(1).startswith(VENDOR_PREFIXES) and not m.group(1).startswith("__")


_INLINE_ASSEMBLY = frozenset({"asm", "__asm", "__asm__"})
# clang declares these only for their own `-target` (libclc builds amdgcn/, r600/, ptx-nvidiacl/
# with it); the layer builds for spir64.
_TARGET_BUILTINS = ("__builtin_amdgcn_", "__builtin_r600_", "__nvvm_", "__builtin_ptx_")


def _verifier_intrinsic(d: Diagnostic, source: bytes) -> bool:
    """A file written for GPUVerify: its front end declares the specification intrinsics
    (`__requires`, `__invariant`, `__barrier_invariant_1`...) and the uninterpreted functions of
    `DECLARE_UF_*`; clang-19 declares neither, so its errors cascade from them, as from vendor
    built-ins. The native rules read them (analysis/annotations.py)."""
    from cllint.analysis.annotations import DECLARING_MACROS, is_annotation

    m = _UNDECLARED.match(d.message.removeprefix("clang: "))
    return (m is not None and is_annotation(m.group(1))) or any(w.encode() in source for w in DECLARING_MACROS)


def _host_program(file: str, source: bytes, options: LintOptions, found: list[Diagnostic]) -> list[Diagnostic]:
    """What the host decides stays the host's (issue 29), as for the rules: errors on names its
    `-D` options define (any name, where it computes them), and errors inside `#if` arms it
    picks while its options are unknown."""
    host = set(options.host_macros)
    if host:
        found = [d for d in found
                 if not ((m := _UNDECLARED.match(d.message.removeprefix("clang: "))) and
                         ("*" in host or m.group(1) in host))]
    if found and not options.options_known:
        from bisect import bisect_right

        from cllint.analysis.preprocessor.choices import host_choices
        from cllint.analysis.preprocessor.view import build_view
        from cllint.includes import FileIncludeResolver

        resolver = FileIncludeResolver(options.include_paths, options.prelude, options.host_macros)
        view = build_view(f"{file}#clang", source, target=options.target, defines=dict(options.defines),
                          include_resolver=resolver)
        ranges = host_choices(view)
        starts = [r[0] for r in ranges]

        def chosen(offset: int) -> bool:
            i = bisect_right(starts, offset) - 1
            return i >= 0 and offset < ranges[i][1]

        found = [d for d in found if not chosen(d.span.start)]
    return found


_WORD = re.compile(r"[A-Za-z_]\w*")


_ENABLE = re.compile(rb"^[ \t]*#[ \t]*pragma[ \t]+OPENCL[ \t]+EXTENSION[ \t]+(\w+)[ \t]*:[ \t]*enable", re.M)


def _enables_unknown_extension(source: bytes) -> bool:
    """A `#pragma OPENCL EXTENSION X : enable` for an X clang-19 defines for no version
    (`cl_qcom_extra_vector_types`): the kernel is written for a compiler that knows X."""
    if b"EXTENSION" not in source:
        return False
    from cllint.analysis.clang19_targets import SPIR64

    known = frozenset().union(*SPIR64.values())
    return any(m.group(1).decode() not in known and m.group(1) != b"all" for m in _ENABLE.finditer(source))


_QUOTED = re.compile(r"'([A-Za-z_]\w*)'")


def _names_only_clang_misses(clang_output: str, native: list[Diagnostic]) -> bool:
    """clang calls a name undeclared that the native rules did not: they see the program (the
    host's `-D` types, a sibling fragment's helpers, the workspace's headers) and clang sees one
    file, so its build is missing what they found, and its other errors follow from that (a
    variable of the missing type is undeclared in turn). Where both call the same names
    missing, clang's other errors are its own."""
    named = {n for d in native for n in _QUOTED.findall(d.message)}
    for raw, _ in parse_output(clang_output):
        m = _UNDECLARED.match(raw.message)
        if m is not None and m.group(1) not in named:
            return True
    return False


# A line that starts with a call of a name spelled as macros are (`GEN_KERNEL(add, float)`).
_LINE_MACRO_CALL = re.compile(rb"^(_*[A-Z][A-Z0-9_]*)[ \t]*\(", re.M)


def _calls_macros_from_elsewhere(source: bytes, defined: set[str]) -> bool:
    """A file that includes nothing and whose lines call macros that neither it nor the sources
    read before it define (`OSKAR_SCAN( M_CAT(scan_, Real), Real)`, one kernel per line): a
    fragment of a program whose host joins the headers defining them, which no compiler builds
    alone."""
    if b"#include" in source:
        return False  # the macros may be its headers': clang reads those
    return any(m.group(1).decode() not in defined for m in _LINE_MACRO_CALL.finditer(source))


def build_known(source: bytes, options: LintOptions, prelude: list[tuple[str, bytes]] | None = None) -> bool:
    """Whether clang can build the file as its host does (issue 29): the options are known, or
    nothing in it or the sources read before it depends on them: no `#if` on a macro nothing
    defines, no name the host passes with `-D` (its value unknown), no `-D` name the host
    computes. Otherwise clang's one build is a guess, and its errors are not reported."""
    from cllint.analysis.source_kind import not_opencl_reason

    if not_opencl_reason(source) is not None:
        return False  # CUDA, C++, a template: no OpenCL compiler sees it as it is (CL006)
    if _enables_unknown_extension(source):
        return False  # a vendor compiler's extension: clang's build is not the device's
    if options.host_headers:
        return False  # it includes a header the host supplies by name: its text is the host's
    if options.options_known:
        return True
    host = set(options.host_macros)
    if "*" in host:
        return False
    from cllint.analysis.preprocessor.choices import names_host_macro, overridable
    from cllint.analysis.preprocessor.directives import scan_directives

    texts = [source, *(data for _, data in (prelude_texts(options) if prelude is None else prelude))]
    scans = [scan_directives(t) for t in texts]
    defined = {d.name for ds in scans for d in ds if d.kind in ("define", "undef") and d.name}
    defined -= overridable([d for ds in scans for d in ds], host)  # `#ifndef X / #define X 0`, -DX by the host
    env = {**options.target.predefined_macros(), **dict(options.defines)}
    if any(names_host_macro(d, env, defined) for ds in scans for d in ds
           if d.kind in ("if", "ifdef", "ifndef", "elif", "elifdef", "elifndef")):
        return False
    if _calls_macros_from_elsewhere(source, defined):
        return False
    if host - defined:
        words = set(_WORD.findall(source.decode("utf-8", "replace")))
        if words & (host - defined):
            return False
    return True


def check(exe: str, file: str, source: bytes, options: LintOptions, folder: Path | None,
          native: Iterable[Diagnostic], timeout: float = TIMEOUT_S) -> list[Diagnostic]:
    if not wanted(options):
        return []
    prelude = prelude_texts(options)  # read once, for both questions
    if not build_known(source, options, prelude):
        return []
    native = list(native)
    output = run_clang(exe, source, options, folder, timeout, prelude)
    if _names_only_clang_misses(output, native):
        return []  # clang's build lacks a declaration the program has: its errors are a guess
    found = compiler_diagnostics(file, source, output, native)
    if any(_vendor_builtin(d) or _verifier_intrinsic(d, source) for d in found):
        return []  # built on vendor built-ins or a verifier's intrinsics clang cannot see
    found = _host_program(file, source, options, found)
    # `// cllint: ignore[CL099]` works as for any rule (the native pass reports unused ones)
    return apply_suppressions(file, source, found, report_unused=False)
