"""Programs and launches Clojure hosts write (issue 29: clojurecl, bayadera and neanderthal build
their kernels from `.clj` files, which no other host reader reads as forms):

    (let [reduction-src (slurp (io/resource "uncomplicate/clojurecl/kernels/reduction.cl"))
          options "-cl-std=CL2.0 -DREAL=float -DWGS=%d"]
      (build-program! (program-with-source ctx [reduction-src estimate-src]) (format options wgs) nil))

- a build's sources are the OpenCL file names in its `program-with-source` argument, in order,
  written there or through names bound to them (`(slurp ...)`, a vector of them);
- its options are the first string among the other arguments, written there, as `format`'s
  template, or through a name bound to either; a `-cl-std=CLx.y` there is the version it builds
  its sources at, none the default (1.x);
- a file name no file of the workspace has (a resource of a dependency's jar) is a source
  outside it: what the sources after it leave undeclared may be its;
- `(enq-kernel! queue k (work-size [1]))`, `k` bound to `(kernel prog "name")` (or that form
  written in place), launches one work-item. A kernel counts only when every `(kernel ...
  "name")` of the hosts is launched so and used otherwise only to set its arguments: a kernel
  value passed on may be launched anywhere (precision first).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from cllint.analysis.lazy_re import lazy

from .clojure_forms import CLOJURE_SUFFIXES, Bindings, Form, line_of, read_forms
from .nearest import nearest

_SOURCE_SUFFIXES = (b".cl", b".clh", b".ocl", b".opencl")
_STD = lazy(rb"-cl-std=(CL[0-9]\.[0-9])(?![\w.])")
_DEPTH = 8  # names resolved through names, at most


class ClojureBuild:
    """One `build-program!`: its sources in order (None: a file outside the workspace), the
    version its `-cl-std` says (None without one: the default), and where."""

    __slots__ = ("host", "line", "sources", "std")

    def __init__(self, host: Path, line: int, sources: tuple[Path | None, ...], std: str | None) -> None:
        self.host, self.line, self.sources, self.std = host, line, sources, std

    def __repr__(self) -> str:
        return f"ClojureBuild({self.host.name}:{self.line}, {self.sources!r}, {self.std!r})"


def clojure_hosts(hosts: dict[Path, bytes]) -> dict[Path, bytes]:
    return {p: t for p, t in sorted(hosts.items()) if p.suffix.lower() in CLOJURE_SUFFIXES}


def clojure_builds(hosts: dict[Path, bytes], sources: Iterable[Path], files: Iterable[Path] = ()) -> list[ClojureBuild]:
    """The builds the Clojure hosts write. `files`: every file of the workspace (a name none of
    them has is outside it); the sources by default."""
    srcs = list(sources)
    names = {p.name for p in (files or srcs)} | {p.name for p in srcs}
    out: list[ClojureBuild] = []
    for path, text in clojure_hosts(hosts).items():
        if b"build-program!" not in text:
            continue
        top = read_forms(text)
        bound = Bindings(top)
        for f in top.walk():
            if f.head() != b"build-program!":
                continue
            program = next((a for a in f.items[1:] for g in a.walk() if g.head() == b"program-with-source"), None)
            pws = next((g for g in program.walk() if g.head() == b"program-with-source"), None) if program else None
            if pws is None or len(pws.items) < 2:
                continue
            literals = list(_literals(pws.items[-1], bound, _DEPTH))
            files_in = tuple(_source(path, lit, srcs, names) for lit in literals)
            files_in = tuple(p for p in files_in if p is not False)
            options = next((o for a in f.items[1:] if a is not program
                            for o in [_option_string(a, bound, _DEPTH)] if o is not None), None)
            m = _STD.search(options) if options is not None else None
            out.append(ClojureBuild(path, line_of(text, f.start), files_in,  # type: ignore[arg-type]
                                    m.group(1).decode() if m else None))
    return out


def _literals(form: Form, bound: Bindings, depth: int) -> Iterator[bytes]:
    """The OpenCL file names a form gives, in order, through bound names too."""
    for g in form.walk():
        if g.kind == '"' and g.text.lower().endswith(_SOURCE_SUFFIXES):
            yield g.text
        elif g.kind == "s" and depth > 0 and (value := bound.value(g.text, g.start)) is not None:
            yield from _literals(value, bound, depth - 1)


def _source(host: Path, literal: bytes, sources: list[Path], names: set[str]) -> Path | None | bool:
    """The workspace source a file name means (the nearest whose path ends so, else the nearest
    of that name); None where no file of the workspace has the name; False on a tie."""
    name = literal.decode("utf-8", "replace").lstrip("./")
    same = [p for p in sources if p.as_posix() == name or p.as_posix().endswith("/" + name)]
    if not same:
        base = name.rsplit("/", 1)[-1]
        if base not in names:
            return None
        same = [p for p in sources if p.name == base]
    got = nearest(host, same) if same else None
    return False if got is None else got


def _option_string(form: Form, bound: Bindings, depth: int) -> bytes | None:
    """A build argument's option string: a literal, `format`'s template, or a name bound to one."""
    if form.kind == '"':
        return form.text
    if form.head() == b"format" and len(form.items) > 1:
        return _option_string(form.items[1], bound, depth)
    if form.kind == "s" and depth > 0 and (value := bound.value(form.text, form.start)) is not None:
        return _option_string(value, bound, depth - 1)
    return None


# -- launches -------------------------------------------------------------------------------

_ONE_ITEM = lazy(rb"\A(?:1(?:\s+1){0,2})\Z")
# uses of a kernel value that neither launch it nor pass it on
_SETTERS = frozenset({b"set-args!", b"set-arg!", b"release"})


def one_item_kernels(hosts: dict[Path, bytes], kernels: Iterable[str]) -> frozenset[str]:
    """Kernels every Clojure launch of which is one work-item (`(work-size [1])`), made only
    where the host keeps them to such launches."""
    wanted = set(kernels)
    single: set[str] = set()
    other: set[str] = set()
    for _, text in clojure_hosts(hosts).items():
        if b"(kernel " not in text:
            continue
        top = read_forms(text)
        bound = Bindings(top)
        parents = _parents(top)
        for f in top.walk():
            if f.head() != b"kernel" or len(f.items) < 3 or f.items[2].kind != '"':
                continue
            name = f.items[2].text.decode("utf-8", "replace")
            if name not in wanted:
                continue
            (single if _kept_to_one_item(f, top, bound, parents) else other).add(name)
    return frozenset(single - other)


def _parents(top: Form) -> dict[int, Form]:
    out: dict[int, Form] = {}
    for f in top.walk():
        for g in f.items:
            out[id(g)] = f
    return out


def _kept_to_one_item(made: Form, top: Form, bound: Bindings, parents: dict[int, Form]) -> bool:
    """Whether the kernel `made` is launched, and only as one work-item, and not passed on."""
    parent = parents.get(id(made))
    if parent is not None and parent.head() == b"enq-kernel!" and parent.items.index(made) == 2:
        return _one_item(parent, bound)
    if parent is None or parent.kind != "[":
        return False  # returned, stored, passed on
    at = parent.items.index(made)
    if at % 2 == 0 or parent.items[at - 1].kind != "s":
        return False
    name = parent.items[at - 1].text
    launched = False
    for g in top.walk():
        if g.kind != "s" or g.text != name or g.start <= made.end or bound.value(name, g.start) is not made:
            continue
        user = parents.get(id(g))
        if user is None:
            return False
        if user.head() == b"enq-kernel!" and user.items.index(g) == 2:
            if not _one_item(user, bound):
                return False
            launched = True
        elif user.head() in _SETTERS and user.items.index(g) == 1:
            continue
        elif not _midje_result(user, g):
            return False
    return launched


def _midje_result(user: Form, use: Form) -> bool:
    """`(set-args! k a b) => k`: a test's expected value, no use of the kernel."""
    i = user.items.index(use)
    return i > 0 and user.items[i - 1].kind == "s" and user.items[i - 1].text == b"=>"


def _one_item(launch: Form, bound: Bindings) -> bool:
    """Whether `(enq-kernel! queue k sizes ...)` gives sizes of one work-item."""
    if len(launch.items) < 4:
        return False
    sizes = launch.items[3]
    for _ in range(_DEPTH):
        if sizes.kind != "s":
            break
        value = bound.value(sizes.text, sizes.start)
        if value is None:
            return False
        sizes = value
    if sizes.head() != b"work-size" or len(sizes.items) < 2:
        return False
    return all(_ones(v) for v in sizes.items[1:3])


def _ones(sizes: Form) -> bool:
    """`[1]`, `[1 1]`, `[1 1 1]`."""
    return sizes.kind == "[" and all(i.kind == "s" for i in sizes.items) and \
        _ONE_ITEM.match(b" ".join(i.text for i in sizes.items)) is not None


def computed_before(builds: list[ClojureBuild]) -> set[str]:
    """Stems of workspace sources a build reads after a source outside the workspace."""
    out: set[str] = set()
    for b in builds:
        outside = False
        for p in b.sources:
            if p is None:
                outside = True
            elif outside:
                out.add(p.stem)
    return out


def joined_stems(builds: list[ClojureBuild]) -> list[tuple[tuple[str, ...], Path, int]]:
    """The workspace sources each build joins, two or more, in order."""
    out = []
    for b in builds:
        stems = tuple(dict.fromkeys(p.stem for p in b.sources if p is not None))
        if len(stems) >= 2:
            out.append((stems, b.host, b.line))
    return out

