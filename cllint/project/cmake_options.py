"""Build options a CMake build passes when it compiles OpenCL sources itself (issue 29).

A kernel library or an offline build compiles each `.cl` with a command of its own:
`add_custom_command(... COMMAND clang -x cl -cl-std=CL2.0 -include common.h -c k.cl)`, often
in a function the build calls per source. PoCL's `compile_cl_to_bc(FILENAME ...)` compiles
`${CMAKE_SOURCE_DIR}/lib/kernel/${FILENAME}` with `-include _enable_all_exts.h`; a macro sends
it each argument that `MATCHES "[.]cl$"`. Those sources are read with the options: the
force-included headers first, the `-D` values, the `-cl-std` version.

Conservative by construction: a command counts only when it compiles OpenCL (it names an OpenCL
file, says `-x cl` or `-cl-std=`, or sits in a function a caller keeps for `.cl` files); options
come from the command and from the variables its function (or file) sets outside any `if`; the
sources are the OpenCL files the command names, or those under the folder it compiles
`<folder>/${NAME}` from (only that folder's own files when it is the project's root). A function
runs in its caller's scope, so the file's top-level variables are its own too (chipStar's
`set(BITCODE_CL_COMPILE_FLAGS ... -cl-std=CL2.0)` before `function(add_opencl_bitcode ...)`), and
a parameter it compiles whole (`-c "${SOURCE}"`) is what its callers pass, read through the
`foreach` around each call (`foreach(SOURCE IN LISTS NAMES)` ... `"${CMAKE_CURRENT_SOURCE_DIR}/
${SOURCE}.cl"`).

A call of the build's own function that says `-cl-std=` in its own arguments and names its
OpenCL sources (IGC's `igc_bif_build_bc(SOURCES "${DIR}/Languages/OpenCL/IBiF_Impl.cl" ...
OPTIONS CL -cl-std=CL2.0)`) builds them with its options too, where no command says more.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Mapping
from pathlib import Path

from cllint.analysis.lazy_re import lazy

from .build_lists import _DEFINITION, _arguments, _comment_free

_COMPILED = (".cl", ".ocl", ".opencl")
_COMMAND = lazy(rb"^[ \t]*(?:add_custom_command|add_custom_target|execute_process)[ \t]*\(", re.M | re.I)
_CALL = lazy(rb"^[ \t]*([A-Za-z_]\w*)[ \t]*\(", re.M)
_VAR = lazy(r"\$\{(\w+)\}")
_WHOLE_VAR = lazy(r"^\$\{(\w+)\}$")
_TAIL_VAR = lazy(r"^(.*)/\$\{(\w+)\}$")
_STD = lazy(r"^-cl-std=(CL[0-9]\.[0-9])$")
_IDENT = lazy(r"^[A-Za-z_]\w*$")
# A command that runs a script (which may embed a source and take `-D` of its own), not a compiler.
_SCRIPT = lazy(r"CMAKE_COMMAND|python|perl|\.(?:py|sh|pl|cmake)$|^(?:sh|bash|cmake|xxd|sed|cat|cp)$", re.I)
# A caller that keeps a function for OpenCL files: `if(F MATCHES "[.]cl$")`, `"\\.cl$"`.
_CL_ARM = lazy(rb"^[ \t]*(?:else)?if[ \t]*\([^\n]*MATCHES[^\n]*cl\$", re.M | re.I)
_ARM_END = lazy(rb"^[ \t]*(?:else|elseif|endif|endforeach|endfunction|endmacro)[ \t]*\(", re.M | re.I)
_ROOT_VARS = ("CMAKE_SOURCE_DIR", "PROJECT_SOURCE_DIR", "CMAKE_HOME_DIRECTORY")


class BuildOptions:
    """What a build passes when it compiles one source."""

    __slots__ = ("force_include", "defines", "std", "triple")
    force_include: tuple[str, ...]  # absolute paths, in order
    defines: tuple[tuple[str, str], ...]
    std: str | None  # "CL2.0"
    triple: str | None  # clang's `-target` ("amdgcn-amd-amdhsa")

    __match_args__ = ("force_include", "defines", "std", "triple")

    def __init__(self, force_include: tuple[str, ...] = (), defines: tuple[tuple[str, str], ...] = (),
                 std: str | None = None, triple: str | None = None) -> None:
        self.force_include = force_include
        self.defines = defines
        self.std = std
        self.triple = triple

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(force_include={self.force_include!r}, "
                f"defines={self.defines!r}, std={self.std!r}, triple={self.triple!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.force_include, self.defines, self.std, self.triple) == \
            (other.force_include, other.defines, other.std, other.triple)

    def __hash__(self) -> int:
        return hash((self.force_include, self.defines, self.std, self.triple))


def _project_root(path: Path, build_files: Mapping[Path, bytes]) -> Path:
    """`${CMAKE_SOURCE_DIR}` as the file sees it: the outermost folder above it (its own
    included) whose CMakeLists.txt the workspace has."""
    root = path.parent
    for folder in path.parents:
        if folder / "CMakeLists.txt" in build_files:
            root = folder
    return root


def _resolve_dirs(word: str, path: Path, root: Path) -> str | None:
    """`word` with the source-folder variables replaced (None: another variable is left)."""
    here = {"CMAKE_CURRENT_LIST_DIR": str(path.parent), **{v: str(root) for v in _ROOT_VARS}}
    if path.name == "CMakeLists.txt":  # in a .cmake file it is the including folder's
        here["CMAKE_CURRENT_SOURCE_DIR"] = str(path.parent)
    out = _VAR.sub(lambda m: here.get(m.group(1), m.group(0)), word)
    return None if "${" in out else out


def _region_sets(text: bytes, start: int, end: int, skip: list[tuple[int, int]]) \
        -> dict[str, tuple[list[str], list[str]]]:
    """Per variable set in `text[start:end]` (outside the spans in `skip`): the words it is set
    to outside any `if` (`set`, then `list(APPEND)`), and every word it is set to anywhere."""
    out: dict[str, tuple[list[str], list[str]]] = {}
    depth = 0
    for m in _CALL.finditer(text, start, end):
        if any(a <= m.start() < b for a, b in skip):
            continue
        name = m.group(1).decode().lower()
        if name == "if":
            depth += 1
        elif name == "endif":
            depth = max(0, depth - 1)
        elif name in ("set", "list"):
            args = _arguments(text, m.end()) or []
            if name == "list":
                if len(args) < 2 or args[0].upper() != "APPEND":
                    continue
                args = args[1:]
            if not args:
                continue
            var, words = args[0], [w for w in args[1:] if w not in ("PARENT_SCOPE", "CACHE")]
            always, anywhere = out.setdefault(var, ([], []))
            if name == "set" and depth == 0:
                own = f"${{{var}}}"  # `set(FLAGS ${FLAGS} -x)` appends to what it was
                always[:] = [x for w in words for x in (list(always) if w == own else [w])]
            elif depth == 0:
                always.extend(words)
            anywhere.extend(words)
    return out


def _expand(words: list[str], sets: dict[str, tuple[list[str], list[str]]], anywhere: bool, depth: int = 0) \
        -> list[str]:
    out: list[str] = []
    for w in words:
        m = _WHOLE_VAR.match(w)
        if m is None or m.group(1) not in sets or depth > 3:
            out.append(w)
            continue
        out.extend(_expand(sets[m.group(1)][1 if anywhere else 0], sets, anywhere, depth + 1))
    return out


def _given(build_files: Mapping[Path, bytes], name: str, sources: set[Path] = frozenset()) \
        -> tuple[list[str], list[Path]]:
    """The OpenCL file names (no variables) calls of function `name` pass, and the paths they
    pass as `${CMAKE_CURRENT_SOURCE_DIR}/${S}.cl` inside a `foreach` over the names (literal, or
    lists set at the caller's top level outside any `if`), resolved in the caller's folder, or
    as a list the caller's `file(GLOB ...)` makes (ROCm's device library: `file(GLOB sources
    ${CMAKE_CURRENT_SOURCE_DIR}/src/*.cl)` then `opencl_bc_lib(NAME ockl SOURCES ${sources})`),
    matched against the workspace's sources."""
    call = re.compile(rb"^[ \t]*" + re.escape(name.encode()) + rb"[ \t]*\(", re.M | re.I)
    out: list[str] = []
    paths: list[Path] = []
    for path, raw in build_files.items():
        if name.encode() not in raw.lower():
            continue
        text = _comment_free(raw)
        loops: list[tuple[int, int, str, list[str]]] | None = None
        globs: dict[str, list[str]] | None = None
        for m in call.finditer(text):
            args = _arguments(text, m.end()) or []
            out.extend(a for a in args if a.lower().endswith(_COMPILED) and "$" not in a)
            if sources and any(_WHOLE_VAR.match(a) for a in args):
                if globs is None:
                    globs = _globs(text)
                root = _project_root(path, build_files)
                for a in args:
                    v = _WHOLE_VAR.match(a)
                    for pattern in globs.get(v.group(1), ()) if v is not None else ():
                        paths.extend(_globbed(pattern, path, root, sources))
            looped = [a for a in args if a.lower().endswith(_COMPILED) and "$" in a]
            if not looped:
                continue
            if loops is None:
                loops = _foreach_loops(text, _region_sets(text, 0, len(text), _definition_spans(text)))
            root = _project_root(path, build_files)
            for a in looped:
                for word in _loop_words(a, m.start(), loops):
                    r = _resolve_dirs(word, path, root)
                    if r is not None:
                        paths.append(Path(os.path.normpath(path.parent / r)))
    return list(dict.fromkeys(out)), list(dict.fromkeys(paths))


_GLOB = lazy(rb"^[ \t]*file[ \t]*\(", re.M | re.I)


def _globs(text: bytes) -> dict[str, list[str]]:
    """Per variable a `file(GLOB var pattern...)` (or `GLOB_RECURSE`) sets, its patterns."""
    out: dict[str, list[str]] = {}
    for m in _GLOB.finditer(text):
        args = _arguments(text, m.end()) or []
        if len(args) >= 3 and args[0].upper() in ("GLOB", "GLOB_RECURSE"):
            words = [a for a in args[2:] if a.upper() not in ("CONFIGURE_DEPENDS", "LIST_DIRECTORIES", "RELATIVE")]
            out.setdefault(args[1], []).extend(words)
    for _ in range(3):  # `file(GLOB sources ${cl_sources} ${ll_sources})`: another glob's patterns
        for var, patterns in out.items():
            out[var] = [q for w in patterns for q in _other_glob(w, var, out)]
    return out


def _other_glob(word: str, var: str, globs: dict[str, list[str]]) -> list[str]:
    m = _WHOLE_VAR.match(word)
    return globs.get(m.group(1), [word]) if m is not None and m.group(1) != var else [word]


def _globbed(pattern: str, path: Path, root: Path, sources: set[Path]) -> list[Path]:
    """The OpenCL sources a glob pattern of the build file at `path` matches (`*` within a folder)."""
    if not pattern.lower().endswith(_COMPILED):
        return []
    r = _resolve_dirs(pattern, path, root)
    if r is None:
        return []
    folder, _, leaf = os.path.normpath(path.parent / r).rpartition(os.sep)
    if any(c in folder for c in "*?["):
        return []
    leaf_re = re.compile(fnmatch.translate(leaf))
    return sorted(s for s in sources if str(s.parent) == folder and leaf_re.match(s.name))


_FOREACH = lazy(rb"^[ \t]*(foreach|endforeach)[ \t]*\(", re.M | re.I)


def _definition_spans(text: bytes) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _DEFINITION.finditer(text)]


def _foreach_loops(text: bytes, sets: dict[str, tuple[list[str], list[str]]]) \
        -> list[tuple[int, int, str, list[str]]]:
    """(start, end, variable, values) of each `foreach` whose values are known: `foreach(S a b)`,
    `IN ITEMS a b`, `IN LISTS X Y` and `${X}` with X set at the top level outside any `if`."""
    out: list[tuple[int, int, str, list[str]]] = []
    open_: list[tuple[int, list[str] | None]] = []
    for m in _FOREACH.finditer(text):
        if m.group(1).lower() == b"foreach":
            args = _arguments(text, m.end())
            open_.append((m.start(), args))
            continue
        if not open_:
            continue
        start, args = open_.pop()
        if not args or len(args) < 2:
            continue
        var, rest = args[0], args[1:]
        if rest[0].upper() == "IN":
            if len(rest) < 2 or rest[1].upper() not in ("LISTS", "ITEMS"):
                continue
            words = rest[2:] if rest[1].upper() == "ITEMS" else [f"${{{v}}}" for v in rest[2:]]
        elif rest[0].upper() == "RANGE":
            continue
        else:
            words = rest
        values = _expand(words, sets, anywhere=False)
        if values and not any("$" in v for v in values):
            out.append((start, m.end(), var, values))
    return out


def _loop_words(word: str, at: int, loops: list[tuple[int, int, str, list[str]]]) -> list[str]:
    """`word` with the variable of each loop around `at` replaced by each of its values."""
    words = [word]
    for start, end, var, values in loops:
        if start <= at < end and f"${{{var}}}" in word:
            words = [w.replace(f"${{{var}}}", v) for w in words for v in values]
    return words


def _cl_functions(build_files: Mapping[Path, bytes]) -> set[str]:
    """Functions (lower case) some caller calls only in an arm kept for OpenCL files."""
    out: set[str] = set()
    for raw in build_files.values():
        if b"MATCHES" not in raw and b"matches" not in raw:
            continue
        text = _comment_free(raw)
        for arm in _CL_ARM.finditer(text):
            stop = _ARM_END.search(text, arm.end())
            body = text[arm.end():stop.start() if stop else len(text)]
            out.update(m.group(1).decode().lower() for m in _CALL.finditer(body))
    return out


_ONE_SET = lazy(rb"^[ \t]*set[ \t]*\([ \t]*([A-Za-z_]\w*)[ \t]+\"?([^\s\"()$]+)\"?[ \t]*\)", re.M | re.I)


def _one_values(build_files: Mapping[Path, bytes]) -> dict[str, str]:
    """Variables every `set` of which in the workspace's build files gives the same one word (a
    default under `if (NOT DEFINED AMDGPU_TARGET_TRIPLE)`): that word."""
    seen: dict[str, set[str]] = {}
    for raw in build_files.values():
        if b"set" not in raw and b"SET" not in raw:
            continue
        for m in _ONE_SET.finditer(_comment_free(raw)):
            seen.setdefault(m.group(1).decode(), set()).add(m.group(2).decode("utf-8", "replace"))
    return {k: next(iter(v)) for k, v in seen.items() if len(v) == 1}


def _options(words: list[str], path: Path, root: Path, known_files: set[Path],
             values: Mapping[str, str] | None = None) -> BuildOptions:
    dirs: list[Path] = []
    for i, w in enumerate(words):
        d = w[2:] if w.startswith("-I") and len(w) > 2 else words[i + 1] if w == "-I" and i + 1 < len(words) else None
        if d is not None and (r := _resolve_dirs(d, path, root)) is not None:
            dirs.append(Path(os.path.normpath(path.parent / r)))
    forced: list[str] = []
    defines: dict[str, str] = {}
    std = triple = None
    for i, w in enumerate(words):
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if w in ("-include", "--include") and nxt:
            r = _resolve_dirs(nxt, path, root)
            if r is None:
                continue
            for folder in ((path.parent,) if os.path.isabs(r) else (*dirs, path.parent, root)):
                candidate = Path(os.path.normpath(folder / r))
                if candidate in known_files or candidate.is_file():
                    forced.append(str(candidate))
                    break
        elif w.startswith("-D"):
            d = w[2:] or (nxt if w == "-D" else "")
            name, eq, value = d.partition("=")
            if _IDENT.match(name) and "$" not in value and "<" not in value:
                defines[name] = value if eq else "1"
        elif m := _STD.match(w):
            std = m.group(1)
        elif w in ("-target", "--target", "-triple") and nxt:
            triple = _valued(nxt, values)
        elif w.startswith(("--target=", "-target=")):
            triple = _valued(w.partition("=")[2], values)
    return BuildOptions(tuple(dict.fromkeys(forced)), tuple(sorted(defines.items())), std, triple)


def _valued(word: str, values: Mapping[str, str] | None) -> str | None:
    """`word` with `${VAR}` of a variable of one known value in place; None if any is left."""
    if "${" in word and values:
        word = _VAR.sub(lambda m: values.get(m.group(1), m.group(0)), word)
    return None if "$" in word or not word else word


def _is_opencl_compile(words: list[str], in_cl_function: bool) -> bool:
    if not words or _SCRIPT.search(words[0]):
        return False  # `${CMAKE_COMMAND} -DIN=k.cl -P embed.cmake`: its `-D` are the script's
    if in_cl_function:
        return True
    for i, w in enumerate(words):
        if w in ("-xcl", "-cl-std") or w.startswith("-cl-std=") or (w == "-x" and words[i + 1:i + 2] == ["cl"]):
            return True
        if w.lower().endswith(_COMPILED):
            return True
    return False


def _compiled_sources(words: list[str], path: Path, root: Path, sources: set[Path], given: list[str],
                      given_paths: list[Path] = ()) -> list[Path]:
    """The OpenCL files a command compiles: those it names, else those under the folder it
    compiles `<folder>/${NAME}` from: the OpenCL files its function's callers name there
    (`given`), or without any, every one under it; a parameter compiled whole (`-c ${SOURCE}`)
    is the paths its callers pass (`given_paths`)."""
    named: list[Path] = []
    folders: list[Path] = []
    if given_paths and any(_WHOLE_VAR.match(w) for w in words):
        named.extend(p for p in given_paths if p in sources)
    for w in words:
        r = _resolve_dirs(w, path, root)
        if r is not None and r.lower().endswith(_COMPILED):
            named.extend(_source_at(r, path, sources))
            continue
        m = _TAIL_VAR.match(w)
        if m is not None and (r := _resolve_dirs(m.group(1), path, root)) is not None and r:
            folders.append(Path(os.path.normpath(path.parent / r)))
    if named:
        return named
    out: list[Path] = []
    for folder in dict.fromkeys(folders):
        if root not in (folder, *folder.parents):
            continue  # outside the project
        if given:
            out.extend(t for arg in given if (t := Path(os.path.normpath(folder / arg))) in sources)
        elif folder == root:  # `${CMAKE_SOURCE_DIR}/${NAME}`: the root's own files, not the whole tree
            out.extend(s for s in sources if s.parent == folder)
        else:
            out.extend(s for s in sources if folder in s.parents)
    return out


def cmake_build_options(build_files: Mapping[Path, bytes], sources: set[Path]) -> dict[Path, BuildOptions]:
    """Per OpenCL source a CMake command compiles, the options it passes."""
    found: dict[Path, BuildOptions] = {}
    cl_functions: set[str] | None = None
    given_to: dict[str, tuple[list[str], list[Path]]] = {}  # function -> the OpenCL files its callers name
    values: dict[str, str] | None = None  # variables of one value workspace-wide, once asked
    known_files = set(build_files)
    for path in sorted(build_files):
        raw = build_files[path]
        if b"COMMAND" not in raw and b"command" not in raw:
            continue
        text = _comment_free(raw)
        root = _project_root(path, build_files)
        definitions = [(m.start(), m.end(), m.group(1).decode().lower()) for m in _DEFINITION.finditer(text)]
        file_sets: dict[str, tuple[list[str], list[str]]] | None = None
        for m in _COMMAND.finditer(text):
            args = _arguments(text, m.end())
            if not args or "COMMAND" not in args:
                continue
            words = args[args.index("COMMAND") + 1:]
            owner = next(((a, b, n) for a, b, n in definitions if a <= m.start() < b), None)
            if file_sets is None:
                file_sets = _region_sets(text, 0, len(text), [(a, b) for a, b, _ in definitions])
            if owner is not None:
                # a function runs in its caller's scope: the file's top-level variables, less
                # those it sets itself (`set(FLAGS -x cl -cl-std=CL2.0)` before the definition)
                sets = {**file_sets, **_region_sets(text, owner[0], m.start(), [])}
            else:
                sets = file_sets
            in_cl = False
            if owner is not None:
                if cl_functions is None:
                    cl_functions = _cl_functions(build_files)
                in_cl = owner[2] in cl_functions
            options_words = _expand(words, sets, anywhere=False)
            if not _is_opencl_compile(options_words, in_cl):
                continue
            if values is None:
                values = _one_values(build_files)
            options = _options(options_words, path, root, known_files, values)
            if options == BuildOptions():
                continue
            given: list[str] = []
            given_paths: list[Path] = []
            if owner is not None:
                if owner[2] not in given_to:
                    given_to[owner[2]] = _given(build_files, owner[2], sources)
                given, given_paths = given_to[owner[2]]
            for source in _compiled_sources(_expand(words, sets, anywhere=True), path, root, sources, given,
                                            given_paths):
                # Several builds of one source (PoCL's bitcode and MLIR ones): read as the one that
                # force-includes most. Never a mix: a header dropped from a list can change what
                # the rest means (PoCL's `_kernel.h` ends disabling every extension, which the
                # next `-include _enable_all_exts.h` turns back on).
                if source not in found or len(options.force_include) > len(found[source].force_include):
                    found[source] = options
    for source, options in _keyword_calls(build_files, sources).items():
        found.setdefault(source, options)  # a command of the build's own says more
    return {p: o for p, o in found.items() if o != BuildOptions()}


# Calls that only set variables, test or print: never a build of the files they name.
_NOT_BUILDS = frozenset({"set", "list", "string", "option", "if", "elseif", "while", "foreach", "message",
                         "add_custom_command", "add_custom_target", "execute_process", "function", "macro",
                         "install", "file", "configure_file"})


def _keyword_calls(build_files: Mapping[Path, bytes], sources: set[Path]) -> dict[Path, BuildOptions]:
    """A call of the build's own function that names its OpenCL sources and says `-cl-std=` in
    its own arguments (IGC's `igc_bif_build_bc(SOURCES ".../IBiF_Impl.cl" ... OPTIONS CL
    -cl-std=CL2.0)`): those sources are built with the call's `-cl-std`, `-D` and `-include`.
    A source named under a variable set elsewhere (`${SRC_DIR}/lib/impl.cl`) is the one source
    of the workspace whose path ends so."""
    found: dict[Path, BuildOptions] = {}
    known_files = set(build_files)
    for path in sorted(build_files):
        raw = build_files[path]
        if b"-cl-std=" not in raw:
            continue
        text = _comment_free(raw)
        root = _project_root(path, build_files)
        sets: dict[str, tuple[list[str], list[str]]] | None = None
        for m in _CALL.finditer(text):
            if m.group(1).decode().lower() in _NOT_BUILDS:
                continue
            args = _arguments(text, m.end())
            if not args or not any(_STD.match(a) for a in args):
                continue
            if sets is None:
                sets = _region_sets(text, 0, len(text), [])
            words = [_substitute(w, sets) for w in _expand(args, sets, anywhere=False)]
            options = _options(words, path, root, known_files)
            for source in _named_sources(words, path, root, sources):
                found.setdefault(source, options)
    return found


def _substitute(word: str, sets: dict[str, tuple[list[str], list[str]]]) -> str:
    """`${SRC_DIR}/impl.cl` with the file's one-word variables (`set(SRC_DIR ".../lib")`) in place."""
    def one(m: re.Match[str]) -> str:
        got = sets.get(m.group(1))
        return got[0][0] if got is not None and len(got[0]) == 1 and "${" + m.group(1) + "}" not in got[0][0] \
            else m.group(0)
    return _VAR.sub(one, word) if "${" in word else word


def _source_at(resolved: str, path: Path, sources: set[Path]) -> list[Path]:
    """The workspace source a resolved word names (relative to the build file's folder), if any."""
    target = Path(os.path.normpath(path.parent / resolved))
    return [target] if target in sources else []


def _named_sources(words: list[str], path: Path, root: Path, sources: set[Path]) -> list[Path]:
    out: list[Path] = []
    for w in words:
        if not w.lower().endswith(_COMPILED):
            continue
        r = _resolve_dirs(w, path, root)
        if r is not None:
            out.extend(_source_at(r, path, sources))
            continue
        tail = _VAR.sub("", w).lstrip("/")  # `${SRC_DIR}/lib/impl.cl` -> `lib/impl.cl`
        if "$" in tail or "/" not in tail:
            continue  # a bare name under a variable could be any folder's
        ends = [s for s in sources if s.as_posix().endswith("/" + tail)]
        if len(ends) == 1:
            out.append(ends[0])
    return out
