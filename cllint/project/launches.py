"""Kernels the workspace's host code launches as a single work-group (issue 31, round 5), or as a
single work-item (issue 29).

A launch whose global size equals its local size in every dimension runs one work-group, and
two work-groups never run at once: no race between work-groups (CL211) can happen in a kernel
every launch of which is such (the race check reads the names through `LintOptions`, as it reads
piglit's launch headers, analysis/races/launches.py). Read here:

- C: `k = clCreateKernel(program, "name", ...)` (or a runtime's loader that writes the kernel
  through a pointer, `load_kernel(&k, &queue, &program, "name", dev)`, StarPU's way) then
  `clEnqueueNDRangeKernel(queue, k, dims,
  offset, global, local, ...)` with one expression for both sizes (`&n, &n`, `sizes, sizes`) or
  two names each defined, in the file, by equal literals (`size_t g = 64, l = 64;`, `size_t
  gws[2] = {8, 8}; size_t lws[2] = {8, 8};`; a name defined in several functions counts when
  every definition gives the same literal); `clEnqueueTask(queue, k, ...)` is one work-item;
- C++: `cl::Kernel k(program, "name")` then `queue.enqueueNDRangeKernel(k, offset, global,
  local)` with one expression twice (`cl::NDRange(64), cl::NDRange(64)`);
- pyopencl: `prg.name(queue, global, local, ...)` with one expression twice (`(n,), (n,)`), for
  the names of kernels the workspace's sources define; a kernel taken as a value (`knl =
  prg.name`, `knl = cl.Kernel(prg, "name")`) and launched as `knl(queue, global, local, ...)`
  or `cl.enqueue_nd_range_kernel(queue, knl, global, local)`.

A name counts only with a launch read as one work-group and none read otherwise (a local size
left to the implementation, `NULL` or `None`, is several). A launch whose kernel cannot be told
(an array of kernels, a helper's parameter, a pyopencl kernel made from a name not written
there) and is not one work-group voids every name; a pyopencl kernel value used any other way
(returned, stored, passed on) voids its own: precision first, as the launch may be any of them.

A one-work-group kernel every C launch of which has global and local sizes 1 in every dimension
(`size_t global=1; size_t local=1;`, `&one, &one`, `clEnqueueTask`) runs one work-item: no race
of any kind can happen in it (`launch_shapes`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from cllint.analysis.lazy_re import lazy

from .confined_kernels import LOADER_CALL, confined_kernels
from .host_files import CLOJURE_SUFFIXES
from .hosts import HOST_NAMES, _arguments

_C_CREATE = lazy(rb"([A-Za-z_]\w*)\s*=\s*clCreateKernel\s*\(")
_CPP_CREATE = lazy(rb"cl::Kernel\s+([A-Za-z_]\w*)\s*[({]\s*[^,;(){}]+,\s*\"([A-Za-z_]\w*)\"|"
                   rb"([A-Za-z_]\w*)\s*=\s*cl::Kernel\s*\(\s*[^,;()]+,\s*\"([A-Za-z_]\w*)\"")
_C_LAUNCH = lazy(rb"\bclEnqueueNDRangeKernel\s*\(")
_C_TASK = lazy(rb"\bclEnqueueTask\s*\(")
_CPP_LAUNCH = lazy(rb"(?:\.|->)\s*enqueueNDRangeKernel\s*\(")
_PY_VALUE_LAUNCH = lazy(rb"\benqueue_nd_range_kernel\s*\(")
_STRING = lazy(rb"\A\"([A-Za-z_]\w*)\"\Z")
_WORD = lazy(rb"\A&?\s*([A-Za-z_]\w*)\Z")
_NOTHING = frozenset({b"NULL", b"0", b"nullptr", b"None", b"cl::NullRange", b"NullRange", b"(size_t*)NULL"})


def one_group_kernels(hosts: dict[Path, bytes], kernels: Iterable[str]) -> frozenset[str]:
    """Names of kernels every launch of which the host code shows is one work-group."""
    return launch_shapes(hosts, kernels)[0]


def launch_shapes(hosts: dict[Path, bytes], kernels: Iterable[str]) -> tuple[frozenset[str], frozenset[str]]:
    """Names of kernels every launch of which the host code shows is one work-group, and of
    those every launch of which is one work-item."""
    one: set[str] = set()
    many: set[str] = set()
    items = _Items()
    void_c = False  # a launch somewhere of a kernel not told, not one work-group (or a pyopencl kernel made so)
    wanted = set(kernels)
    for path, text in hosts.items():
        if path.name in HOST_NAMES or path.suffix.lower() == ".cmake":
            continue
        if path.suffix == ".py":
            py_one: set[str] = set()
            py_many: set[str] = set()
            void_c |= _python(text, wanted, py_one, py_many)
            one |= py_one
            many |= py_many
            items.wide |= py_one | py_many  # (pyopencl launches are not read for one work-item)
        elif b"clEnqueue" in text or b"enqueueNDRangeKernel" in text:
            void_c |= _c_family(text, one, many, wanted, items)
    clojure = _clojure_one_items(hosts, wanted)
    one |= clojure
    items.single |= clojure
    if void_c:
        # (python names too: a launch of a kernel not told may be any of them, but for one a C
        # function keeps to itself, confined_kernels.py, or a Clojure form, clojure_builds.py)
        kept = confined_kernels(t for p, t in hosts.items() if p.suffix.lower() in _C_SUFFIXES)
        many |= one - kept - clojure
    group = frozenset(one - many)
    return group, frozenset((items.single - items.wide) & group)


def _clojure_one_items(hosts: dict[Path, bytes], kernels: set[str]) -> frozenset[str]:
    """Kernels Clojure hosts launch only as one work-item (clojure_builds.py)."""
    if not any(p.suffix.lower() in CLOJURE_SUFFIXES for p in hosts):
        return frozenset()
    from .clojure_builds import one_item_kernels

    return one_item_kernels(hosts, kernels)


class _Items:
    """Kernels with a launch of one work-item, and with a launch of more."""

    __slots__ = ("single", "wide")

    def __init__(self) -> None:
        self.single: set[str] = set()
        self.wide: set[str] = set()


_C_SUFFIXES = frozenset({".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hpp", ".hh"})


def _c_family(text: bytes, one: set[str], many: set[str], wanted: set[str] = frozenset(),  # type: ignore[assignment]
              items: _Items | None = None) -> bool:
    """C and C++ launches into `one` and `many` (and one work-item's into `items`); True when a
    launch of a kernel not told is not one work-group."""
    names: dict[bytes, set[str]] = {}
    made: dict[bytes, list[tuple[int, frozenset[str]]]] = {}  # where each name is made, in order
    for m in _C_CREATE.finditer(text):
        args = _arguments(text, m.end())
        got = _STRING.match(args[1]) if len(args) > 1 else None
        names.setdefault(m.group(1), set()).add(got.group(1).decode() if got else "")
        made.setdefault(m.group(1), []).append((m.start(), frozenset({got.group(1).decode() if got else ""})))
    if wanted and b"&" in text:
        for m in LOADER_CALL.finditer(text):
            told = {g.group(1).decode() for a in _arguments(text, m.end()) if (g := _STRING.match(a)) is not None}
            if told & wanted:
                names.setdefault(m.group(1), set()).update(told & wanted)
                made.setdefault(m.group(1), []).append((m.start(), frozenset(told & wanted)))
    for m in _CPP_CREATE.finditer(text):
        var, name = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        names.setdefault(var, set()).add(name.decode())
    unknown = False
    launches = [(m.end(), 1, 4, 5) for m in _C_LAUNCH.finditer(text)]
    launches += [(m.end(), 0, 2, 3) for m in _CPP_LAUNCH.finditer(text)]
    launches += [(m.end(), 1, -1, -1) for m in _C_TASK.finditer(text)]
    for at, k, g, loc in launches:
        args = _arguments(text, at)
        if len(args) <= max(k, loc):
            unknown |= loc >= 0  # (a C++ launch with its local size left out: several)
            continue
        single = g < 0 or _same_size(text, args[g], args[loc])
        var = _WORD.match(args[k])
        told = _made_before(text, made.get(var.group(1), []), at) or names.get(var.group(1), set()) \
            if var else set()
        if not told or "" in told:
            unknown |= not single
        elif single and len(told) == 1:
            one |= told
        else:
            many |= told
        if items is not None and told and "" not in told:
            item = single and (g < 0 or _ones(text, args[g]))
            (items.single if item and len(told) == 1 else items.wide).update(told)
    return unknown


def _made_before(text: bytes, made: list[tuple[int, frozenset[str]]], at: int) -> set[str]:
    """The kernel the last making of a name before `at` made, in the same function (no
    function's closing `}` at a line's start between); empty where there is none (then every
    kernel the file makes under that name is the launch's)."""
    last = [(start, told) for start, told in made if start < at]
    if not last or b"\n}" in text[last[-1][0]:at]:
        return set()
    return set(last[-1][1])


def _ones(text: bytes, size: bytes) -> bool:
    """Whether a size argument is 1 in every dimension: a name (or its address) defined by the
    literal 1, or a list of 1s."""
    word = _WORD.match(b"".join(size.split()))
    value = _literal(text, word.group(1)) if word is not None else None
    return value is not None and all(v == 1 for v in value)


def _same_size(text: bytes, g: bytes, loc: bytes) -> bool:
    """Whether two size arguments are one expression, or two names each defined in the
    file by equal literals."""
    g, loc = b"".join(g.split()), b"".join(loc.split())
    if loc in _NOTHING or g in _NOTHING:
        return False
    if g == loc:
        return True
    a, b = _WORD.match(g), _WORD.match(loc)
    if a is None or b is None:
        return False
    va, vb = _literal(text, a.group(1)), _literal(text, b.group(1))
    return va is not None and va == vb


def _literal(text: bytes, name: bytes) -> tuple[int, ...] | None:
    """The value of a name the file defines once, by integer literals (`n = 64`, `s[2] =
    {8, 8}`), and changes nowhere else: no other assignment (`n = ...`, `s[0] = ...`, `n *= 2`,
    `++n`), and its address passed to no call but a launch (`clGetKernelWorkGroupInfo(...,
    &n, ...)` writes it)."""
    n = re.escape(name)
    assigned = rb"\s*(?:\[[^\]\n]*\]\s*)*(?:=(?!=)|\+=|-=|\*=|/=|<<=|>>=|\+\+)\s*(\{[^}]*\}|[^;,]*)"
    defs = re.findall(rb"\b" + n + assigned, text)
    # (one function's `size_t global=1;` written again in the next: every one the same literal)
    if not defs or len({b"".join(d.split()) for d in defs}) != 1 \
            or re.search(rb"\+\+\s*" + n + rb"\b|--\s*" + n + rb"\b", text):
        return None
    for m in re.finditer(rb"&\s*" + n + rb"\b", text):
        statement = text[max(text.rfind(b";", 0, m.start()), text.rfind(b"{", 0, m.start()),
                             text.rfind(b"}", 0, m.start())) + 1:m.start()]
        if b"clEnqueueNDRangeKernel" not in statement:
            return None
    value = defs[0].strip().strip(b"{}").strip()
    nums = [x.strip().rstrip(b"uUlL") for x in value.split(b",") if x.strip()]
    if not nums or not all(x.isdigit() for x in nums):
        return None
    return tuple(int(x) for x in nums)


_PY_ALIAS = lazy(rb"\b([A-Za-z_]\w*)[ \t]*=[ \t]*(?:[A-Za-z_]\w*[ \t]*\.[ \t]*([A-Za-z_]\w*)[ \t]*(?=\n|#|;|$)|"
                 rb"(?:cl[ \t]*\.[ \t]*)?Kernel[ \t]*\([ \t]*[^,()\n]+,[ \t]*[\"']([A-Za-z_]\w*)[\"'][ \t]*\))")
_PY_KERNEL_OBJECT = lazy(rb"\bKernel[ \t]*\(|\ball_kernels[ \t]*\(|\bgetattr[ \t]*\(")


def _python(text: bytes, kernels: set[str], one: set[str], many: set[str]) -> bool:
    """pyopencl's `prg.name(queue, global, local, ...)` for the workspace's kernel names, and
    kernels taken as values (`knl = prg.name`, `knl = cl.Kernel(prg, "name")`) launched by
    `knl(queue, global, local, ...)` or `cl.enqueue_nd_range_kernel(queue, knl, global,
    local)`, every other use of `knl` (returned, stored, passed on) voiding its name. True
    when a kernel is made or launched where its name is not told (voids every name)."""
    if not kernels or b"." not in text:
        return False
    aliases: dict[bytes, str] = {}
    spans: list[tuple[int, int]] = []
    for m in _PY_ALIAS.finditer(text):
        name = (m.group(2) or m.group(3)).decode()
        if name not in kernels:
            continue
        if aliases.get(m.group(1), name) != name:
            many.update((name, aliases[m.group(1)]))
        aliases[m.group(1)] = name
        spans.append((m.start(), m.end()))
    unknown = any(not any(a <= k.start() < b for a, b in spans) for k in _PY_KERNEL_OBJECT.finditer(text))
    for m in re.finditer(rb"\.\s*([A-Za-z_]\w*)\b(\s*\(?)", text):
        name = m.group(1).decode()
        if name not in kernels or any(a <= m.start() < b for a, b in spans):
            continue
        if not m.group(2).strip():
            many.add(name)  # the kernel as a value: launched where it is not told
            continue
        _judge(text, _arguments(text, m.end()), 1, {name}, one, many)
    for var, name in aliases.items():
        for m in re.finditer(rb"\b" + re.escape(var) + rb"\b", text):
            if any(a <= m.start() < b for a, b in spans):
                continue
            after = text[m.end():m.end() + 40].lstrip()
            if after.startswith(b"("):
                _judge(text, _arguments(text, text.index(b"(", m.end()) + 1), 1, {name}, one, many)
            elif not re.match(rb"\.\s*set_args?\s*\(", after) and not _enqueued_at(text, m.start(), var):
                many.add(name)  # returned, stored, passed on: launched where it is not told
    for m in _PY_VALUE_LAUNCH.finditer(text):
        args = _arguments(text, m.end())
        name = aliases.get(args[1]) if len(args) > 1 else None
        if name is None:
            unknown = True
        else:
            _judge(text, args, 2, {name}, one, many)
    return unknown


def _enqueued_at(text: bytes, at: int, var: bytes) -> bool:
    """Whether `var` at `at` is the kernel argument of an `enqueue_nd_range_kernel` call."""
    for m in _PY_VALUE_LAUNCH.finditer(text, max(0, at - 400), at):
        args = _arguments(text, m.end())
        if len(args) > 1 and args[1] == var:
            return True
    return False


def _judge(text: bytes, args: list[bytes], first: int, names: set[str], one: set[str], many: set[str]) -> None:
    """A launch whose global and local sizes are `args[first]` and `args[first + 1]`."""
    if len(args) > first + 1 and _same_size(text, args[first], args[first + 1]):
        one |= names
    else:
        many |= names
