"""Per-function facts and summaries, and the per-file driver the CL2xx rules read.

Functions are analysed callees first. A function's summary (what its return value and
out-parameters depend on, whether it synchronises and which parameters decide that)
is memoised on its text and its callees' summaries, so an edit re-analyses the edited
function and the callers whose view of it changed, nothing else.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Mapping
from typing import Any

from tree_sitter import Node, Tree

from cllint.analysis.database import Table, current
from cllint.analysis.records import replace
from cllint.analysis.model.walk import is_kernel as _is_kernel, meets_range, nodes_of_kinds
from cllint.analysis.preprocessor.decided import decided_dead_ranges
from cllint.analysis.syntax import macro_named, spelled_name, walk
from cllint.analysis.uniformity import builtins as B
from cllint.analysis.uniformity.cfg import DeadRanges, build_cfg
from cllint.analysis.uniformity.dataflow import CalleeSummary, CallSite, Facts, analyse, callee_name, deciding
from cllint.analysis.uniformity.macros import (MacroSync, Use, resolve as resolve_macro, statement_name, uses_in,
                                               value_macro_names, value_tags, value_uses_in)
from cllint.analysis.uniformity.names import Names, VarInfo, program_globals, resolve
from cllint.analysis.uniformity.spellings import Spellings
from cllint.analysis.toplevel import FUNCTION_IDS, Items, items_of

LOOPS = {"for_statement", "while_statement", "do_statement"}
_GUARD = -2  # a finding's cause: an operand of `?:`, `&&` or `||` (CallSite.guard), not a branch
JUMPS = {"return_statement", "break_statement", "continue_statement", "goto_statement"}
MAX_CHAIN = 4


class Summary(CalleeSummary):
    __slots__ = ("sync", "sync_call", "sync_span", "sync_params", "sync_macro")
    sync: str | None  # 'barrier', 'collective' or 'subgroup' when reached (transitively)
    sync_call: str  # the built-in reached, e.g. 'barrier'
    sync_span: tuple[int, int]  # where the function (or a callee) synchronises
    sync_params: int  # parameter bits that decide whether it synchronises
    sync_macro: str  # the macro at `sync_span` standing for `sync_call`, if one does

    __match_args__ = ("ret", "out", "sync", "sync_call", "sync_span", "sync_params", "sync_macro")

    def __init__(
        self,
        ret: int = 0,
        out: tuple[tuple[int, int], ...] = (),
        sync: str | None = None,
        sync_call: str = "",
        sync_span: tuple[int, int] = (0, 0),
        sync_params: int = 0,
        sync_macro: str = "",
    ) -> None:
        self.ret = ret
        self.out = out
        self.sync = sync
        self.sync_call = sync_call
        self.sync_span = sync_span
        self.sync_params = sync_params
        self.sync_macro = sync_macro

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"ret={self.ret!r}, " f"out={self.out!r}, "
                f"sync={self.sync!r}, " f"sync_call={self.sync_call!r}, " f"sync_span={self.sync_span!r}, "
                f"sync_params={self.sync_params!r}, " f"sync_macro={self.sync_macro!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.ret, self.out, self.sync, self.sync_call, self.sync_span, self.sync_params,
                self.sync_macro)
        theirs = (other.ret, other.out, other.sync, other.sync_call, other.sync_span, other.sync_params,
                  other.sync_macro)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.ret, self.out, self.sync, self.sync_call, self.sync_span, self.sync_params,
                     self.sync_macro))


class Finding:
    __slots__ = ("code", "start", "end", "message", "notes")
    code: str
    start: int
    end: int
    message: str
    notes: tuple[tuple[int, int, str], ...]

    __match_args__ = ("code", "start", "end", "message", "notes")

    def __init__(
        self,
        code: str,
        start: int,
        end: int,
        message: str,
        notes: tuple[tuple[int, int, str], ...] = (),
    ) -> None:
        self.code = code
        self.start = start
        self.end = end
        self.message = message
        self.notes = notes

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"code={self.code!r}, " f"start={self.start!r}, "
                f"end={self.end!r}, " f"message={self.message!r}, " f"notes={self.notes!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.code, self.start, self.end, self.message, self.notes)
        theirs = (other.code, other.start, other.end, other.message, other.notes)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.code, self.start, self.end, self.message, self.notes))


class FunctionResult:
    summary: Summary
    findings: list[Finding]

    __match_args__ = ("summary", "findings")

    def __init__(self, summary: Summary, findings: list[Finding] | None = None) -> None:
        self.summary = summary
        self.findings = [] if findings is None else findings

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(summary={self.summary!r}, findings={self.findings!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.summary, self.findings) == (other.summary, other.findings)

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable


class FileUniformity:
    findings: list[Finding]

    __match_args__ = ("findings",)

    def __init__(self, findings: list[Finding]) -> None:
        self.findings = findings

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(findings={self.findings!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.findings,) == (other.findings,)

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable


# Function results by their memo key (`_Analysis.result`) and body walks by function text
# or body part (`_prepass`), in the database's "uniformity.results" and "uniformity.prepass".
_MEMO_LIMIT = 4096


def _results() -> Table:
    return current().table("uniformity.results", _MEMO_LIMIT)


def _prepasses() -> Table:
    return current().table("uniformity.prepass", _MEMO_LIMIT)


def forget() -> None:
    """Drop the function results and body walks of the current database (tests)."""
    _results().clear()
    _prepasses().clear()


def _text(node: Node | None, limit: int = 60) -> str:
    if node is None or not node.text:
        return ""
    s = " ".join(node.text.decode("utf-8", "replace").split())
    return s if len(s) <= limit else s[: limit - 3] + "..."


def _function_name(func: Node) -> str | None:
    d = func.child_by_field_name("declarator")
    while d is not None and d.type != "function_declarator":
        d = d.child_by_field_name("declarator")
    made = macro_named(d)
    if made is not None:  # `kernel void NAME(x)(params)`: a macro makes the name
        return spelled_name(made)
    ident = d.child_by_field_name("declarator") if d is not None else None
    return _text(ident) if ident is not None and ident.type == "identifier" else None


def _functions(tree: Tree) -> dict[str, Node]:
    out: dict[str, Node] = {}
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        for child in node.children:
            if child.type == "function_definition":
                name = _function_name(child)
                if name and name not in out:
                    out[name] = child
            elif child.type.startswith("preproc_") or child.type in ("linkage_specification",
                                                                     "declaration_list"):
                stack.append(child)
    return out


# What the file-wide pass reads off one definition: its name, the names it calls,
# whether it synchronises itself, the local-id dimensions it names (None: unknown), and
# the names standing alone as statements (`LOCAL_BARRIER;`: a macro, if any).
_Head = tuple[str | None, set[str], bool, set[str] | None, set[str]]


def _head(index: Items, k: int) -> _Head:
    """Carried over with the item while its text stays the same (see toplevel.py)."""
    facts = index.items[k].facts
    head = facts.get("uniformity")
    if head is None:
        head = facts["uniformity"] = (_function_name(index.nodes[k]), *_prepass_of(index, k))
    return head


class _FileFacts:
    """What the file-wide pass reads off every function definition. A keystroke that
    leaves every head as it was keeps the previous tree's (toplevel.Items.previous), and
    what is derived from them (callees, synchronisation, flat dimensions) with it."""

    __slots__ = ("heads_by_item", "at", "heads", "duplicated", "_wide", "_cyclic")

    def __init__(self, heads_by_item: list[_Head | None], at: dict[str, int], heads: dict[str, _Head],
                 duplicated: bool) -> None:
        self.heads_by_item = heads_by_item  # None for an item that is no definition
        self.at = at  # name -> index of the item whose definition counts
        self.heads = heads
        self.duplicated = duplicated
        self._wide: _FileWide | None = None
        self._cyclic: bool | None = None

    def wide(self) -> _FileWide:
        if self._wide is None:
            self._wide = _file_wide(self.heads)
        return self._wide

    def cyclic(self) -> bool:
        if self._cyclic is None:
            self._cyclic = _has_cycle(self.wide()[0])
        return self._cyclic


def _file_facts(tree: Tree, index: Items) -> _FileFacts:
    facts = index.derived.get("uniformity")
    if facts is not None:
        return facts
    prev = index.previous.get("uniformity") if index.previous is not None else None
    if prev is not None and not prev.duplicated and all(
            _head_at(index, k) == prev.heads_by_item[k] for k in index.fresh):
        facts = prev
    else:
        facts = _read_heads(tree, index)
    index.derived["uniformity"] = facts
    return facts


def _head_at(index: Items, k: int) -> _Head | None:
    return _head(index, k) if index.items[k].kind in FUNCTION_IDS else None


def _read_heads(tree: Tree, index: Items) -> _FileFacts:
    """`_functions(tree)` and each one's head, read off the items (no walk of the tree)."""
    items = index.items
    # A head is a non-empty tuple: `or` computes only the missing ones.
    heads_by_item = [(it.facts.get("uniformity") or _head(index, k)) if it.kind in FUNCTION_IDS else None
                     for k, it in enumerate(items)]
    named = [(k, h) for k, h in enumerate(heads_by_item) if h is not None and h[0]]
    at = {h[0]: k for k, h in named}
    if len(at) == len(named):
        return _FileFacts(heads_by_item, at, {h[0]: h for _, h in named}, False)
    # A name defined twice: which definition counts follows _functions' walk (its
    # definitions are the items': children of the root or of a container).
    by_range = {(index.starts[k], index.ends[k]): k for k, _ in named}
    found = ((name, by_range.get((n.start_byte, n.end_byte))) for name, n in _functions(tree).items())
    at = {name: k for name, k in found if k is not None}
    return _FileFacts(heads_by_item, at, {name: heads_by_item[k] for name, k in at.items()}, True)  # type: ignore[misc]


_FileWide = tuple[dict[str, set[str]], dict[str, bool], set[str], frozenset[int]]


def _file_wide(heads: dict[str, _Head]) -> _FileWide:
    """Callees within the file, direct and transitive synchronisation, flat dimensions."""
    callees: dict[str, set[str]] = {}
    direct_sync: dict[str, bool] = {}
    local_dims: set[str] | None = set()
    names = heads.keys()
    for name, (_, called, sync, dims, _) in heads.items():
        if dims is None or local_dims is None:
            local_dims = None
        else:
            local_dims |= dims
        callees[name] = called & names
        direct_sync[name] = sync
    return callees, direct_sync, _transitive_sync(callees, direct_sync), flat_dimensions(local_dims)


class _Functions(Mapping):
    """Name -> the definition that counts, read off the items when asked (few are)."""

    __slots__ = ("_at", "_nodes")

    def __init__(self, at: dict[str, int], nodes: list[Node]) -> None:
        self._at, self._nodes = at, nodes

    def __getitem__(self, name: str) -> Node:
        return self._nodes[self._at[name]]

    def __contains__(self, name: object) -> bool:
        return name in self._at

    def __iter__(self) -> Iterator[str]:
        return iter(self._at)

    def __len__(self) -> int:
        return len(self._at)


def _has_cycle(callees: dict[str, set[str]]) -> bool:
    """Some functions call each other round (recursion, which OpenCL C forbids; a
    function calling itself does not count: `result` leaves it out of its callees)."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    for root in callees:
        if root in state:
            continue
        state[root] = 1
        stack = [(root, iter(callees[root]))]
        while stack:
            name, todo = stack[-1]
            nxt = next((c for c in todo if c != name and state.get(c) != 2), None)
            if nxt is None:
                state[name] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                return True
            else:
                state[nxt] = 1
                stack.append((nxt, iter(callees[nxt])))
    return False


def _transitive_sync(callees: dict[str, set[str]], direct_sync: dict[str, bool]) -> set[str]:
    out = {f for f, s in direct_sync.items() if s}
    changed = True
    while changed:
        changed = False
        for f, cs in callees.items():
            if f not in out and cs & out:
                out.add(f)
                changed = True
    return out


# Uses of macros standing for collectives in one function: (start, end, what it stands
# for), offsets relative to the function. Part of the function's memo key: it is all the
# function's result reads of the macros, so a changed `#define` is a changed key.
_MacroSyncs = tuple[tuple[int, int, MacroSync], ...]


def file_analysis(tree: Tree, source: bytes | None = None, file: str = "", view: Any = None,
                  portable: Mapping[str, str] | None = None, bounds: tuple = ()) -> "_FileAnalysis":
    """The file-wide facts of one tree, shared by the barrier and race checks of one lint
    (each built its own, twice the work per keystroke): the database keeps, per file, the
    last one with its tree and view, so their identity cannot be reused by another."""
    table = current().per_file("uniformity.file_analysis", 2)
    last = table.get(file)
    if last is not None and last[0] is tree and last[1] == source and last[3] is view and last[4] == portable \
            and last[6] == bounds:
        return last[5]
    fa = _FileAnalysis(tree, source, file, view, portable)
    fa.launch_bounds = bounds  # the host's launch sizes kernel arguments equal (aligned.py)
    table.pop(file, None)
    table.put(file, (tree, source, file, view, portable, fa, bounds))
    return fa


class _FileAnalysis:
    def __init__(self, tree: Tree, source: bytes | None = None, file: str = "", view: Any = None,
                 portable: Mapping[str, str] | None = None) -> None:
        self.launch_bounds: tuple = ()
        text = tree.root_node.text or b"" if source is None else source
        self.index = index = items_of(tree, text, file)
        # the kernel specifier and address spaces spelt through macros and typedefs (`KERNEL`, `gptr`)
        self.spellings: Spellings | None = Spellings(tree.root_node, text, view) or None
        self.spellings_key = self.spellings.key() if self.spellings is not None else ()  # (the memo's)
        self.dead = _dead_ranges(view, portable)
        facts = _live_definitions(_file_facts(tree, index), index, _compiled_out(view))
        self.at = facts.at
        self.cyclic = facts.cyclic()
        self.functions = _Functions(facts.at, index.nodes)
        self.callees, self.direct_sync, self.syncs, self.flat_dims = facts.wide()
        self.macro_syncs = _macro_syncs(index, facts, view) if view is not None else {}
        self.view = view
        self.value_names = _value_macro_names(view)
        if self.macro_syncs:  # the file-wide facts know calls only: add the macros'
            self.direct_sync = {**self.direct_sync, **dict.fromkeys(self.macro_syncs, True)}
            self.syncs = _transitive_sync(self.callees, self.direct_sync)
        self.results: dict[str, FunctionResult] = {}  # offsets relative, see _Relative
        self.in_progress: set[str] = set()
        # A kernel's dataflow facts as its result computed them, until the race check takes
        # them (`kernel_facts`): one dataflow run per kernel and lint instead of two.
        self._kernel_facts: dict[str, Facts] = {}
        self._names: dict[str, tuple[dict[int, VarInfo], list[VarInfo]]] = {}  # see `names`
        # Program-scope `__global` variables (OpenCL C 2.0, with or without the word): names
        # every function may use.
        self.program_globals = program_globals(tree.root_node)

    def names(self, name: str) -> Names:
        """The function's parameters and locals and what each identifier names, resolved once
        per tree for the barrier and race checks: each caller gets a `Names` of its own over
        them, as each analysis adds the field keys it reads."""
        got = self._names.get(name)
        if got is None:
            found = resolve(self.functions[name], self.program_globals, self.spellings)
            got = self._names[name] = (found.uses, found.variables)
        return Names(*got)

    def summary(self, name: str) -> Summary | None:
        """The callee summary with `sync_span` relative to the function's start."""
        if name not in self.functions:
            return None
        if name in self.in_progress:  # recursion is not OpenCL C; stay conservative
            return Summary(ret=B.WI)
        return self.result(name).summary

    def result(self, name: str) -> FunctionResult:
        """A function's result with every offset relative to a function (its own, or a
        callee's for notes that point into it), so editing elsewhere in the file reuses
        it: the memo key is the function's text and its callees' summaries, not where
        any of them stands."""
        if name in self.results:
            return self.results[name]
        func = self.functions[name]
        self.in_progress.add(name)
        try:
            callee_summaries = tuple(sorted((c, self.summary(c)) for c in self.callees[name]
                                            if c != name))
            macros = self.macro_syncs.get(name, ())
            at = func.start_byte
            dead = _dead_within(self.dead, at, func.end_byte)
            values = self.values(name)
            from cllint.analysis.uniformity.aligned import function_comparisons  # (files with a summary only)

            aligned = function_comparisons(self, name)  # comparisons of whole tiles (aligned.py)
            key = (_key(func), _is_kernel(func), callee_summaries, self.flat_dims, macros, self.spellings_key,
                   tuple((a - at, b - at) for a, b in dead), values,
                   tuple(sorted((s - at, e - at, tuple(x.start_byte - at for x in leaves))
                                for (s, e), leaves in aligned.items())))
            memo = _results()
            res = memo.get(key)
            if res is None:
                absolute = {c: _shift_summary(sm, self.functions[c].start_byte)
                            for c, sm in callee_summaries if sm is not None}
                facts = _function_facts(func, absolute, self.flat_dims, {at + a: m for a, _, m in macros}, dead,
                                        {at + a: t for a, t in values}, self.names(name), aligned)
                if facts is not None and _is_kernel(func):
                    self._kernel_facts[name] = facts
                found = FunctionResult(Summary()) if facts is None else _Reporter(facts, absolute).run()
                res = memo.put(key, _Relative(name, self.functions, self.callees[name]).result(found))
        finally:
            self.in_progress.discard(name)
        self.results[name] = res
        return res

    def kernel_facts(self, name: str) -> Facts | None:
        """The facts of kernel `name` as its result computed them in this lint, handed over
        once (the taker may add field keys to their names). None where the result was
        memoised (no dataflow ran), or the file's calls are cyclic (what a member sees of the
        others depends on where the cycle is entered: the result is not asked out of order).
        Computed with the callees' summaries and the macros and dead arms `result` reads, but
        no `live` arms: the taker compares what it would pass."""
        if self.cyclic or name not in self.syncs or name not in self.functions:
            return None
        self.result(name)
        return self._kernel_facts.pop(name, None)

    def values(self, name: str) -> tuple[tuple[int, int], ...]:
        """Uses of macros standing for work-item ids in the function: (offset relative to
        the function, tags), the uniform ones left out. Part of the memo key."""
        if not self.value_names:
            return ()
        k = self.at[name]
        facts = self.index.items[k].facts
        got = facts.get("uniformity.values")
        if got is None or got[0] != self.value_names:
            got = facts["uniformity.values"] = (self.value_names, value_uses_in(self.index.nodes[k], self.value_names))
        start = self.index.starts[k]
        out = []
        for use in got[1]:
            try:  # the preprocessor view is someone else's code: never stop the rules over it
                tags = value_tags(self.view, use, start + use[0], self.flat_dims)
            except Exception:  # noqa: BLE001
                tags = 0
            if tags:
                out.append((use[0], tags))
        return tuple(out)

    def findings(self, name: str) -> list[Finding]:
        """The function's findings at today's positions."""
        return [_Relative.resolve(f, name, self.functions) for f in self.result(name).findings]


def _value_macro_names(view: Any) -> frozenset[str]:
    if view is None:
        return frozenset()
    try:  # the preprocessor view is someone else's code: without it, no macro is known
        return value_macro_names(view)
    except Exception:  # noqa: BLE001
        return frozenset()


def _dead_ranges(view: Any, portable: Mapping[str, str] | None = None) -> DeadRanges:
    """Arms the preprocessor drops, where that is known (`decided_dead_ranges`: the file,
    `-D` or, in target mode, the target decides). Code there is not compiled, so it neither
    synchronises nor diverges. An arm that is false only because a name is defined nowhere
    (`#if defined(IMG_7x7)` in a file built with `-D`) still counts: the host may define it."""
    try:  # the preprocessor view is someone else's code: without it, every arm counts
        return decided_dead_ranges(view, portable)
    except Exception:  # noqa: BLE001
        return ()


def _compiled_out(view: Any) -> DeadRanges:
    """Every arm the preprocessor drops when nothing more is defined (`inactive_ranges`)."""
    try:
        return tuple(view.inactive_ranges()) if view is not None else ()
    except Exception:  # noqa: BLE001 - someone else's code
        return ()


def _dead_within(dead: DeadRanges, start: int, end: int) -> DeadRanges:
    return tuple(r for r in dead if r[0] < end and r[1] > start) if dead else ()


def _live_definitions(facts: _FileFacts, index: Items, dead: DeadRanges) -> _FileFacts:
    """`facts` without the definitions in dead arms (`#ifdef DEBUG float f() {...} #else
    float f() {...} #endif`): the live one is the function. Not kept on the index, whose
    reuse between trees knows nothing of the preprocessor."""
    if not dead:
        return facts
    starts = [a for a, _ in dead]

    def is_dead(k: int) -> bool:
        i = bisect_right(starts, index.starts[k]) - 1
        return i >= 0 and index.starts[k] < dead[i][1]

    # Only a definition with a live twin goes: one of them is compiled, and with no `-D`
    # the preprocessor's guess is the best there is.
    live_names = {h[0] for k, h in enumerate(facts.heads_by_item) if h is not None and not is_dead(k)}
    drop = {k for k, h in enumerate(facts.heads_by_item) if h is not None and is_dead(k) and h[0] in live_names}
    if not drop:
        return facts
    heads_by_item = [None if k in drop else h for k, h in enumerate(facts.heads_by_item)]
    at: dict[str, int] = {}
    for k, h in enumerate(heads_by_item):
        if h is not None and h[0]:
            at.setdefault(h[0], k)  # two live ones would not compile: the first counts
    return _FileFacts(heads_by_item, at, {name: heads_by_item[k] for name, k in at.items()},  # type: ignore[misc]
                      facts.duplicated)


def _macro_syncs(index: Items, facts: _FileFacts, view: Any) -> dict[str, _MacroSyncs]:
    """By function name, the uses of macros that stand for collectives where they are
    used (macros.py). Only names the function calls or states alone, and that the file or
    its includes `#define`, are looked for: for most functions, none."""
    try:
        defined = view.defined_names()
    except Exception:  # noqa: BLE001 - someone else's code; without it, no macro is known
        return {}
    out: dict[str, _MacroSyncs] = {}
    if not defined:
        return out
    for name, k in facts.at.items():
        _, called, _, _, alone = facts.heads[name]
        names = (defined & called) | (defined & alone)
        if not names:
            continue
        found = []
        for use in _macro_uses(index, k, frozenset(names)):
            macro = _resolve_use(view, use, index.starts[k])
            if macro is not None:
                found.append((use[0], use[1], macro))
        if found:
            out[name] = tuple(found)
    return out


def _resolve_use(view: Any, use: Use, start: int) -> MacroSync | None:
    try:  # the preprocessor view is someone else's code: never stop the rules over it
        return resolve_macro(view, use, start + use[0])
    except Exception:  # noqa: BLE001
        return None


def _macro_uses(index: Items, k: int, names: frozenset[str]) -> tuple[Use, ...]:
    """`macros.uses_in`, carried over with the item while its text and `names` stay."""
    facts = index.items[k].facts
    got = facts.get("uniformity.macros")
    if got is None or got[0] != names:
        got = facts["uniformity.macros"] = (names, uses_in(index.nodes[k], names))
    return got[1]


def _key(func: Node) -> tuple[bytes | None, int]:
    """A function's memo key: its text, and its node count, since with a syntax error
    elsewhere the same text can parse differently (tree-sitter's error recovery is global)."""
    return func.text, func.descendant_count


_Prepass = tuple[set[str], bool, set[str] | None, set[str]]


def _prepass_of(index: Items, k: int) -> _Prepass:
    """`_prepass` of function item k, part by part: an edit in a body walks the statement
    it changed again, not the whole function (the union of the parts' calls and
    dimensions is the whole body's, whatever their order)."""
    body = index.body(k)
    if body is None:
        return _prepass(index.nodes[k])
    called: set[str] = set()
    sync = False
    dims: set[str] | None = set()
    alone: set[str] = set()
    memo = _prepasses()
    for node, key in body.parts:
        hit = memo.get(key)
        if hit is None:
            hit = memo.put(key, _walk_calls(node))
        called |= hit[0]
        sync = sync or hit[1]
        dims = None if dims is None or hit[2] is None else dims | hit[2]
        alone |= hit[3]
    return called, sync, dims, alone


def _prepass(func: Node) -> _Prepass:
    """Calls, whether the body synchronises, and the local-id dimensions it names;
    memoised on the function's text (keystrokes elsewhere do not redo the walk)."""
    key = _key(func)
    memo = _prepasses()
    hit = memo.get(key)
    if hit is not None:
        return hit
    return memo.put(key, _walk_calls(func.child_by_field_name("body")))


_PREPASS_KINDS = frozenset({"call_expression", "expression_statement", "macro_invocation"})


def _walk_calls(node: Node | None) -> _Prepass:
    called: set[str] = set()
    sync = False
    dims: set[str] | None = set()
    alone: set[str] = set()
    # The three kinds read, by one query (in C, pre-order as a walk) instead of every node.
    for n in nodes_of_kinds(node, _PREPASS_KINDS) if node is not None else ():
        t = n.type
        if t == "call_expression":
            c = callee_name(n)
            if c:
                called.add(c)
                sync = sync or B.sync_kind(c) is not None
                if c in LOCAL_QUERIES and dims is not None:
                    dims = _note_dimension(n, c, dims)
        elif t == "expression_statement" or t == "macro_invocation":
            c = statement_name(n)
            if c:
                alone.add(c)
    return called, sync, dims, alone


def _shift_summary(summary: Summary, delta: int) -> Summary:
    if summary.sync is None:
        return summary
    a, b = summary.sync_span
    return replace(summary, sync_span=(a + delta, b + delta))


class _Relative:
    """Converts a freshly computed result's absolute offsets to (anchor, offset) pairs.

    The anchor is the function holding the offset, encoded in the offset itself: a
    Finding's start/end and note offsets become `offset - anchor.start`, and a note's
    message gains the anchor's name through `_ANCHOR` (private, stripped on resolve)."""

    def __init__(self, name: str, functions: Mapping[str, Node], callees: set[str]):
        self.own = functions[name]
        self.others = [(c, functions[c]) for c in callees if c in functions]

    def _anchor(self, offset: int) -> tuple[str, int]:
        if self.own.start_byte <= offset <= self.own.end_byte:
            return "", offset - self.own.start_byte
        for c, node in self.others:
            if node.start_byte <= offset <= node.end_byte:
                return c, offset - node.start_byte
        return "\x00abs", offset  # outside every function: keep absolute

    def result(self, res: FunctionResult) -> FunctionResult:
        start = self.own.start_byte
        findings = []
        for f in res.findings:
            notes = []
            for a, b, msg in f.notes:
                anchor, ra = self._anchor(a)
                notes.append((ra, ra + (b - a), _ANCHOR.join((anchor, msg))))
            findings.append(Finding(f.code, f.start - start, f.end - start, f.message, tuple(notes)))
        return FunctionResult(_shift_summary(res.summary, -start), findings)

    @staticmethod
    def resolve(f: Finding, name: str, functions: Mapping[str, Node]) -> Finding:
        start = functions[name].start_byte
        notes = []
        for a, b, tagged in f.notes:
            anchor, msg = tagged.split(_ANCHOR, 1)
            base = start if anchor == "" else 0 if anchor == "\x00abs" else (
                functions[anchor].start_byte if anchor in functions else start)
            notes.append((a + base, b + base, msg))
        return Finding(f.code, f.start + start, f.end + start, f.message, tuple(notes))


_ANCHOR = "\x00@"


def analyse_file(tree: Tree, source: bytes | None = None, focus: list[tuple[int, int]] | None = None,
                 file: str = "", view: Any = None, portable: Mapping[str, str] | None = None,
                 bounds: tuple = ()) -> FileUniformity:
    """The findings of the file, or with `focus` (sorted, disjoint byte ranges) of the
    functions that overlap it: the incremental driver takes the others from its cache.
    The file-wide facts (callee summaries, transitive synchronisation, flat dimensions)
    are read from every function either way. `view`: the file's preprocessor view, for
    macros that stand for collectives (None: none does). `portable`: see `_dead_ranges`."""
    text = tree.root_node.text or b"" if source is None else source
    if not _may_synchronise(text) and not _macros_may_synchronise(view):
        return FileUniformity([])  # nothing synchronises: skip the walk (most files)
    fa = file_analysis(tree, text, file, view, portable, bounds)
    findings: list[Finding] = []
    starts, ends = fa.index.starts, fa.index.ends
    # Only functions that synchronise (or call one that does) can hold a finding. Their
    # results do not depend on the order they are analysed in, but for a cycle of calls:
    # where it is entered decides what its members see of each other (`summary`). Then
    # every one is analysed in _functions' order, whatever the focus.
    for name in _functions(tree) if fa.cyclic else fa.syncs:
        if name not in fa.syncs:
            continue
        k = fa.at[name]
        if meets_range(focus, starts[k], ends[k]):
            findings.extend(fa.findings(name))
        elif fa.cyclic:
            fa.result(name)
    findings.sort(key=lambda f: (f.start, f.code))
    return FileUniformity(findings)


def _may_synchronise(text: bytes) -> bool:
    """One of `_SYNC_WORDS` occurs: `bytes.find` in C, several times faster than a regex."""
    return any(word in text for word in _SYNC_WORDS)


def _macros_may_synchronise(view: Any) -> bool:
    """Some macro (of an include, say) mentions one of `_SYNC_WORDS`: a macro standing for
    a collective needs one in its own body or in that of a macro it expands to."""
    if view is None:
        return False
    try:
        bodies = [m.body for m in view.macro_definitions()]
    except Exception:  # noqa: BLE001 - someone else's code; without it, no macro is known
        return False
    words = [w.decode() for w in _SYNC_WORDS]
    return any(w in body for body in bodies for w in words)


# -- one function ---------------------------------------------------------------------


LOCAL_QUERIES = {"get_local_id", "get_local_size", "get_enqueued_local_size",
                 "get_local_linear_id", "get_global_linear_id"}
# Words every synchronising call contains (barrier, work_group_*, sub_group_*, wait_group_events)
_SYNC_WORDS = (b"barrier", b"work_group_", b"wait_group_events", b"sub_group_")


def _note_dimension(call: Node, name: str, used: set[str]) -> set[str] | None:
    if name in ("get_local_linear_id", "get_global_linear_id"):
        return None
    args = call.child_by_field_name("arguments")
    named = args.named_children if args is not None else []
    arg = _text(named[0]) if named else ""
    if arg not in ("0", "1", "2"):
        return None  # a variable dimension: assume nothing
    used.add(arg)
    return used


def flat_dimensions(used: set[str] | None) -> frozenset[int]:
    """Dimensions the file's work-groups are presumably one work-item wide in.

    A file that asks for the local id or size in some literal dimension but never in
    dimension d (and never for linear ids) was written for work-groups of local size 1
    in d (OpenCV's `moments` uses (1, 32), `boxFilter` (N, 1)); there `get_global_id(d)`
    is the same for the whole work-group. Files that use no local id at all keep every
    dimension divergent.
    """
    if not used:
        return frozenset()
    return frozenset(d for d in (0, 1, 2) if str(d) not in used)


def _function_facts(func: Node, callees: dict[str, Summary | None], flat_dims: frozenset[int] = frozenset(),
                    macros: dict[int, MacroSync] | None = None, dead: DeadRanges = (),
                    values: dict[int, int] | None = None, names: Names | None = None,
                    aligned: Mapping[tuple[int, int], tuple[Node, ...]] | None = None) -> Facts | None:
    """The dataflow facts of one function; None where it has no body."""
    body = func.child_by_field_name("body")
    if body is None:
        return None
    names = resolve(func) if names is None else names
    params = [v for v in names.variables if v.param_index is not None]
    cfg = build_cfg(body, dead)
    return analyse(names, cfg, params, _is_kernel(func), lambda c: callees.get(c), flat_dims, macros, values,
                   aligned)


def _lane_divergent(facts: Facts, b: int) -> bool:
    """Clearly different within one sub-group: lane ids, or an (in)equality/modulo on work-item ids."""
    tags = facts.branch_tags.get(b, 0)
    if tags & B.LANE:
        return True
    if not tags & B.WI:
        return False
    cond = facts.cfg.nodes[b].syntax
    st = facts.in_states[b]
    for n in walk(cond) if cond is not None else ():
        if n.type == "binary_expression":
            op = n.child_by_field_name("operator")
            if op is not None and _text(op) in ("==", "!=", "%", "&"):
                left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
                if _tags_of(facts, left, st) & B.WI or _tags_of(facts, right, st) & B.WI:
                    return True
    return False


def _tags_of(facts: Facts, node: Node | None, st: dict[int, int]) -> int:
    tags = 0
    for n in walk(node) if node is not None else ():
        if n.type == "identifier":
            v = facts.names.var(n)
            if v is not None:
                tags |= st.get(v.key, 0)
        elif n.type == "call_expression":
            c = callee_name(n)
            tags |= B.source_tags(c) or 0 if c else 0
    return tags


class _Reporter:
    def __init__(self, facts: Facts, callees: dict[str, Summary | None]) -> None:
        self.f = facts
        self.callees = callees
        self.closure_cache: dict[int, list[int]] = {}

    def closure(self, v: int) -> list[int]:
        """Branches node v is (transitively) control dependent on, nearest first."""
        if v in self.closure_cache:
            return self.closure_cache[v]
        out: list[int] = []
        seen: set[int] = set()
        frontier = sorted(self.f.deps[v], reverse=True)
        while frontier:
            nxt: list[int] = []
            for b in frontier:
                if b in seen:
                    continue
                seen.add(b)
                out.append(b)
                nxt.extend(sorted(self.f.deps[b], reverse=True))
            frontier = nxt
        self.closure_cache[v] = out
        return out

    def run(self) -> FunctionResult:
        f = self.f
        findings: list[Finding] = []
        sync: str | None = None
        sync_call, sync_span, sync_params, sync_macro = "", (0, 0), 0, ""
        for site in f.calls:
            name = site.name
            kind = B.sync_kind(name)
            callee = self.callees.get(name)
            if kind is None and (callee is None or callee.sync is None):
                continue
            branches = self.closure(site.cfg_node)
            tags = [(b, f.branch_tags.get(b, 0)) for b in branches]
            params = site.guard & ~B.NONPARAM
            for _, t in tags:
                params |= t & ~B.NONPARAM
            node = site.node
            fn = node.child_by_field_name("function") or node
            if kind is not None:
                if sync is None or (sync == "subgroup" and kind != "subgroup"):
                    sync, sync_call, sync_span, sync_macro = kind, name, (fn.start_byte, fn.end_byte), site.macro
                if kind != "subgroup":
                    sync_params |= params
                findings.extend(self.check_args(site))
                # A macro standing for the call: say what it expands to.
                what = f"'{site.macro}' expands to '{name}', which" if site.macro else f"'{name}'"
                if kind == "subgroup":
                    cause = next((b for b in branches if _lane_divergent(f, b)), None)
                    if cause is not None:
                        findings.append(self.finding(
                            "CL205", fn, f"{what} may not be reached by every work-item in the sub-group",
                            cause, node, B.LANE | B.WI))
                    continue
                cause = self.cause(site, tags)
                if cause is not None:
                    code = "CL201" if kind == "barrier" else "CL202"
                    findings.append(self.finding(
                        code, fn, f"{what} may not be reached by every work-item in the work-group",
                        cause, node, B.WG_DIVERGENT, site))
                continue
            assert callee is not None
            if sync is None or (sync == "subgroup" and callee.sync != "subgroup"):
                sync, sync_call, sync_span = callee.sync, callee.sync_call, (fn.start_byte, fn.end_byte)
                sync_macro = ""  # the span is the call to the callee, no macro
            if callee.sync == "subgroup":
                continue
            from cllint.analysis.uniformity.dataflow import subst
            arg_dep = subst(callee.sync_params, site.args)
            sync_params |= params | (arg_dep & ~B.NONPARAM)
            via = f" (expanded from macro '{callee.sync_macro}')" if callee.sync_macro else ""
            inner = (callee.sync_span[0], callee.sync_span[1],
                     f"'{name}' reaches '{callee.sync_call}' here{via}")
            cause = self.cause(site, tags)
            if cause is not None:
                fd = self.finding("CL203", fn, f"'{name}' synchronises the work-group but may not be "
                                  "reached by every work-item", cause, node, B.WG_DIVERGENT, site)
                findings.append(Finding(fd.code, fd.start, fd.end, fd.message, (inner, *fd.notes)))
            elif arg_dep & B.WG_DIVERGENT:
                notes = [inner]
                for i in B.param_indices(callee.sync_params):
                    if i < len(site.args) and site.args[i] & B.WG_DIVERGENT:
                        arg = self.arg(node, i)
                        if arg is not None:
                            notes.append((arg.start_byte, arg.end_byte,
                                          f"argument {i + 1} decides whether '{name}' synchronises "
                                          "and depends on the work-item"))
                            notes.extend(self.explain_expr(arg, site.cfg_node, B.WG_DIVERGENT))
                        break
                findings.append(Finding("CL203", fn.start_byte, fn.end_byte,
                                        f"'{name}' may reach '{callee.sync_call}' in only some "
                                        "work-items of the work-group", tuple(notes)))
        summary = Summary(ret=f.ret, out=tuple(sorted(f.out.items())), sync=sync,
                          sync_call=sync_call, sync_span=sync_span, sync_params=sync_params,
                          sync_macro=sync_macro)
        return FunctionResult(summary, findings)

    @staticmethod
    def arg(call: Node, i: int) -> Node | None:
        args = call.child_by_field_name("arguments")
        named = [a for a in (args.named_children if args else []) if a.type != "comment"]
        return named[i] if i < len(named) else None

    def check_args(self, site) -> list[Finding]:
        spec = B.UNIFORM_ARGS.get(site.name)
        if not isinstance(spec, tuple) or not site.args_known:
            return []  # a macro's arguments: where they land in the expansion is unknown
        mask = (B.LANE | B.WI) if site.name.startswith("sub_group_") else B.WG_DIVERGENT
        group = "sub-group" if site.name.startswith("sub_group_") else "work-group"
        out = []
        for i in spec:
            if i < len(site.args) and site.args[i] & mask:
                arg = self.arg(site.node, i)
                if arg is None:
                    continue
                notes = tuple(self.explain_expr(arg, site.cfg_node, mask))
                out.append(Finding("CL204", arg.start_byte, arg.end_byte,
                                   f"argument {i + 1} of '{site.name}' may differ between "
                                   f"work-items in the {group}", notes))
        return out

    # -- explanations ------------------------------------------------------------------
    @staticmethod
    def cause(site: CallSite, tags: list[tuple[int, int]]) -> int | None:
        """The nearest divergent branch the call depends on; else `_GUARD` when an operand
        of `?:`, `&&` or `||` decides whether it is evaluated and varies."""
        cause = next((b for b, t in tags if t & B.WG_DIVERGENT), None)
        if cause is None and site.guard & B.WG_DIVERGENT and site.guard_node is not None:
            return _GUARD
        return cause

    def finding(self, code: str, at: Node, message: str, branch: int, call: Node, mask: int,
                site: CallSite | None = None) -> Finding:
        if branch == _GUARD and site is not None and site.guard_node is not None:
            g = site.guard_node
            culprit = self.culprit(g, self.f.in_states[site.cfg_node], mask)
            what = f"'{_text(culprit, 40)}'" if culprit is not None else "a work-item-dependent value"
            notes = [(g.start_byte, g.end_byte, f"condition depends on {what} here")]
            notes += self.chain(culprit, mask) if culprit is not None else []
            return Finding(code, at.start_byte, at.end_byte, message, tuple(notes))
        return Finding(code, at.start_byte, at.end_byte, message,
                       tuple(self.explain_branch(branch, call, mask)))

    def explain_branch(self, b: int, call: Node, mask: int) -> list[tuple[int, int, str]]:
        f = self.f
        node = f.cfg.nodes[b]
        owner, cond = node.owner, deciding(node.syntax)
        notes: list[tuple[int, int, str]] = []
        culprit = self.culprit(cond, f.in_states[b], mask)
        what = f"'{_text(culprit, 40)}'" if culprit is not None else "a work-item-dependent value"
        anchor = cond if cond is not None else owner
        inside = owner is not None and owner.start_byte <= call.start_byte < owner.end_byte
        if owner is not None and owner.type in LOOPS and inside:
            notes.append((anchor.start_byte, anchor.end_byte,
                          f"loop condition depends on {what}, so the trip count may differ "
                          "between work-items"))
        else:
            kind = "switch" if owner is not None and owner.type == "switch_statement" else "branch"
            notes.append((anchor.start_byte, anchor.end_byte, f"{kind} condition depends on {what} here"))
            if owner is not None and not inside:
                jump = next((n for n in walk(owner) if n.type in JUMPS), None)
                if jump is not None:
                    word = jump.type.split("_")[0]
                    notes.append((jump.start_byte, jump.end_byte,
                                  f"work-items that take this '{word}' skip the call"))
        if culprit is not None:
            notes.extend(self.chain(culprit, mask))
        return notes

    def explain_expr(self, expr: Node, v: int, mask: int) -> list[tuple[int, int, str]]:
        culprit = self.culprit(expr, self.f.in_states[v], mask)
        return self.chain(culprit, mask) if culprit is not None else []

    def culprit(self, expr: Node | None, st: dict[int, int], mask: int) -> Node | None:
        """The first variable, struct field or source call in `expr` that varies."""
        stack = [expr] if expr is not None else []
        while stack:
            n = stack.pop()
            if self.f.values.get(n.start_byte, 0) & mask and n.type == "identifier":
                return n  # a macro standing for a work-item id
            keys = self.keys_of(n)
            if keys is not None:
                if any(st.get(k, 0) & mask for k in keys[0]):
                    return n
                continue  # a uniform field: its struct's other fields are not read here
            if n.type == "call_expression":
                c = callee_name(n)
                if c and (B.source_tags(c) or 0) & mask:
                    return n
            stack.extend(reversed(n.children))
        return None

    def keys_of(self, node: Node) -> tuple[list[int], str] | None:
        """The state keys a read of a variable or `c.field` sees, most specific first,
        and the name to show for it."""
        names = self.f.names
        if node.type == "identifier":
            v = names.var(node)
            return ([v.key, *names.overlapping(v, None)], v.name) if v is not None else None
        fp = names.field_path(node) if node.type == "field_expression" else None
        if fp is None:
            return None
        v, path = fp
        own = names.fields.get(v.key, {}).get(path)
        keys = [k for k in names.overlapping(v, path) if k != own]
        return ([own] if own is not None else []) + keys + [v.key], f"{v.name}.{path}"

    def chain(self, culprit: Node, mask: int) -> list[tuple[int, int, str]]:
        notes: list[tuple[int, int, str]] = []
        seen: set[int] = set()
        node: Node | None = culprit
        for _ in range(MAX_CHAIN):
            found = self.keys_of(node) if node is not None else None
            if found is None:
                break
            keys, name = found
            key = next((k for k in keys if k in self.f.origins), None)
            if key is None or key in seen:
                break
            seen.add(key)
            origin = self.f.origins[key]
            if origin.node is None:
                break
            o = origin.node
            if origin.kind == "merge":
                notes.append((o.start_byte, o.end_byte,
                              f"'{name}' is assigned under a work-item-dependent condition here"))
                break
            src = next((n for n in walk(o) if n.type == "call_expression"
                        and (B.source_tags(callee_name(n) or "") or 0) & mask), None)
            if src is not None:
                notes.append((src.start_byte, src.end_byte,
                              f"'{name}' comes from '{_text(src, 40)}' here"))
                break
            nxt = next((n for n in walk(o) if n.type == "identifier" and n != node
                        and (w := self.f.names.var(n)) is not None and w.key not in seen
                        and w.key in self.f.origins), None)
            if nxt is not None:
                notes.append((o.start_byte, o.end_byte,
                              f"'{name}' is computed from '{_text(nxt)}' here"))
                node = nxt
                continue
            call = o if o.type == "call_expression" else None
            if call is not None and callee_name(call):
                notes.append((o.start_byte, o.end_byte,
                              f"'{name}' comes from a call to '{callee_name(call)}' here"))
            else:
                notes.append((o.start_byte, o.end_byte,
                              f"'{name}' gets a work-item-dependent value here"))
            break
        return notes
