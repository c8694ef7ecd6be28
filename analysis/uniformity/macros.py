"""Macros that stand for a barrier or a work-group / sub-group function.

`#define SYNC_THREADS() barrier(CLK_LOCAL_MEM_FENCE)` used as `SYNC_THREADS ();`, or
`#define LOCAL_BARRIER barrier(CLK_LOCAL_MEM_FENCE)` used as `LOCAL_BARRIER;`: the syntax
tree holds the macro's name, not the call. A use of a macro defined at that point (in the
file or an include the preprocessor view resolved) whose full expansion calls one of the
built-ins `builtins.sync_kind` knows counts as that call, made where the macro is used.

The use's own arguments stay opaque: they are in the syntax tree (a call written in them is
seen there already), and where they land in the expansion is not. So the built-in's
arguments are checked (CL204) only when the macro is the built-in's name alone
(`#define BARRIER barrier`, `BARRIER(flags)`): then the use's arguments are the call's.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from tree_sitter import Node, Query

from cllint.analysis.captures import captures
from cllint.analysis.database import current
from cllint.analysis.preprocessor.expr import Token, tokenize
from cllint.analysis.uniformity import builtins as B
from cllint.grammar import language
from cllint.analysis.lazy_re import lazy

# Tokens after which the expansion itself decides whether (and in which work-items) what
# follows runs: a condition, a jump, a short-circuit operator. Its decision is not
# readable here (the arguments it tests are opaque, or the test is work-item dependent
# inside the macro), and a macro built around a condition is usually the very guard that
# makes its use safe (`#define SYNC_IF_WIDE if (WG > 32) barrier(...)` in warp-synchronous
# code). So a collective after one of them does not count: the use stays silent.
# Loops and `do { ... } while (0)` do not stop the scan: a loop around a barrier reaches it
# in every work-item that reaches the loop, as the analysis reads written-out loops too.
_DECIDES = frozenset({"if", "else", "switch", "case", "default", "?", "&&", "||",
                      "return", "break", "continue", "goto"})
_OPAQUE = Token("id", "\x00arg")  # one argument of the use: never a macro, never a call
_MAX_RESOLVED = 4096


class MacroSync:
    __slots__ = ("macro", "call", "alias")
    macro: str  # the macro used, e.g. 'SYNC_THREADS'
    call: str  # the built-in its expansion calls, e.g. 'barrier'
    alias: bool  # the macro is the built-in's name: the use's arguments are the call's

    __match_args__ = ("macro", "call", "alias")

    def __init__(self, macro: str, call: str, alias: bool = False) -> None:
        self.macro = macro
        self.call = call
        self.alias = alias

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(macro={self.macro!r}, call={self.call!r}, alias={self.alias!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.macro, self.call, self.alias) == (other.macro, other.call, other.alias)

    def __hash__(self) -> int:
        return hash((self.macro, self.call, self.alias))


# A use of a macro in a function: (start, end, name, argument count; -1: no parentheses,
# -2: unreadable ones), offsets relative to the function's start.
Use = tuple[int, int, str, int]

# What a use stands for, by (name, argument count, macro state): the database's
# "uniformity.macro_syncs"; and what an id macro's use varies by, its "uniformity.macro_values".
_UNKNOWN = object()


def statement_name(node: Node) -> str | None:
    """The name of a bare-identifier statement (`LOCAL_BARRIER;`) or of a macro invocation
    tree-sitter read as a statement (`SYNC()` with no ';'); None for other nodes."""
    if node.type == "expression_statement":
        if not node.named_child_count:  # `;`
            return None
        first = node.named_child(0)  # most statements end here: no identifier first
        if first is None or first.type != "identifier":
            return None
        if node.named_child_count == 1 or all(c.type == "comment" for c in node.named_children[1:]):
            return _text(first)
    elif node.type == "macro_invocation":
        fn = node.child_by_field_name("function")
        if fn is not None and fn.type == "identifier":
            return _text(fn)
    return None


def uses_in(func: Node, names: frozenset[str]) -> tuple[Use, ...]:
    """The uses of `names` in the function's body where a statement macro may stand: the
    callee of a call or of a macro invocation, a bare-identifier statement. One query (in
    C), not a walk: of a big body, only the names in these places come back."""
    body = func.child_by_field_name("body")
    if body is None:
        return ()
    base = func.start_byte
    out: list[Use] = []
    for ident in captures(_uses_query(), body).get("n", []):
        name = _text(ident)
        if name not in names:
            continue
        parent = ident.parent
        if parent is None:
            continue
        if parent.type == "expression_statement":
            if statement_name(parent) != name:
                continue
            nargs = -1
        else:
            nargs = _arg_count(parent)
        out.append((ident.start_byte - base, ident.end_byte - base, name, nargs))
    out.sort()
    return tuple(out)


@cache
def _uses_query() -> Query:
    return Query(language(), """
        (call_expression function: (identifier) @n)
        (macro_invocation function: (identifier) @n)
        (expression_statement (identifier) @n)
    """)


def resolve(view: Any, use: Use, offset: int) -> MacroSync | None:
    """What a use at `offset` (in the main file) stands for, if a collective. Memoised on
    the macros in force there (`macro_state_at`): equal digests expand every name alike."""
    _, _, name, nargs = use
    key = (name, nargs, view.macro_state_at(offset))
    memo = current().table("uniformity.macro_syncs", _MAX_RESOLVED)
    got = memo.get(key, _UNKNOWN)
    if got is _UNKNOWN:
        got = memo.put(key, _resolve(view, name, nargs, offset))
    return got


def _resolve(view: Any, name: str, nargs: int, offset: int) -> MacroSync | None:
    if nargs < -1 or B.sync_kind(name) is not None or view.macro_at(name, offset) is None:
        # not a macro there (a function, or a macro the file does not define), or a macro
        # named like the built-in (`#define barrier(f) work_group_barrier(f)`): the call it is
        return None
    toks = [Token("id", name)]
    paren = None
    if nargs >= 0:
        paren = Token("op", "(")
        args: list[Token] = []
        for k in range(nargs):
            args += [Token("op", ","), _OPAQUE] if k else [_OPAQUE]
        toks += [paren, *args, Token("op", ")")]
    try:  # the expander is someone else's code: a failure there means silence here
        expanded = view.expand(toks, offset)
    except Exception:  # noqa: BLE001
        return None
    if expanded is None:
        return None
    found = _collective(expanded)
    if found is None:
        return None
    call, at = found
    # The built-in's name alone, followed by the use's own parentheses: an alias.
    alias = paren is not None and at + 1 < len(expanded) and expanded[at + 1] is paren
    return MacroSync(name, call, alias)


def _collective(toks: list[Token]) -> tuple[str, int] | None:
    """The collective the expansion calls before anything that decides what runs (see
    `_DECIDES`), preferring work-group ones; its name and index."""
    first: tuple[str, int] | None = None
    for k, t in enumerate(toks):
        if t.text in _DECIDES or (t.text == "^" and k + 1 < len(toks) and toks[k + 1].text == "{"):
            break  # `_DECIDES`; `^{ ... }` is a block (OpenCL 2.0), run by another kernel
        if t.kind != "id" or k + 1 >= len(toks) or toks[k + 1].text != "(":
            continue
        kind = B.sync_kind(t.text)
        if kind is None or _member(toks, k):
            continue
        if kind != "subgroup":
            return t.text, k
        first = first or (t.text, k)
    return first


def _member(toks: list[Token], k: int) -> bool:
    """toks[k] follows `.` or `->`: a field, not the built-in."""
    prev = toks[k - 1].text if k else ""
    return prev in (".", "->")


def _arg_count(call: Node) -> int:
    """Arguments as the preprocessor splits them: at commas outside parentheses."""
    args = call.child_by_field_name("arguments")
    if args is None:
        return -2
    toks = tokenize(_text(args))
    if len(toks) < 2 or toks[0].text != "(" or toks[-1].text != ")":
        return -2  # no argument list the preprocessor would read: never resolves
    toks = toks[1:-1]
    if not toks:
        return 0
    depth, count = 0, 1
    for t in toks:
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            depth -= 1
        elif t.text == "," and depth == 0:
            count += 1
    return count


def _text(node: Node) -> str:
    return node.text.decode("utf-8", "replace") if node.text else ""


# -- macros standing for work-item ids (`#define LID get_local_id(0)`) ------------------

_WORD = lazy(r"[A-Za-z_]\w*")
# The work-item queries and other calls whose result varies (builtins.SOURCES).
_SOURCE_WORDS = frozenset(name for name, tags in B.SOURCES.items() if tags)


def value_macro_names(view: Any) -> frozenset[str]:
    """Names of macros whose expansion may call a work-item query, directly or through
    other macros (`#define GID get_global_id(0)`, `#define IN_RANGE(n) (GID < (n))`)."""
    words: dict[str, set[str]] = {}
    for m in view.macro_definitions():
        words.setdefault(m.name, set()).update(_WORD.findall(m.body))
    found = {name for name, ws in words.items() if ws & _SOURCE_WORDS}
    grew = bool(found)
    while grew:  # through other macros: a few rounds at most in real files
        more = {name for name, ws in words.items() if name not in found and ws & found}
        found |= more
        grew = bool(more)
    return frozenset(found)


def value_uses_in(func: Node, names: frozenset[str]) -> tuple[Use, ...]:
    """Every use of `names` in the function's body, as `uses_in` reports them (argument
    count -1 where the name is not called)."""
    body = func.child_by_field_name("body")
    text = body.text if body is not None else None
    if body is None or not text or not any(n.encode() in text for n in names):
        return ()
    base = func.start_byte
    out: list[Use] = []
    for ident in captures(_ids_query(), body).get("n", []):
        name = _text(ident)
        if name not in names:
            continue
        parent = ident.parent
        called = parent is not None and parent.type == "call_expression" \
            and parent.child_by_field_name("function") == ident
        out.append((ident.start_byte - base, ident.end_byte - base, name,
                    _arg_count(parent) if called else -1))
    out.sort()
    return tuple(out)


@cache
def _ids_query() -> Query:
    return Query(language(), "(identifier) @n")


def value_tags(view: Any, use: Use, offset: int, flat_dims: frozenset[int]) -> int:
    """What a use of an id macro at `offset` varies by (builtins' tags, 0: uniform): the
    query its expansion calls. Its own arguments are the tree's, read where they stand."""
    _, _, name, nargs = use
    key = (name, nargs, view.macro_state_at(offset), flat_dims)
    memo = current().table("uniformity.macro_values", _MAX_RESOLVED)
    got = memo.get(key)
    if got is None:
        got = memo.put(key, _value_tags(view, name, nargs, offset, flat_dims))
    return got


def _value_tags(view: Any, name: str, nargs: int, offset: int, flat_dims: frozenset[int]) -> int:
    if nargs < -1 or view.macro_at(name, offset) is None:
        return 0
    toks = [Token("id", name)]
    if nargs >= 0:
        args: list[Token] = []
        for k in range(nargs):
            args += [Token("op", ","), _OPAQUE] if k else [_OPAQUE]
        toks += [Token("op", "("), *args, Token("op", ")")]
    try:  # the expander is someone else's code: a failure there means uniform here
        expanded = view.expand(toks, offset)
    except Exception:  # noqa: BLE001
        return 0
    tags = 0
    for k, t in enumerate(expanded or ()):
        if t.kind != "id" or t.text not in _SOURCE_WORDS or k + 1 >= len(expanded) \
                or expanded[k + 1].text != "(" or _member(expanded, k):
            continue
        if t.text == "get_global_id" and k + 3 < len(expanded) and expanded[k + 3].text == ")" \
                and expanded[k + 2].text in {str(d) for d in flat_dims}:
            continue  # a dimension the work-group is one item wide in (summaries.flat_dimensions)
        tags |= B.SOURCES[t.text]
    return tags
