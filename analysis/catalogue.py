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

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from types import MappingProxyType
from collections.abc import Iterator, Mapping

SPEC_URL = "https://registry.khronos.org/OpenCL/specs/3.0-unified/html/OpenCL_C.html"

Requires = tuple[tuple[str, ...], ...]


def spec_url(anchor: str) -> str:
    """Link to a section of the published OpenCL C specification."""
    return f"{SPEC_URL}#{anchor}"


@dataclass(frozen=True)
class Param:
    name: str
    type: str


@dataclass(frozen=True)
class Overload:
    returns: str
    params: tuple[Param, ...]
    since: str | None  # the overload's own minimum version, None when it is the function's
    requires: Requires | None  # the overload's own requirement, None when it is the function's

    @property
    def signature(self) -> str:
        return f"{self.returns} ({', '.join(p.type for p in self.params)})"


@dataclass(frozen=True)
class Builtin:
    name: str
    category: str
    summary: str
    since: str
    requires: Requires
    deprecated: str | None
    removed: str | None
    spec: str
    overloads: tuple[Overload, ...]

    @property
    def url(self) -> str:
        return spec_url(self.spec)

    def overload_since(self, overload: Overload) -> str:
        return overload.since or self.since

    def overload_requires(self, overload: Overload) -> Requires:
        return self.requires if overload.requires is None else overload.requires


@dataclass(frozen=True)
class BuiltinType:
    name: str
    since: str | None
    requires: Requires


@dataclass(frozen=True)
class Constant:
    name: str
    type: str
    value: str | None
    since: str | None
    requires: Requires
    spec: str


@dataclass(frozen=True)
class Catalogue:
    functions: Mapping[str, Builtin]
    types: Mapping[str, BuiltinType]
    constants: Mapping[str, Constant]

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
    """Built-in functions by name, each built from its JSON entry on first use: a lint
    asks for a few dozen of the 1,100 (building them all costs more than reading the file)."""

    def __init__(self, raw: list[dict]) -> None:
        self._raw = {f["name"]: f for f in raw}
        self._built: dict[str, Builtin] = {}

    def __getitem__(self, name: str) -> Builtin:
        got = self._built.get(name)
        if got is None:
            got = self._built[name] = _builtin(self._raw[name])
        return got

    def __contains__(self, name: object) -> bool:
        return name in self._raw

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)


def load(data: dict) -> Catalogue:
    """Build a catalogue from the JSON document (exposed for tests and tools)."""
    functions = _Builtins(data["functions"])
    types = {t["name"]: BuiltinType(t["name"], t["since"], _requires(t["requires"]) or ())
             for t in data["types"]}
    constants = {c["name"]: Constant(c["name"], c["type"], c.get("value"), c["since"],
                                     _requires(c["requires"]) or (), c["spec"])
                 for c in data["constants"]}
    return Catalogue(functions, MappingProxyType(types), MappingProxyType(constants))


@lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    """The packaged catalogue, read once."""
    text = resources.files("cllint.analysis.data").joinpath("builtins.json").read_text(encoding="utf-8")
    return load(json.loads(text))
