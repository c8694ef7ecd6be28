"""Incremental linting: an edit inside one function re-analyses that function.

A file is its *skeleton* (everything outside function bodies: declarations, function
heads, directives) plus its function bodies. While the skeleton and the options stay
the same, a function's diagnostics depend only on its own text and on the functions
it calls (their summaries), so:

- unchanged functions keep their previous diagnostics, moved to where they now stand;
- changed functions, and their callers (a callee's summary may have changed), are
  re-analysed by running the rules on the whole tree with a *focus*: rules may skip
  work inside the other functions, whose results come from the cache;
- one check reads the other way: a helper check (CL114) compares every call site of
  a helper. When the changed functions' own call-site findings differ from before,
  the other callers of their callees are re-analysed too (early cut-off: usually
  they do not differ).

A syntax error can change how untouched code parses (tree-sitter's error recovery is
global): the host passes the ranges whose syntax changed (`Tree.changed_ranges`), and
functions they touch count as changed too. Any change to the skeleton (a signature, a
declaration, a directive outside functions, or its parse) or to the options falls back
to a full run. The result always equals a full run of the same rules on the same tree;
tests/test_incremental_lint.py checks that on random edits.
"""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node, Tree

from cllint.analysis.database import current
from cllint.analysis.digest import blake2b
from cllint.analysis.diagnostics import Diagnostic, Edit, Fix, Note, Span
from cllint.analysis.toplevel import CONTAINERS as _CONTAINERS, FUNCTION_IDS, Items, items_of
from cllint.analysis.uniformity.summaries import LOCAL_QUERIES
from cllint.analysis.lazy_re import lazy

_WORD = lazy(rb"[A-Za-z_]\w*")
# A name glued to a number (`0.0fmid(t)`, typed mid-edit): error recovery reads a number
# with suffix letters and then the name, where the number's letters end.
_GLUED = lazy(rb"(?<=[0-9.])[A-Za-z_]\w*")


# One object per distinct word across bodies and files: an editor keeps every open file's
# words, mostly the same few hundred identifiers (100 copies of a 3,000-line file: -12 MiB).
# Trimmed when it grows past a vocabulary's size; sharing is all it buys, never correctness.
# The database's "incremental.words".
_SHARED_MAX = 1 << 17


def _words(source: bytes, start: int, end: int) -> frozenset[bytes]:
    """Identifiers in a body (calls, by name), over-approximated: a word glued to a number
    counts from each of its letters on, since the number's suffix may end at any of them."""
    words = set(_WORD.findall(source, start, end))
    for glued in _GLUED.findall(source, start, end):
        words.update(glued[k:] for k in range(1, len(glued)) if not glued[k:k + 1].isdigit())
    shared = current().table("incremental.words", _SHARED_MAX)
    shared.trim()
    share = shared.setdefault
    return frozenset([share(w, w) for w in words])
_DIRECTIVE = lazy(rb"(?m)^[ \t]*#(?:[^\n]*\\[ \t\f\v]*\r?\n)*[^\n]*")
# A call the barrier rules' flat dimensions read, with the rest of its line
_LOCAL_QUERY = lazy(rb"\b(?:" + b"|".join(sorted(n.encode() for n in LOCAL_QUERIES)) + rb")\b[^\n]*")


class Function:
    __slots__ = ("name", "start", "end", "body_start", "body_end", "key", "words", "pointer_params",
                 "directives", "nodes", "local_queries")
    name: bytes
    start: int
    end: int
    body_start: int  # just inside '{'
    body_end: int  # at '}'
    key: bytes  # hash of the function's text
    words: frozenset[bytes]  # identifiers in the body (calls, by name)
    pointer_params: bool  # its head may declare a pointer (or array) parameter
    directives: bytes  # preprocessor lines in the body: they act beyond it
    # its node count: with a syntax error elsewhere the same text can parse otherwise
    nodes: int
    # its local-id queries, each with the rest of its line: the barrier rules read which
    # dimensions the whole file asks local ids for (flat_dimensions), not just callers
    local_queries: bytes

    __match_args__ = ("name", "start", "end", "body_start", "body_end", "key", "words", "pointer_params",
                      "directives", "nodes", "local_queries")

    def __init__(
        self,
        name: bytes,
        start: int,
        end: int,
        body_start: int,
        body_end: int,
        key: bytes,
        words: frozenset[bytes] = frozenset(),
        pointer_params: bool = True,
        directives: bytes = b"",
        nodes: int = 0,
        local_queries: bytes = b"",
    ) -> None:
        self.name = name
        self.start = start
        self.end = end
        self.body_start = body_start
        self.body_end = body_end
        self.key = key
        self.words = words
        self.pointer_params = pointer_params
        self.directives = directives
        self.nodes = nodes
        self.local_queries = local_queries

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"name={self.name!r}, " f"start={self.start!r}, "
                f"end={self.end!r}, " f"body_start={self.body_start!r}, " f"body_end={self.body_end!r}, "
                f"key={self.key!r}, " f"words={self.words!r}, " f"pointer_params={self.pointer_params!r}, "
                f"directives={self.directives!r}, " f"nodes={self.nodes!r}, "
                f"local_queries={self.local_queries!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.name, self.start, self.end, self.body_start, self.body_end, self.key, self.words,
                self.pointer_params, self.directives, self.nodes, self.local_queries)
        theirs = (other.name, other.start, other.end, other.body_start, other.body_end, other.key,
                  other.words, other.pointer_params, other.directives, other.nodes, other.local_queries)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.name, self.start, self.end, self.body_start, self.body_end, self.key, self.words,
                     self.pointer_params, self.directives, self.nodes, self.local_queries))

    def moved(self, delta: int) -> Function:
        """The same function text, `delta` bytes further on."""
        # built directly: a keystroke moves every function after it (records.replace: 4x the cost)
        return Function(self.name, self.start + delta, self.end + delta, self.body_start + delta,
                        self.body_end + delta, self.key, self.words, self.pointer_params, self.directives,
                        self.nodes, self.local_queries)


class LintMemo:
    """What one file's previous lint left behind for the next one."""

    skeleton: bytes
    functions: list[Function]
    diags: list[list[Diagnostic]]  # per function, at old offsets
    outside: list[Diagnostic]  # not inside any function
    stats: dict[str, int]
    revision: int  # the file revision it was made from (analysis/db.py)
    # the needles of source_kind.not_opencl_reason its text does not hold (None: not looked for)
    absent: frozenset[bytes] | None

    __match_args__ = ("skeleton", "functions", "diags", "outside", "stats", "revision", "absent")

    def __init__(
        self,
        skeleton: bytes = b"",
        functions: list[Function] | None = None,
        diags: list[list[Diagnostic]] | None = None,
        outside: list[Diagnostic] | None = None,
        stats: dict[str, int] | None = None,
        revision: int = -1,
        absent: frozenset[bytes] | None = None,
    ) -> None:
        self.skeleton = skeleton
        self.functions = [] if functions is None else functions
        self.diags = [] if diags is None else diags
        self.outside = [] if outside is None else outside
        self.stats = {} if stats is None else stats
        self.revision = revision
        self.absent = absent

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"skeleton={self.skeleton!r}, "
                f"functions={self.functions!r}, " f"diags={self.diags!r}, " f"outside={self.outside!r}, "
                f"stats={self.stats!r}, " f"revision={self.revision!r}, " f"absent={self.absent!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.skeleton, self.functions, self.diags, self.outside, self.stats, self.revision, self.absent)
        theirs = (other.skeleton, other.functions, other.diags, other.outside, other.stats, other.revision,
                  other.absent)
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable


def _function_name(node: Node) -> bytes:
    d = node.child_by_field_name("declarator")
    while d is not None and d.type != "function_declarator":
        d = d.child_by_field_name("declarator")
    ident = d.child_by_field_name("declarator") if d is not None else None
    return ident.text or b"" if ident is not None and ident.type == "identifier" else b""


def _may_take_pointer(definition: Node) -> bool:
    """False only when every parameter is a built-in scalar or vector type, passed by
    value: no pointer, array, typedef name or macro that could stand for one."""
    d = definition.child_by_field_name("declarator")
    while d is not None and d.type != "function_declarator":
        d = d.child_by_field_name("declarator")
    params = d.child_by_field_name("parameters") if d is not None else None
    if params is None:
        return True
    for p in params.named_children:
        if p.type == "comment":
            continue
        if p.type != "parameter_declaration":
            return True  # `...`, a macro, an error
        t = p.child_by_field_name("type")
        decl = p.child_by_field_name("declarator")
        if t is None or t.type != "primitive_type" or (decl is not None and decl.type != "identifier"):
            return True
    return False


def top_level_functions(tree: Tree, source: bytes, known: dict[bytes, Function] | None = None,
                        items: Items | None = None) -> list[Function]:
    """`known`: the last run's functions by key (a keystroke changes one function: the
    others are not scanned again, only moved to where they now start). `items`: the tree's
    items matched with the file's previous tree (toplevel.items_of): an item carried over keeps
    the record read off it, moved by its shift, and is not hashed again (0.3-0.5 ms of a
    keystroke on a 90 KB file)."""
    if items is not None and items.tree is tree:
        return _functions_of_items(items, source, known)
    out: list[Function] = []
    for node, body in _definitions(tree, source):
        out.append(_function(node, body, source, known))
    return out


def _function(node: Node, body: Node, source: bytes, known: dict[bytes, Function] | None) -> Function:
    start = node.start_byte
    key = blake2b(source[start : node.end_byte], digest_size=16).digest()
    seen = known.get(key) if known is not None else None
    nodes = node.descendant_count
    if seen is None or seen.nodes != nodes:
        return Function(_function_name(node), start, node.end_byte, body.start_byte + 1,
                        body.end_byte - 1, key,
                        _words(source, body.start_byte, body.end_byte),
                        _may_take_pointer(node),
                        b"\n".join(_DIRECTIVE.findall(source, body.start_byte, body.end_byte)),
                        nodes, b"\n".join(_LOCAL_QUERY.findall(source, body.start_byte, body.end_byte)))
    if seen.start == start:
        return seen  # same text at the same place: the same record
    return seen.moved(start - seen.start)


def _functions_of_items(items: Items, source: bytes, known: dict[bytes, Function] | None) -> list[Function]:
    """`top_level_functions` read off the items: the same definitions in the same order
    (`_definitions` walks the same containers), each item's record kept in its facts (None
    for a definition `_definitions` leaves out) and moved to where the item now starts."""
    out: list[Function] = []
    nodes, starts = items.nodes, items.starts
    for k, item in enumerate(items.items):
        if item.kind not in FUNCTION_IDS:
            continue
        kept = item.facts.get("incremental")
        if kept is None:
            node = nodes[k]
            body = _valid_body(node, source)
            kept = item.facts["incremental"] = _function(node, body, source, known) if body is not None else False
        if kept is False:
            continue
        start = starts[k]
        if kept.start != start:
            kept = item.facts["incremental"] = kept.moved(start - kept.start)
        out.append(kept)
    return out


def _definitions(tree: Tree, source: bytes):  # noqa: ANN202 - yields (definition, body) nodes
    """The function definitions the driver analyses one by one, in order: found through the
    containers (`#if` groups...), each with real braces around its body."""
    stack = list(reversed(tree.root_node.children))
    while stack:
        node = stack.pop()
        if node.type == "function_definition":
            body = _valid_body(node, source)
            if body is not None:
                yield node, body
        elif node.type in _CONTAINERS:
            stack.extend(reversed(node.children))


def _valid_body(node: Node, source: bytes) -> Node | None:
    """A definition's body, if its braces are real. A body with syntax errors inside still
    delimits its function (mid-typing, a body always has errors)."""
    body = node.child_by_field_name("body")
    if body is None or body.end_byte - body.start_byte < 2 or not (
            source[body.start_byte] == 123 and source[body.end_byte - 1] == 125) \
            or body.child(body.child_count - 1).is_missing:  # 123, 125: '{', '}'
        return None
    return body


def function_ranges(tree: Tree, source: bytes) -> list[tuple[int, int]]:
    """(start, end) of each function `top_level_functions` reads, without reading them (a rule
    that groups findings by function asks this on every keystroke)."""
    return [(node.start_byte, node.end_byte) for node, _ in _definitions(tree, source)]


def skeleton_parses(tree: Tree, functions: list[Function]) -> bool:
    """No syntax error outside the function bodies in `functions`, and no function
    definition they leave out: then nothing in the skeleton reads any body."""
    root = tree.root_node
    if not root.has_error:
        return True
    starts = {f.start for f in functions}
    stack = list(root.children)
    while stack:
        node = stack.pop()
        if node.type == "function_definition" and node.start_byte in starts:
            if any(c.has_error for c in node.children if c.type != "compound_statement"):
                return False
        elif node.type in _CONTAINERS:
            stack.extend(node.children)
        elif node.has_error or node.type == "function_definition":
            return False
    return True


def skeleton_of(source: bytes, functions: list[Function], extra: bytes) -> bytes:
    """The text outside function bodies, and the directives inside them: a `#define` or
    an `#if` in one body can change how the code after it reads."""
    h = blake2b(extra, digest_size=16)
    pos = 0
    for f in functions:
        h.update(source[pos : f.body_start])
        h.update(b"\0")
        h.update(f.directives)
        h.update(b"\0")
        pos = f.body_end
    h.update(source[pos:])
    return h.digest()


def _changed(old: list[Function], new: list[Function], dirty: list[tuple[int, int]]) -> set[int] | None:
    """Functions whose text changed or whose body a dirty range touches; None when a dirty
    range reaches a function head or code outside functions (the skeleton may read
    differently now), or when a local-id query changed (every barrier may read it)."""
    changed = {i for i, (a, b) in enumerate(zip(old, new)) if a.key != b.key}
    if any(old[i].local_queries != new[i].local_queries for i in changed):
        return None
    starts = [f.start for f in new]
    for s, e in dirty:
        i = _bisect_right(starts, s) - 1
        # body_start - 1 is the '{': the body's own node starts there
        if i < 0 or s < new[i].body_start - 1 or e > new[i].end:
            return None
        changed.add(i)
    return changed


_DEFINITION = frozenset({"function_definition"})


def _defines_nested(tree: Tree, functions: list[Function], changed: set[int]) -> bool:
    """A changed function whose range holds another definition (error recovery took a
    following definition into its body): an edit there may define or hide that name for
    every function that uses it, which the call graph by the outer name does not see."""
    from cllint.analysis.model.walk import nodes_of_kinds

    ranges = sorted((functions[i].body_start, functions[i].end) for i in changed)
    return bool(nodes_of_kinds(tree.root_node, _DEFINITION, ordered=False, ranges=ranges))


def _with_line_neighbours(source: bytes, functions: list[Function], changed: set[int]) -> tuple[set[int], bool]:
    """`changed` with every function that shares a line with one in it, transitively; and
    whether one in it shares a line with skeleton code. A finding may read the line its
    declaration starts on: a fix inserts a line before it (CL309's pragma), and only one
    of the declarations on a line gets it. Where `}half h;` ends a function, the
    insertion point lies in that function's body and moves with its text, and which
    declaration's report carries the fix depends on the others': neither is a function's
    own text. Which items share a line is the skeleton's (the text between them), so
    unchanged when the skeleton is."""
    out = set(changed)
    todo = list(changed)
    skeleton = False
    n = len(functions)
    while todo:
        i = todo.pop()
        f = functions[i]
        line_start = source.rfind(b"\n", 0, f.start) + 1
        prev_end = functions[i - 1].end if i > 0 else 0
        if source[max(line_start, prev_end) : f.start].strip():
            skeleton = True
        if i > 0 and prev_end > line_start and i - 1 not in out:
            out.add(i - 1)
            todo.append(i - 1)
        line_end = source.find(b"\n", f.end)
        line_end = len(source) if line_end < 0 else line_end
        next_start = functions[i + 1].start if i + 1 < n else len(source)
        if source[f.end : min(line_end, next_start)].strip():
            skeleton = True
        if i + 1 < n and next_start < line_end and i + 1 not in out:
            out.add(i + 1)
            todo.append(i + 1)
    return out, skeleton


def _move(d: Diagnostic, mapping: _PositionMap) -> Diagnostic:
    # Most kept diagnostics stand before the edit: leave those objects alone.
    fixed = mapping.fixed_below
    if d.span.end < fixed and not d.notes and d.fix is None:
        return d
    spans = [d.span, *(n.span for n in d.notes), *(e.span for e in (d.fix.edits if d.fix else ()))]
    if all(s.end < fixed for s in spans if s.file == d.span.file):
        return d

    def move(span: Span) -> Span:
        if span.file != d.span.file:
            return span
        return Span(span.file, mapping(span.start), mapping(span.end))

    fix = d.fix
    if fix is not None:
        fix = Fix(fix.title, tuple(Edit(move(e.span), e.replacement) for e in fix.edits), fix.applicability)
    notes = tuple(Note(move(n.span), n.message) for n in d.notes) if d.notes else ()
    return Diagnostic(d.code, d.severity, d.message, move(d.span), notes, fix, d.tags)


class _PositionMap:
    """Old offset -> new offset, given the same skeleton and function count: only
    function texts changed length. Offsets below `fixed_below` stay where they are."""

    def __init__(self, old: list[Function], new: list[Function]) -> None:
        self.old, self.new = old, new
        self.starts = [f.start for f in old]
        moved = next((i for i, (a, b) in enumerate(zip(old, new)) if a.end != b.end or a.start != b.start), None)
        self.fixed_below = old[moved].start if moved is not None else 1 << 62

    def __call__(self, offset: int) -> int:
        if offset < self.fixed_below:
            return offset
        old, new = self.old, self.new
        i = _bisect_right(self.starts, offset) - 1
        if i < 0:
            return offset
        if offset < old[i].end:
            return offset + (new[i].start - old[i].start)
        return offset + (new[i].end - old[i].end)


def _bisect_right(xs: list[int], x: int) -> int:
    lo, hi = 0, len(xs)
    while lo < hi:
        mid = (lo + hi) // 2
        if x < xs[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


class IncrementalLinter:
    """Wraps a whole-file lint function `run(source, tree) -> diagnostics`."""

    def __init__(self, run: Callable[..., list[Diagnostic]], options_key: bytes,
                 local_codes: frozenset[str] = frozenset(), source_kind: bool = False, file: str | None = None):
        """`run(source, tree, focus, local_focus)`; `local_codes`: the codes of `Rule.local`
        rules, whose findings in a caller an edit of its callee cannot change. `source_kind`:
        `run` also takes `absent=`, the needles of source_kind.not_opencl_reason the text does
        not hold, kept from run to run (a keystroke looks for them in the bodies it changed,
        not in the whole file: 27 scans of a 90 KB file were ~1 ms of each keystroke). `file`: the
        file's name for its matched items (toplevel.items_of), which the functions are read off;
        the rules' run then shares them."""
        self.run = run
        self.file = file
        self.options_key = options_key
        self.local_codes = local_codes
        self.source_kind = source_kind
        self.absent: frozenset[bytes] | None = None  # this lint's, once known

    def _call(self, source: bytes, tree: Tree, focus: list[tuple[int, int]] | None,
              local_focus: list[tuple[int, int]] | None) -> list[Diagnostic]:
        if self.absent is None:
            return self.run(source, tree, focus, local_focus)
        return self.run(source, tree, focus, local_focus, absent=self.absent)

    def _absent(self, source: bytes, functions: list[Function], memo: LintMemo | None,
                changed: set[int] | None) -> frozenset[bytes] | None:
        """The needles `source` does not hold. The text outside the changed functions' bodies
        is the memo's (same skeleton, same function keys): a needle absent there is absent now
        unless it occurs in a window around a changed body, as wide as the longest needle."""
        if not self.source_kind:
            return None
        from cllint.analysis.source_kind import NEEDLE_SPAN, absent_needles

        if changed is None or memo is None or memo.absent is None:
            return absent_needles(source)
        found = set()
        for i in changed:
            f = functions[i]
            window = source[max(0, f.body_start - NEEDLE_SPAN) : f.body_end + NEEDLE_SPAN]
            found.update(w for w in memo.absent if w in window)
        return memo.absent.difference(found) if found else memo.absent

    def lint(self, source: bytes, tree: Tree, memo: LintMemo | None,
             dirty: list[tuple[int, int]] | None = None) -> tuple[list[Diagnostic], LintMemo]:
        """`dirty`: where text or syntax changed since `memo` was made (None: unknown)."""
        known = {f.key: f for f in memo.functions} if memo else None
        items = items_of(tree, source, self.file) if self.file is not None else None
        functions = top_level_functions(tree, source, known, items)
        skeleton = skeleton_of(source, functions, self.options_key)
        changed = None
        # A root that is itself an error node means the file did not read as a translation
        # unit: error recovery may regroup anything, so nothing is carried over.
        if (memo is not None and dirty is not None and memo.skeleton == skeleton
                and len(memo.functions) == len(functions) and tree.root_node.type != "ERROR"):
            changed = _changed(memo.functions, functions, dirty)
        shares_skeleton = False
        if changed is not None and _defines_nested(tree, functions, changed):
            changed = None
        if changed is not None:
            changed, shares_skeleton = _with_line_neighbours(source, functions, changed)
        self.absent = self._absent(source, functions, memo, changed)
        if changed is None:
            diags = self._call(source, tree, None, None)
            per = self._split(functions, diags)
            starts = [f.start for f in functions]
            outside = [d for d in diags if _owner_index(functions, d.span.start, starts) is None]
            return diags, LintMemo(skeleton, functions, per, outside, {"functions": len(functions),
                                                                       "reanalysed": len(functions)},
                                   absent=self.absent)

        component = self._closure(functions, changed)
        mapping = _PositionMap(memo.functions, functions)
        # The skeleton's own diagnostics read the skeleton alone, unless a syntax error
        # there (or a definition in an error) lets a body reach it: keep them if so.
        # Or unless a changed function shares a line with skeleton code: that code's
        # findings may read the line (see _with_line_neighbours).
        keep_outside = not shares_skeleton and skeleton_parses(tree, functions)
        # Local rules re-read only the edited functions (and their line neighbours).
        local = changed if self.local_codes else component
        fresh = self._run_focused(source, tree, functions, component, keep_outside, local) if component else []
        # Early cut-off: a helper check (CL114) reads every call site of a helper, so
        # other callers' findings change only if the changed functions' own call-site
        # findings did. Usually they did not, and those callers keep their cache.
        if component and _call_sites(self._split(functions, fresh), changed) != _call_sites(memo.diags, changed):
            others = self._other_callers(functions, changed, memo.functions)
            # their call-site findings are the local rules' (CL114): they join both sets
            if others - component or (self.local_codes and others - local):
                component |= self._closure(functions, others - component)
                if self.local_codes:
                    local = local | others
                fresh = self._run_focused(source, tree, functions, component, keep_outside, local)

        fresh_per = self._split(functions, fresh)
        starts = [f.start for f in functions]
        if component and not keep_outside:
            outside = [d for d in fresh if _owner_index(functions, d.span.start, starts) is None]
        else:  # the skeleton is unchanged, so are its diagnostics
            outside = [_move(d, mapping) for d in memo.outside]
        out = list(outside)
        per: list[list[Diagnostic]] = []
        for i in range(len(functions)):
            if i not in component:
                mine = [_move(d, mapping) for d in memo.diags[i]]
            elif i in local:
                mine = fresh_per[i]
            else:  # a caller: the local rules' findings come from the cache
                mine = [d for d in fresh_per[i] if d.code not in self.local_codes]
                mine += [_move(d, mapping) for d in memo.diags[i] if d.code in self.local_codes]
            per.append(mine)
            out.extend(mine)
        out.sort(key=lambda d: (d.span.start, d.code))
        stats = {"functions": len(functions), "reanalysed": len(component), "reanalysed_local": len(local)}
        return out, LintMemo(skeleton, functions, per, outside, stats, absent=self.absent)

    @classmethod
    def rehearsal_point(cls, memo: LintMemo) -> int | None:
        """Where to rehearse an edit of the text `memo` was made from (Host.rehearse): just
        inside the body of its smallest function nothing calls, whose run reads no caller.
        None when it has no function."""
        functions = memo.functions
        if not functions:
            return None
        _, callers = cls._graph(functions)
        i = min(range(len(functions)), key=lambda j: (bool(callers[j]), functions[j].end - functions[j].start))
        return functions[i].body_start

    @staticmethod
    def _graph(functions: list[Function]) -> tuple[list[set[int]], list[set[int]]]:
        """Call graph by name: callees[i] and callers[i] (a mention counts as a call)."""
        names: dict[bytes, list[int]] = {}
        for i, f in enumerate(functions):
            if f.name:
                names.setdefault(f.name, []).append(i)
        # Intersect in C: a body has many more words than the file has function names.
        callees = [{j for w in f.words & names.keys() for j in names[w] if j != i}
                   for i, f in enumerate(functions)]
        callers: list[set[int]] = [set() for _ in functions]
        for i, cs in enumerate(callees):
            for j in cs:
                callers[j].add(i)
        return callees, callers

    def _run_focused(self, source: bytes, tree: Tree, functions: list[Function], component: set[int],
                     bodies_only: bool = False, local: set[int] | None = None) -> list[Diagnostic]:
        """The rules on the real tree: with a syntax error, a reparse of any other text
        could read the re-analysed functions differently. Rules may skip work inside
        functions whose results come from the cache; the focus is the rest (skeleton
        included, and definitions nested in error nodes), or with `bodies_only` just the
        re-analysed functions (the skeleton's diagnostics come from the cache too).
        `local` (a subset of `component`): the same for the local rules."""
        focus = _focus(source, functions, component, bodies_only)
        if local is None or local == component:
            return self._call(source, tree, focus, None)
        return self._call(source, tree, focus, _focus(source, functions, local, bodies_only))

    @staticmethod
    def _closure(functions: list[Function], changed: set[int]) -> set[int]:
        """The changed functions and their callers, transitively (a callee's summary
        feeds its callers). A function's callers are found when the walk reaches it (the
        others whose words hold its name, as `_graph` has them), not from the whole file's
        graph: an edit mostly reaches a kernel or a few helpers (0.3 ms a keystroke)."""
        out = set(changed)
        todo = list(changed)
        while todo:
            i = todo.pop()
            name = functions[i].name
            if not name:
                continue  # no name (a head a macro writes): nothing calls it by one
            for j, f in enumerate(functions):
                if j not in out and name in f.words:
                    out.add(j)
                    todo.append(j)
        return out

    @classmethod
    def _other_callers(cls, functions: list[Function], changed: set[int], old: list[Function]) -> set[int]:
        """Callers of the functions that the changed ones call, before or after the edit,
        where the callee may take a pointer (what a helper check compares)."""
        callees, callers = cls._graph(functions)
        by_name: dict[bytes, list[int]] = {}
        for j, f in enumerate(functions):
            if f.name:
                by_name.setdefault(f.name, []).append(j)
        direct = {j for i in changed for j in callees[i]}
        direct |= {j for i in changed for w in old[i].words for j in by_name.get(w, ()) if j != i}
        return {k for j in direct if functions[j].pointer_params for k in callers[j]}

    @staticmethod
    def _split(functions: list[Function], diags: list[Diagnostic]) -> list[list[Diagnostic]]:
        per: list[list[Diagnostic]] = [[] for _ in functions]
        starts = [f.start for f in functions]
        for d in diags:
            i = _owner_index(functions, d.span.start, starts)
            if i is not None:
                per[i].append(d)
        return per


def _focus(source: bytes, functions: list[Function], reanalysed: set[int],
           bodies_only: bool) -> list[tuple[int, int]]:
    """The ranges a run re-analyses: the `reanalysed` functions, and unless `bodies_only`
    everything outside the other functions."""
    if bodies_only:
        return [(functions[i].start, functions[i].end) for i in sorted(reanalysed)]
    focus, pos = [], 0
    for i, f in enumerate(functions):
        if i not in reanalysed:
            # blank gaps hold no node: leaving them out saves a query per range
            if pos < f.start and not source[pos:f.start].isspace():
                focus.append((pos, f.start))
            pos = f.end
    focus.append((pos, len(source) + 1))
    return focus


# Findings at a call site that depend on every other call site of the same callee.
CALL_SITE_CODES = frozenset({"CL114"})


def _call_sites(per: list[list[Diagnostic]], functions: set[int]) -> list[tuple[str, str]]:
    return sorted((d.code, d.message) for i in functions for d in per[i] if d.code in CALL_SITE_CODES)


def _owner_index(functions: list[Function], offset: int, starts: list[int] | None = None) -> int | None:
    if starts is None:
        starts = [f.start for f in functions]
    i = _bisect_right(starts, offset) - 1
    if i >= 0 and offset < functions[i].end:
        return i
    return None
