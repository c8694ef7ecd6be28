"""Kernel arguments the host sets from the very value it launches with as a size (issue 29):
ggml's argsort sets argument 5 to `ne00_padded` and launches with `local_work_size[] =
{ne00_padded, 1, 1}`, so in the kernel `ne00_pad` is the work-group size along 0 and `if (col
>= ne00_pad) return;` (`col = get_local_id(0)`) never returns; an argument equal to the global
size bounds `get_global_id` the same way. The barrier check (analysis/uniformity/aligned.py)
reads such a test as one every work-item passes alike.

Read in C and C++ hosts: the kernel of a launch (`k = clCreateKernel(p, "name", ...)`, a
variable copied from one, `cl_kernel kernel = ctx->kernel_argsort;`), its arguments
(`clSetKernelArg(k, 5, sizeof(int), &x)` with a literal index), its size arrays or scalars
(`size_t local[] = {(size_t)x, 1, 1}`, `size_t lws = x`, one definition each) and the launch:
`clEnqueueNDRangeKernel(q, k, dims, offset, global, local, ...)` or a wrapper whose body passes
its own parameters on to it (`enqueue_ndrange_kernel(kernel, 3, gws, lws, dst)`). All within the
function the launch is in. A fact counts for a kernel only where every launch of it shows it;
a launch whose kernel cannot be told voids every fact (it may be any kernel's).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from cllint.analysis.lazy_re import lazy

from .hosts import HOST_NAMES, _arguments
from .brackets import closing_of
from .launches import _C_CREATE as _CREATE, _C_LAUNCH as _LAUNCH, _STRING, _WORD  # one pattern each, shared

# (kernel name, argument index, "local" or "global", dimension)
Bound = tuple[str, int, str, int]
_FUNC = lazy(rb"\b([A-Za-z_]\w*)\s*\(([^(){};]*)\)\s*(?:const\s*)?\{")
_CAST = lazy(rb"\A\(\s*(?:size_t|int|unsigned|cl_uint|cl_int|uint|long|cl_ulong|unsigned\s+int)\s*\)\s*")
_NOTHING = frozenset({b"NULL", b"0", b"nullptr"})


def launch_bounds(hosts: dict[Path, bytes], kernels: Iterable[str]) -> tuple[Bound, ...]:
    """The (kernel, argument, space, dimension) facts every launch of the kernel shows."""
    wanted = set(kernels)
    seen: dict[str, set[tuple[int, str, int]] | None] = {}
    void = False
    holders: dict[str, set[str]] = {}  # kernel name -> the variables and members made to hold it
    for path, text in sorted(hosts.items()):
        if path.name in HOST_NAMES or path.suffix.lower() in (".py", ".cmake") or b"clEnqueue" not in text:
            continue
        for m in _CREATE.finditer(text):
            args = _arguments(text, m.end())
            got = _STRING.match(args[1]) if len(args) > 1 else None
            if got:
                holders.setdefault(got.group(1).decode(), set()).add(m.group(1).decode())
        for name, facts in _launches(text):
            if name is None:
                # Not told: it may launch any kernel held where it reads from (all: nowhere known).
                words = {w for i, w, _ in facts}
                hit = [k for k, held in holders.items() if held & words] if words else None
                void = void or hit is None
                for k in hit or ():
                    seen[k] = set()
            elif name in wanted:
                seen[name] = facts if name not in seen else (seen[name] or set()) & facts
    if void:
        return ()
    return tuple(sorted((k, i, s, d) for k, facts in seen.items() for i, s, d in facts or ()))


def _launches(text: bytes) -> list[tuple[str | None, set[tuple[int, str, int]]]]:
    """Each launch in the file: its kernel's name (None: not told) and its facts."""
    created: dict[bytes, set[str]] = {}
    for m in _CREATE.finditer(text):
        args = _arguments(text, m.end())
        got = _STRING.match(args[1]) if len(args) > 1 else None
        created.setdefault(m.group(1), set()).add(got.group(1).decode() if got else "")
    wrappers = _wrappers(text)
    out = []
    for m in _LAUNCH.finditer(text):
        if any(a <= m.start() < b for a, b, _ in wrappers.values()):
            continue  # the wrapper's own call: judged at its callers
        out += _launch(text, m.start(), _arguments(text, m.end()), (1, 4, 5), created)
    for name, (_, _, (pk, pg, pl)) in wrappers.items():
        for m in re.finditer(rb"(?:\.|->|\b)" + re.escape(name) + rb"\s*\(", text):
            if any(a <= m.start() < b for a, b, _ in wrappers.values()) or _defines_at(text, m.start(), name):
                continue
            out += _launch(text, m.start(), _arguments(text, m.end()), (pk, pg, pl), created)
    return out


def _defines_at(text: bytes, at: int, name: bytes) -> bool:
    """Whether `name(` at `at` is the wrapper's own definition (its parameters, then `{`)."""
    m = _FUNC.match(text, text.index(name, at))
    return m is not None and m.group(1) == name


def _wrappers(text: bytes) -> dict[bytes, tuple[int, int, tuple[int, int, int]]]:
    """Functions that pass their own parameter on as a launch's kernel (and maybe its sizes):
    name -> (body start, body end, (kernel, global, local) parameter positions, -1: none)."""
    out: dict[bytes, tuple[int, int, tuple[int, int, int]]] = {}
    for m in _FUNC.finditer(text):
        if m.group(1) in (b"if", b"for", b"while", b"switch", b"catch"):
            continue
        params = [p.strip() for p in m.group(2).split(b",")]
        names = [re.findall(rb"([A-Za-z_]\w*)\s*(?:\[\s*\])?\s*\Z", p) for p in params]
        pos = {n[0]: i for i, n in enumerate(names) if n}
        end = _block_end(text, m.end() - 1)
        body = text[m.end():end]
        launch = _LAUNCH.search(body)
        if launch is None or len(pos) < 3:
            continue
        args = _arguments(body, launch.end())
        if len(args) < 6:
            continue
        k = pos.get(_bare(args[1]))
        if k is None:
            continue
        # sizes not passed in: what they are is the launcher's (no fact), its kernel the caller's
        g, loc = pos.get(_bare(args[4]), -1), pos.get(_bare(args[5]), -1)
        out[m.group(1)] = (m.end(), end, (k, g, loc))
    return out


def _block_end(text: bytes, brace: int) -> int:
    end = closing_of(text, brace, limit=200_000)
    return len(text) if end is None else end


def _bare(arg: bytes) -> bytes:
    arg = b" ".join(arg.split())
    m = _WORD.match(arg)
    return m.group(1) if m else arg


def _launch(text: bytes, at: int, args: list[bytes], where: tuple[int, int, int],
            created: dict[bytes, set[str]]) -> list[tuple[str | None, set[tuple[int, str, int]]]]:
    pk, pg, pl = where
    if len(args) <= max(where):
        return [(None, set())]
    scope = text[max(0, text.rfind(b"\n}", 0, at)):at]  # the function the launch is in
    names, words = _kernel_names(scope, b"".join(args[pk].split()), created)
    if names is None:
        return [(None, {(-1, w.decode("utf-8", "replace"), 0) for w in words})]
    facts: set[tuple[int, str, int]] = set()
    set_args = _set_args(scope, _bare(args[pk]))
    for space, size in (("global", args[pg] if pg >= 0 else b""), ("local", args[pl] if pl >= 0 else b"")):
        dims = _sizes(scope, size) if size else []
        for index, value in set_args.items():
            facts |= {(index, space, d) for d, v in enumerate(dims) if v is not None and v == value}
    return [(name, facts) for name in sorted(names)]


def _kernel_names(scope: bytes, var: bytes, created: dict[bytes, set[str]]) -> tuple[set[str] | None, set[bytes]]:
    """The kernels `var` may hold at the launch: made here by `clCreateKernel`, or copied from
    variables or members kernels are made into (each assignment one of them, `if`/`else` or
    `?:` picking); None when one is not told, with the names it may come from then (empty:
    anything)."""
    chain = re.fullmatch(rb"(?:[A-Za-z_]\w*\s*(?:->|\.)\s*)*([A-Za-z_]\w*)", var)
    if chain is None:
        return None, set(re.findall(rb"[A-Za-z_]\w*", var))
    var = chain.group(1)
    v = re.escape(var)
    sources: list[bytes] = []
    words: set[bytes] = set()
    told = True
    for m in re.finditer(rb"(?<![\w>.])" + v + rb"\s*=(?!=)\s*([^;]*);", scope):
        rhs = m.group(1).strip()
        words |= set(re.findall(rb"[A-Za-z_]\w*", rhs))
        if rhs.startswith(b"clCreateKernel"):
            sources.append(var)
            continue
        if rhs in (b"NULL", b"nullptr", b"0"):
            continue
        picks = re.split(rb"\?|:(?!:)", rhs) if b"?" in rhs else [rhs]
        for part in picks[1:] if len(picks) > 1 else picks:
            w = re.fullmatch(rb"\s*(?:[A-Za-z_]\w*\s*(?:->|\.)\s*)*([A-Za-z_]\w*)\s*", part)
            if w is None:
                told = False
            else:
                sources.append(w.group(1))
    out: set[str] = set()
    for src in sources or [var]:
        names = created.get(src, set())
        if not names or "" in names:
            told = False
        out |= names - {""}
    return (out, words) if told else (None, words | set(sources))


def _set_args(scope: bytes, kernel: bytes) -> dict[int, bytes]:
    """Argument index -> the variable whose address `clSetKernelArg` passes (last one wins),
    where nothing assigns the variable after it."""
    out: dict[int, tuple[bytes, int]] = {}
    calls = re.compile(rb"\bclSetKernelArg\s*\(\s*&?\s*" + re.escape(kernel) + rb"\s*,\s*\d")
    for m in calls.finditer(scope):
        args = _arguments(scope, scope.index(b"(", m.start()) + 1)
        if len(args) < 4 or _bare(args[0]) != kernel or not args[1].strip().isdigit():
            continue
        got = re.fullmatch(rb"&\s*([A-Za-z_]\w*)", args[3].strip())
        if got:
            out[int(args[1])] = (got.group(1), m.end())
        else:
            out.pop(int(args[1]), None)
    return {i: v for i, (v, at) in out.items() if not _assigned_after(scope, v, at)}


def _assigned_after(scope: bytes, var: bytes, at: int) -> bool:
    """Whether `var` is assigned, updated or incremented in `scope` after `at`."""
    pos = scope.find(var, at)
    while pos >= 0:
        after = pos + len(var)
        word = (pos == 0 or not _WORD_BYTE.match(scope, pos - 1)) and not _WORD_BYTE.match(scope, after)
        if word:
            rest = scope[after:after + 4].lstrip()
            if _WRITE_OP.match(rest) or scope[max(0, pos - 2):pos] in (b"++", b"--"):
                return True
        pos = scope.find(var, pos + 1)
    return False


_WORD_BYTE = lazy(rb"\w")
_WRITE_OP = lazy(rb"(?:[-+*/%&|^]|<<|>>)?=(?!=)|\+\+|--")


def _sizes(scope: bytes, arg: bytes) -> list[bytes | None]:
    """What each dimension of a size argument is, as the variable it copies (`{(size_t)n, 1}`
    -> [n, None]), through one definition (`size_t gws = width;` -> [width])."""
    arg = b" ".join(arg.split())
    if arg in _NOTHING:
        return []
    m = _WORD.match(arg)
    if m is None:
        return []
    name = re.escape(m.group(1))
    defs = list(re.finditer(rb"\b" + name + rb"\s*(\[[^\]]*\])?\s*=(?!=)\s*(\{[^}]*\}|[^;,]*)", scope))
    if len(defs) != 1:
        return []
    value = defs[0].group(2).strip()
    parts = [p.strip() for p in value.strip(b"{}").split(b",")] if value.startswith(b"{") else [value]
    out: list[bytes | None] = []
    for p in parts:
        p = _CAST.sub(b"", p)
        p = p.strip(b"() ")
        w = re.fullmatch(rb"[A-Za-z_]\w*", p)
        out.append(_through(scope, p) if w else None)
    return out


def _through(scope: bytes, name: bytes) -> bytes:
    """A scalar defined once as a copy of another variable (`size_t gws = width;`): that one."""
    defs = list(re.finditer(rb"\b" + re.escape(name) + rb"\s*=(?!=)\s*(?:\([^()]*\)\s*)?([A-Za-z_]\w*)\s*;", scope))
    return defs[0].group(1) if len(defs) == 1 and not _assigned_after(scope, name, defs[0].end()) else name
