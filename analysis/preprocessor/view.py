"""The preprocessor view of one file: conditional regions, macros, includes and pragmas.

Built in one pass over the directives (`scan_directives`), independent of the syntax tree.
Conditions stay symbolic in the compiler-provided names (see `expr`), while macros the source
defines are substituted where they are used, each guarded by the branch conditions of its
`#define` that do not also enclose the use. `#ifdef cl_khr_fp64 / #define HAS_FP64 1 / #endif`
followed by `#if HAS_FP64` therefore still implies `defined(cl_khr_fp64)`.

Nothing here reads files: `#include` goes through the injected `include_resolver`.
"""

from __future__ import annotations


from ..diagnostics import Diagnostic, FileId, Severity, Span
from ..target import Target
from .command_line import CommandLineDefines, is_function_like
from .directives import Directive, scan_directives
from .expr import (
    FALSE,
    HAS_OPERATORS,
    TRUE,
    ChainTooLong,
    Condition,
    Defined,
    Env,
    ExprError,
    Ident,
    Node,
    Ternary,
    Token,
    Unknown,
    conj,
    negate,
    parse_tokens,
    read_defined,
    tokenize,
)
from . import header_runs, reuse
from .view_data import (  # the data types, here too for the modules that import them from view
    _MAX_CHAIN,
    _MAX_EXPANSION_DEPTH,
    Branch,
    IncludeRef,
    IncludeResolver,
    MacroDef,
    PragmaEvent,
    PreprocessorView,
    ResolverCall,
    _MacroEvent,
    _and3,
    _guard,
    _merge,
    _read_args,
    _substitute,
    resolve_include,
    state_bytes,
)

__all__ = [
    "Branch", "IncludeRef", "IncludeResolver", "MacroDef", "PragmaEvent", "PreprocessorView",
    "build_view", "MAX_INCLUDE_DEPTH",
]  # fmt: skip

MAX_INCLUDE_DEPTH = 64


class _Group:
    opening: Directive
    parent: Branch
    raws: list[Node]
    seen_else: bool

    __match_args__ = ("opening", "parent", "raws", "seen_else")

    def __init__(
        self,
        opening: Directive,
        parent: Branch,
        raws: list[Node],
        seen_else: bool = False,
    ) -> None:
        self.opening = opening
        self.parent = parent
        self.raws = raws
        self.seen_else = seen_else

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"opening={self.opening!r}, " f"parent={self.parent!r}, "
                f"raws={self.raws!r}, " f"seen_else={self.seen_else!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.opening, self.parent, self.raws, self.seen_else)
        theirs = (other.opening, other.parent, other.raws, other.seen_else)
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable


def build_view(
    file_id: FileId,
    text: bytes,
    *,
    target: Target,
    defines: dict[str, str] | None = None,
    include_resolver: IncludeResolver | None = None,
    memo_headers: bool = True,
) -> PreprocessorView:
    """Scan `text` and build its view for `target` plus `-D` `defines`; never raises on input.

    The file's previous view is reused, moved, when no directive, macro or include changed
    (see `reuse`): a keystroke in a function body then costs no rebuild. A header included
    again with the same relevant macros replays its last reading (`header_runs`) unless
    `memo_headers` is false."""
    macros = target.predefined_macros()
    defines = defines or {}
    function_like = {k: v for k, v in defines.items() if is_function_like(k)}
    macros.update({k: v for k, v in defines.items() if k not in function_like})
    if function_like:  # `-D 'NAME(a,b)=body'`: a `#define` line read before the file
        include_resolver = CommandLineDefines(include_resolver, function_like)
    directives = with_prelude(scan_directives(text, file_id), include_resolver)
    view = reuse.reused_view(file_id, len(text), macros, directives, include_resolver)
    if view is not None:
        view.include_resolver = include_resolver
        return view
    root = Branch(None, Condition(TRUE), True, file_id, 0)
    view = PreprocessorView(file_id, root, Env(macros))
    view.include_resolver = include_resolver
    builder = _Builder(view, include_resolver, memo_headers)
    builder.process(file_id, text, root, None, (file_id,), directives)
    view.regions = _merge(builder.regions)
    view._starts = [r[0] for r in view.regions]
    view._macro_offsets = {n: [e.offset for e in evs] for n, evs in view._macro_events.items()}
    view._pragma_offsets = [p.offset for p in view.pragmas]
    reuse.remember(file_id, len(text), macros, include_resolver, tuple(builder.calls), builder.regions, view)
    return view


class ProgramResolver:
    """An include resolver that also carries a file's program (issue 29): the sources read
    before it, the `-D` names the host passes, and include folders the build adds. Wraps the
    resolver of the CLI or the editor, which stay one per run."""

    def __init__(self, base: IncludeResolver | None, prelude: tuple[str, ...], host_macros: tuple[str, ...],
                 extra_paths: tuple[str, ...] = (), host_headers: tuple[str, ...] = ()) -> None:
        self.base = base
        self.prelude = prelude
        self.host_macros = frozenset(host_macros)
        self.extra_paths = extra_paths
        self.host_headers = frozenset(host_headers)  # `#include` names the host supplies

    def __call__(self, name: str, angled: bool, including: FileId) -> tuple[FileId, bytes] | None:
        if self.base is None:
            return None
        found = self.base(name, angled, including)
        if found is None and self.extra_paths and not name.startswith("/"):
            for folder in self.extra_paths:  # as an absolute name, which every resolver reads
                found = self.base(f"{folder.rstrip('/')}/{name}", False, including)
                if found is not None:
                    break
        return found

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ProgramResolver) and (self.base, self.prelude, self.host_macros, self.extra_paths,
                                                       self.host_headers) == (other.base, other.prelude,
                                                                              other.host_macros, other.extra_paths,
                                                                              other.host_headers)

    def __hash__(self) -> int:
        return hash((self.prelude, self.host_macros, self.extra_paths, self.host_headers))


def program_resolver(base: IncludeResolver | None, options: object) -> IncludeResolver | None:
    """`base` with the program of `options` (a LintOptions) when it has one and `base` does not."""
    prelude = getattr(options, "prelude", ())
    host = getattr(options, "host_macros", ())
    headers = frozenset(getattr(options, "host_headers", ()))
    if not (prelude or host or headers) or (getattr(base, "prelude", None) == tuple(prelude)
                                            and getattr(base, "host_headers", frozenset()) == headers):
        return base
    return ProgramResolver(base, tuple(prelude), tuple(host), tuple(getattr(options, "include_paths", ())),
                           tuple(sorted(headers)))


PRELUDE = "prelude"  # the keyword of an include the program makes before the file's text


def with_prelude(directives: list[Directive], resolver: IncludeResolver | None) -> list[Directive]:
    """The file's directives after the includes its program puts before its text: the
    `-include` headers and the sibling sources the host joins in front of it (the resolver's
    `prelude`, absolute paths in order). They read as `#include "path"` at offset 0, so
    macros, conditions and the headers' names and types see them as the compiler does."""
    prelude = getattr(resolver, "prelude", ())
    if not prelude:
        return directives
    made = [Directive("include", 0, 0, PRELUDE, "", -1, path=p, path_start=0, path_end=0) for p in prelude]
    return [*made, *directives]


class _Builder:
    def __init__(self, view: PreprocessorView, resolver: IncludeResolver | None, memo_headers: bool = True) -> None:
        self.view = view
        self.env = view.env
        self.resolver = resolver
        self.regions: list[tuple[int, int, Branch]] = []
        self.once: set[FileId] = set()
        self.calls: list[ResolverCall] = []  # every resolver request and answer, in order
        # Header readings (`header_runs`): every macro event in the order made, the files
        # `#pragma once` marked in order, and the readings under way, innermost last.
        self.order: list[_MacroEvent] = []
        self.once_log: list[FileId] = []
        self.recording: list[header_runs.Recording] = []
        self.reads: set[str] | None = None  # the innermost recording's names looked up
        self.runs = None
        if memo_headers and resolver is not None:
            from ..database import current

            self.runs = current().table("preprocessor.header_runs", header_runs.RUNS_MAX)
            # What a reading depends on besides its entry (header_runs): the macros, and the
            # names the resolver's host supplies (no CL002 for them inside a header).
            self.env_key = (tuple(self.env.macros.items()), frozenset(getattr(resolver, "host_headers", ())))

    # -- directives ---------------------------------------------------------------------

    def process(self, file_id: FileId, text: bytes, base: Branch, at: int | None, stack: tuple[FileId, ...],
                directives: list[Directive] | None = None) -> None:
        main = at is None
        if directives is None:
            directives = scan_directives(text, file_id)
        if main:
            self.view.directives = directives
        diags = self.view.diagnostics if main else self.view.included_diagnostics
        groups: list[_Group] = []
        current = base
        region_start = 0

        def span(start: int, end: int) -> Span:
            return Span(file_id, start, end)

        for d in directives:
            where = d.end if main else at
            assert where is not None
            kind = d.kind
            if kind in ("if", "ifdef", "ifndef"):
                raw = self._condition(d, current, file_id, diags)
                groups.append(_Group(d, current, [raw]))
                branch = self._branch(current, raw, d, file_id)
                if main:
                    self.regions.append((region_start, d.end, current))
                    region_start = d.end
                current = branch
            elif kind in ("elif", "elifdef", "elifndef", "else"):
                if not groups:
                    diags.append(_diag("CL003", f"'#{d.keyword}' without '#if'", span(d.start, d.end)))
                    continue
                g = groups[-1]
                if g.seen_else:
                    diags.append(_diag("CL003", f"'#{d.keyword}' after '#else'", span(d.start, d.end)))
                raw = TRUE if kind == "else" else self._condition(d, g.parent, file_id, diags)
                node = conj([*(negate(r) for r in g.raws), raw])
                g.raws.append(raw)
                g.seen_else = g.seen_else or kind == "else"
                if main:
                    self.regions.append((region_start, d.start, current))
                    self.regions.append((d.start, d.end, g.parent))
                    region_start = d.end
                current = self._branch(g.parent, node, d, file_id)
            elif kind == "endif":
                if not groups:
                    diags.append(_diag("CL003", "'#endif' without '#if'", span(d.start, d.end)))
                    continue
                g = groups.pop()
                if main:
                    self.regions.append((region_start, d.start, current))
                    region_start = d.start
                current = g.parent
            elif kind in ("define", "undef"):
                self._define(d, current, file_id, where)
            elif kind == "include":
                self._include(d, current, file_id, where, stack, diags)
            elif kind == "pragma":
                self._pragma(d, current, file_id, where)
        for g in reversed(groups):
            o = g.opening
            diags.append(_diag("CL003", f"unterminated conditional directive '#{o.keyword}'", span(o.start, o.end)))
        if main:
            self.regions.append((region_start, len(text), current))

    def _branch(self, parent: Branch, node: Node, d: Directive, file_id: FileId) -> Branch:
        cond = Condition(node, "" if d.kind == "else" else _describe(d))
        active = _and3(parent.active, cond.evaluate(self.env) if parent.active is not False else False)
        return Branch(parent, cond, active, file_id, d.start, parent.depth + 1)

    def _condition(self, d: Directive, branch: Branch, file_id: FileId, diags: list[Diagnostic]) -> Node:
        """The raw condition of an `#if`-like directive; CL004 (when it matters) on bad input."""
        try:
            if d.kind in ("ifdef", "ifndef", "elifdef", "elifndef"):
                if d.name is None:
                    raise ExprError("macro name missing")
                node = self._defined_node(d.name, branch)
                return negate(node) if d.kind.endswith("ndef") else node
            if not d.args:
                raise ExprError(f"'#{d.keyword}' with no expression")
            return parse_tokens(self._expand(tokenize(d.args), branch, frozenset(), 0),
                                lambda path, angled: self._has_include(path, angled, branch, file_id))
        except (ExprError, RecursionError) as exc:
            if branch.active is not False and not isinstance(exc, ChainTooLong):
                message = str(exc) if isinstance(exc, ExprError) else "expression nested too deeply"
                diags.append(_diag("CL004", message, Span(file_id, d.args_start, max(d.end, d.args_start))))
            return Unknown(str(exc))

    def _has_include(self, path: str, angled: bool, branch: Branch, file_id: FileId) -> bool | None:
        """`__has_include`: whether the resolver finds `path` (None: no resolver, or a dead arm)."""
        if branch.active is False or self.resolver is None:
            return None
        resolved = resolve_include(self.resolver, path, angled, file_id)
        self.calls.append(((path, angled, file_id), resolved))  # the view is reused only on the same answers
        return resolved is not None

    def _define(self, d: Directive, branch: Branch, file_id: FileId, where: int) -> None:
        if d.name is None or d.name == "defined":
            return
        macro = None
        if d.kind == "define":
            macro = MacroDef(
                d.name, d.params, d.body, Span(file_id, d.name_start, d.name_end), d.variadic, branch.active is None
            )
        ev = _MacroEvent(where, d.name, macro, branch)
        self.view._macro_events.setdefault(d.name, []).append(ev)
        if self.recording:
            self.order.append(ev)
        if branch.active is not False:
            self.view._state_log.append((where, state_bytes(d.name, macro)))

    def _pragma(self, d: Directive, branch: Branch, file_id: FileId, where: int) -> None:
        p = d.pragma
        if p is None:
            return
        if p.kind == "once":
            if file_id not in self.once:
                self.once.add(file_id)
                self.once_log.append(file_id)
        elif p.kind == "extension" and p.name and p.behavior:
            sp = Span(file_id, d.start, d.end)
            self.view.pragmas.append(PragmaEvent(where, sp, p.name, p.behavior, branch))
        elif p.kind == "fp_contract" and p.name:
            self.view.fp_contract.append((where, p.name, branch))

    def _include(
        self, d: Directive, branch: Branch, file_id: FileId, where: int, stack: tuple[FileId, ...], diags: list[Diagnostic]
    ) -> None:
        if d.path is None:
            return  # computed includes are not followed
        sp = Span(file_id, d.path_start, d.path_end)
        resolved: tuple[FileId, bytes] | None = None
        if branch.active is not False and self.resolver is not None:
            resolved = resolve_include(self.resolver, d.path, d.angled, file_id)
            self.calls.append(((d.path, d.angled, file_id), resolved))
            # a missing source: the program's error, unless the host supplies it by name or
            # builds with an include folder outside the workspace ("*": an installed library's)
            supplied = getattr(self.resolver, "host_headers", ())
            if resolved is None and d.keyword != PRELUDE and d.path not in supplied and "*" not in supplied:
                diags.append(_diag("CL002", f"cannot find include file '{d.path}'", sp, Severity.WARNING))
        if len(stack) == 1 and d.keyword != PRELUDE:  # the main file's own directives
            self.view.includes.append(
                IncludeRef(sp, d.path, d.angled, resolved[0] if resolved else None, branch.active)
            )
        if resolved is None:
            return
        target_id, content = resolved
        if self.recording:
            self.recording[-1].consulted[target_id] = None
        if target_id in stack or target_id in self.once or len(stack) >= MAX_INCLUDE_DEPTH:
            return  # cycles end here; include guards usually stop them earlier
        base = header_runs.make_root(branch, target_id)
        if self.runs is None:
            self.process(target_id, content, base, where, (*stack, target_id))
            return
        key = (self.env_key, target_id, content, branch.active, len(stack))
        run = self._replayable(key, branch, stack)
        if run is not None and self._replay(run, base, where):
            return
        self._start()
        self.process(target_id, content, base, where, (*stack, target_id))
        self._finish(key, base, branch, stack)

    # -- header readings kept and replayed (header_runs) ------------------------------------

    def _replayable(self, key: tuple, branch: Branch, stack: tuple[FileId, ...]) -> header_runs.Run | None:
        """The kept reading whose entry is this one's, if any."""
        variants = self.runs.get(key) if self.runs is not None else None
        if not variants:
            return None
        events = self.view._macro_events
        anc = branch.ancestor_ids
        for run in reversed(variants):
            if all((f in stack) == open_ and (f in self.once) == once for f, open_, once in run.consulted) and \
                    all(header_runs.chain_value(events.get(n, ()), anc, n) == v for n, v in zip(run.names, run.values)):
                return run
        return None

    def _replay(self, run: header_runs.Run, base: Branch, where: int) -> bool:
        """The kept reading made again under `base`, at `where`; False (nothing made) when
        the resolver answers one of its requests differently (a header changed)."""
        resolver = self.resolver
        assert resolver is not None
        for request, answer in run.calls:
            if resolve_include(resolver, *request) != answer:
                return False
        view = self.view
        self.calls.extend(run.calls)
        made = header_runs.arms(run, base)
        events = view._macro_events
        if self.recording:  # in the order made, for the reading under way
            order = self.order
            for name, macro, b in run.events:
                ev = _MacroEvent(where, name, macro, made[b])
                got = events.get(name)
                if got is None:
                    events[name] = [ev]
                else:
                    got.append(ev)
                order.append(ev)
        else:  # name by name (names new to the view come in the order first made)
            for name, evs in run.by_name():
                new = [_MacroEvent(where, name, macro, made[b]) for macro, b in evs]
                got = events.get(name)
                if got is None:
                    events[name] = new
                else:
                    got.extend(new)
        for sp, name, behavior, b in run.pragmas:
            view.pragmas.append(PragmaEvent(where, sp, name, behavior, made[b]))
        for name, b in run.fp_contract:
            view.fp_contract.append((where, name, made[b]))
        view.included_diagnostics.extend(run.diagnostics)
        self.once.update(run.once)
        self.once_log.extend(run.once)
        if run.state:
            view._state_log.append((where, run.state))
        if self.recording:
            outer = self.recording[-1]
            outer.reads.update(run.names)
            for f, _, _ in run.consulted:
                outer.consulted[f] = None
        view.replayed_includes += 1
        return True

    def _start(self) -> None:
        view = self.view
        rec = header_runs.Recording(len(self.order), len(self.calls), len(view.pragmas), len(view.fp_contract),
                                    len(view.included_diagnostics), len(self.once_log), len(view._state_log))
        self.recording.append(rec)
        self.reads = rec.reads

    def _finish(self, key: tuple, base: Branch, branch: Branch, stack: tuple[FileId, ...]) -> None:
        """Keeps the reading just made, with the values at entry of what it looked up."""
        rec = self.recording.pop()
        outer = self.recording[-1] if self.recording else None
        self.reads = outer.reads if outer is not None else None
        if outer is not None:
            outer.reads |= rec.reads
            outer.consulted.update(rec.consulted)
        view = self.view
        made = self.order[rec.order:]
        inside: dict[str, int] = {}
        for ev in made:
            inside[ev.name] = inside.get(ev.name, 0) + 1
        anc = branch.ancestor_ids
        names = tuple(sorted(rec.reads))
        values = []
        for n in names:
            evs = view._macro_events.get(n, [])
            values.append(header_runs.chain_value(evs[:len(evs) - inside.get(n, 0)], anc, n))
        once_added = self.once_log[rec.once:]
        consulted = tuple((f, f in stack, f in self.once and f not in once_added) for f in rec.consulted)
        table, index = header_runs.shapes(base)
        at = header_runs.arm_index
        run = header_runs.Run(
            names, tuple(values), consulted,
            [(ev.name, ev.macro, at(ev.branch, base, table, index)) for ev in made],
            table,
            [(p.span, p.name, p.behavior, at(p.branch, base, table, index)) for p in view.pragmas[rec.pragmas:]],
            [(name, at(b, base, table, index)) for _, name, b in view.fp_contract[rec.fp_contract:]],
            view.included_diagnostics[rec.diagnostics:], self.calls[rec.calls:], once_added,
            b"".join(data for _, data in view._state_log[rec.state:]),
        )
        assert self.runs is not None
        variants = self.runs.get(key)
        if variants is None:
            self.runs.put(key, [run])
        else:
            variants.append(run)
            del variants[:-header_runs.VARIANTS_MAX]

    # -- macro expansion in conditions ----------------------------------------------------

    def _chain(self, name: str, use: Branch) -> tuple[object, list[tuple[Node, MacroDef | None]]]:
        """Events deciding `name` at the current point: (base, guarded events oldest first).

        base is "env" (no unconditional source event), or the last event unconditional for
        `use` (a MacroDef, or None for #undef).
        """
        events = self.view._macro_events.get(name, ())
        anc = use.ancestor_ids
        guarded: list[tuple[Node, MacroDef | None]] = []
        base: object = "env"
        for ev in reversed(events):
            guard = _guard(ev.branch, anc)
            if guard is TRUE:
                base = ev.macro
                break
            guarded.append((guard, ev.macro))
            if len(guarded) > _MAX_CHAIN:
                raise ChainTooLong(f"macro '{name}' is redefined under too many conditions")
        guarded.reverse()
        if base == "env" and name not in self.env and not _is_target_name(name):
            # A name the source defines, that neither the compiler nor `-D` provides, starts out
            # undefined; keeping it symbolic would let `-DHAS_FP64` stand in for the guard.
            base = None
        return base, guarded

    def _defined_node(self, name: str, use: Branch) -> Node:
        if self.reads is not None:
            self.reads.add(name)
        if name not in self.view._macro_events:
            return Defined(name)
        base, guarded = self._chain(name, use)
        value: Node = Defined(name) if base == "env" else (TRUE if base is not None else FALSE)
        for guard, macro in guarded:
            value = Ternary(guard, TRUE if macro is not None else FALSE, value)
        return value

    def _expand(self, toks: list[Token], use: Branch, hide: frozenset[str], depth: int) -> list[Token]:
        if depth > _MAX_EXPANSION_DEPTH:
            raise ExprError("macro expansion nested too deeply")
        out: list[Token] = []
        i = 0
        events = self.view._macro_events
        while i < len(toks):
            tok = toks[i]
            if tok.kind != "id":
                out.append(tok)
                i += 1
                continue
            name, nxt = read_defined(toks, i)
            if name is not None:
                out.append(Token("node", name, self._defined_node(name, use)))
                i = nxt
                continue
            if self.reads is not None:
                self.reads.add(tok.text)
            if tok.text in hide or tok.text not in events or (
                    tok.text in HAS_OPERATORS and all(e.branch.active is False for e in events[tok.text])):
                # (`#ifndef __has_builtin` / `#define __has_builtin(x) 0`: clang's own stays)
                out.append(tok)
                i += 1
                continue
            base, guarded = self._chain(tok.text, use)
            has_call = i + 1 < len(toks) and toks[i + 1].text == "("
            if not guarded:
                if base == "env":
                    out.append(tok)
                    i += 1
                elif base is None:
                    out.append(Token("node", tok.text, FALSE))  # #undef'd: 0
                    i += 1
                else:
                    assert isinstance(base, MacroDef)
                    if base.params is None:
                        out.extend(self._expand(tokenize(base.body), use, hide | {tok.text}, depth + 1))
                        i += 1
                    elif not has_call:
                        out.append(tok)  # a function-like name without '(' is not expanded
                        i += 1
                    else:
                        args, i = _read_args(toks, i + 1)
                        body = _substitute(base, args)
                        out.extend(self._expand(body, use, hide | {tok.text}, depth + 1))
                continue
            # Conditionally (re)defined: a guarded value per event.
            value: Node
            if base == "env":
                value = Ident(tok.text)
            elif base is None:
                value = FALSE
            else:
                value = self._value_node(base, use, hide | {tok.text}, depth)  # type: ignore[arg-type]
            for guard, macro in guarded:
                m_value = FALSE if macro is None else self._value_node(macro, use, hide | {tok.text}, depth)
                value = Ternary(guard, m_value, value)
            i += 1
            if has_call and any(m is not None and m.params is not None for _, m in guarded):
                _, i = _read_args(toks, i)
            out.append(Token("node", tok.text, value))
        return out

    def _value_node(self, macro: MacroDef, use: Branch, hide: frozenset[str], depth: int) -> Node:
        if macro.params is not None:
            return Unknown(f"function-like macro '{macro.name}' defined under conditions")
        try:
            return parse_tokens(self._expand(tokenize(macro.body), use, hide, depth + 1))
        except ExprError as exc:
            return Unknown(str(exc))


_TARGET_PREFIXES = ("__opencl_c_", "cl_", "cles_", "__OPENCL", "CL_VERSION_", "__IMAGE_SUPPORT__",
                    "__ENDIAN_LITTLE__", "__FAST_RELAXED_MATH__", "__ROUNDING_MODE__")


def _is_target_name(name: str) -> bool:
    """Names a target could predefine: conditions keep them symbolic across targets."""
    return name.startswith(_TARGET_PREFIXES)


def _describe(d: Directive) -> str:
    if d.kind in ("ifdef", "elifdef"):
        return f"defined({d.name})"
    if d.kind in ("ifndef", "elifndef"):
        return f"!defined({d.name})"
    return " ".join(d.args.split())


def _diag(code: str, message: str, span: Span, severity: Severity = Severity.ERROR) -> Diagnostic:
    return Diagnostic(code, severity, message, span)
