"""The project model (issue 29): each OpenCL file read through its program, the same for
`cllint check` and the language server.

A `Project` knows a workspace's files: OpenCL sources, headers and host code. For one source
it answers a `ProgramContext`: the sources the program reads before it (a host statement that
joins them, or the fragment inference of workspace.py), `-D` names the hosts pass, and include
folders the build passes that nothing configured. Every file's facts are cached by its stamp
(size, mtime): `refresh()` after files change re-reads only what changed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from cllint.analysis.lazy_re import lazy
from cllint.analysis.records import replace
from .host_files import CLOJURE_SUFFIXES, DATA_SUFFIXES, HOST_NAMES, HOST_SUFFIXES, SKIP_DIRS
from .build_lists import colocated_dirs, concatenated_programs, included_programs, includers, listed_groups
from .generated_headers import generated_header_names
from .host_templates import Template, compiler_names, host_template
from .include_dirs import by_name, inferred_dirs, pyopencl_include_dir
from .index import FileIndex, index_source
from .lit_options import LitOptions, lit_options
from .supplied_headers import EXTERNAL, included_of

if TYPE_CHECKING:
    from cllint.analysis.lint import LintOptions

    from .cmake_options import BuildOptions
    from .jit_names import HostNameFamilies
    from .workspace import Fragment

OPENCL_SUFFIXES = (".cl", ".clh", ".ocl", ".opencl")
HEADER_SUFFIXES = (".h", ".clh")
MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_FILES = 200_000  # a workspace past this is not walked further


class ProgramContext:
    """What a file's program adds to its options."""

    __slots__ = ("prelude", "note", "host_macros", "include_dirs", "host_features", "one_group_kernels", "defines",
                 "std", "host_headers", "clang_target", "options_known", "launch_bounds", "template",
                 "one_item_kernels")
    prelude: tuple[str, ...]
    note: tuple[str, int, int] | None
    host_macros: tuple[str, ...]
    include_dirs: tuple[str, ...]
    host_features: tuple[str, ...]  # extensions and features the host checks before building
    one_group_kernels: tuple[str, ...]  # the file's kernels the host launches as one work-group only
    defines: tuple[tuple[str, str], ...]  # `-D NAME=V` the build passes (cmake_options.py)
    std: str | None  # the `-cl-std` version the build or host compiles it at ("CL2.0")
    host_headers: tuple[str, ...]  # names it includes that the host supplies (host_headers.py)
    # clang's targets the builds name (lit_options.py): (version, "spir64" or "host", `-cl-ext`) each
    clang_target: tuple[tuple[str, str, str], ...]
    options_known: bool  # the build's every `-D` is known (a lit RUN line): `#if` decided as clang does
    launch_bounds: tuple[tuple[str, int, str, int], ...]  # kernel arguments equal to a launch size (launch_bounds.py)
    # a template's words taken as its host's (host_templates.py), and the note without the template's part
    template: tuple[tuple[str, ...], tuple[str, int, int] | None] | None
    one_item_kernels: tuple[str, ...]  # the file's kernels the host launches as one work-item only

    __match_args__ = ("prelude", "note", "host_macros", "include_dirs", "host_features", "one_group_kernels",
                      "defines", "std", "host_headers", "clang_target", "options_known", "launch_bounds",
                      "template", "one_item_kernels")

    def __init__(
        self,
        prelude: tuple[str, ...] = (),
        note: tuple[str, int, int] | None = None,
        host_macros: tuple[str, ...] = (),
        include_dirs: tuple[str, ...] = (),
        host_features: tuple[str, ...] = (),
        one_group_kernels: tuple[str, ...] = (),
        defines: tuple[tuple[str, str], ...] = (),
        std: str | None = None,
        host_headers: tuple[str, ...] = (),
        clang_target: tuple[tuple[str, str, str], ...] = (),
        options_known: bool = False,
        launch_bounds: tuple[tuple[str, int, str, int], ...] = (),
        template: tuple[tuple[str, ...], tuple[str, int, int] | None] | None = None,
        one_item_kernels: tuple[str, ...] = (),
    ) -> None:
        self.prelude = prelude
        self.note = note
        self.host_macros = host_macros
        self.include_dirs = include_dirs
        self.host_features = host_features
        self.one_group_kernels = one_group_kernels
        self.defines = defines
        self.std = std
        self.host_headers = host_headers
        self.clang_target = clang_target
        self.options_known = options_known
        self.launch_bounds = launch_bounds
        self.template = template
        self.one_item_kernels = one_item_kernels

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"prelude={self.prelude!r}, " f"note={self.note!r}, "
                f"host_macros={self.host_macros!r}, " f"include_dirs={self.include_dirs!r}, "
                f"host_features={self.host_features!r}, " f"one_group_kernels={self.one_group_kernels!r}, "
                f"defines={self.defines!r}, " f"std={self.std!r}, " f"host_headers={self.host_headers!r}, "
                f"clang_target={self.clang_target!r}, " f"options_known={self.options_known!r}, "
                f"launch_bounds={self.launch_bounds!r}, template={self.template!r}, "
                f"one_item_kernels={self.one_item_kernels!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.prelude, self.note, self.host_macros, self.include_dirs, self.host_features,
                self.one_group_kernels, self.defines, self.std, self.host_headers, self.clang_target,
                self.options_known, self.launch_bounds, self.template, self.one_item_kernels)
        theirs = (other.prelude, other.note, other.host_macros, other.include_dirs, other.host_features,
                  other.one_group_kernels, other.defines, other.std, other.host_headers, other.clang_target,
                  other.options_known, other.launch_bounds, other.template, other.one_item_kernels)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.prelude, self.note, self.host_macros, self.include_dirs, self.host_features,
                     self.one_group_kernels, self.defines, self.std, self.host_headers, self.clang_target,
                     self.options_known, self.launch_bounds, self.template, self.one_item_kernels))

    def apply(self, options: LintOptions) -> LintOptions:
        if self == NO_CONTEXT:
            return options
        note = self.note
        if self.template is not None and any(name in dict(options.defines) for name in self.template[0]):
            note = self.template[1]  # the user's own `-D` completes the template: it is built as they say
        out = replace(options, prelude=(*options.prelude, *self.prelude),
                      program_note=note or options.program_note,
                      host_macros=(*options.host_macros, *self.host_macros),
                      include_paths=(*options.include_paths, *self.include_dirs),
                      host_features=(*options.host_features, *self.host_features),
                      one_group_kernels=(*options.one_group_kernels, *self.one_group_kernels),
                      host_headers=(*options.host_headers, *self.host_headers),
                      launch_bounds=(*options.launch_bounds, *self.launch_bounds),
                      launches=(*options.launches, *_one_item_launches(self.one_item_kernels, options.launches)))
        if self.defines:  # the user's own `-D` win
            out = replace(out, defines=tuple(sorted({**dict(self.defines), **dict(options.defines)}.items())))
        if self.options_known:
            out = replace(out, options_known=True)
        if self.clang_target and options.std is None and options.mode == "portability":
            from .lit_options import builds_target

            # the build names clang's target (a lit RUN line's `-triple spir`): its features, as clang has them
            out = replace(out, mode="target", target=builds_target(self.clang_target), std=None)
        elif self.std is not None and options.std is None and options.mode == "portability":
            from cllint.analysis.target import Target

            # the build's `-cl-std` is the source's language version, as `--std` (issue 30)
            base = Target.preset(self.std)
            out = replace(out, target=base, std=base.version.std)
        return out


NO_CONTEXT = ProgramContext()
Stamp = tuple[int, int]


class _Derived:
    """What the workspace's files say together, read once per refresh."""

    sources: dict[Path, bytes]  # OpenCL sources
    indexed: dict[Path, bytes]  # the sources and the headers beside them
    dirs: dict[Path, tuple[str, ...]]  # inferred include folders per source
    host_macros: tuple[str, ...]
    host_features: tuple[str, ...]
    computed: set[str]  # stems of sources built with `-D` names computed at run time
    joined: dict[Path, tuple[tuple[str, ...], tuple[str, int, int]]]  # host-joined sources before each
    fragments: dict[Path, tuple[object, tuple[str, ...]]]
    macro_counts: dict[str, int] | None  # macro -> sources defining it, once indexed
    # includers' programs (build_lists.py): the includer's head, the note, what the head stands for
    included: dict[Path, tuple[tuple[str, ...], tuple[str, int, int], tuple[str, ...]]]
    families: HostNameFamilies | None  # names the host's JIT-constant makers compose (jit_names.py); None: no hosts
    one_group: frozenset[str]  # kernels every host launch of which is one work-group (launches.py)
    options: dict[Path, BuildOptions]  # what the build or host passes compiling each source
    host_headers: frozenset[str]  # header names the hosts supply to the compiler (host_headers.py)
    launch_bounds: tuple[tuple[str, int, str, int], ...]  # kernel arguments equal to a launch size
    named: frozenset[str]  # stems of the sources a host names (it builds them)
    file_names: frozenset[str]  # base names of the indexed files (an include whose names are known)
    templates: dict[Path, Template | None]  # host_templates.py's answer, once asked

    __match_args__ = ("sources", "indexed", "dirs", "host_macros", "host_features", "computed", "joined",
                      "fragments", "macro_counts", "included", "families", "one_group",
                      "options", "host_headers", "launch_bounds", "named", "file_names", "templates")

    def __init__(
        self,
        sources: dict[Path, bytes],
        indexed: dict[Path, bytes],
        dirs: dict[Path, tuple[str, ...]],
        host_macros: tuple[str, ...],
        host_features: tuple[str, ...],
        computed: set[str],
        joined: dict[Path, tuple[tuple[str, ...], tuple[str, int, int]]],
        fragments: dict[Path, tuple[object, tuple[str, ...]]] | None = None,
        macro_counts: dict[str, int] | None = None,
        included: dict[Path, tuple[tuple[str, ...], tuple[str, int, int], tuple[str, ...]]] | None = None,
        families: HostNameFamilies | None = None,
        one_group: frozenset[str] = frozenset(),
        options: dict[Path, BuildOptions] | None = None,
        host_headers: frozenset[str] = frozenset(),
        launch_bounds: tuple[tuple[str, int, str, int], ...] = (),
        named: frozenset[str] = frozenset(),
        file_names: frozenset[str] = frozenset(),
        templates: dict[Path, Template | None] | None = None,
    ) -> None:
        self.sources = sources
        self.indexed = indexed
        self.dirs = dirs
        self.host_macros = host_macros
        self.host_features = host_features
        self.computed = computed
        self.joined = joined
        self.fragments = {} if fragments is None else fragments
        self.macro_counts = macro_counts
        self.included = {} if included is None else included
        self.families = families
        self.one_group = one_group
        self.options = {} if options is None else options
        self.host_headers = host_headers
        self.launch_bounds = launch_bounds
        self.named = named
        self.file_names = file_names
        self.templates = {} if templates is None else templates
        self.defined_names: frozenset[str] | None = None  # (a memo of the indexes, for _template)
        # per included source, the extensions its includers enable before including it (a memo)
        self.pragmas: dict[Path, tuple[str, ...]] = {}
        # stems of the sources a host names while some host drops `#include` lines from what it
        # reads (host_headers.strips_includes): their missing includes are not the program's
        self.stripped: frozenset[str] = frozenset()
        self.one_item: frozenset[str] = frozenset()  # of `one_group`, the kernels launched as one work-item

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"sources={self.sources!r}, " f"indexed={self.indexed!r}, "
                f"dirs={self.dirs!r}, " f"host_macros={self.host_macros!r}, "
                f"host_features={self.host_features!r}, " f"computed={self.computed!r}, "
                f"joined={self.joined!r}, " f"fragments={self.fragments!r}, "
                f"macro_counts={self.macro_counts!r}, " f"included={self.included!r}, "
                f"families={self.families!r}, " f"one_group={self.one_group!r}, "
                f"options={self.options!r}, " f"host_headers={self.host_headers!r}, "
                f"launch_bounds={self.launch_bounds!r}, " f"named={self.named!r}, "
                f"file_names={self.file_names!r}, " f"templates={self.templates!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.sources, self.indexed, self.dirs, self.host_macros, self.host_features, self.computed,
                self.joined, self.fragments, self.macro_counts, self.included, self.families, self.one_group,
                self.options, self.host_headers, self.launch_bounds, self.named, self.file_names, self.templates)
        theirs = (other.sources, other.indexed, other.dirs, other.host_macros, other.host_features,
                  other.computed, other.joined, other.fragments, other.macro_counts, other.included,
                  other.families, other.one_group, other.options, other.host_headers, other.launch_bounds,
                  other.named, other.file_names, other.templates)
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable


class Project:
    def __init__(self, roots: Iterable[Path], extra: Iterable[Path] = ()) -> None:
        """`roots`: folders walked whole; `extra`: single files (with their folders' OpenCL
        siblings, for a file named alone)."""
        self.roots = [Path(r).resolve() for r in roots]
        self.extra = [Path(p).resolve() for p in extra]
        self._data: dict[Path, tuple[Stamp, bytes]] = {}
        self._index: dict[Path, tuple[Stamp, FileIndex]] = {}
        self._derived: _Derived | None = None
        self._missing: dict[Path, tuple[tuple[str, int], ...]] = {}
        self.files: list[Path] = []
        self.refresh()

    # -- files ----------------------------------------------------------------------

    def refresh(self) -> None:
        """Walk the workspace again; changed files are read again when next needed."""
        files: list[Path] = []
        for root in self.roots:
            for folder, dirs, names in os.walk(root):
                dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and d != "build")
                files.extend(Path(folder, n) for n in names)
                if len(files) > MAX_FILES:
                    break
        named = set(self.extra)
        for parent in dict.fromkeys(p.parent for p in self.extra):  # each folder listed once, not once per file
            if parent.is_dir():
                files.extend(s for s in parent.iterdir() if s.suffix in OPENCL_SUFFIXES or s in named)
        self.files = sorted(set(files))
        self._derived = None

    def changed(self, paths: Iterable[Path]) -> None:
        """Files created, changed or deleted (the editor's watched-file events)."""
        for p in paths:
            self._data.pop(Path(p), None)
            self._index.pop(Path(p), None)
        self.refresh()

    def _stamp(self, path: Path) -> Stamp | None:
        try:
            st = path.stat()
        except OSError:
            return None
        return (st.st_size, st.st_mtime_ns) if st.st_size <= MAX_FILE_BYTES else None

    def read(self, path: Path) -> bytes | None:
        stamp = self._stamp(path)
        if stamp is None:
            return None
        got = self._data.get(path)
        if got is None or got[0] != stamp:
            try:
                got = (stamp, path.read_bytes())
            except OSError:
                return None
            self._data[path] = got
        return got[1]

    # -- what the files say together ----------------------------------------------------

    def _derive(self) -> _Derived:
        if self._derived is not None:
            return self._derived
        sources: dict[Path, bytes] = {}
        for p in self.files:
            if p.suffix in OPENCL_SUFFIXES and (data := self.read(p)) is not None and b"\x00" not in data[:8192]:
                sources[p] = data
        hosts: dict[Path, bytes] = {}
        if self.roots:
            for p in self.files:
                if (p.name in HOST_NAMES or p.suffix.lower() in HOST_SUFFIXES) and (data := self.read(p)) is not None:
                    hosts[p] = data
        # What only host code holds (companion sources, lists of files, launches, `-cl-std`) is read
        # where the workspace has host files: files named alone have none, and import none of
        # those modules (each costs start-up to load). Without hosts each gives its empty answer.
        companions: list[Path] = []
        companion_joins: list = []
        lists: list = []
        if hosts:
            from .companion_sources import companion_programs
            from .listed_files import workspace_lists

            # OpenCL C in files with a C++ suffix a host joins before a kernel (companion_sources.py)
            companions, companion_joins = companion_programs(hosts, list(sources), self.files)
            # programs hosts join from lists of file names: their headers are OpenCL, wherever they lie
            lists = workspace_lists(hosts, self.files)
        for p in companions:
            if (data := self.read(p)) is not None and b"\x00" not in data[:8192]:
                sources[p] = data
        stems = {p.stem for p in sources}
        dirs = inferred_dirs(sources, by_name(self.files), [])
        # the folders a build list copies its kernels' includes from come first (build_lists.py)
        builds = {p: t for p, t in hosts.items() if p.name == "CMakeLists.txt" or p.suffix.lower() == ".cmake"}
        for p, listed in colocated_dirs(listed_groups(builds, set(sources)), sources).items():
            dirs[p] = tuple(dict.fromkeys((*listed, *dirs.get(p, ()))))
        indexed = dict(sources)
        beside = {p.parent for p in sources} | {Path(f) for extra in dirs.values() for f in extra}
        for p in self.files:
            if p.suffix in HEADER_SUFFIXES and p.parent in beside and p not in indexed \
                    and (data := self.read(p)) is not None:
                indexed[p] = data
        for _, members, _ in lists:
            for p in members:
                if p is not None and p not in indexed and (data := self.read(p)) is not None \
                        and b"\x00" not in data[:8192]:
                    indexed[p] = data
        data_files = [p for p in self.files if p.suffix.lower() in DATA_SUFFIXES]
        read = _read_hosts(hosts, stems, self.roots,
                           lambda: (d for p in data_files if _small(p) and (d := self.read(p)) is not None))
        clojure_joins, after_outside = _clojure_reading(hosts, sources, self.files)
        self._derived = _Derived(
            sources, indexed, dirs,
            host_macros=read.macros,
            host_features=read.features,
            computed=read.computed | after_outside,
            joined={**concatenated_programs({p: t for p, t in hosts.items() if p.name in HOST_NAMES
                                             or p.suffix.lower() == ".cmake"}, set(sources)),
                    **_joined_by_hosts([*read.programs, *companion_joins, *clojure_joins], sources),
                    **_joined_by_lists(lists, sources)},
            included=included_programs(sources, dirs),
            families=read.families,
            # (kernels in host strings too: `"kernel void self_test(...) {"` launched with `&n, &n`)
            one_group=(shapes := _launch_shapes(hosts, sources))[0],
            options=_build_options(builds, hosts, sources, dirs),
            host_headers=read.headers
            | generated_header_names(self.files, {p: t for p, t in hosts.items()
                                                  if p.name in HOST_NAMES or p.suffix.lower() == ".cmake"}),
            launch_bounds=_launch_bounds(hosts, sources),
            named=read.named,
        )
        self._derived.one_item = shapes[1]
        if read.strips:
            self._derived.stripped = self._derived.named
        self._missing = _missing_by_host(lists)
        return self._derived

    def _indexes(self, indexed: dict[Path, bytes]) -> dict[Path, FileIndex]:
        out: dict[Path, FileIndex] = {}
        for p, data in indexed.items():
            stamp = self._data[p][0] if p in self._data else (len(data), 0)
            got = self._index.get(p)
            if got is None or got[0] != stamp:
                found = _cached_index(data)
                if found is None:
                    continue
                got = (stamp, found)
                self._index[p] = got
            out[p] = got[1]
        return out

    def contexts(self, paths: Iterable[Path], unsaved: dict[Path, bytes] | None = None) -> dict[Path, ProgramContext]:
        """The program context of each path (NO_CONTEXT where there is nothing to add).
        `unsaved`: the texts of editor buffers on no disk, each read as `cllint check` reads the
        file alone in its folder (a template's host names, host_templates.py)."""
        d = self._derive()
        wanted = [Path(p).resolve() for p in paths]
        todo = [p for p in wanted if p in d.sources and p not in d.fragments]
        if todo:
            indexes = self._indexes(d.indexed)
            found: dict[Path, Fragment] = {}
            if len(d.indexed) > 1:  # (a file alone is no fragment: the inference is not imported)
                from .workspace import fragments

                found = fragments(d.indexed, todo, indexes)
            if d.macro_counts is None:
                d.macro_counts = {}
                for fi in indexes.values():
                    for m in fi.macros:
                        d.macro_counts[m] = d.macro_counts.get(m, 0) + 1
            for p in todo:
                if p in d.included and p not in d.joined and _needs(indexes, p, d.included[p][2][1:],
                                                                      _head_names(d, p)):
                    d.joined[p] = d.included[p][:2]
                # Macros the file uses that another source defines (several do, so none is
                # read before it): the host's choice of source, never "pass it with -D".
                fi = indexes.get(p)
                shared = tuple(sorted(m for m in fi.uses - fi.macros if m in d.macro_counts)) if fi else ()
                if shared and p in d.included and d.joined.get(p) == d.included[p][:2]:
                    # read after its includer's head: a macro only the includer defines, after the
                    # `#include` line, is not defined where the file is read
                    own = indexes.get(Path(d.included[p][2][0]))
                    if own is not None:
                        shared = tuple(m for m in shared if not (m in own.macros and d.macro_counts.get(m) == 1))
                d.fragments[p] = (found.get(p), shared)
                d.templates[p] = _template(d, indexes, p)
            included = [p for p in todo if p in d.included]
            if included:
                from .includer_pragmas import includer_pragmas

                d.pragmas.update(includer_pragmas(d.included, d.indexed, included))
        out: dict[Path, ProgramContext] = {}
        for path in wanted:
            if path not in d.sources:  # host code: its kernels' programs (pyopencl's headers on its path)
                pyopencl = pyopencl_include_dir() if path.suffix == ".py" else None
                # (and the host's own folder, which hosts pass with -I: `["-I", dirname(__file__)]`)
                include = (*((str(pyopencl),) if pyopencl is not None else ()), str(path.parent))
                ctx = ProgramContext(host_macros=d.host_macros, include_dirs=include, host_features=d.host_features,
                                     one_group_kernels=_defined_in(d.one_group, self.read(path) or b""),
                                     one_item_kernels=_defined_in(d.one_item, self.read(path) or b""),
                                     host_headers=self._host_headers_of(d, path))
                text = unsaved.get(path) if unsaved and path.suffix in OPENCL_SUFFIXES else None
                # (the workspace's indexes only until its defined names are known: a buffer's
                # version each keystroke must not stat every file of the workspace again)
                indexes = self._indexes(d.indexed) if text is not None and d.defined_names is None else {}
                if text is not None and b"\x00" not in text[:8192] \
                        and (t := _template_of(d, indexes, path, text, index_source(text))):
                    ctx = replace(ctx, host_macros=(*ctx.host_macros, *t.names), note=t.note, template=(t.names, None))
            else:
                frag, shared = d.fragments.get(path) or (None, ())
                prelude = tuple(str(p) for p in frag.prelude) if frag else ()
                note = frag.note if frag else None
                if (joined := d.joined.get(path)) is not None:  # what the names need first, then the host's
                    before, note = joined
                    # an includer's head stands for the includer and what it includes first:
                    # neither is read again whole (the includer would include the file itself)
                    inc = d.included.get(path)
                    skip = {*before, *(inc[2] if inc is not None and inc[0] == before else ())}
                    prelude = (*(p for p in prelude if p not in skip), *before)
                # names the host's makers compose (`INPUT0_SIZE_X`), those the file uses
                composed = d.families.words_in(d.sources[path]) if d.families is not None else ()
                template = d.templates.get(path)
                completed = None  # (the template's names, the note without it) for ProgramContext.apply
                if template is not None:  # the host's macros, said once (host_templates.py)
                    shared = (*shared, *template.names)
                    completed = (template.names, note)
                    note = template.note if note is None else (f"{note[0]}; and {template.note[0]}", *note[1:])
                macros = (*d.host_macros, *composed, *shared, *(("*",) if _built_computed(d, path) else ()))
                built = d.options.get(path)  # (None: the build passes nothing)
                force, defines, std = (built.force_include, built.defines, built.std) if built is not None \
                    else ((), (), None)
                triple = _triple_target(built.triple if built is not None else None, std)
                prelude = (*force, *(p for p in prelude if p not in force))  # `-include` headers first
                if (enabled := d.pragmas.get(path)) is not None:  # its includers' pragmas, first of all
                    from cllint.analysis.preprocessor.includer_heads import pragma_entry

                    prelude = (pragma_entry(enabled), *prelude)
                ctx = ProgramContext(prelude, note, macros, d.dirs.get(path, ()), d.host_features,
                                     _defined_in(d.one_group, d.sources[path]), defines, std,
                                     (*included_of(d.host_headers, d.sources[path]),
                                      *((EXTERNAL,) if path.stem in d.stripped else ())),
                                     launch_bounds=tuple(b for b in d.launch_bounds
                                                         if b[0] in _defined_in(frozenset({b[0]}), d.sources[path])),
                                     template=completed, clang_target=triple,
                                     one_item_kernels=_defined_in(d.one_item, d.sources[path]))
                if (lit := lit_options(path, d.sources[path])) is not None:
                    ctx = _with_lit(ctx, lit)
            out[path] = NO_CONTEXT if ctx == NO_CONTEXT else ctx
        return out

    def missing_files(self) -> dict[Path, tuple[tuple[str, int], ...]]:
        """Per host, the files its lists join into a program that no file of the workspace is
        (the name as written, its line; listed_files.py)."""
        self._derive()
        return dict(self._missing)

    def _host_headers_of(self, d: _Derived, path: Path) -> tuple[str, ...]:
        """The host-supplied header names a host file's kernels include: the workspace's, or,
        with no workspace walked, those the file itself supplies (pyopencl's `headers=`)."""
        if self.roots and not d.host_headers:
            return ()
        data = self.read(path)
        if data is None:
            return ()
        if self.roots:
            names = d.host_headers
        else:
            from .host_headers import host_header_names

            names = host_header_names({path: data})
        return included_of(names, data) if names else ()

    def context(self, path: Path) -> ProgramContext:
        return self.contexts([path])[Path(path).resolve()]


def _template(d: _Derived, indexes: dict[Path, FileIndex], path: Path) -> Template | None:
    """`path` as a template whose host is elsewhere (host_templates.py), when nothing in the
    workspace builds it: no host names it, no build passes its options, no source includes or
    joins it, no lit `RUN:` line compiles it."""
    return _template_of(d, indexes, path, d.sources[path], indexes.get(path))


def _template_of(d: _Derived, indexes: dict[Path, FileIndex], path: Path, data: bytes,
                 fi: FileIndex | None) -> Template | None:
    """`_template` of `path` with the text `data` (indexed as `fi`): a source's on disk, or an
    editor's buffer that is on no disk."""
    if fi is None or path.stem in d.named or path in d.options or path in d.included or path in d.joined \
            or path.stem in d.computed or lit_options(path, data) is not None:
        return None
    if d.defined_names is None:
        names: set[str] = set(d.host_macros)
        for other in indexes.values():
            names |= other.defines
        d.defined_names = frozenset(names)
        d.file_names = frozenset(p.name for p in indexes)
    defined, known = d.defined_names, compiler_names()
    words = fi.uses - fi.locals
    if all(w in defined or w in known for w in words):
        return None  # (most files: nothing undefined, no text read)
    return host_template(data, fi.uses, fi.locals,
                         lambda n: n in defined or n in known or n.startswith("__"), d.file_names)


def _triple_target(triple: str | None, std: str | None) -> tuple[tuple[str, str, str], ...]:
    """ProgramContext.clang_target for a build's `-target` (cmake_options.py), where cllint has
    clang-19's table for that triple (lit_options.triple_table); else none."""
    if triple is None:
        return ()
    from .lit_options import DEFAULT_STD, triple_table

    table = triple_table(triple)
    return ((std or DEFAULT_STD, table, ""),) if table is not None else ()


def _built_computed(d: _Derived, path: Path) -> bool:
    """Whether a host builds `path` with `-D` names it computes: it names the source, or a
    source it names `#include`s it (through includers, each the one build_lists chose)."""
    seen: set[Path] = set()
    while path not in seen:
        if path.stem in d.computed:
            return True
        seen.add(path)
        got = d.included.get(path)
        if got is None or not got[2]:
            return False
        path = Path(got[2][0])
    return False


def _with_lit(ctx: ProgramContext, lit: LitOptions) -> ProgramContext:
    """`ctx` for a compiler test its RUN lines build (lit_options.py): compiled alone, so no
    sibling read before it; their `-include`, `-I`, `-D`, version and target, not another's."""
    return ProgramContext(lit.force_include, None, (*ctx.host_macros, *lit.varying),
                          tuple(dict.fromkeys((*lit.include_dirs, *ctx.include_dirs))),
                          (*ctx.host_features, *lit.features), ctx.one_group_kernels, lit.defines, lit.std,
                          ctx.host_headers, lit.clang_targets, not lit.varying, ctx.launch_bounds,
                          one_item_kernels=ctx.one_item_kernels)


_DEFINED = lazy(rb"\bvoid\s+([A-Za-z_]\w*)\s*\(")


def _defined_functions(sources: Iterable[bytes]) -> set[str]:
    """Names of the `void` functions the sources define or declare: the kernels among them."""
    return {m.group(1).decode() for data in sources if b"kernel" in data for m in _DEFINED.finditer(data)}


def _defined_in(names: frozenset[str], data: bytes) -> tuple[str, ...]:
    """The names among `names` that the file defines as a `void` function."""
    if not names:
        return ()
    return tuple(sorted(n for n in names if re.search(rb"\bvoid\s+" + re.escape(n.encode()) + rb"\s*\(", data)))


INDEX_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "cllint" / "index"


def _cached_index(data: bytes) -> FileIndex | None:
    """A source's index (None: not OpenCL C), kept on disk by content and cllint version: a
    large project is read once, not on every run (hashcat: 1,490 files, 8 s). Kept as a
    marshalled tuple of its six sets: `marshal` is built in, where `pickle` cost every run on
    a lone file its import (~1.5 ms, issue 32)."""
    import marshal

    from cllint import __version__
    from cllint.analysis.digest import blake2b
    from cllint.analysis.source_kind import not_opencl_reason

    key = blake2b(data, digest_size=20)
    key.update(f"{__version__}:{_INDEX_FORMAT}:{_code_stamp()}".encode())
    entry = INDEX_CACHE / key.hexdigest()
    try:
        kept = marshal.loads(entry.read_bytes())
        if kept is None:
            return None
        if isinstance(kept, tuple) and len(kept) == 6 and all(type(s) is frozenset for s in kept):
            return FileIndex(*kept)
    except (OSError, EOFError, ValueError, TypeError):
        pass
    found = None if not_opencl_reason(data) is not None else index_source(data)
    try:
        INDEX_CACHE.mkdir(parents=True, exist_ok=True)
        tmp = entry.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(marshal.dumps(None if found is None else (
            found.macros, found.names, found.definitions, found.uses, found.pastes, found.locals)))
        tmp.replace(entry)
    except OSError:
        pass  # a read-only cache costs time, never results
    return found


# Bumped whenever what an index holds or how it is read changes.
_INDEX_FORMAT = 4  # 4: marshal, not pickle


@cache
def _code_stamp() -> str:
    """The indexing code as installed: a checkout edited under the same version reads afresh."""
    import cllint.analysis.source_kind as kinds

    parts = []
    for path in (Path(__file__).parent / "index.py", Path(kinds.__file__), Path(kinds.__file__).parent / "lit_runs.py"):
        try:
            st = path.stat()
            parts.append(f"{st.st_size}:{st.st_mtime_ns}")
        except OSError:
            parts.append("-")
    return ",".join(parts)


def _joined_by_lists(lists: list, sources: dict[Path, bytes]) -> dict[Path, tuple[tuple[str, ...], tuple[str, int, int]]]:
    """`listed_files.joined_by_lists`: nothing without lists (so without host files)."""
    if not lists:
        return {}
    from .listed_files import joined_by_lists

    return joined_by_lists(lists, sources)


def _missing_by_host(lists: list) -> dict[Path, tuple[tuple[str, int], ...]]:
    """`listed_files.missing_by_host`: nothing without lists."""
    if not lists:
        return {}
    from .listed_files import missing_by_host

    return missing_by_host(lists)


def _launch_shapes(hosts: dict[Path, bytes], sources: dict[Path, bytes]) -> tuple[frozenset[str], frozenset[str]]:
    """`launches.launch_shapes` of the sources' and hosts' kernels: none without host files."""
    if not hosts:
        return frozenset(), frozenset()
    from .launches import launch_shapes

    return launch_shapes(hosts, _defined_functions(sources.values()) | _defined_functions(
        t for t in hosts.values() if b"kernel void" in t or b"__kernel" in t))


_ONE = (1, 1, 1)


def _one_item_launches(kernels: tuple[str, ...], stated: tuple) -> tuple:
    """Launches of one work-item for `kernels`, as `LintOptions.launches` holds them, but for a
    kernel the configuration states launches of (`[[launch]]`: the user's word wins)."""
    said = {kernel for kernel, _, _ in stated}
    if "" in said:
        return ()
    return tuple((k, _ONE, _ONE) for k in kernels if k not in said)


def _launch_bounds(hosts: dict[Path, bytes], sources: dict[Path, bytes]) -> tuple:
    """`launch_bounds.launch_bounds` of the sources' kernels: none without host files."""
    if not hosts:
        return ()
    from .launch_bounds import launch_bounds

    return launch_bounds(hosts, _defined_functions(sources.values()))


def _project_std(hosts: dict[Path, bytes], sources: dict[Path, bytes], choices: Iterable[str]) -> dict[Path, str]:
    from .host_std import unnamed_at_project_std

    return unnamed_at_project_std(hosts, sources, choices)


def _host_stds(hosts: dict[Path, bytes], sources: dict[Path, bytes], choices: Iterable[str]) -> dict[Path, str]:
    """`host_std.host_stds`: none without host files."""
    if not hosts:
        return {}
    from .host_std import host_stds

    return host_stds(hosts, sources, choices)


class _HostReading:
    """What the host files say, by the host readers (hosts.py, jit_names.py, host_headers.py)."""

    __slots__ = ("macros", "features", "computed", "programs", "families", "headers", "named", "strips")

    def __init__(self, macros: tuple[str, ...] = (), features: tuple[str, ...] = (), computed: set[str] | None = None,
                 programs: list | None = None, families: HostNameFamilies | None = None,
                 headers: frozenset[str] = frozenset(), named: frozenset[str] = frozenset(),
                 strips: bool = False) -> None:
        self.macros, self.features, self.computed = macros, features, set() if computed is None else computed
        self.programs, self.families = [] if programs is None else programs, families
        self.headers, self.named, self.strips = headers, named, strips


def _small(path: Path, limit: int = 1 << 20) -> bool:
    """A data file small enough to be a preset (a larger one is a mesh or a dataset: unread)."""
    try:
        return path.stat().st_size <= limit
    except OSError:
        return False


def _read_hosts(hosts: dict[Path, bytes], stems: set[str], roots: list[Path],
                data: Callable[[], Iterable[bytes]] = tuple) -> _HostReading:
    """The host readers' answers; without host files, their answers on no input (held in
    tests/cli/test_no_host_readers.py), and none of their modules imported. `data` gives the
    workspace's data files' texts, read only where a host composes `-D` names."""
    if not hosts:
        return _HostReading()
    from .host_headers import external_include_dirs, host_header_names, strips_includes
    from .hosts import checked_extensions, computed_option_hosts, generated_prefix_kernels, host_programs, \
        kernels_named, macros_in, name_literals
    from .jit_names import host_name_families

    families = host_name_families(hosts.values())
    composers = computed_option_hosts(hosts)
    # where a host composes `-D` names, the names it writes as string literals are its
    # program's macros: the composer is handed them (`get_program(ctx, "blur", "KERN", 3)`)
    handed = name_literals(hosts.values()) if composers else frozenset()
    if composers:  # and the names its configuration lists (`<Define name="SUPPORT" .../>`)
        from .data_defines import data_file_names
        handed |= data_file_names(data())
    return _HostReading(
        macros=tuple(sorted(macros_in(list(hosts.values())) | families.literals | handed)),
        features=tuple(sorted(checked_extensions(hosts))),
        computed=kernels_named(hosts, composers, stems) | generated_prefix_kernels(hosts, stems),
        programs=host_programs(hosts, stems),
        families=families,
        headers=host_header_names(hosts) | (frozenset({EXTERNAL}) if external_include_dirs(hosts, roots)
                                            else frozenset()),
        named=frozenset(kernels_named(hosts, list(hosts), stems)),
        strips=strips_includes(hosts),
    )


def _clojure_reading(hosts: dict[Path, bytes], sources: dict[Path, bytes], files: Iterable[Path]) -> tuple[list, set[str]]:
    """What Clojure hosts' builds join (clojure_builds.py), and the stems of sources they read
    after one outside the workspace (a dependency's resource: what they leave undeclared may
    be its). Without Clojure hosts, nothing (the module not imported)."""
    if not any(p.suffix.lower() in CLOJURE_SUFFIXES for p in hosts):
        return [], set()
    from .clojure_builds import clojure_builds, computed_before, joined_stems
    from .hosts import HostProgram

    builds = clojure_builds(hosts, list(sources), files)
    return [HostProgram(*j) for j in joined_stems(builds)], computed_before(builds)


def _build_options(builds: dict[Path, bytes], hosts: dict[Path, bytes], sources: dict[Path, bytes],
                   dirs: dict[Path, tuple[str, ...]]) -> dict[Path, BuildOptions]:
    """What options files beside the sources (options_files.py), CMake commands
    (cmake_options.py) and hosts' literal `-cl-std` (host_std.py) pass compiling each source;
    a version CMake and the hosts disagree on is dropped. Without host files, the options
    files' only (neither host reader's module imported: CMake files are host files)."""
    from cllint.config import STD_CHOICES

    from .options_files import file_build_options

    written = file_build_options(sources)  # (a source's options file, compile_flags.txt)
    if not hosts and not written:
        return {}
    from .cmake_options import BuildOptions, cmake_build_options

    written = {p: o if o.std is None or o.std in STD_CHOICES else BuildOptions(o.force_include, o.defines, None, o.triple)
               for p, o in written.items()}
    if not hosts:
        return written

    none = BuildOptions()
    out = {p: BuildOptions(o.force_include, o.defines, o.std if o.std in STD_CHOICES else None, o.triple)
           for p, o in cmake_build_options(builds, set(sources)).items()}
    for p, o in written.items():  # the file beside the source is the more specific: it wins
        built = out.get(p, none)
        out[p] = BuildOptions((*built.force_include, *o.force_include),
                              tuple(sorted({**dict(built.defines), **dict(o.defines)}.items())),
                              o.std or built.std, o.triple or built.triple)
    for p, std in _host_stds(hosts, sources, STD_CHOICES).items():
        built = out.get(p)
        if built is None:
            out[p] = BuildOptions(std=std)
        elif built.std != std:
            out[p] = BuildOptions(built.force_include, built.defines, std if built.std is None else None,
                                  built.triple)
    # A source others `#include` is compiled in their programs: at their version when every
    # includer has the same one (compute-samples' vme_wpp.cl, built at CL2.0, includes
    # scoreboard.cl and its atomic_int).
    by_includers = includers(sources, dirs)
    for _ in range(3):  # included in turn by an included source
        changed = False
        for p, sides in by_includers.items():
            if out.get(p, none).std is not None:
                continue
            stds = {out.get(i, none).std for i in sides}
            if len(stds) == 1 and (std := stds.pop()) is not None:
                o = out.get(p, none)
                out[p] = BuildOptions(o.force_include, o.defines, std, o.triple)
                changed = True
        if not changed:
            break
    # The sources no build names, in a project whose hosts write one version they cannot be
    # tied to (computed options): at that version (host_std.project_std).
    for p, one in _project_std(hosts, sources, STD_CHOICES).items():
        o = out.get(p, none)
        if o.std is None and p not in by_includers:  # (an included source is its includers')
            out[p] = BuildOptions(o.force_include, o.defines, one, o.triple)
    return out


def _needs(indexes: dict[Path, FileIndex], path: Path, before: tuple[str, ...], also: frozenset[str] = frozenset()) -> bool:
    """Whether a source uses a name the files read before it define, or `also` names (a
    fragment of its includer's program, not a file that stands alone and is also included)."""
    fi = indexes.get(path)
    if fi is None:
        return False
    wanted = fi.uses - fi.names - fi.macros - fi.locals
    return bool(wanted & also) or \
        any(wanted & (indexes[Path(b)].names | indexes[Path(b)].macros) for b in before if Path(b) in indexes)


def _head_names(d: _Derived, path: Path) -> frozenset[str]:
    """The names and macros the includer's text before its `#include` of `path` defines."""
    from cllint.analysis.preprocessor.includer_heads import cut_head, split_head

    parts = split_head(d.included[path][0][0])
    data = d.sources.get(Path(parts[0])) if parts is not None else None
    if parts is None or data is None:
        return frozenset()
    fi = _cached_index(cut_head(data, parts[1]))
    return frozenset(fi.names | fi.macros) if fi is not None else frozenset()


def _joined_by_hosts(programs, sources: dict[Path, bytes]) -> dict[Path, tuple[tuple[str, ...], tuple[str, int, int]]]:  # noqa: ANN001
    """Per source, the sources a host statement joins before it, and CL007's note (the first
    statement naming the source wins; a name several sources share is the one nearest the
    host, none where two are equally near)."""
    from .nearest import nearest

    by_stem: dict[str, list[Path]] = {}
    for p in sources:
        by_stem.setdefault(p.stem, []).append(p)
    out: dict[Path, tuple[tuple[str, ...], tuple[str, int, int]]] = {}
    for prog in programs:
        paths = [nearest(prog.host, by_stem[s]) if s in by_stem else None for s in prog.stems]
        if None in paths:
            continue
        for i, path in enumerate(paths):
            if i == 0 or path in out:
                continue
            before = tuple(str(p) for p in paths[:i])
            names = ", ".join(p.name for p in paths[:i])  # type: ignore[union-attr]
            out[path] = (before, (f"read after {names}, as {prog.host.name}:{prog.line} joins them into one program",
                                  -1, -1))
    return out


def configured_program(programs: Iterable[object], path: Path) -> tuple[object, int] | None:
    """The first `[[program]]` (a config.ProgramSpec) that names `path`, and its place there."""
    target = Path(os.path.normpath(Path(path).resolve()))
    for spec in programs:
        sources = [Path(os.path.normpath(p.resolve())) for p in spec.sources]  # type: ignore[attr-defined]
        if target in sources:
            return spec, sources.index(target)
    return None


def apply_configured(spec: object, place: int, options: LintOptions, settings: object) -> LintOptions:
    """`options` for the source at `place` of a configured program: the `-include` files and
    the sources before it first, its `-D`, `-I` and `-cl-std`, and the options known (an `#if`
    on a macro the options leave undefined is decided as the compiler decides it)."""
    prelude = tuple(str(p) for p in (*spec.force_include, *spec.sources[:place]))  # type: ignore[attr-defined]
    defines = dict(options.defines)
    defines.update(spec.defines)  # type: ignore[attr-defined]
    out = replace(options, prelude=(*options.prelude, *prelude), defines=tuple(sorted(defines.items())),
                  include_paths=(*options.include_paths, *(str(p) for p in spec.include)),  # type: ignore[attr-defined]
                  options_known=True)
    if spec.std is not None and getattr(settings, "std", None) is None and getattr(settings, "target", None) is None:  # type: ignore[attr-defined]
        from cllint.analysis.target import Target

        # `-cl-std` is the language version, as `--std` (issue 30): portability at it, unless
        # `features` name a device (target mode, the overrides applied to that version).
        base = Target.preset(spec.std)  # type: ignore[attr-defined]
        if out.mode == "target":
            features = getattr(settings, "features", None)
            out = replace(out, target=base.apply_overrides(features) if features else base)
        else:
            out = replace(out, target=base, std=base.version.std)
    return out
