"""A compiler test's build options, from its own lit `RUN:` lines (issue 29, item 2).

`// RUN: %clang_cc1 -triple spir -cl-std=CL2.0 -DN=4 -I %S/Inputs %s -o %t.bc` says how the
file is compiled: alone (no sibling is read before it), at OpenCL C 2.0, with `N` = 4 and that
include folder, for clang's SPIR target, which has every feature and extension clang knows at
that version (images, `double`, pipes, generic pointers: nothing to guard). The builds that
expect errors (`not`, `-verify` with `expected-error`) and those that are not OpenCL C (C++ for
OpenCL) say nothing here (analysis/lit_runs.py).

Several builds: what they agree on is used; what they differ on is left unknown (issue 29,
item 3): a version they differ on is no version (not clang's default), a macro they define
differently is the host's choice, and the features are those every build's target has.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from cllint.analysis.records import SlotRecord

if TYPE_CHECKING:
    from cllint.analysis.lit_runs import LitBuild
    from cllint.analysis.target import Target

DEFAULT_STD = "CL1.2"  # clang's `-cl-std` for OpenCL C when none is given
_HOST_ARCHES = ("x86_64", "i386", "i486", "i586", "i686", "x86", "amd64")


class LitOptions(SlotRecord):
    """What a file's RUN lines pass compiling it, merged over its builds."""

    __slots__ = ("force_include", "include_dirs", "defines", "varying", "std", "clang_targets", "features")
    force_include: tuple[str, ...]  # absolute paths, in order (every build's)
    include_dirs: tuple[str, ...]  # absolute paths (any build's)
    defines: tuple[tuple[str, str], ...]  # every build's, same value
    varying: tuple[str, ...]  # macros the builds define differently (or only some define)
    std: str | None  # the version every build compiles at; None: they differ
    # Per build, clang's target: (version, "spir64" or "host", `-cl-ext`); empty: a GPU's triple
    clang_targets: tuple[tuple[str, str, str], ...]
    features: tuple[str, ...]  # a GPU's triple: the names every build's `-cl-ext` adds

    __match_args__ = ("force_include", "include_dirs", "defines", "varying", "std", "clang_targets", "features")

    def __init__(self, force_include: tuple[str, ...] = (), include_dirs: tuple[str, ...] = (),
                 defines: tuple[tuple[str, str], ...] = (), varying: tuple[str, ...] = (), std: str | None = None,
                 clang_targets: tuple[tuple[str, str, str], ...] = (), features: tuple[str, ...] = ()) -> None:
        self.force_include = force_include
        self.include_dirs = include_dirs
        self.defines = defines
        self.varying = varying
        self.std = std
        self.clang_targets = clang_targets
        self.features = features


def _target_class(build: LitBuild) -> str:
    """"spir64" (a SPIR/SPIR-V triple), "host" (none, or a CPU's), "amdgcn" (an AMD GPU's), or
    "other" (another GPU's, clspv)."""
    if not build.triple:
        return "host"
    return triple_table(build.triple) or "other"


def triple_table(triple: str) -> str | None:
    """The table of analysis/clang19_targets.py for clang's `triple`: "spir64", "host" (a CPU's),
    "amdgcn"; None for one cllint has no table for."""
    triple = triple.lower()
    if triple.startswith("spir"):
        return "spir64"
    arch = triple.split("-", 1)[0]
    if arch in _HOST_ARCHES:
        return "host"
    return "amdgcn" if arch == "amdgcn" else None


@cache  # a memo of fixed tables: a test suite's files share a few builds
def clang_target(std: str, table: str, cl_ext: str) -> Target:
    """Clang-19's target at `std`: every feature and extension it defines for `table`'s
    triple (analysis/clang19_targets.py), then the build's `-cl-ext` overrides; a name
    cllint does not know, or cannot add at that version, is passed over as clang warns."""
    from cllint.analysis.clang19_targets import AMDGCN, HOST, SPIR64
    from cllint.analysis.features import EXTENSIONS, FEATURES
    from cllint.analysis.target import Target, TargetError

    target = Target.preset(std)
    names = {"spir64": SPIR64, "amdgcn": AMDGCN}.get(table, HOST).get(std, frozenset())
    known = sorted(n for n in names if n in FEATURES or n in EXTENSIONS)
    for _ in range(2):  # again: a name may need one that sorts after it (cl_khr_subgroups)
        for name in known:
            try:
                target = target.apply_overrides(f"+{name}")
            except TargetError:
                continue
    for token in (t.strip() for t in cl_ext.split(",")):
        if not token:
            continue
        try:
            target = target.apply_overrides(token)
        except TargetError:
            continue
    return Target(target.version, target.features, target.extensions, f"clang {table} {std}")


@cache
def builds_target(builds: tuple[tuple[str, str, str], ...]) -> Target:
    """What every build's clang target has (`builds`: version, table, `-cl-ext`): the lowest
    version, the features and extensions all of them have. A choice between builds is no
    report: nothing one build lacks is taken as there, no version above the lowest."""
    from cllint.analysis.target import Target, TargetError

    targets = [clang_target(*b) for b in dict.fromkeys(builds)]
    if len(targets) == 1:
        return targets[0]
    low = min(targets, key=lambda t: t.version)
    common = set.intersection(*(set(t.features | t.extensions) for t in targets))
    out = Target.preset(f"CL{low.version.major}.{low.version.minor}").apply_overrides("-all")
    for name in sorted(common):
        try:
            out = out.apply_overrides(f"+{name}")
        except TargetError:
            continue
    return Target(out.version, out.features, out.extensions, "clang, every RUN build")


def _resolve(word: str, folder: Path) -> Path | None:
    from cllint.analysis.lit_runs import FILE_DIR

    for name in FILE_DIR:
        word = word.replace(name, str(folder))
    if "%" in word:  # `%t`, `%{...}`: the test's scratch files, nothing in the tree
        return None
    return Path(os.path.normpath(folder / word))


def _macros(build: LitBuild) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, value in build.macros:
        if value is None:
            out.pop(name, None)
        else:
            out[name] = value
    return out


def lit_options(path: Path, data: bytes) -> LitOptions | None:
    """The options the file's RUN lines compile it with; None: no RUN line compiles it as
    OpenCL C expecting success."""
    if b"RUN:" not in data:
        return None
    from cllint.analysis.lit_runs import expects_errors, lit_builds  # (compiler tests only: ~1M instructions)

    builds = [b for b in lit_builds(data) if b.language == "cl" and not expects_errors(b, data)]
    if not builds:
        return None
    folder = path.parent
    stds = {b.std or DEFAULT_STD for b in builds}
    std = stds.pop() if len(stds) == 1 else None
    macro_sets = [_macros(b) for b in builds]
    names = dict.fromkeys(n for m in macro_sets for n in m)
    defines = tuple(sorted((n, macro_sets[0][n]) for n in names
                           if all(n in m and m[n] == macro_sets[0][n] for m in macro_sets)))
    varying = tuple(sorted(n for n in names if n not in dict(defines)))
    includes_per_build = [[p for w in b.includes if (p := _resolve(w, folder)) is not None and p.is_file()]
                          for b in builds]
    forced = tuple(str(p) for p in includes_per_build[0] if all(p in other for other in includes_per_build[1:]))
    dirs = tuple(dict.fromkeys(str(p) for b in builds for w in b.include_dirs
                               if (p := _resolve(w, folder)) is not None and p.is_dir()))
    classes = {_target_class(b) for b in builds}
    targets: tuple[tuple[str, str, str], ...] = ()
    features: tuple[str, ...] = ()
    if "other" not in classes:
        targets = tuple(sorted({(b.std or DEFAULT_STD, _target_class(b), ",".join(b.cl_ext)) for b in builds}))
    else:  # a GPU's triple: clang's tables are not cllint's; what every build's `-cl-ext` adds
        added = [{t[1:] for e in b.cl_ext for t in e.split(",") if t.startswith("+")} for b in builds]
        features = tuple(sorted(set.intersection(*added)))
    return LitOptions(forced, dirs, defines, varying, std, targets, features)
