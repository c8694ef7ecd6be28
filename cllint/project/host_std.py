"""The OpenCL C version a host builds a source at: a literal `-cl-std=CLx.y` in its build
options (issue 29).

`build_program(context, "walk.cl", "-cl-std=CL2.0")`, `clBuildProgram(p, 1, &d, "-cl-std=CL2.0",
...)` after reading `reduce.cl`, pyopencl's `.build(options=["-cl-std=CL2.0"])`: the source is
OpenCL C 2.0 (generic pointers, function-scope `static`), and judged so. Rust's `opencl3` crate
names the option as a constant (`CL_STD_2_0` is `"-cl-std=CL2.0 "`), read as the literal. The
option belongs to the sources its statement names, else to the one source its host file names
and builds with its one build call. A name several sources share (a benchmark suite's
`*/kernel.cl`, each folder with its host) is the one nearest the host: fewest folders up to a
common one, then down; two equally near, neither. A source two hosts build at different
versions keeps none (it must compile at each). Computed versions (`"-cl-std=CL" + version`) say
nothing.

Through a build wrapper: a host function whose body builds with a literal version
(`cl_program build_from_file(...) { ... clBuildProgram(p, 1, &d, "-cl-std=CL2.0", ...); }`, a C#
binding's `CreateAndBuildProgramFromString`) builds at that version what its callers pass it: a
call of the function, in any host file, is a build call of that version, read as above (the
sources its statement names, else the one source a file of one build names).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable
from pathlib import Path

from cllint.analysis.lazy_re import lazy

from .brackets import closing_of
from .nearest import nearest
from .host_files import CLOJURE_SUFFIXES
from .hosts import HOST_NAMES, _kernel_refs

_STD = lazy(rb"-cl-std=(CL[0-9]\.[0-9])(?![\w.])|\bCL_STD_([0-9])_([0-9])\b")
_STATEMENT_END = lazy(rb"[;{}]")
_COMPUTED_STD = lazy(rb"-cl-std=(?!CL[0-9]\.[0-9])")
# The calls that build a program: a file with one of them builds one program (or one kind).
# Also through a checking macro that takes the function first: `OCL_CALL (clBuildProgram, p, ...)`.
# (C# bindings call the entry point as a method: `ProgramsNativeApi.BuildProgram(p, 0, null, ...)`.)
_BUILD_CALL = lazy(rb"\b(?:clBuildProgram|clCompileProgram|build_program\w*|create_and_build_from_sources?)\s*\("
                   rb"|\.(?:build|Build|BuildProgram)\s*\(|\(\s*(?:clBuildProgram|clCompileProgram)\s*,")
_MAX_STATEMENT = 400  # bytes either side of the option


def _statement(text: bytes, at: int) -> tuple[int, int]:
    """The statement around `at`: from the last `;`, `{` or `}` before it to the next `;`."""
    lo = max(0, at - _MAX_STATEMENT)
    before = [m.end() for m in _STATEMENT_END.finditer(text, lo, at)]
    end = text.find(b";", at, at + _MAX_STATEMENT)
    return (before[-1] if before else lo), (end if end >= 0 else min(len(text), at + _MAX_STATEMENT))


def host_stds(hosts: dict[Path, bytes], sources: Iterable[Path], choices: Iterable[str]) -> dict[Path, str]:
    """Per source, the `-cl-std` version its hosts build it at (one of `choices`)."""
    by_stem: dict[str, list[Path]] = {}
    for p in sources:
        by_stem.setdefault(p.stem, []).append(p)
    allowed = set(choices)
    found: dict[Path, set[str]] = {}
    readable = _host_texts(hosts)
    wrappers = _wrappers(readable, allowed)
    calls = lazy(rb"\b(" + b"|".join(re.escape(w.encode()) for w in sorted(wrappers)) + rb")\s*\(") \
        if wrappers else None
    for path, text in readable.items():
        literal = b"-cl-std=CL" in text or b"CL_STD_" in text
        wrapped = [] if calls is None else [m for m in calls.finditer(text) if not _defines(text, m)]
        if not literal and not wrapped:
            continue
        # a file's name (`walk.cl`), not a symbol that ends like one (`common_cl.hh`, `k_cl_src`)
        refs = [(stem, start) for stem, start, _ in _kernel_refs(text)
                if stem in by_stem and text[start + len(stem):start + len(stem) + 1] == b"."]
        # the one source a host builds once: the option is its (a file of several builds, of
        # strings or of other sources, says nothing about which)
        named_in_file = {stem for stem, _ in refs}
        alone = len(named_in_file) == 1 and len(_BUILD_CALL.findall(text)) + len(wrapped) == 1
        uses = [(m.start(), _std(m)) for m in _STD.finditer(text)] if literal else []
        uses += [(m.start(), wrappers[m.group(1).decode()]) for m in wrapped]
        for at, std in uses:
            if std not in allowed:
                continue
            lo, hi = _statement(text, at)
            named = {stem for stem, start in refs if lo <= start < hi}
            if not named and alone:
                named = named_in_file
            for stem in named:
                source = nearest(path, by_stem[stem])
                if source is not None:
                    found.setdefault(source, set()).add(std)
    _clojure_stds(hosts, list(by_stem.values()), allowed, found)
    return {source: std for source, stds in found.items() if len(stds) == 1 and (std := stds.pop()) != _DEFAULT}


def _clojure_stds(hosts: dict[Path, bytes], by_stem: list[list[Path]], allowed: set[str],
                  found: dict[Path, set[str]]) -> None:
    """The versions Clojure hosts build their sources at, read as forms (clojure_builds.py); a
    build without `-cl-std` is one at the default version."""
    if not any(p.suffix.lower() in CLOJURE_SUFFIXES for p in hosts):
        return
    from .clojure_builds import clojure_builds

    for build in clojure_builds(hosts, [p for same in by_stem for p in same]):
        if build.std is not None and build.std not in allowed:
            continue
        for source in build.sources:
            if source is not None:
                found.setdefault(source, set()).add(build.std or _DEFAULT)


_DEFAULT = ""  # a build at the default version: a source built so and at 2.0 keeps neither


def _host_texts(hosts: dict[Path, bytes]) -> dict[Path, bytes]:
    """The hosts' own files, in order: a build file's options are its commands'
    (cmake_options.py); a Clojure host's are its forms' (clojure_builds.py)."""
    return {path: text for path, text in sorted(hosts.items())
            if path.name not in HOST_NAMES and path.suffix.lower() != ".cmake"
            and path.suffix.lower() not in CLOJURE_SUFFIXES}


def _std(m: re.Match[bytes]) -> str:
    return m.group(1).decode() if m.group(1) else f"CL{m.group(2).decode()}.{m.group(3).decode()}"


# A function definition's head: a name, its parameters (one level of nested brackets), then
# `{` (C++'s `const`, Java's `throws X` between). Statements with a block read alike and are
# left out by name.
_HEAD = lazy(rb"\b([A-Za-z_]\w*)\s*\(([^;{}()]|\([^;{}()]*\))*\)\s*(?:const\s*|throws\s+[\w.,\s]+)?\{")
_NOT_FUNCTIONS = frozenset({"if", "for", "foreach", "while", "switch", "catch", "using", "lock", "fixed",
                            "synchronized", "return", "sizeof", "defined", "elif", "else"})


def _wrappers(hosts: dict[Path, bytes], allowed: set[str]) -> dict[str, str]:
    """Host functions whose bodies build with one literal version: name -> version. A name
    defined with two versions (overloads, two files) is no one's."""
    seen: dict[str, set[str]] = {}
    for text in hosts.values():
        if b"-cl-std=CL" not in text and b"CL_STD_" not in text:
            continue
        options = [(m.start(), _std(m)) for m in _STD.finditer(text)]
        options = [(at, std) for at, std in options if std in allowed
                   and _BUILD_CALL.search(text, *_statement(text, at)) is not None]
        if not options:
            continue
        heads = [h for h in _HEAD.finditer(text) if h.group(1).decode() not in _NOT_FUNCTIONS]
        starts = [h.start() for h in heads]
        for at, std in options:
            # the nearest head before the option whose block holds it: its own function
            # (each block read from its head only: a host file has thousands of heads)
            for k in range(bisect_left(starts, at) - 1, max(-1, bisect_left(starts, at) - 1 - _MAX_HEADS), -1):
                head = heads[k]
                close = closing_of(text, head.end() - 1)
                if head.end() <= at and (close is None or at < close):
                    seen.setdefault(head.group(1).decode(), set()).add(std)
                    break
    return {name: stds.pop() for name, stds in seen.items() if len(stds) == 1}


_MAX_HEADS = 8  # heads tried back from an option (nested blocks: a loop's, a lambda's)


def _defines(text: bytes, call: re.Match[bytes]) -> bool:
    """Whether the wrapper's name at `call` heads its own definition (not a call)."""
    head = _HEAD.match(text, call.start())
    return head is not None


def unnamed_at_project_std(hosts: dict[Path, bytes], sources: Iterable[Path], choices: Iterable[str]) -> dict[Path, str]:
    """The sources no host names as a file (`"walk.cl"`), at the project's one version
    (`project_std`): a host that names a source builds it as it says, with or without a
    `-cl-std`; the others are the computed builds' (bolt's kernels by kernel name)."""
    one = project_std(hosts, choices)
    if one is None:
        return {}
    named = {stem for text in hosts.values() for stem, _, _ in _kernel_refs(text)}
    return {p: one for p in sources if p.stem not in named}


def project_std(hosts: dict[Path, bytes], choices: Iterable[str]) -> str | None:
    """The one `-cl-std` version the project's hosts write in a string (`"-cl-std=CL2.0 "`
    joined into computed options, a format string's `"-cl-std=CL2.0 -DT=%s"`): None where the
    hosts write none, two, a computed one (`"-cl-std=CL" + v`), or a version other than 2.x
    (issue 29, item 3: which source a computed build takes is the host's choice; judged at the
    one 2.x version it writes, nothing is reported that holds only at the default 1.x). A
    version in a comment is no build's."""
    allowed = {c for c in choices if c.startswith("CL2.")}  # (2.x accepts what 1.x does: it only quiets)
    seen: set[str] = set()
    for text in _host_texts(hosts).values():
        if b"-cl-std=CL" not in text and b"CL_STD_" not in text:
            continue
        if _COMPUTED_STD.search(text):
            return None  # `" -cl-std=CL{:Mm}"`, `"-cl-std=CL" + v`: the version is the run's
        for m in _STD.finditer(text):
            line = text[text.rfind(b"\n", 0, m.start()) + 1:m.start()]
            if line.count(b'"') % 2 == 1 or line.count(b"'") % 2 == 1:
                seen.add(_std(m))
            if len(seen) > 1:
                return None
    return seen.pop() if len(seen) == 1 and seen <= allowed else None

