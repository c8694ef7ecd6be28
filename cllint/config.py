"""Project configuration: `.cllint.toml` or `[tool.cllint]` in `pyproject.toml`.

Shared by the CLI and the server. The search walks up from each file's directory; in each
directory `.cllint.toml` wins over `pyproject.toml`, and a `pyproject.toml` without a
`[tool.cllint]` table is skipped. Command-line options win over the file (`merge`).
Every problem is a `ConfigError` whose `str()` reads `path:line: message`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from cllint.analysis.records import SlotRecord, replace
from cllint.analysis.features import KNOWN_VERSIONS, Version
from cllint.analysis.target import Target, TargetError
from cllint.analysis.lazy_re import lazy

if TYPE_CHECKING:
    import tomllib

CONFIG_NAME = ".cllint.toml"
PYPROJECT = "pyproject.toml"
SECTION = "tool.cllint"

# kebab-case keys, as ruff spells them; the values map onto Settings fields.
KEYS = (
    "std",
    "target",
    "features",
    "include",
    "define",
    "select",
    "ignore",
    "extend-select",
    "per-file-ignores",
    "exclude",
    "preview",
    "program",
    "launch",
)
_DEVICE = lazy(r"^device:(\d+)$")
_IDENT = lazy(r"^[A-Za-z_][A-Za-z0-9_]*$")
# A `-D` name: `NAME`, or `NAME(a, b)` / `NAME(a, ...)` for a function-like macro.
_PARAM = r"\s*(?:[A-Za-z_][A-Za-z0-9_]*|\.\.\.)\s*"
_DEFINE_NAME = lazy(rf"^[A-Za-z_][A-Za-z0-9_]*(?:\((?:{_PARAM}(?:,{_PARAM})*)?\))?$")


def is_define_name(name: str) -> bool:
    """What `-D NAME=...` may name: an identifier, or one with a parameter list."""
    return _DEFINE_NAME.match(name) is not None
STD_CHOICES = tuple(v.std for v in KNOWN_VERSIONS)


class ConfigError(Exception):
    """A configuration file cannot be used; `line` is 1-based or None when unknown."""

    def __init__(self, path: Path | str, line: int | None, message: str) -> None:
        super().__init__(message)
        self.path = Path(path)
        self.line = line
        self.message = message

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else str(self.path)
        return f"{where}: {self.message}"


class Settings:
    std: str | None  # "CL1.2": the source's OpenCL C version (portability mode at it, issue 30)
    target: str | None  # a preset name or "device:N"
    features: str | None  # clang-style overrides, "+__opencl_c_fp64,-cl_khr_fp16"
    include: list[Path]  # absolute, or relative to the cwd (CLI)
    define: dict[str, str]
    select: list[str] | None  # None: the default rule selection
    ignore: list[str]
    extend_select: list[str]
    per_file_ignores: dict[str, list[str]]  # glob -> codes
    exclude: list[str]  # globs
    preview: bool | None  # preview rules are opt-in, as in ruff
    programs: list[ProgramSpec]  # `[[program]]`: how hosts build
    launches: list[LaunchSpec]  # `[[launch]]`: how hosts launch kernels
    source: Path | None  # the configuration file these came from

    __match_args__ = ("std", "target", "features", "include", "define", "select", "ignore", "extend_select",
                      "per_file_ignores", "exclude", "preview", "programs", "source", "launches")

    def __init__(
        self,
        std: str | None = None,
        target: str | None = None,
        features: str | None = None,
        include: list[Path] | None = None,
        define: dict[str, str] | None = None,
        select: list[str] | None = None,
        ignore: list[str] | None = None,
        extend_select: list[str] | None = None,
        per_file_ignores: dict[str, list[str]] | None = None,
        exclude: list[str] | None = None,
        preview: bool | None = None,
        programs: list[ProgramSpec] | None = None,
        source: Path | None = None,
        launches: list[LaunchSpec] | None = None,
    ) -> None:
        self.std = std
        self.target = target
        self.features = features
        self.include = [] if include is None else include
        self.define = {} if define is None else define
        self.select = select
        self.ignore = [] if ignore is None else ignore
        self.extend_select = [] if extend_select is None else extend_select
        self.per_file_ignores = {} if per_file_ignores is None else per_file_ignores
        self.exclude = [] if exclude is None else exclude
        self.preview = preview
        self.programs = [] if programs is None else programs
        self.source = source
        self.launches = [] if launches is None else launches

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"std={self.std!r}, " f"target={self.target!r}, "
                f"features={self.features!r}, " f"include={self.include!r}, " f"define={self.define!r}, "
                f"select={self.select!r}, " f"ignore={self.ignore!r}, "
                f"extend_select={self.extend_select!r}, " f"per_file_ignores={self.per_file_ignores!r}, "
                f"exclude={self.exclude!r}, " f"preview={self.preview!r}, " f"programs={self.programs!r}, "
                f"source={self.source!r}, " f"launches={self.launches!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.std, self.target, self.features, self.include, self.define, self.select, self.ignore,
                self.extend_select, self.per_file_ignores, self.exclude, self.preview, self.programs,
                self.source, self.launches)
        theirs = (other.std, other.target, other.features, other.include, other.define, other.select,
                  other.ignore, other.extend_select, other.per_file_ignores, other.exclude, other.preview,
                  other.programs, other.source, other.launches)
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable


class ProgramSpec:
    """One `[[program]]`: ordered sources (absolute paths, globs expanded in order) and the
    options string the host gives `clBuildProgram`, read into its parts."""

    __slots__ = ("sources", "defines", "include", "force_include", "std", "line")
    sources: tuple[Path, ...]
    defines: tuple[tuple[str, str], ...]
    include: tuple[Path, ...]
    force_include: tuple[Path, ...]
    std: str | None
    line: int | None

    __match_args__ = ("sources", "defines", "include", "force_include", "std", "line")

    def __init__(
        self,
        sources: tuple[Path, ...],
        defines: tuple[tuple[str, str], ...] = (),
        include: tuple[Path, ...] = (),
        force_include: tuple[Path, ...] = (),
        std: str | None = None,
        line: int | None = None,
    ) -> None:
        self.sources = sources
        self.defines = defines
        self.include = include
        self.force_include = force_include
        self.std = std
        self.line = line

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"sources={self.sources!r}, " f"defines={self.defines!r}, "
                f"include={self.include!r}, " f"force_include={self.force_include!r}, " f"std={self.std!r}, "
                f"line={self.line!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.sources, self.defines, self.include, self.force_include, self.std, self.line)
        theirs = (other.sources, other.defines, other.include, other.force_include, other.std, other.line)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.sources, self.defines, self.include, self.force_include, self.std, self.line))


class LaunchSpec(SlotRecord):
    """One `[[launch]]`: how the host launches a kernel (`kernel`, or every kernel of the
    sources), for projects whose host code cllint does not read. `local` is the work-group size
    and `groups` the number of work-groups (from `global` / `local` where `global` is given),
    each three dimensions wide, or None where not stated; `sources` is empty for every file the
    configuration covers."""

    __slots__ = ("kernel", "sources", "local", "groups", "line")
    kernel: str | None
    sources: tuple[Path, ...]
    local: tuple[int, int, int] | None
    groups: tuple[int, int, int] | None
    line: int | None

    __match_args__ = ("kernel", "sources", "local", "groups", "line")

    def __init__(self, kernel: str | None = None, sources: tuple[Path, ...] = (),
                 local: tuple[int, int, int] | None = None, groups: tuple[int, int, int] | None = None,
                 line: int | None = None) -> None:
        self.kernel = kernel
        self.sources = sources
        self.local = local
        self.groups = groups
        self.line = line


def declared_launches(settings: Settings, path: Path
                      ) -> tuple[tuple[str, tuple[int, int, int] | None, tuple[int, int, int] | None], ...]:
    """The `[[launch]]` entries that cover `path`, as `LintOptions.launches` holds them:
    (kernel, "" for every kernel; work-group size; number of work-groups)."""
    if not settings.launches:
        return ()
    target = Path(os.path.normpath(Path(path).resolve()))
    out = []
    for spec in settings.launches:
        if spec.sources and target not in {Path(os.path.normpath(p.resolve())) for p in spec.sources}:
            continue
        out.append((spec.kernel or "", spec.local, spec.groups))
    return tuple(out)


# Options of `clBuildProgram` that change nothing cllint checks (the OpenCL API's list).
_QUIET_OPTIONS = frozenset({
    "-cl-mad-enable", "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations", "-cl-finite-math-only",
    "-cl-single-precision-constant", "-cl-denorms-are-zero", "-cl-fp32-correctly-rounded-divide-sqrt",
    "-cl-opt-disable", "-cl-kernel-arg-info", "-cl-uniform-work-group-size", "-cl-no-subgroup-ifp",
    "-w", "-Werror", "-g", "-cl-strict-aliasing",
})


# -- discovery ----------------------------------------------------------------------------


def find_config(start: Path) -> Path | None:
    """The nearest configuration file for `start` (a file or a directory), or None.

    A `pyproject.toml` that cannot be parsed stops the search with a ConfigError only when
    it mentions cllint; otherwise it cannot be ours and is skipped.
    """
    here = Path(os.path.abspath(start))
    if not here.is_dir():
        here = here.parent
    for folder in (here, *here.parents):
        candidate = folder / CONFIG_NAME
        if candidate.is_file():
            return candidate
        pyproject = folder / PYPROJECT
        if pyproject.is_file() and _pyproject_has_section(pyproject):
            return pyproject
    return None


def _pyproject_has_section(path: Path) -> bool:
    text = _read(path)
    if "cllint" not in text:
        return False  # not ours, whatever it holds: not parsed (a `\u`-escaped key aside)
    import tomllib  # only for a pyproject.toml that mentions cllint: ~2 ms of start-up otherwise

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _toml_error(path, exc) from None  # (it mentions cllint)
    tool = data.get("tool")
    return isinstance(tool, dict) and "cllint" in tool


# -- loading ------------------------------------------------------------------------------


def load_config(path: Path, valid_code: Callable[[str], bool] | None = None) -> Settings:
    """Read and validate one configuration file; `valid_code` judges rule codes and prefixes."""
    import tomllib

    path = Path(path)
    text = _read(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _toml_error(path, exc) from None
    in_pyproject = path.name == PYPROJECT
    if in_pyproject:
        tool = data.get("tool", {})
        table = tool.get("cllint", {}) if isinstance(tool, dict) else {}
        if not isinstance(table, dict):
            raise ConfigError(path, _Lines(text, True).key("cllint"), "'tool.cllint' must be a table")
    else:
        table = data
    return _Reader(path, text, in_pyproject, valid_code).settings(table)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ConfigError(path, None, "file is not valid UTF-8") from None
    except OSError as exc:
        raise ConfigError(path, None, f"cannot read file: {exc.strerror or exc}") from None


def _toml_error(path: Path, exc: tomllib.TOMLDecodeError) -> ConfigError:
    text = str(exc)
    m = re.search(r"\s*\(at line (\d+), column (\d+)\)\s*$", text)
    line = int(m.group(1)) if m else None
    message = text[: m.start()] if m else text
    if m:
        message += f" (column {m.group(2)})"
    message = message[:1].lower() + message[1:]
    return ConfigError(path, line, f"invalid TOML: {message}")


class _Lines:
    """Finds the line of a key by scanning the text (tomllib does not keep positions)."""

    def __init__(self, text: str, in_pyproject: bool) -> None:
        self.lines = text.splitlines()
        self.prefix = SECTION if in_pyproject else ""

    def key(self, key: str, value: str | None = None) -> int | None:
        """1-based line of `key` in our table (or of `value` quoted after it), else None."""
        found: int | None = None
        table = ""
        for number, raw in enumerate(self.lines, 1):
            line = raw.strip()
            header = re.match(r"^\[\[?\s*([^\]]+?)\s*\]\]?", line)
            if header:
                table = re.sub(r"\s*\.\s*", ".", header.group(1)).replace('"', "").replace("'", "")
                if table == _join(self.prefix, key) or table.startswith(_join(self.prefix, key) + "."):
                    found = number
                    break
                continue
            if table != self.prefix and not (self.prefix and table == "tool" and "cllint" in line):
                continue
            if re.match(rf"^(?:cllint\s*\.\s*)?[\"']?{re.escape(key)}[\"']?\s*[=.]", line):
                found = number
                break
        if found is None or value is None:
            return found
        quoted = re.compile(rf"[\"']{re.escape(value)}[\"']")
        for number in range(found, len(self.lines) + 1):
            if quoted.search(self.lines[number - 1]):
                return number
        return found


def _first_bad(overrides: str, message: str) -> str | None:
    """The override token a TargetError message quotes first, to find its line."""
    m = re.search(r"'([^']+)'", message)
    if not m:
        return None
    for raw in overrides.split(","):
        token = raw.strip()
        if token.lstrip("+-").strip() == m.group(1):
            return token
    return None


def _build_options(text: str, base: Path, sources: list[Path],
                   fail: Callable[[str, str | None], ConfigError]) -> ProgramSpec:
    """`clBuildProgram`'s options string, as clang reads it (`-D`, `-I`, `-include`, `-cl-std`);
    an option clang would reject is an error on its line."""
    import shlex

    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise fail(f"cannot read the options of [[program]]: {exc}", "options") from None
    defines: list[tuple[str, str]] = []
    include: list[Path] = []
    force: list[Path] = []
    std: str | None = None
    i = 0
    while i < len(words):
        w = words[i]

        def value() -> str:
            nonlocal i
            if i + 1 >= len(words):
                raise fail(f"option '{w}' needs a value in [[program]] options", w)
            i += 1
            return words[i]

        if w.startswith("-D"):
            d = w[2:] or value()
            name, eq, val = d.partition("=")
            macro = name.split("(")[0]
            if not is_define_name(name):
                raise fail(f"'-D {d}': '{name if _IDENT.match(macro) else macro}' is not a macro name", d)
            defines.append((name, val if eq else "1"))
        elif w.startswith("-I"):
            include.append(Path(os.path.normpath(base / (w[2:] or value()))))
        elif w in ("-include", "--include"):
            f = Path(os.path.normpath(base / value()))
            if not f.is_file():
                raise fail(f"'-include {words[i]}': file not found", words[i])
            force.append(f)
        elif w.startswith("-cl-std="):
            v = w.split("=", 1)[1]
            if v not in STD_CHOICES:
                raise fail(f"'{w}': expected one of {', '.join('-cl-std=' + c for c in STD_CHOICES)}", w)
            std = v
        elif w == "-cl-fast-relaxed-math":
            defines.append(("__FAST_RELAXED_MATH__", "1"))
        elif w not in _QUIET_OPTIONS and not w.startswith("-cl-ext="):
            raise fail(f"unknown build option '{w}' in [[program]] options (clang would reject it)", w)
        i += 1
    return ProgramSpec(tuple(sources), tuple(defines), tuple(include), tuple(force), std)


def _join(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key


def _type_name(value: object) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a float"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    import datetime  # loaded with tomllib already: TOML values only come from it

    if isinstance(value, (datetime.date, datetime.time)):
        return "a date-time"
    return type(value).__name__


class _Reader:
    def __init__(
        self, path: Path, text: str, in_pyproject: bool, valid_code: Callable[[str], bool] | None
    ) -> None:
        self.path = path
        self.lines = _Lines(text, in_pyproject)
        self.where = f" in [{SECTION}]" if in_pyproject else ""
        self.valid_code = valid_code

    def fail(self, key: str, message: str, value: str | None = None) -> ConfigError:
        return ConfigError(self.path, self.lines.key(key, value), message)

    def settings(self, table: dict[str, object]) -> Settings:
        for key in table:
            if key not in KEYS:
                import difflib  # only for an unknown key

                hint = difflib.get_close_matches(key.replace("_", "-"), KEYS, n=1, cutoff=0.6)
                suggestion = f" (did you mean '{hint[0]}'?)" if hint else ""
                raise self.fail(key, f"unknown option '{key}'{self.where}{suggestion}")
        s = Settings(source=self.path)
        if "std" in table:
            s.std = self.std(table["std"])
        if "target" in table:
            s.target = self.target(table["target"])
        if "features" in table:
            s.features = self.features(table["features"])
        if "include" in table:
            base = self.path.parent
            s.include = [Path(os.path.normpath(base / p)) for p in self.strings("include", table["include"])]
        if "define" in table:
            s.define = self.define(table["define"])
        for key in ("select", "ignore", "extend-select"):
            if key in table:
                codes = self.codes(key, table[key])
                setattr(s, key.replace("-", "_"), codes)
        if "per-file-ignores" in table:
            s.per_file_ignores = self.per_file_ignores(table["per-file-ignores"])
        if "exclude" in table:
            s.exclude = self.strings("exclude", table["exclude"])
        if "program" in table:
            s.programs = self.programs(table["program"])
        if "launch" in table:
            s.launches = self.launches(table["launch"])
        if "preview" in table:
            if not isinstance(table["preview"], bool):
                raise self.fail("preview", f"option 'preview' must be a boolean, not {_type_name(table['preview'])}")
            s.preview = table["preview"]
        self.check_target(s, table)
        return s

    def programs(self, value: object) -> list[ProgramSpec]:
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.fail("program", "'program' must be an array of tables ([[program]])")
        headers = [n for n, raw in enumerate(self.lines.lines, 1)
                   if re.match(r"^\[\[\s*(?:tool\s*\.\s*cllint\s*\.\s*)?program\s*\]\]", raw.strip())]
        return [self.program(t, headers[i] if i < len(headers) else self.lines.key("program"))
                for i, t in enumerate(value)]

    def program(self, table: dict[str, object], line: int | None) -> ProgramSpec:
        def fail(message: str, needle: str | None = None) -> ConfigError:
            at = line
            if needle is not None and line is not None:
                for n in range(line, len(self.lines.lines) + 1):
                    if needle in self.lines.lines[n - 1]:
                        at = n
                        break
            return ConfigError(self.path, at, message)

        for key in table:
            if key not in ("sources", "options"):
                raise fail(f"unknown key '{key}' in [[program]] (expected 'sources' and 'options')", key)
        raw = table.get("sources")
        if not isinstance(raw, list) or not raw or not all(isinstance(v, str) for v in raw):
            raise fail("[[program]] needs 'sources', a non-empty array of paths or globs", "sources")
        base = self.path.parent
        sources: list[Path] = []
        for pattern in raw:
            if any(c in pattern for c in "*?["):
                matches = sorted(p for p in base.glob(pattern) if p.is_file())
                if not matches:
                    raise fail(f"no file matches '{pattern}' in [[program]] sources", pattern)
                sources += [Path(os.path.normpath(m)) for m in matches]
            else:
                path = Path(os.path.normpath(base / pattern))
                if not path.is_file():
                    raise fail(f"source '{pattern}' of [[program]] not found", pattern)
                sources.append(path)
        options = table.get("options", "")
        if not isinstance(options, str):
            raise fail(f"'options' of [[program]] must be a string, not {_type_name(options)}", "options")
        return _build_options(options, base, sources, fail)

    def launches(self, value: object) -> list[LaunchSpec]:
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.fail("launch", "'launch' must be an array of tables ([[launch]])")
        headers = [n for n, raw in enumerate(self.lines.lines, 1)
                   if re.match(r"^\[\[\s*(?:tool\s*\.\s*cllint\s*\.\s*)?launch\s*\]\]", raw.strip())]
        return [self.launch(t, headers[i] if i < len(headers) else self.lines.key("launch"))
                for i, t in enumerate(value)]

    def launch(self, table: dict[str, object], line: int | None) -> LaunchSpec:
        def fail(message: str, needle: str | None = None) -> ConfigError:
            at = line
            if needle is not None and line is not None:
                for n in range(line, len(self.lines.lines) + 1):
                    if re.match(rf"^\s*{re.escape(needle)}\s*=", self.lines.lines[n - 1]):
                        at = n
                        break
            return ConfigError(self.path, at, message)

        def sizes(key: str) -> tuple[int, int, int] | None:
            raw = table.get(key)
            if raw is None:
                return None
            nums = [raw] if isinstance(raw, int) and not isinstance(raw, bool) else raw
            if not isinstance(nums, list) or not 1 <= len(nums) <= 3 \
                    or not all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in nums):
                raise fail(f"'{key}' of [[launch]] must be a positive integer or an array of one to three",
                           key)
            return (*nums, *[1] * (3 - len(nums)))  # type: ignore[return-value]

        keys = ("kernel", "sources", "local", "global", "groups")
        for key in table:
            if key not in keys:
                raise fail(f"unknown key '{key}' in [[launch]] (expected {', '.join(repr(k) for k in keys)})", key)
        kernel = table.get("kernel")
        if kernel is not None and (not isinstance(kernel, str) or not _IDENT.match(kernel)):
            raise fail("'kernel' of [[launch]] must be a kernel's name", "kernel")
        base = self.path.parent
        sources: list[Path] = []
        raw = table.get("sources", [])
        if not isinstance(raw, list) or not all(isinstance(v, str) for v in raw):
            raise fail("'sources' of [[launch]] must be an array of paths or globs", "sources")
        for pattern in raw:
            if any(c in pattern for c in "*?["):
                matches = sorted(p for p in base.glob(pattern) if p.is_file())
                if not matches:
                    raise fail(f"no file matches '{pattern}' in [[launch]] sources", "sources")
                sources += [Path(os.path.normpath(m)) for m in matches]
            else:
                path = Path(os.path.normpath(base / pattern))
                if not path.is_file():
                    raise fail(f"source '{pattern}' of [[launch]] not found", "sources")
                sources.append(path)
        local, grid, groups = sizes("local"), sizes("global"), sizes("groups")
        if grid is not None and groups is not None:
            raise fail("give either 'groups' or 'global' in [[launch]], not both", "global")
        if grid is not None:
            if local is None:
                raise fail("'global' of [[launch]] needs 'local' (or give 'groups')", "global")
            if any(g % n for g, n in zip(grid, local)):
                raise fail(f"'global' {list(grid)} of [[launch]] is not a multiple of 'local' {list(local)}",
                           "global")
            groups = (grid[0] // local[0], grid[1] // local[1], grid[2] // local[2])
        return LaunchSpec(kernel, tuple(sources), local, groups, line)

    def check_target(self, s: Settings, table: dict[str, object]) -> None:
        """Build the target once so bad combinations and overrides point at their line."""
        base_settings = replace(s, features=None)
        try:
            # A device is unknown until run time: check overrides against bare 3.0.
            base = build_target(base_settings, device_reader=lambda index: Target.preset("CL3.0"))
        except TargetError as exc:
            raise self.fail("std" if "std" in table else "target", str(exc)) from None
        if s.features:
            try:
                base.apply_overrides(s.features)
            except TargetError as exc:
                raise self.fail("features", str(exc), _first_bad(s.features, str(exc))) from None

    def string(self, key: str, value: object) -> str:
        if not isinstance(value, str):
            raise self.fail(key, f"option '{key}' must be a string, not {_type_name(value)}")
        return value

    def strings(self, key: str, value: object) -> list[str]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            got = _type_name(value) if not isinstance(value, list) else "an array with non-strings"
            raise self.fail(key, f"option '{key}' must be an array of strings, not {got}")
        return list(value)

    def std(self, value: object) -> str:
        text = self.string("std", value)
        try:
            std = Version.parse(text).std
        except ValueError:
            std = None
        if std not in STD_CHOICES:
            raise self.fail("std", f"invalid value '{text}' for 'std' (expected one of {', '.join(STD_CHOICES)})")
        return std

    def target(self, value: object) -> str:
        text = self.string("target", value).strip()
        if _DEVICE.match(text):
            return text
        try:
            return Target.preset(text).name
        except TargetError as exc:
            raise self.fail("target", str(exc)) from None

    def features(self, value: object) -> str:
        if isinstance(value, list):
            return ",".join(self.strings("features", value))
        return self.string("features", value)

    def define(self, value: object) -> dict[str, str]:
        pairs: list[tuple[str, str]] = []
        if isinstance(value, dict):
            for name, v in value.items():
                if isinstance(v, bool) or not isinstance(v, (str, int, float)):
                    raise self.fail("define", f"value of macro '{name}' in 'define' must be a string or number, not {_type_name(v)}", name)
                pairs.append((name, str(v)))
        else:
            for item in self.strings("define", value):
                name, _, text = item.partition("=")
                pairs.append((name.strip(), text if "=" in item else "1"))
        for name, _ in pairs:
            if not is_define_name(name):
                raise self.fail("define", f"invalid macro name '{name}' in 'define'", name or None)
        return dict(pairs)

    def codes(self, key: str, value: object) -> list[str]:
        codes = [c.strip() for c in self.strings(key, value)]
        for code in codes:
            if self.valid_code is not None and not self.valid_code(code):
                raise self.fail(key, f"unknown rule code or prefix '{code}' in '{key}'", code)
        return codes

    def per_file_ignores(self, value: object) -> dict[str, list[str]]:
        key = "per-file-ignores"
        if not isinstance(value, dict):
            raise self.fail(key, f"option '{key}' must be a table of glob = [codes], not {_type_name(value)}")
        out: dict[str, list[str]] = {}
        for glob, codes in value.items():
            out[glob] = self.codes(key, [codes] if isinstance(codes, str) else codes)
        return out


# -- combining ----------------------------------------------------------------------------


def merge(settings: Settings, cli_overrides: Mapping[str, object]) -> Settings:
    """Settings with command-line values applied; keys are Settings field names, None = unset.

    The command line replaces `std`, `target` and `select` (a CLI `std` or `target` replaces
    both file values), appends its `features` overrides after the file's (so they win name by
    name), extends `include`, `ignore`, `extend_select`, `exclude`, `per_file_ignores`, and
    its `define` values win per macro.
    """
    fields = set(Settings.__match_args__)
    given = {k: v for k, v in cli_overrides.items() if v is not None}
    unknown = set(given) - fields
    if unknown:
        raise ValueError(f"unknown settings field(s): {', '.join(sorted(unknown))}")
    out = replace(
        settings,
        include=list(settings.include),
        define=dict(settings.define),
        ignore=list(settings.ignore),
        extend_select=list(settings.extend_select),
        per_file_ignores={k: list(v) for k, v in settings.per_file_ignores.items()},
        exclude=list(settings.exclude),
    )
    if "std" in given or "target" in given:
        out.std = given.get("std")  # type: ignore[assignment]
        out.target = given.get("target")  # type: ignore[assignment]
    if "features" in given:
        out.features = ",".join(f for f in (settings.features, str(given["features"])) if f)
    if "select" in given:
        out.select = list(given["select"])  # type: ignore[call-overload]
    for name in ("include", "ignore", "extend_select", "exclude"):
        if name in given:
            values = list(given[name])  # type: ignore[call-overload]
            if name == "include":
                values = [Path(v) for v in values]
            getattr(out, name).extend(values)
    if "define" in given:
        out.define.update(given["define"])  # type: ignore[call-overload]
    if "per_file_ignores" in given:
        for glob, codes in given["per_file_ignores"].items():  # type: ignore[attr-defined]
            out.per_file_ignores.setdefault(glob, []).extend(codes)
    if given.get("preview"):  # `--preview` turns it on; without the flag the file decides
        out.preview = True
    if "source" in given:
        out.source = given["source"]  # type: ignore[assignment]
    return out


def build_target(
    settings: Settings, device_reader: Callable[[int], Target] | None = None
) -> Target:
    """The target these settings describe: the base (`target`, else `std`, else CL1.2, the
    compiler default when no -cl-std is given) with the `features` overrides applied.

    `device_reader(index)` turns `device:N` into a Target (it needs pyopencl, which lives with
    the device runner). Raises TargetError for unknown names or contradictory settings.
    """
    base: Target
    if settings.target and (m := _DEVICE.match(settings.target)):
        if settings.std:
            raise TargetError(f"'std' cannot be combined with device target '{settings.target}'")
        if device_reader is None:
            raise TargetError(f"target '{settings.target}' needs a device, and no device reader is available")
        base = device_reader(int(m.group(1)))
    elif settings.target:
        base = Target.preset(settings.target)
        if settings.std and Version.parse(settings.std) != base.version:
            raise TargetError(f"'std' {settings.std} contradicts target '{base.name}'")
    else:
        base = Target.preset(settings.std or "CL1.2")
    return base.apply_overrides(settings.features) if settings.features else base


def lint_options(settings: Settings, device_reader: Callable[[int], Target] | None = None,
                 extra_ignore: list[str] | None = None):
    """The analysis options these settings describe; shared by `cllint check` and the
    server so that both lint a file the same way. Naming a device (`target`, `device:N` or
    `features`) selects target mode; otherwise portability mode, at the `std` version when one
    is given: `std` is the language the source is written in, as clang's `-cl-std`, not a
    device (issue 30; `target = "CL2.0"` is the old reading of `std = "CL2.0"`)."""
    from cllint.analysis.lint import LintOptions

    target_mode = bool(settings.target or settings.features)
    return LintOptions(
        target=build_target(settings, device_reader),
        select=tuple(settings.select) if settings.select is not None else None,
        ignore=tuple(settings.ignore) + tuple(extra_ignore or ()),
        extend_select=tuple(settings.extend_select),
        defines=tuple(sorted(settings.define.items())),
        include_paths=tuple(str(p) for p in settings.include),
        mode="target" if target_mode else "portability",
        std=None if target_mode else settings.std,
        preview=bool(settings.preview),
        # Defines given (`-D`, `define = [...]`) say how the file is built: the macros they
        # leave undefined are undefined, and `#if` arms on them are judged as the compiler does.
        options_known=bool(settings.define),
    )
