"""The built-in catalogue of OpenCL C: functions, types and constants with their requirements.

Data come from `analysis/data/builtins.json`, generated from the spec by
`scripts/gen_catalogue.py`. Requirements use the spec's own macros: `since` is the
minimum OpenCL C version ("1.0".."3.0"), `requires` a disjunctive normal form (a tuple of
alternatives, each a tuple of macros that must all be defined; empty = no requirement).
OpenCL C 2.0 features are spelled as their 3.0 feature macros (`__opencl_c_*`), which a
2.0 compiler is taken to define, as clang's opencl-c-base.h does. Where the spec offers a
version *or* an extension ("OpenCL C 2.0 or newer, or cl_khr_depth_images"), the version is
an alternative of its own, named `__OPENCL_C_VERSION__>=200` (`features.version_requirement`;
`Target.satisfies` reads it), and `since` stays at the version that has the extension.
"""

from __future__ import annotations

import marshal
import os
import sys
import time
import zlib
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from collections.abc import Iterator, Mapping

DATA = Path(__file__).resolve().parent / "data" / "builtins.json"

SPEC_URL = "https://registry.khronos.org/OpenCL/specs/3.0-unified/html/OpenCL_C.html"

Requires = tuple[tuple[str, ...], ...]


def spec_url(anchor: str) -> str:
    """Link to a section of the published OpenCL C specification."""
    return f"{SPEC_URL}#{anchor}"


class Param:
    __slots__ = ("name", "type")
    name: str
    type: str

    __match_args__ = ("name", "type")

    def __init__(self, name: str, type: str) -> None:
        set_ = object.__setattr__  # immutable: __setattr__ refuses
        set_(self, "name", name)
        set_(self, "type", type)

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(name={self.name!r}, type={self.type!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name, self.type) == (other.name, other.type)

    def __hash__(self) -> int:
        return hash((self.name, self.type))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: Param is shared and immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: Param is shared and immutable")

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle without __setattr__
        return (type(self), (self.name, self.type))


class Overload:
    __slots__ = ("returns", "params", "since", "requires")
    returns: str
    params: tuple[Param, ...]
    since: str | None  # the overload's own minimum version, None when it is the function's
    requires: Requires | None  # the overload's own requirement, None when it is the function's

    __match_args__ = ("returns", "params", "since", "requires")

    def __init__(
        self,
        returns: str,
        params: tuple[Param, ...],
        since: str | None,
        requires: Requires | None,
    ) -> None:
        set_ = object.__setattr__  # immutable: __setattr__ refuses
        set_(self, "returns", returns)
        set_(self, "params", params)
        set_(self, "since", since)
        set_(self, "requires", requires)

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"returns={self.returns!r}, " f"params={self.params!r}, "
                f"since={self.since!r}, " f"requires={self.requires!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.returns, self.params, self.since, self.requires)
        theirs = (other.returns, other.params, other.since, other.requires)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.returns, self.params, self.since, self.requires))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: Overload is shared and immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: Overload is shared and immutable")

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle without __setattr__
        return (type(self), (self.returns, self.params, self.since, self.requires))

    @property
    def signature(self) -> str:
        return f"{self.returns} ({', '.join(p.type for p in self.params)})"


class Builtin:
    __slots__ = ("name", "category", "summary", "since", "requires", "deprecated", "removed", "spec",
                 "overloads")
    name: str
    category: str
    summary: str
    since: str
    requires: Requires
    deprecated: str | None
    removed: str | None
    spec: str
    overloads: tuple[Overload, ...]

    __match_args__ = ("name", "category", "summary", "since", "requires", "deprecated", "removed", "spec",
                      "overloads")

    def __init__(
        self,
        name: str,
        category: str,
        summary: str,
        since: str,
        requires: Requires,
        deprecated: str | None,
        removed: str | None,
        spec: str,
        overloads: tuple[Overload, ...],
    ) -> None:
        set_ = object.__setattr__  # immutable: __setattr__ refuses
        set_(self, "name", name)
        set_(self, "category", category)
        set_(self, "summary", summary)
        set_(self, "since", since)
        set_(self, "requires", requires)
        set_(self, "deprecated", deprecated)
        set_(self, "removed", removed)
        set_(self, "spec", spec)
        set_(self, "overloads", overloads)

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"name={self.name!r}, " f"category={self.category!r}, "
                f"summary={self.summary!r}, " f"since={self.since!r}, " f"requires={self.requires!r}, "
                f"deprecated={self.deprecated!r}, " f"removed={self.removed!r}, " f"spec={self.spec!r}, "
                f"overloads={self.overloads!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.name, self.category, self.summary, self.since, self.requires, self.deprecated,
                self.removed, self.spec, self.overloads)
        theirs = (other.name, other.category, other.summary, other.since, other.requires, other.deprecated,
                  other.removed, other.spec, other.overloads)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.name, self.category, self.summary, self.since, self.requires, self.deprecated,
                     self.removed, self.spec, self.overloads))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: Builtin is shared and immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: Builtin is shared and immutable")

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle without __setattr__
        return (type(self), (self.name, self.category, self.summary, self.since, self.requires,
                             self.deprecated, self.removed, self.spec, self.overloads))

    @property
    def url(self) -> str:
        return spec_url(self.spec)

    def overload_since(self, overload: Overload) -> str:
        return overload.since or self.since

    def overload_requires(self, overload: Overload) -> Requires:
        return self.requires if overload.requires is None else overload.requires


class BuiltinType:
    __slots__ = ("name", "since", "requires")
    name: str
    since: str | None
    requires: Requires

    __match_args__ = ("name", "since", "requires")

    def __init__(self, name: str, since: str | None, requires: Requires) -> None:
        set_ = object.__setattr__  # immutable: __setattr__ refuses
        set_(self, "name", name)
        set_(self, "since", since)
        set_(self, "requires", requires)

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"name={self.name!r}, " f"since={self.since!r}, "
                f"requires={self.requires!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name, self.since, self.requires) == (other.name, other.since, other.requires)

    def __hash__(self) -> int:
        return hash((self.name, self.since, self.requires))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: BuiltinType is shared and immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: BuiltinType is shared and immutable")

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle without __setattr__
        return (type(self), (self.name, self.since, self.requires))


class Constant:
    __slots__ = ("name", "type", "value", "since", "requires", "spec")
    name: str
    type: str
    value: str | None
    since: str | None
    requires: Requires
    spec: str

    __match_args__ = ("name", "type", "value", "since", "requires", "spec")

    def __init__(
        self,
        name: str,
        type: str,
        value: str | None,
        since: str | None,
        requires: Requires,
        spec: str,
    ) -> None:
        set_ = object.__setattr__  # immutable: __setattr__ refuses
        set_(self, "name", name)
        set_(self, "type", type)
        set_(self, "value", value)
        set_(self, "since", since)
        set_(self, "requires", requires)
        set_(self, "spec", spec)

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"name={self.name!r}, " f"type={self.type!r}, "
                f"value={self.value!r}, " f"since={self.since!r}, " f"requires={self.requires!r}, "
                f"spec={self.spec!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.name, self.type, self.value, self.since, self.requires, self.spec)
        theirs = (other.name, other.type, other.value, other.since, other.requires, other.spec)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.name, self.type, self.value, self.since, self.requires, self.spec))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: Constant is shared and immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: Constant is shared and immutable")

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle without __setattr__
        return (type(self), (self.name, self.type, self.value, self.since, self.requires, self.spec))


class Catalogue:
    __slots__ = ("functions", "types", "constants")
    functions: Mapping[str, Builtin]
    types: Mapping[str, BuiltinType]
    constants: Mapping[str, Constant]

    __match_args__ = ("functions", "types", "constants")

    def __init__(
        self,
        functions: Mapping[str, Builtin],
        types: Mapping[str, BuiltinType],
        constants: Mapping[str, Constant],
    ) -> None:
        set_ = object.__setattr__  # immutable: __setattr__ refuses
        set_(self, "functions", functions)
        set_(self, "types", types)
        set_(self, "constants", constants)

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"functions={self.functions!r}, " f"types={self.types!r}, "
                f"constants={self.constants!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.functions, self.types, self.constants)
        theirs = (other.functions, other.types, other.constants)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.functions, self.types, self.constants))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: Catalogue is shared and immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: Catalogue is shared and immutable")

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle without __setattr__
        return (type(self), (self.functions, self.types, self.constants))

    def function(self, name: str) -> Builtin | None:
        return self.functions.get(name)

    def type(self, name: str) -> BuiltinType | None:
        return self.types.get(name)

    def constant(self, name: str) -> Constant | None:
        return self.constants.get(name)

    def by_category(self, category: str) -> list[Builtin]:
        return [f for f in self.functions.values() if f.category == category]


def _requires(raw: list[list[str]] | None) -> Requires | None:
    return None if raw is None else tuple(tuple(alt) for alt in raw)


def _builtin(raw: dict) -> Builtin:
    overloads = tuple(
        Overload(
            returns=o["returns"],
            params=tuple(Param(p["name"], p["type"]) for p in o["params"]),
            since=o.get("since"),
            requires=_requires(o.get("requires")),
        )
        for o in raw["overloads"]
    )
    return Builtin(raw["name"], raw["category"], raw["summary"], raw["since"],
                   _requires(raw["requires"]) or (), raw["deprecated"], raw.get("removed"),
                   raw["spec"], overloads)


class _Builtins(Mapping[str, Builtin]):
    """Built-in functions by name, each built from its entry on first use: a lint asks
    for a few dozen of the 1,100 (building them all costs more than reading the file).
    An entry is the JSON object, or that object marshalled (the compiled form)."""

    def __init__(self, raw: Mapping[str, dict | bytes]) -> None:
        self._raw = raw
        self._built: dict[str, Builtin] = {}

    def __getitem__(self, name: str) -> Builtin:
        got = self._built.get(name)
        if got is None:
            entry = self._raw[name]
            got = self._built[name] = _builtin(marshal.loads(entry) if isinstance(entry, bytes) else entry)
        return got

    def __contains__(self, name: object) -> bool:
        return name in self._raw

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)


def _catalogue(functions: Mapping[str, dict | bytes], types: list[dict], constants: list[dict]) -> Catalogue:
    built_types = {t["name"]: BuiltinType(t["name"], t["since"], _requires(t["requires"]) or ())
                   for t in types}
    built_constants = {c["name"]: Constant(c["name"], c["type"], c.get("value"), c["since"],
                                           _requires(c["requires"]) or (), c["spec"])
                       for c in constants}
    return Catalogue(_Builtins(functions), MappingProxyType(built_types), MappingProxyType(built_constants))


def load(data: dict) -> Catalogue:
    """Build a catalogue from the JSON document (exposed for tests and tools)."""
    return _catalogue({f["name"]: f for f in data["functions"]}, data["types"], data["constants"])


# The compiled form: _MAGIC, the header's length (8 bytes, little-endian), the header (marshal
# of (stamp, types, constants, {name: (offset, length)})), then each function's marshalled
# entry at its offset past the header. Decoding the 3.6 MB JSON costs ~70 ms per process; the
# header loads in well under 1 ms, and each function is read from the file when first asked
# for (`_Entries`): a lint asks for a few dozen of the 1,100 entries (1.7 MB), and reading
# them all cost ~3 ms of every start-up (issue 32). Bump on any change to the layout.
_FORMAT = 2
_MAGIC = b"cllint catalogue\x00"
# An mtime within this many seconds of compiling may hide a same-size rewrite (coarse
# clocks, as git's "racy" entries): such a stamp is checked against the content's CRC.
_RACY_NS = 2_000_000_000

_Compiled = tuple[list[dict], list[dict], Mapping[str, bytes]]


class _Entries(Mapping[str, bytes]):
    """The marshalled function entries of a compiled form, each read from the open file when
    asked for (`os.pread`: no shared file position, so threads and forked workers may read
    alike). The file is replaced, never rewritten in place, so the open one stays whole."""

    def __init__(self, fd: int, base: int, index: dict[str, tuple[int, int]]) -> None:
        self._fd = fd
        self._base = base
        self._index = index

    def __getitem__(self, name: str) -> bytes:
        offset, length = self._index[name]
        got = os.pread(self._fd, length, self._base + offset)
        if len(got) != length:
            raise OSError(f"catalogue cache: entry {name!r} cut short")
        return got

    def __contains__(self, name: object) -> bool:
        return name in self._index

    def __iter__(self) -> Iterator[str]:
        return iter(self._index)

    def __len__(self) -> int:
        return len(self._index)

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # a file descriptor does not travel
        return (dict, (dict(self.items()),))

    def __del__(self) -> None:
        try:
            os.close(self._fd)
        except (OSError, TypeError, AttributeError):  # (at interpreter exit `os` may be gone)
            pass


def _compile(text: bytes) -> _Compiled:
    import json  # only when (re)compiling: json costs ~5 ms to import

    data = json.loads(text)
    return data["types"], data["constants"], {f["name"]: marshal.dumps(f) for f in data["functions"]}


def _read_compiled(cache: Path, source: Path, st: os.stat_result) -> tuple[_Compiled, int | None] | None:
    """The compiled body if current (its functions read from the file as asked for), with the
    CRC when it had to be checked (a racy stamp)."""
    try:
        fd = os.open(cache, os.O_RDONLY)
    except OSError:
        return None
    try:
        head = os.pread(fd, len(_MAGIC) + 8, 0)
        length = int.from_bytes(head[len(_MAGIC):], "little")
        if not head.startswith(_MAGIC) or len(head) != len(_MAGIC) + 8 or length > os.fstat(fd).st_size:
            raise ValueError("not a compiled catalogue of this layout")
        stamp, types, constants, index = marshal.loads(os.pread(fd, length, len(head)))
        fmt, version, size, mtime_ns, compiled_ns, crc = stamp
    except (OSError, EOFError, ValueError, TypeError, AttributeError):  # (no os.pread: compiled each time)
        os.close(fd)
        return None
    if (fmt, version, size, mtime_ns) != (_FORMAT, marshal.version, st.st_size, st.st_mtime_ns):
        os.close(fd)
        return None
    entries = _Entries(fd, len(head) + length, index)
    if compiled_ns - mtime_ns >= _RACY_NS:
        return (types, constants, entries), None
    if zlib.crc32(source.read_bytes()) != crc:
        return None
    return (types, constants, dict(entries.items())), crc  # (rewritten next: every entry read)


def _write_compiled(cache: Path, st: os.stat_result, crc: int, body: _Compiled) -> None:
    stamp = (_FORMAT, marshal.version, st.st_size, st.st_mtime_ns, time.time_ns(), crc)
    types, constants, functions = body
    index: dict[str, tuple[int, int]] = {}
    offset = 0
    for name, entry in functions.items():
        index[name] = (offset, len(entry))
        offset += len(entry)
    head = marshal.dumps((stamp, types, constants, index))
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_name(f"{cache.name}.{os.getpid()}.tmp")
        tmp.write_bytes(b"".join([_MAGIC, len(head).to_bytes(8, "little"), head, *functions.values()]))
        tmp.replace(cache)
    except OSError:
        pass  # a read-only location costs speed, never content


def _cache_name(source: Path) -> str:
    return f"{source.stem}-{zlib.crc32(str(source).encode()):08x}.{sys.implementation.cache_tag}.marshal"


def load_file(source: Path, cache_dirs: list[Path]) -> Catalogue:
    """The catalogue of the JSON file `source`, through its compiled form in the first of
    `cache_dirs` that holds a current one (else compiled and written to the first writable one)."""
    st = source.stat()
    name = _cache_name(source)
    for d in cache_dirs:
        got = _read_compiled(d / name, source, st)
        if got is not None:
            body, checked_crc = got
            if checked_crc is not None and time.time_ns() - st.st_mtime_ns >= _RACY_NS:
                _write_compiled(d / name, st, checked_crc, body)  # no longer racy: skip the CRC from now on
            return _catalogue(body[2], body[0], body[1])
    text = source.read_bytes()
    body = _compile(text)
    crc = zlib.crc32(text)
    for d in cache_dirs:
        _write_compiled(d / name, st, crc, body)
        if (d / name).exists():
            break
    return _catalogue(body[2], body[0], body[1])


def default_cache_dirs() -> list[Path]:
    """Beside the data, as Python keeps .pyc files, then the user's cache (a read-only install)."""
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return [DATA.parent / "__pycache__", Path(xdg) / "cllint"]


@lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    """The packaged catalogue, read once."""
    return load_file(DATA, default_cache_dirs())
