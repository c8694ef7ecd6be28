"""The preprocessor view's data: conditional branches, macros, includes and pragmas of one
file, and the view that answers questions about them by byte offset. `view.py` builds it,
`reuse.py` moves the last one for a new text; both import this module, which imports neither.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator, KeysView

from ..diagnostics import Diagnostic, FileId, Span
from ..digest import blake2b
from .directives import Directive
from .expr import TRUE, Condition, Env, ExprError, Node, Token, conj, tokenize

IncludeResolver = Callable[[str, bool, FileId], "tuple[FileId, bytes] | None"]
# One `#include` the builder resolved: (path, angled, including file) and the answer.
ResolverCall = tuple[tuple[str, bool, FileId], "tuple[FileId, bytes] | None"]
_MAX_EXPANSION_DEPTH = 64
_MAX_EXPANSIONS = 256  # macro replacements in one `expand`
_MAX_EXPANDED_TOKENS = 20_000
_MAX_CHAIN = 16  # conditional redefinitions folded into one guarded value


def _and3(a: bool | None, b: bool | None) -> bool | None:
    if a is False or b is False:
        return False
    if a is None or b is None:
        return None
    return True


class Branch:
    """One arm of a conditional group (or the file root); identity matters, not value."""

    parent: Branch | None
    own: Condition  # this arm's condition, earlier arms of the group negated
    active: bool | None  # against the view's target and defines, ancestors included
    file: FileId
    start: int  # offset of the directive opening the arm (in `file`)
    depth: int
    _ancestors: frozenset[int] | None
    _combined: Condition | None

    __match_args__ = ("parent", "own", "active", "file", "start", "depth", "_ancestors", "_combined")

    def __init__(
        self,
        parent: Branch | None,
        own: Condition,
        active: bool | None,
        file: FileId,
        start: int,
        depth: int = 0,
        _ancestors: frozenset[int] | None = None,
        _combined: Condition | None = None,
    ) -> None:
        self.parent = parent
        self.own = own
        self.active = active
        self.file = file
        self.start = start
        self.depth = depth
        self._ancestors = _ancestors
        self._combined = _combined

    def __repr__(self) -> str:
        return f"Branch({self.own!s}, active={self.active}, file={self.file!r}, start={self.start})"

    @property
    def conditions(self) -> list[Condition]:
        """Enclosing arm conditions, outermost first; the root contributes none."""
        out: list[Condition] = []
        b: Branch | None = self
        while b is not None and b.parent is not None:
            out.append(b.own)
            b = b.parent
        out.reverse()
        return out

    @property
    def ancestor_ids(self) -> frozenset[int]:
        if self._ancestors is None:
            ids = {id(self)}
            if self.parent is not None:
                ids |= self.parent.ancestor_ids
            self._ancestors = frozenset(ids)
        return self._ancestors

    @property
    def combined(self) -> Condition:
        """The conjunction of all enclosing conditions."""
        if self._combined is None:
            conds = self.conditions
            text = " && ".join(f"({c})" for c in conds)
            self._combined = Condition(conj(c.node for c in conds), text)
        return self._combined


class MacroDef:
    __slots__ = ("name", "params", "body", "span", "variadic", "conditional")
    name: str
    params: tuple[str, ...] | None  # None: object-like
    body: str
    span: Span  # the macro name in its `#define`
    variadic: bool
    conditional: bool  # defined in an arm whose activity is unknown

    __match_args__ = ("name", "params", "body", "span", "variadic", "conditional")

    def __init__(
        self,
        name: str,
        params: tuple[str, ...] | None,
        body: str,
        span: Span,
        variadic: bool = False,
        conditional: bool = False,
    ) -> None:
        self.name = name
        self.params = params
        self.body = body
        self.span = span
        self.variadic = variadic
        self.conditional = conditional

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"name={self.name!r}, " f"params={self.params!r}, "
                f"body={self.body!r}, " f"span={self.span!r}, " f"variadic={self.variadic!r}, "
                f"conditional={self.conditional!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.name, self.params, self.body, self.span, self.variadic, self.conditional)
        theirs = (other.name, other.params, other.body, other.span, other.variadic, other.conditional)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.name, self.params, self.body, self.span, self.variadic, self.conditional))


class _MacroEvent:
    __slots__ = ("offset", "name", "macro", "branch")
    offset: int  # main-file offset from which it applies
    name: str
    macro: MacroDef | None  # None: #undef
    branch: Branch

    __match_args__ = ("offset", "name", "macro", "branch")

    def __init__(self, offset: int, name: str, macro: MacroDef | None, branch: Branch) -> None:
        self.offset = offset
        self.name = name
        self.macro = macro
        self.branch = branch

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"offset={self.offset!r}, " f"name={self.name!r}, "
                f"macro={self.macro!r}, " f"branch={self.branch!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.offset, self.name, self.macro, self.branch)
        theirs = (other.offset, other.name, other.macro, other.branch)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.offset, self.name, self.macro, self.branch))


class IncludeRef:
    __slots__ = ("span", "path", "angled", "resolved", "active")
    span: Span  # the path text, delimiters included
    path: str
    angled: bool
    resolved: FileId | None
    active: bool | None  # activity of the arm holding the directive; False: not followed

    __match_args__ = ("span", "path", "angled", "resolved", "active")

    def __init__(
        self,
        span: Span,
        path: str,
        angled: bool,
        resolved: FileId | None,
        active: bool | None,
    ) -> None:
        self.span = span
        self.path = path
        self.angled = angled
        self.resolved = resolved
        self.active = active

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"span={self.span!r}, " f"path={self.path!r}, "
                f"angled={self.angled!r}, " f"resolved={self.resolved!r}, " f"active={self.active!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.span, self.path, self.angled, self.resolved, self.active)
        theirs = (other.span, other.path, other.angled, other.resolved, other.active)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.span, self.path, self.angled, self.resolved, self.active))


class PragmaEvent:
    __slots__ = ("offset", "span", "name", "behavior", "branch")
    offset: int
    span: Span
    name: str  # extension name or "all"
    behavior: str
    branch: Branch

    __match_args__ = ("offset", "span", "name", "behavior", "branch")

    def __init__(self, offset: int, span: Span, name: str, behavior: str, branch: Branch) -> None:
        self.offset = offset
        self.span = span
        self.name = name
        self.behavior = behavior
        self.branch = branch

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"offset={self.offset!r}, " f"span={self.span!r}, "
                f"name={self.name!r}, " f"behavior={self.behavior!r}, " f"branch={self.branch!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.offset, self.span, self.name, self.behavior, self.branch)
        theirs = (other.offset, other.span, other.name, other.behavior, other.branch)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.offset, self.span, self.name, self.behavior, self.branch))


class PreprocessorView:
    """Queries by byte offset into the main file; built by `build_view`."""

    def __init__(self, file_id: FileId, root: Branch, env: Env) -> None:
        self.file_id = file_id
        self.root = root
        self.env = env
        self.regions: list[tuple[int, int, Branch]] = []
        self._starts: list[int] = []
        self._macro_events: dict[str, list[_MacroEvent]] = {}
        self._macro_offsets: dict[str, list[int]] = {}
        self.pragmas: list[PragmaEvent] = []
        self._pragma_offsets: list[int] = []
        self.includes: list[IncludeRef] = []
        self.diagnostics: list[Diagnostic] = []
        self.included_diagnostics: list[Diagnostic] = []  # spans in other files
        self.directives: list[Directive] = []
        self.fp_contract: list[tuple[int, str, Branch]] = []
        self._macro_states: tuple[list[int], list[bytes]] | None = None
        # (offset, bytes) of each active macro event in the order built, a replayed header
        # reading's joined (`state_bytes`): what `macro_state_at` digests.
        self._state_log: list[tuple[int, bytes]] = []
        self._definitions: list[MacroDef] | None = None  # `macro_definitions`, once read
        self.replayed_includes = 0  # `#include`s served by a kept reading (header_runs)
        # The resolver the view was built with: the semantic checks read the headers it finds
        # (analysis/semantic/headers.py), those in arms this view does not follow included.
        self.include_resolver: IncludeResolver | None = None

    @property
    def host_macros(self) -> frozenset[str]:
        """Macro names the host passes with `-D`, values unknown (the resolver's, as the
        prelude): names, never values, so no condition is decided by them."""
        return frozenset(getattr(self.include_resolver, "host_macros", ()))

    # -- regions ------------------------------------------------------------------------

    def branch_at(self, offset: int) -> Branch:
        i = bisect_right(self._starts, offset) - 1
        return self.regions[i][2] if i >= 0 else self.root

    def active_at(self, offset: int) -> bool | None:
        return self.branch_at(offset).active

    def conditions_at(self, offset: int) -> list[Condition]:
        return self.branch_at(offset).conditions

    def guard_implies(self, offset: int, macro: str) -> bool:
        return self.guard_implies_any(offset, {macro})

    def guard_implies_any(self, offset: int, names: set[str] | frozenset[str]) -> bool:
        """Whether the enclosing guards together imply that one of `names` is defined."""
        branch = self.branch_at(offset)
        if branch.parent is None:
            return False
        if branch.combined.implies_any_defined(names):
            return True
        return any(c.implies_any_defined(names) for c in branch.conditions)

    def guard_min_version(self, offset: int) -> int | None:
        branch = self.branch_at(offset)
        if branch.parent is None:
            return None
        found = branch.combined.implied_min_version()
        for c in branch.conditions:
            v = c.implied_min_version()
            if v is not None and (found is None or v > found):
                found = v
        return found

    def inactive_ranges(self) -> list[tuple[int, int]]:
        """Ranges of arms that are definitely false for the target, merged."""
        out: list[tuple[int, int]] = []
        for start, end, branch in self.regions:
            if branch.active is not False or start >= end:
                continue
            if out and out[-1][1] == start:
                out[-1] = (out[-1][0], end)
            else:
                out.append((start, end))
        return out

    # -- macros -------------------------------------------------------------------------

    def macro_at(self, name: str, offset: int) -> MacroDef | None:
        """The definition of `name` visible at `offset` (source `#define`s; not the target's)."""
        events = self._macro_events.get(name)
        if not events:
            return None
        i = bisect_right(self._macro_offsets[name], offset) - 1
        while i >= 0:
            ev = events[i]
            if ev.branch.active is not False:
                return ev.macro
            i -= 1
        return None

    def macro_state_at(self, offset: int) -> bytes:
        """A digest of every macro event before `offset` that `macro_at` could return: equal
        digests mean every name expands alike there, wherever the two offsets are."""
        if self._macro_states is None:
            h = blake2b(digest_size=16)
            offsets: list[int] = []
            states = [h.digest()]
            log = self._state_log
            for i, (at, data) in enumerate(log):
                h.update(data)
                if i + 1 == len(log) or log[i + 1][0] != at:  # one state per offset: all that can differ
                    offsets.append(at)
                    states.append(h.digest())
            self._macro_states = (offsets, states)
        offsets, states = self._macro_states
        return states[bisect_right(offsets, offset)]

    def macro_names_at(self, offset: int) -> list[str]:
        return sorted(n for n in self._macro_events if self.macro_at(n, offset) is not None)

    def expand_type_macro(self, name: str, offset: int) -> str | None:
        """Replacement text of an object-like macro made of type/qualifier words, chains resolved.

        `#define GLOBAL_AS __global` gives "__global"; an empty body gives ""; a body that is not
        words (`1 + 2`, a string) or a function-like macro gives None.
        """
        macro = self.macro_at(name, offset)
        if macro is None or macro.params is not None:
            return None
        words = self._expand_words(tokenize(macro.body), offset, frozenset({name}), 0)
        return None if words is None else " ".join(words)

    def expand_macro_call(self, name: str, args: list[str], offset: int) -> str | None:
        """`#define PTR(T) __global T *` with args ["float"] gives "__global float *"."""
        macro = self.macro_at(name, offset)
        if macro is None or macro.params is None:
            return None
        if len(args) != len(macro.params) and not macro.variadic:
            return None
        toks = _substitute(macro, [tokenize(a) for a in args])
        words = self._expand_words(toks, offset, frozenset({name}), 0)
        return None if words is None else " ".join(words)

    def macro_definitions(self) -> Iterator[MacroDef]:
        """Every `#define` of the file and its includes outside arms known to be inactive,
        each once: a header read again replays the same definitions (header_runs)."""
        if self._definitions is None:
            seen: set[int] = set()
            out: list[MacroDef] = []
            for events in self._macro_events.values():
                for ev in events:
                    m = ev.macro
                    if m is not None and ev.branch.active is not False and id(m) not in seen:
                        seen.add(id(m))
                        out.append(m)
            self._definitions = out
        return iter(self._definitions)

    def defined_names(self) -> KeysView[str]:
        """Every name some `#define` or `#undef` of the file (or its includes) mentions."""
        return self._macro_events.keys()

    def expand(self, toks: list[Token], offset: int) -> list[Token] | None:
        """`toks` as the compiler sees them at `offset`: the source's macros expanded and the
        result rescanned with the tokens that follow (a function-like macro takes its
        arguments from there). Token objects that pass through unexpanded stay the same
        objects. None for a wrong argument count or an expansion too deep or too large."""
        toks = list(toks)
        hides: list[frozenset[str]] = [frozenset()] * len(toks)
        out: list[Token] = []
        budget = _MAX_EXPANSIONS
        i = 0
        while i < len(toks):
            tok, hide = toks[i], hides[i]
            macro = self.macro_at(tok.text, offset) if tok.kind == "id" and tok.text not in hide else None
            if macro is None:
                out.append(tok)
                i += 1
                continue
            try:
                if macro.params is None:
                    body, end = tokenize(macro.body), i + 1
                elif i + 1 < len(toks) and toks[i + 1].text == "(":
                    args, end = _read_args(toks, i + 1)
                    body = _substitute(macro, args)
                else:  # a function-like name without '(' is not expanded
                    out.append(tok)
                    i += 1
                    continue
            except ExprError:
                return None
            budget -= 1
            if budget < 0 or len(hide) >= _MAX_EXPANSION_DEPTH or len(toks) > _MAX_EXPANDED_TOKENS:
                return None
            # Rescanned in place: the replacement may call a macro with tokens that follow.
            inner = hide | {tok.text}
            toks[i:end] = body
            hides[i:end] = [inner] * len(body)
        return out

    def _expand_words(self, toks: list[Token], offset: int, hide: frozenset[str], depth: int) -> list[str] | None:
        if depth > _MAX_EXPANSION_DEPTH:
            return None
        out: list[str] = []
        i = 0
        while i < len(toks):
            tok = toks[i]
            if tok.kind == "id" and tok.text in ("__attribute__", "__attribute"):
                end = _balanced_end(toks, i + 1)
                if end is None:
                    return None
                out.append(tok.text + "".join(t.text + (" " if t.text == "," else "") for t in toks[i + 1 : end]))
                i = end
                continue
            if tok.kind == "id":
                inner = self.macro_at(tok.text, offset) if tok.text not in hide else None
                if inner is not None and inner.params is None:
                    sub = self._expand_words(tokenize(inner.body), offset, hide | {tok.text}, depth + 1)
                    if sub is None:
                        return None
                    out.extend(sub)
                else:
                    out.append(tok.text)
            elif tok.text == "*":
                out.append("*")
            else:
                return None
            i += 1
        return out

    # -- pragmas ------------------------------------------------------------------------

    def extension_state_at(self, offset: int, ext: str) -> str | None:
        """"enable" or "disable" from the last active `#pragma OPENCL EXTENSION` before `offset`."""
        i = bisect_right(self._pragma_offsets, offset) - 1
        while i >= 0:
            ev = self.pragmas[i]
            if ev.branch.active is not False and ev.name in (ext, "all"):
                return "disable" if ev.behavior == "disable" else "enable"
            i -= 1
        return None

    def extension_pragma_at(self, offset: int, ext: str) -> PragmaEvent | None:
        """The pragma that decides `extension_state_at` (for 'enabled by pragma here' notes)."""
        i = bisect_right(self._pragma_offsets, offset) - 1
        while i >= 0:
            ev = self.pragmas[i]
            if ev.branch.active is not False and ev.name in (ext, "all"):
                return ev
            i -= 1
        return None


def state_bytes(name: str, macro: MacroDef | None) -> bytes:
    """What one active event adds to the macro-state digest (`macro_state_at`)."""
    return repr((name, None if macro is None else (macro.params, macro.body, macro.variadic))).encode()


def resolve_include(resolver: IncludeResolver, path: str, angled: bool,
                    including: FileId) -> tuple[FileId, bytes] | None:
    try:
        if "\x00" in path:  # an includer's text before its `#include` of the file (includer_heads.py)
            from .includer_heads import read_head

            return read_head(path, lambda includer: resolver(includer, False, including))
        return resolver(path, angled, including)
    except Exception:  # a resolver bug must not take the analysis down
        return None


def _guard(branch: Branch, use_ancestors: frozenset[int]) -> Node:
    """Conditions of the arms holding an event that do not also hold the use."""
    nodes: list[Node] = []
    b: Branch | None = branch
    while b is not None and id(b) not in use_ancestors:
        nodes.append(b.own.node)
        b = b.parent
    if not nodes:
        return TRUE
    nodes.reverse()
    node = conj(nodes)
    return node


def _merge(regions: list[tuple[int, int, Branch]]) -> list[tuple[int, int, Branch]]:
    out: list[tuple[int, int, Branch]] = []
    for start, end, branch in regions:
        if end <= start:
            continue
        if out and out[-1][2] is branch and out[-1][1] == start:
            out[-1] = (out[-1][0], end, branch)
        else:
            out.append((start, end, branch))
    return out


def _read_args(toks: list[Token], i: int) -> tuple[list[list[Token]], int]:
    """Arguments of a call whose '(' is at toks[i]; returns (args, index after ')')."""
    args: list[list[Token]] = [[]]
    depth = 0
    j = i + 1
    while j < len(toks):
        t = toks[j]
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            if depth == 0:
                return ([] if args == [[]] else args), j + 1
            depth -= 1
        elif t.text == "," and depth == 0:
            args.append([])
            j += 1
            continue
        args[-1].append(t)
        j += 1
    raise ExprError("unterminated function-like macro invocation")


def _substitute(macro: MacroDef, args: list[list[Token]]) -> list[Token]:
    params = macro.params or ()
    if len(args) < len(params) or (len(args) > len(params) and not macro.variadic):
        raise ExprError(f"wrong number of arguments to function-like macro '{macro.name}'")
    table = dict(zip(params, args))
    if macro.variadic:
        rest = args[len(params) :]
        joined: list[Token] = []
        for k, a in enumerate(rest):
            if k:
                joined.append(Token("op", ","))
            joined.extend(a)
        table["__VA_ARGS__"] = joined
    out: list[Token] = []
    body = tokenize(macro.body)
    k = 0
    while k < len(body):
        t = body[k]
        if t.text == "#" and k + 1 < len(body) and body[k + 1].text in table:
            text = " ".join(x.text for x in table[body[k + 1].text])
            out.append(Token("str", '"' + text.replace('"', '\\"') + '"'))
            k += 2
            continue
        if t.text == "##" and out and k + 1 < len(body):
            nxt = body[k + 1]
            right = table.get(nxt.text, [nxt]) if nxt.kind == "id" else [nxt]
            left = out.pop()
            pasted = tokenize(left.text + (right[0].text if right else ""))
            out.extend(pasted + right[1:])
            k += 2
            continue
        out.extend(table[t.text] if t.kind == "id" and t.text in table else [t])
        k += 1
    return out


def _balanced_end(toks: list[Token], i: int) -> int | None:
    if i >= len(toks) or toks[i].text != "(":
        return None
    depth = 0
    for j in range(i, len(toks)):
        if toks[j].text == "(":
            depth += 1
        elif toks[j].text == ")":
            depth -= 1
            if depth == 0:
                return j + 1
    return None
