"""Target profiles: an OpenCL C version plus the optional features and extensions it has.

A `Target` is what every version/feature-gating check asks. It is built from a named preset
(`Target.preset("CL1.2")`), refined with clang-style overrides (`+__opencl_c_fp64,-cl_khr_fp16`),
or read off a device's query strings (`Target.from_device`, pure: the pyopencl call lives elsewhere).

Invariants kept by every constructor:
- closure: a name is present only together with what it needs (spec 6.2.1 "must also define");
  adding a name adds its needs, removing one removes what depended on it;
- equivalence: `__opencl_c_fp64` <-> `cl_khr_fp64` and `__opencl_c_3d_image_writes` <->
  `cl_khr_3d_image_writes` are present together, as clang enforces for OpenCL C 3.0
  (a 3.0 compiler supporting fp64 defines both macros).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cllint.analysis.lazy_re import lazy

from .features import (
    CORE_2_0,
    DNF,
    EQUIVALENT,
    EXTENSIONS,
    FEATURES,
    IMAGE_FEATURES_2_0,
    IMAGES,
    INT64,
    KNOWN_VERSIONS,
    STRICT_PREFIXES,
    V1_1,
    V1_2,
    V2_0,
    V3_0,
    Version,
    is_feature,
    requirements,
    version_requirement,
)

__all__ = ["PRESETS", "SPEC_MACRO_SINCE", "Target", "TargetError", "Version"]


class TargetError(ValueError):
    """A preset, override or version the user wrote cannot be honoured; `str()` is the message."""


_CORE_1_1_EXTS = frozenset(n for n, e in EXTENSIONS.items() if e.core_since == V1_1)
_CL1 = frozenset({IMAGES, INT64})  # a typical full-profile 1.x device: images and 64-bit ints
_CL2_FEATURES = CORE_2_0 | IMAGE_FEATURES_2_0 | {INT64}
_CL2_EXTS = _CORE_1_1_EXTS | {"cl_khr_3d_image_writes", "cl_khr_depth_images"}


def clang_all(version: Version) -> frozenset[str]:
    """The features and extensions clang-19's spir64 target defines at `version` (everything
    it accepts there: analysis/clang19_targets.py, generated), less clang's internal names."""
    from .clang19_targets import SPIR64

    return frozenset(n for n in SPIR64.get(version.std, ()) if n in FEATURES or n in EXTENSIONS)


_ALL_3_0 = clang_all(V3_0)

# name -> (version, features, extensions)
PRESETS: dict[str, tuple[Version, frozenset[str], frozenset[str]]] = {
    "CL1.0": (Version(1, 0), _CL1, frozenset()),
    "CL1.1": (V1_1, _CL1, _CORE_1_1_EXTS),
    "CL1.2": (V1_2, _CL1, _CORE_1_1_EXTS),
    "CL2.0": (V2_0, _CL2_FEATURES, _CL2_EXTS),
    # A full-profile 3.0 device. It keeps __opencl_c_int64: spec 6.2.1 has compilers for
    # full-profile devices always define it (only the embedded profile may lack 64-bit
    # integers), and clang-19 defines it for every target, whatever -cl-ext says.
    "CL3.0": (V3_0, frozenset({INT64}), _CORE_1_1_EXTS),
    # Everything clang-19 accepts for spir64 at CL3.0 (issue 30): the 6.2.1 table, the
    # extension features (float atomics, dot products, clocks), mipmaps, MSAA, sub-groups,
    # the image write extensions and the vendor extensions clang defines.
    "CL3.0-all": (V3_0, frozenset(filter(is_feature, _ALL_3_0)), _ALL_3_0 - frozenset(filter(is_feature, _ALL_3_0))),
}

# The first version whose compilers must define each macro (spec "Preprocessor Directives and
# Macros"). `predefined_macros` defines the version macros for every version, as clang does,
# so that `#if __OPENCL_C_VERSION__ >= CL_VERSION_2_0` works; a portability rule can use this.
SPEC_MACRO_SINCE: dict[str, Version] = {
    "CL_VERSION_1_0": V1_1,
    "CL_VERSION_1_1": V1_1,
    "CL_VERSION_1_2": V1_2,
    "CL_VERSION_2_0": V2_0,
    "CL_VERSION_3_0": V3_0,
    "__OPENCL_C_VERSION__": V1_2,
}

_VENDOR_NAME = lazy(r"^cl_[a-z0-9]+_\w+$")


class Target:
    # `_hash` and `_macros`: read once (a keystroke hashed the target ~74 times, each a Python
    # call hashing its fields, and built its macros ~7 times); fields are never reassigned.
    __slots__ = ("version", "features", "extensions", "name", "_hash", "_macros")
    version: Version
    features: frozenset[str]
    extensions: frozenset[str]
    name: str

    __match_args__ = ("version", "features", "extensions", "name")

    def __init__(
        self,
        version: Version,
        features: frozenset[str],
        extensions: frozenset[str],
        name: str,
    ) -> None:
        self.version = version
        self.features = features
        self.extensions = extensions
        self.name = name
        self._hash = hash((version, features, extensions, name))
        self._macros: dict[str, str] | None = None

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        # Rebuilt from the fields: a pickled `_hash` would be another process's (string
        # hashes are seeded per process).
        return (type(self), (self.version, self.features, self.extensions, self.name))

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"version={self.version!r}, " f"features={self.features!r}, "
                f"extensions={self.extensions!r}, " f"name={self.name!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.version, self.features, self.extensions, self.name)
        theirs = (other.version, other.features, other.extensions, other.name)
        return mine == theirs

    def __hash__(self) -> int:
        return self._hash

    # -- construction -------------------------------------------------------------------

    @classmethod
    def preset(cls, name: str) -> Target:
        """A named preset: CL1.0 CL1.1 CL1.2 CL2.0 CL3.0 CL3.0-all (case-insensitive; '1.2' works)."""
        key = _preset_key(name)
        if key is None:
            raise TargetError(f"unknown target '{name}'{_did_you_mean(name, PRESETS)}")
        version, features, extensions = PRESETS[key]
        return cls(version, features, extensions, key)

    @classmethod
    def from_device(
        cls,
        opencl_c_version: str,
        features: Iterable[object] = (),
        extensions: str | Iterable[str] = "",
        *,
        all_versions: Iterable[object] | None = None,
        image_support: bool = True,
        profile: str = "FULL_PROFILE",
        name: str = "device",
    ) -> Target:
        """Build a target from device query results; never raises for odd device strings.

        `opencl_c_version` is CL_DEVICE_OPENCL_C_VERSION ("OpenCL C 1.2 pocl"); `features` is
        CL_DEVICE_OPENCL_C_FEATURES as names, (name, version) pairs or objects with `.name`;
        `extensions` is CL_DEVICE_EXTENSIONS. OpenCL 3.0 devices report their highest 1.x version
        in the deprecated CL_DEVICE_OPENCL_C_VERSION query, so the highest entry of
        `all_versions` (CL_DEVICE_OPENCL_C_ALL_VERSIONS) wins, and a non-empty feature list (a
        3.0-only query) means 3.0. Before 3.0 the features follow from the version,
        `image_support` (CL_DEVICE_IMAGE_SUPPORT), `profile` (CL_DEVICE_PROFILE) and extensions.
        """
        try:
            version = Version.parse(opencl_c_version)
        except ValueError:
            version = V1_2
        for entry in all_versions or ():
            try:
                version = max(version, _entry_version(entry))
            except ValueError:
                continue
        names = {_entry_name(f) for f in features}
        names.discard("")
        if names and version < V3_0:
            version = V3_0
        version = max((v for v in KNOWN_VERSIONS if v <= version), default=KNOWN_VERSIONS[0])
        exts = set(extensions.split() if isinstance(extensions, str) else extensions)
        if version < V3_0:
            if image_support:
                names.add(IMAGES)
            if "EMBEDDED" not in profile.upper() or "cles_khr_int64" in exts:
                names.add(INT64)
            if version >= V2_0:
                names |= CORE_2_0 | (IMAGE_FEATURES_2_0 if image_support else set())
        state = _State(version, names | exts)
        for item in sorted(state.names):
            state.add(item, strict=False)
        return state.target(name)

    def apply_overrides(self, spec: str) -> Target:
        """Apply clang-style `+name,-name` overrides left to right (a bare name means `+`).

        Adding pulls in what the name needs; removing drops what depended on it. `+all` adds
        every feature and extension the version can have, `-all` removes every one that is
        not mandatory for it (clang's `-cl-ext=-all`), so `-all,+__opencl_c_fp64` reads as
        clang reads it. Unknown names, features newer than the version and removal of
        mandatory parts raise TargetError.
        """
        state = _State(self.version, set(self.features | self.extensions))
        applied: dict[str, str] = {}
        for raw in spec.split(","):
            token = raw.strip()
            if not token:
                continue
            sign, item = (token[0], token[1:].strip()) if token[0] in "+-" else ("+", token)
            before = set(state.names)
            if item == "all":
                state.add_all() if sign == "+" else state.remove_all()
                applied.clear()  # what came before is overridden as a whole
                applied[item] = sign
                continue
            _check_name(item)
            if sign == "+":
                state.add(item, strict=True)
            else:
                state.remove(item)
            applied.pop(item, None)
            if state.names != before:
                applied[item] = sign
        suffix = " ".join(f"{sign}{item}" for item, sign in applied.items())
        return state.target(f"{self.name} {suffix}" if suffix else self.name)

    # -- queries ------------------------------------------------------------------------

    def predefined_macros(self) -> dict[str, str]:
        """Macros a compiler for this target predefines, name -> replacement text.

        Feature macros (`__opencl_c_*`) are defined from OpenCL C 2.0 on (3.0 requires them;
        for 2.0 clang's base header defines them too); before 2.0 only extension macros say
        what is optional. `__ENDIAN_LITTLE__` assumes a little-endian device. A new
        dictionary each call (callers add to it).
        """
        return dict(self._predefined())

    def _predefined(self) -> dict[str, str]:
        """The macros, built once (never handed out: `predefined_macros` copies them)."""
        if self._macros is not None:
            return self._macros
        v = self.version
        macros = {
            "__OPENCL_VERSION__": str(v.number),
            "__OPENCL_C_VERSION__": str(v.number),
            "CL_VERSION_1_0": "100",
            "CL_VERSION_1_1": "110",
            "CL_VERSION_1_2": "120",
            "CL_VERSION_2_0": "200",
            "CL_VERSION_3_0": "300",
            "__ENDIAN_LITTLE__": "1",
        }
        if IMAGES in self.features:
            macros["__IMAGE_SUPPORT__"] = "1"
        if v >= V2_0:
            macros.update((f, "1") for f in sorted(self.features))
        macros.update((e, "1") for e in sorted(self.extensions))
        self._macros = macros
        return macros

    def has(self, name: str) -> bool:
        """Whether the target has a feature or extension (as a capability) or predefines `name`;
        for a version floor such as `__OPENCL_C_VERSION__>=200`, whether its version is that new."""
        if name in self.features or name in self.extensions:
            return True
        floor = version_requirement(name)
        if floor is not None:
            return self.version >= floor
        return name in self._predefined()

    def satisfies(self, since: str | Version | None, requires: Sequence[Sequence[str]]) -> bool:
        """Catalogue check: version >= `since` and `requires` (DNF over names; empty = none) holds."""
        if since is not None:
            floor = since if isinstance(since, Version) else Version.parse(since)
            if self.version < floor:
                return False
        return not requires or any(all(self.has(n) for n in conj) for conj in requires)

    def describe(self) -> str:
        """Short label for messages: 'CL1.2', 'CL3.0 +__opencl_c_fp64', 'device:0'."""
        return self.name


class _State:
    """Mutable set of names with closure rules; turned into a Target at the end."""

    def __init__(self, version: Version, names: set[str]) -> None:
        self.version = version
        self.names = names

    def add(self, item: str, *, strict: bool, why: str | None = None) -> None:
        info = FEATURES.get(item)
        if info and info.since > self.version:
            if not strict:
                self.names.discard(item)
                return
            cause = f" (needed by '{why}')" if why else ""
            raise TargetError(
                f"feature '{item}'{cause} needs OpenCL C {info.since} or newer, "
                f"target version is {self.version}"
            )
        self.names.add(item)
        twin = EQUIVALENT.get(item)
        if twin and twin not in self.names:
            self.add(twin, strict=strict, why=item)
        needs = requirements(item)
        if needs and not _holds(needs, self.names):
            for dep in needs[0]:
                if dep not in self.names:
                    self.add(dep, strict=strict, why=item)

    def add_all(self) -> None:
        """Every feature and extension this version can have (`+all`): what clang-19's spir64
        target defines at the version, and every other name the tables know for it."""
        for name in sorted(clang_all(self.version)):
            self.add(name, strict=False)
        for name, ext in EXTENSIONS.items():
            if ext.since <= self.version:
                self.add(name, strict=False)
        for name in FEATURES:
            self.add(name, strict=False)  # drops those newer than the version

    def remove_all(self) -> None:
        """Keep only what the version makes mandatory (`-all`), and 64-bit integers where the
        target has them: optional only in the embedded profile (spec 6.2.1), so `-all` on a
        full-profile target keeps them, as clang-19's `-cl-ext=-all` does. An embedded target
        comes without them (`from_device`) or drops them by name (`-__opencl_c_int64`)."""
        self.names = {n for n in self.names if self._mandatory(n) or n == INT64}

    def _mandatory(self, name: str) -> bool:
        if self.version == V2_0 and name in CORE_2_0:
            return True
        ext = EXTENSIONS.get(name)
        return bool(ext and ext.core_since and not ext.requires and ext.core_since <= self.version)

    def remove(self, item: str) -> None:
        gone = {item}
        if item in EQUIVALENT:
            gone.add(EQUIVALENT[item])
        self.names -= gone
        changed = True
        while changed:  # drop dependants until nothing else breaks
            changed = False
            for name in sorted(self.names):
                needs = requirements(name)
                if needs and not _holds(needs, self.names):
                    self.names.discard(name)
                    gone.add(name)
                    changed = True
        for name in sorted(gone):
            self._check_removable(name, item)

    def _check_removable(self, name: str, asked: str) -> None:
        cause = "" if name == asked else f" (removing '{asked}' would remove it)"
        if self.version == V2_0 and name in CORE_2_0:
            raise TargetError(f"'{name}' is mandatory in OpenCL C 2.0 and cannot be removed{cause}")
        ext = EXTENSIONS.get(name)
        if ext and ext.core_since and not ext.requires and ext.core_since <= self.version:
            raise TargetError(
                f"'{name}' is core in OpenCL C {ext.core_since} and newer "
                f"and cannot be removed{cause}"
            )

    def target(self, name: str) -> Target:
        features = frozenset(n for n in self.names if is_feature(n))
        return Target(self.version, features, frozenset(self.names - features), name)


def _holds(dnf: DNF, names: set[str]) -> bool:
    return any(all(n in names for n in conj) for conj in dnf)


def _check_name(item: str) -> None:
    if item in FEATURES or item in EXTENSIONS:
        return
    known = [*FEATURES, *EXTENSIONS]
    if item.startswith(STRICT_PREFIXES):
        kind = "feature" if is_feature(item) else "extension"
        raise TargetError(f"unknown {kind} '{item}'{_did_you_mean(item, known)}")
    if _VENDOR_NAME.match(item):
        return  # vendor extensions are open-ended; devices report hundreds
    raise TargetError(
        f"'{item}' is not a feature ('__opencl_c_*') or extension ('cl_*') name"
        f"{_did_you_mean(item, known)}"
    )


def _did_you_mean(word: str, candidates: Iterable[str]) -> str:
    import difflib  # only for a misspelt name

    pool = list(candidates)
    lowered = {c.lower(): c for c in pool}
    match = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.6)
    return f" (did you mean '{lowered[match[0]]}'?)" if match else ""


def _preset_key(name: str) -> str | None:
    wanted = name.strip().lower()
    for key in PRESETS:
        if key.lower() == wanted:
            return key
    try:
        version = Version.parse(wanted)
    except ValueError:
        return None
    key = version.std
    return key if key in PRESETS and not wanted.endswith("all") else None


def _entry_name(entry: object) -> str:
    if isinstance(entry, str):
        return entry.strip()
    if isinstance(entry, tuple) and entry:
        return str(entry[0]).strip()
    return str(getattr(entry, "name", "")).strip()


def _entry_version(entry: object) -> Version:
    """A CL_DEVICE_OPENCL_C_ALL_VERSIONS entry: 'OpenCL C 3.0', ('OpenCL C', packed) or object."""
    if isinstance(entry, str):
        return Version.parse(entry)
    value = entry[1] if isinstance(entry, tuple) else getattr(entry, "version", None)
    if isinstance(value, int):
        return Version.from_packed(value)
    if isinstance(value, str):
        return Version.parse(value)
    raise ValueError(f"unreadable version entry {entry!r}")
