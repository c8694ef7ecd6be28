"""Every use of an optional feature, extension or versioned construct in one syntax tree."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable
from functools import cache
from operator import attrgetter, itemgetter
from typing import Any

from tree_sitter import Node, Query, Tree

from cllint.analysis.records import replace
from cllint.analysis.captures import captures
from cllint.analysis.fpga_dialects import vendor_pipe_declaration
from cllint.analysis.database import Table, current
from cllint.analysis.syntax import descend
from cllint.grammar import language

from ..catalogue import Builtin, catalogue
from ..features import DNF, GENERIC, INT64, PROGRAM_SCOPE, V1_1, V2_0, Version
from ..model.walk import KindIndex, nodes_of_kinds, within_range
from ..toplevel import FUNCTION_IDS, Body, Items, PartKey, items_of
from . import overloads, tables
from .use import Use


def _version(text: str | None) -> Version | None:
    if not text:
        return None
    try:
        return Version.parse(text)
    except ValueError:
        return None


_strip = overloads.strip_baseline


def builtin_need(name: str) -> tuple[Version | None, DNF, Version | None] | None:
    """(since, requires, deprecated) of a built-in, the weakest requirement over its overloads."""
    if catalogue().function(name) is None:  # every call's name comes here: no memo of the user's
        return None
    return _catalogue_need(name)


@cache
def _catalogue_need(name: str) -> tuple[Version | None, DNF, Version | None]:
    """`builtin_need` of a name the catalogue lists: a function of the fixed catalogue."""
    fn: Builtin = catalogue().function(name)  # type: ignore[assignment]  # listed: see the caller
    since = _version(fn.since)
    req: DNF = _strip(fn.requires)
    if not req and fn.overloads:
        req = overloads.weakest([_strip(fn.overload_requires(o)) for o in fn.overloads])
    family = tables.family_requirement(name)
    if family and not req:
        req = family
    override = tables.FUNCTIONS.get(name)
    if override:
        since = override[0] or since
        req = override[1] if override[1] is not None else req
    return since, req, _version(fn.deprecated)


_ITEM_PARENTS = {"compound_statement", "translation_unit", "preproc_if", "preproc_ifdef",
                 "preproc_else", "preproc_elif", "preproc_elifdef", "case_statement"}
_IMAGE_WRITES = ("write_imagef", "write_imagei", "write_imageui", "write_imageh")
_IMAGE_READS = ("read_imagef", "read_imagei", "read_imageui", "read_imageh")


class _Items:
    """The statement or top-level item each node stands in: the innermost node whose parent is
    a block, the file or a preprocessor arm. Read going down from `top` (the root, or a part of
    a body), since each `.parent` is itself a walk down from the root and climbing costs the
    depth squared (minutes for a call nested a thousand deep). The last path down is kept: the
    next node mostly lies under it (uses come in tree order), so the walk resumes there."""

    def __init__(self, top: Node) -> None:
        self.top = top
        self.path: list[tuple[Node, Node | None]] = [(top, None)]  # (node, innermost item so far)

    def of(self, node: Node) -> tuple[int, int] | None:
        start, end = node.start_byte, node.end_byte
        path = self.path
        if not (path[0][0].start_byte <= start and end <= path[0][0].end_byte):
            return _climb(node)
        lo, hi = 0, len(path) - 1  # the deepest kept node whose range holds `node`'s
        while lo < hi:
            mid = (lo + hi + 1) // 2
            at = path[mid][0]
            if at.start_byte <= start and end <= at.end_byte:
                lo = mid
            else:
                hi = mid - 1
        del path[lo + 1:]
        n, found = path[-1]
        down = descend(n, node)
        if down is None:  # a range held but not a descendant (zero width, equal ranges)
            self.path = [(self.top, None)]
            return _climb(node)
        for parent, child in zip(down, down[1:]):
            if parent.type in _ITEM_PARENTS and child.type != "comment":
                found = child
            path.append((child, found))
        return (found.start_byte, found.end_byte) if found is not None else _climb(self.top)


def _item(node: Node, items: _Items | None = None) -> tuple[int, int] | None:
    return items.of(node) if items is not None else _climb(node)


def _climb(node: Node) -> tuple[int, int] | None:
    n: Node | None = node
    while n is not None and n.parent is not None:
        if n.parent.type in _ITEM_PARENTS and n.type not in ("comment",):
            return n.start_byte, n.end_byte
        n = n.parent
    return None


def _use(node: Node, kind: str, name: str, since: Version | None, req: DNF | None,
         deprecated: Version | None = None, items: _Items | None = None) -> Use | None:
    req = _strip(req)
    if since is None and not req and deprecated is None:
        return None
    return Use(node.start_byte, node.end_byte, kind, name, since, req, deprecated, _item(node, items))


def _in_function(node: Node) -> bool:
    n = node.parent
    while n is not None:
        if n.type in ("function_definition", "compound_statement", "parameter_list", "struct_specifier",
                      "union_specifier", "field_declaration_list"):
            return True
        n = n.parent
    return False


class Literal:
    """A number literal that may be a floating one: it has a '.', 'e' or 'E'. A record, not
    the node: those of an unchanged statement are carried over, moved (see `_Part`)."""

    __slots__ = ("start", "end", "_item", "_node", "_items")

    def __init__(self, start: int, end: int, node: Node | None = None,
                 item: tuple[int, int] | None = None, items: _Items | None = None) -> None:
        self.start, self.end, self._node, self._item, self._items = start, end, node, item, items

    @property
    def item(self) -> tuple[int, int] | None:
        """The statement or declaration it stands in (`_item`; read off the tree when asked)."""
        if self._node is not None:
            self._item, self._node, self._items = _item(self._node, self._items), None, None
        return self._item

    def moved(self, delta: int) -> Literal:
        item = self.item
        return Literal(self.start + delta, self.end + delta, None,
                       None if item is None else (item[0] + delta, item[1] + delta))


def _moved(use: Use, delta: int) -> Use:
    item = use.item
    return Use(use.start + delta, use.end + delta, use.kind, use.name, use.since, use.requires, use.deprecated,
               None if item is None else (item[0] + delta, item[1] + delta), use.by_types, use.detail,
               use.defined_at, use.floor, use.overload)


class _Part:
    """What one part of a function body holds, offsets relative to its start. Nothing
    in it depends on the code around the part: its parent is always the body's braces."""

    __slots__ = ("uses", "calls", "literals", "definitions")
    uses: tuple[Use, ...]
    calls: tuple[Use, ...]  # built-in calls, to drop where the file defines the name
    literals: tuple[Literal, ...]
    definitions: tuple[tuple[int, str | None], ...]

    __match_args__ = ("uses", "calls", "literals", "definitions")

    def __init__(
        self,
        uses: tuple[Use, ...],
        calls: tuple[Use, ...],
        literals: tuple[Literal, ...],
        definitions: tuple[tuple[int, str | None], ...],
    ) -> None:
        self.uses = uses
        self.calls = calls
        self.literals = literals
        self.definitions = definitions

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"uses={self.uses!r}, " f"calls={self.calls!r}, "
                f"literals={self.literals!r}, " f"definitions={self.definitions!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.uses, self.calls, self.literals, self.definitions)
        theirs = (other.uses, other.calls, other.literals, other.definitions)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.uses, self.calls, self.literals, self.definitions))


_EMPTY_PART = _Part((), (), (), ())
_PARTS_LIMIT = 8192  # body parts read (`_Part`), by `PartKey`: the database's "gating.parts"


class _Collector:
    def __init__(self, source: bytes, view: Any = None,
                 focus: list[tuple[int, int]] | None = None, file: str | None = None,
                 kinds: KindIndex | None = None) -> None:
        self.focus = focus
        self.kinds = kinds
        self.source = source
        self.view = view
        self.file = file
        self.out: list[Use] = []
        self.calls: list[Use] = []  # uses of built-ins, until the file's definitions are known
        self.cat = catalogue()
        self.local_functions: set[str] = set()
        self.definitions: list[tuple[int, str | None]] = []  # (start, name) of those met
        self._met: list[tuple[int, str | None]] | None = None  # `definitions` sorted, once complete
        self._met_starts: list[int] = []
        self.tree: Tree | None = None
        # With a focus, every name the file defines, read off its top-level items (a query
        # for every definition walks the whole tree, too slow per keystroke).
        self.outside: set[str] | None = None
        self.literals: list[Literal] = []  # in no order
        self.items: _Items | None = None  # what `_item` reads down from: the root, or a body's part

    def text(self, node: Node) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def add(self, node: Node, kind: str, name: str, since: Version | None, req: DNF | None,
            deprecated: Version | None = None) -> None:
        use = _use(node, kind, name, since, req, deprecated, self.items)
        if use is not None:
            self.out.append(use)

    def run(self, tree: Tree) -> list[Use]:
        self.tree = tree
        root = tree.root_node
        self.items = _Items(root)
        if self.focus is None:
            self._collect(self.kinds.by_kind(VISIT_ALL) if self.kinds is not None else _visited(root, None))
            if self.file is not None:
                self._defined_by_items()  # the next run, focused, reads them off the items
        else:
            # Function bodies wholly in the focus part by part (an edit changes one part);
            # the rest of the focus, function heads included, by one query.
            index = items_of(tree, self.source, self.file or "")
            ranges, bodies = _split_focus(index, self.focus)
            if ranges:
                self._collect(_visited(root, ranges))
            for body in bodies:
                for node, key in body.parts:
                    self._part(node, key)
        # Calls once every local function is known (their uses have their own ranges).
        self.out.extend(u for u in self.calls if not self._defined_here(u.name))
        return self.out

    def _collect(self, found: dict[str, list[Node]]) -> None:
        # In tree order (a query over a deep tree's cut parts, or a focus's ranges, gives them
        # in none): each use's statement is read going down from the last one (`_Items`).
        for nodes in found.values():
            nodes.sort(key=_START)
        for n in found.get("function_definition", ()):
            self._local_function(n)
        source = self.source
        # The first tests of the handlers, without the calls: most nodes need nothing.
        gated = _gated_constant_names()
        self._handle(self.on_identifier,
                     [n for n in found.get("identifier", ()) if source[n.start_byte:n.end_byte] in gated])
        half: list[Node] = []
        for n in found.get("number_literal", ()):
            raw = source[n.start_byte:n.end_byte]
            if b"." in raw or b"e" in raw or b"E" in raw or b"p" in raw or b"P" in raw:  # p: hex floats
                self.literals.append(Literal(n.start_byte, n.end_byte, n, items=self.items))
            if raw and raw[-1] in _HALF_SUFFIX:
                half.append(n)
        self._handle(self.on_number_literal, half)
        plain = _plain_types()
        self._handle(self.on_primitive_type, [n for n in found.get("primitive_type", ())
                                              if not _plain_type(source[n.start_byte:n.end_byte], plain)])
        for kind in _OTHER_HANDLED:
            self._handle(getattr(self, "on_" + kind), found.get(kind, ()))
        self._handle(self.on_call_expression, found.get("call_expression", ()))

    def _part(self, node: Node, key: PartKey) -> None:
        """One part of a function body: memoised on its text (see `_Part`)."""
        parts = current().table("gating.parts", _PARTS_LIMIT)
        part = parts.get(key)
        base = node.start_byte
        if part is None:
            # No view: only program-scope declarations read it, and a body holds none.
            sub = _Collector(self.source)
            sub.items = _Items(node)
            sub._collect(_visited(node, None))
            part = _Part(tuple(_moved(u, -base) for u in sub.out), tuple(_moved(u, -base) for u in sub.calls),
                         tuple(lit.moved(-base) for lit in sub.literals),
                         tuple((start - base, name) for start, name in sub.definitions))
            if part == _EMPTY_PART:
                part = _EMPTY_PART
            parts.put(key, part)
        if part is _EMPTY_PART:  # most statements use nothing gated
            return
        self.out.extend(_moved(u, base) for u in part.uses)
        self.calls.extend(_moved(u, base) for u in part.calls)
        self.literals.extend(lit.moved(base) for lit in part.literals)
        for start, name in part.definitions:
            self.definitions.append((start + base, name))
            if name is not None:
                self.local_functions.add(name)

    @staticmethod
    def _handle(handler: Callable[[Node], None], nodes: Iterable[Node]) -> None:
        for n in nodes:
            try:
                handler(n)
            except (AttributeError, ValueError, IndexError):  # odd trees: skip the node
                continue

    def _defined_here(self, name: str) -> bool:
        """The file defines a function `name` (which then shadows the built-in)."""
        if name in self.local_functions:
            return True
        if self.focus is None:
            return False
        if self.outside is None:
            self.outside = self._defined_by_items()
        return name in self.outside

    def _defined_by_items(self) -> set[str]:
        """The names of the file's function definitions, item by item (toplevel.py): carried
        over with unchanged items, with the previous tree's union when the fresh items
        define what the ones they replace did."""
        assert self.tree is not None
        index = items_of(self.tree, self.source, self.file or "")
        got = index.derived.get("defs")
        if got is None:
            prev = index.previous.get("defs") if index.previous is not None else None
            if prev is not None and all(self._item_defs(index, k) == prev[0][k] for k in index.fresh):
                got = prev
            else:
                by_item = [self._item_defs(index, k) for k in range(len(index.items))]
                got = (by_item, set().union(*by_item))
            index.derived["defs"] = got
        return got[1]

    def _item_defs(self, index: Items, k: int) -> frozenset[str]:
        """The names item k defines: for an item wholly inside this run's ranges, among the
        definitions the run met; else by a query."""
        facts = index.items[k].facts
        names = facts.get("defs")
        if names is None:
            start, end = index.starts[k], index.ends[k]
            if within_range(self.focus, start, end):
                if self._met is None:
                    self._met = sorted(self.definitions, key=itemgetter(0))
                    self._met_starts = [at for at, _ in self._met]
                lo, hi = bisect_left(self._met_starts, start), bisect_left(self._met_starts, end)
                found = [name for _, name in self._met[lo:hi]]
            else:
                found = [self._definition_name(d) for d in nodes_of_kinds(index.nodes[k], _DEFINITIONS, ordered=False)]
            names = facts["defs"] = frozenset(n for n in found if n is not None)
        return names

    def _definition_name(self, n: Node) -> str | None:
        """The name `_local_function` reads off a definition."""
        decl = n.child_by_field_name("declarator")
        while decl is not None and decl.type != "function_declarator":
            decl = decl.child_by_field_name("declarator")
        name = decl.child_by_field_name("declarator") if decl is not None else None
        return self.text(name) if name is not None else None

    def _local_function(self, n: Node) -> None:
        name = self._definition_name(n)
        self.definitions.append((n.start_byte, name))
        if name is not None:
            self.local_functions.add(name)

    # -- types and qualifiers ----------------------------------------------------------

    def on_primitive_type(self, n: Node) -> None:
        name = self.text(n)
        if name.startswith("half"):
            # Only scalar `half` may name storage without cl_khr_fp16: `half4` and the other
            # vectors are typedefs clang's header declares only with the extension.
            if name != "half" or not _names_no_half_value(n):
                self.add(n, "type", name, None, tables.FP16)
            return
        if name.startswith("ulong"):
            self.add(n, "type", name, None, ((INT64,),))
            return
        t = self.cat.type(name)
        if t is not None:
            since = _version(t.since)
            if since is not None and since <= V1_1 and name[-1] == "3":
                since = V1_1
            self.add(n, "type", name, since, t.requires)
        if name == "image3d_t" and self._writable_image(n):
            self.add(n, "type", f"write_only {name}", None, tables.IMAGE_3D_WRITES)

    def _writable_image(self, n: Node) -> bool:
        parent = n.parent
        if parent is None or parent.type != "parameter_declaration":
            return False
        quals = [self.text(c) for c in parent.children if c.type == "type_qualifier"]
        return any(q.lstrip("_") in ("write_only", "read_write") for q in quals)

    def on_sized_type_specifier(self, n: Node) -> None:
        if any(c.type == "long" for c in n.children):
            self.add(n, "type", " ".join(self.text(n).split()), None, ((INT64,),))

    def on_access_qualifier(self, n: Node) -> None:
        if self.text(n).lstrip("_") == "read_write":
            self.add(n, "qualifier", self.text(n), V2_0, tables.READ_WRITE_IMAGES)

    def on_address_space_qualifier(self, n: Node) -> None:
        word = self.text(n)
        if word.lstrip("_") == "generic":
            self.add(n, "qualifier", word, V2_0, ((GENERIC,),))

    def on_pipe_qualifier(self, n: Node) -> None:
        if not vendor_pipe_declaration(n, self.source):  # (Xilinx's program-scope pipe: the vendor's)
            self.add(n, "qualifier", "pipe", V2_0, tables.PIPES)

    def on_block_literal(self, n: Node) -> None:
        self.add(n, "block", "^{...}", V2_0, tables.DEVICE_ENQUEUE)

    def on_declaration(self, n: Node) -> None:
        in_function = _in_function(n)
        if not in_function and n.has_error:
            return  # broken code is not judged (a macro-headed kernel misread as a declaration)
        if in_function and not any(c.type == "storage_class_specifier" for c in n.children):
            return  # most locals: automatic, private
        spaces = []
        storage = []
        for c in n.children:
            if c.type == "type_qualifier":
                spaces.append(self.text(c).lstrip("_"))
            elif c.type == "storage_class_specifier":
                storage.append(self.text(c))
            elif c.type in ("macro_modifier", "type_identifier"):
                word = self.text(c).split("(")[0].strip()
                expanded = self.view.expand_type_macro(word, c.start_byte) if self.view is not None else None
                if expanded is None and c.type == "macro_modifier":
                    return  # an unknown qualifier macro may well be __constant
                spaces.extend(w.lstrip("_") for w in (expanded or "").split())
        need: DNF = ((PROGRAM_SCOPE,),)
        if in_function:
            # A static local lives as long as the program: OpenCL C 2.0 allows it (1.x
            # forbids `static` inside functions), in the constant space, or in the global
            # one where program-scope globals are supported (spec 6.8, storage-class
            # specifiers; clang-19: "static local variable must reside in constant address
            # space"). One declared private or local is wrong on every target, not gated.
            if "static" not in storage or "private" in spaces or "local" in spaces:
                return
            if "constant" in spaces:
                need = ()
        elif "constant" in spaces or "typedef" in storage or "extern" in storage:
            return
        elif self.text(n.child_by_field_name("type") or n).strip() == "sampler_t":
            return  # a program-scope sampler is a constant (spec 6.15.14.1), never a global
        elif vendor_pipe_declaration(n, self.source):
            return  # Xilinx's program-scope pipe (fpga_dialects.py), no variable

        for d in n.children_by_field_name("declarator"):
            inner = d
            # (`size_t __ovld __cnfn f(uint);`: attribute macros before a function's name)
            while inner is not None and inner.type in ("init_declarator", "pointer_declarator", "array_declarator",
                                                       "parenthesized_declarator", "macro_declarator"):
                nxt = inner.child_by_field_name("declarator")
                if nxt is None:
                    break
                inner = nxt
            if inner is None or inner.type == "function_declarator":
                continue
            self.add(inner, "static variable" if in_function else "variable", self.text(inner), V2_0, need)

    # -- expressions -------------------------------------------------------------------

    def on_call_expression(self, n: Node) -> None:
        fn = n.child_by_field_name("function")
        if fn is None or fn.type != "identifier":
            return
        name = self.text(fn)
        need = builtin_need(name)
        if need is None:
            return
        since, req, deprecated = need
        args = n.child_by_field_name("arguments")
        nargs = sum(1 for a in args.named_children if a.type != "comment") if args is not None else 0
        detail = ""
        if name in _IMAGE_WRITES and nargs == 4:
            req = (("cl_khr_mipmap_image_writes",),)
        elif name in _IMAGE_READS and nargs >= 4:
            req = (("cl_khr_mipmap_image",),)
        else:
            by_arity = overloads.arity_need(name, nargs)
            if by_arity is not None:  # `atomic_fetch_add_explicit` without a scope
                req, detail = by_arity, f" with {nargs} argument{'s' if nargs != 1 else ''}"
        use = _use(fn, "built-in", name, since, req, deprecated, self.items)  # every built-in has a `since`
        if use is not None:
            if overloads.depends_on_types(name, nargs, use.requires):  # typed per run (`_Part`)
                use = replace(use, by_types=True, detail=detail)
            elif detail:
                use = replace(use, detail=detail)
            floor = overloads.floor_above_name(name, nargs)
            if floor is not None:
                use = replace(use, floor=floor)
            self.calls.append(use)

    def on_identifier(self, n: Node) -> None:
        # Most identifiers name nothing gated: test the name before the (O(depth)) parent.
        if self.source[n.start_byte:n.end_byte] not in _gated_constant_names():
            return
        parent = n.parent
        if parent is None or parent.type.startswith("preproc") or parent.type == "opencl_extension_pragma":
            return
        if parent.type == "call_expression" and parent.child_by_field_name("function") == n:
            return
        if parent.child_by_field_name("declarator") == n:
            return
        name = self.text(n)
        if name in tables.CONSTANTS:
            since, req = tables.CONSTANTS[name]
            self.add(n, "constant", name, since, req)
            return
        c = self.cat.constant(name)
        if c is not None:
            self.add(n, "constant", name, _version(c.since), c.requires)

    def on_number_literal(self, n: Node) -> None:
        if n.end_byte <= n.start_byte or self.source[n.end_byte - 1] not in _HALF_SUFFIX:
            return  # only `1.0h`-style literals are gated (an empty one raised IndexError)
        text = self.text(n)
        if text[:2].lower() == "0x":
            return
        if text[-1] in "hH" and any(ch in text for ch in ".eE"):
            self.add(n, "literal", text, None, tables.FP16)


# Where `half` makes no half value: a struct field or a typedef only describes storage, and
# `sizeof(half)` reads a size. clang-19 accepts each with cl_khr_fp16 removed (-cl-ext=-cl_khr_fp16).
_NO_VALUE_PARENTS = frozenset({"field_declaration", "type_definition"})


def _names_no_half_value(n: Node) -> bool:
    """`half` that declares no half value: a pointer to half (spec 6.1.1.1: half may always
    declare a pointer to a buffer of halves), a struct field, a typedef or `sizeof(half)`."""
    parent = n.parent
    if parent is None:
        return False
    if parent.type in _NO_VALUE_PARENTS:
        return True
    if parent.type == "type_descriptor":
        if parent.parent is not None and parent.parent.type in ("sizeof_expression", "alignof_expression"):
            return True
        return any(c.type == "abstract_pointer_declarator" for c in parent.children)
    decls = parent.children_by_field_name("declarator")
    if not decls:
        return parent.type in ("sizeof_expression",)
    for d in decls:
        inner = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
        if inner is None or inner.type != "pointer_declarator":
            return False
    return True


# Handled with no test first (the others are filtered in `_collect` before their handler).
_OTHER_HANDLED = ("sized_type_specifier", "access_qualifier", "address_space_qualifier", "pipe_qualifier",
                  "block_literal", "declaration")
_HANDLED = ("primitive_type", "call_expression", "identifier", "number_literal", *_OTHER_HANDLED)
_DEFINITIONS = frozenset({"function_definition"})
_VISIT = frozenset(_HANDLED)
VISIT_ALL = _VISIT | _DEFINITIONS
_HALF_SUFFIX = frozenset(b"hH")
_START = attrgetter("start_byte")


def _plain_types() -> Table:
    """`_plain_type`'s answers by spelling (the user's text): the database's "gating.plain_types"."""
    return current().table("gating.plain_types", 512)


def _plain_type(raw: bytes, memo: Table | None = None) -> bool:
    """`on_primitive_type` adds nothing for this spelling, wherever it stands (`int`, `float4`...)."""
    if memo is None:
        memo = _plain_types()
    got = memo.get(raw)
    if got is None:
        got = memo.put(raw, _reads_plain(raw))
    return got


def _reads_plain(raw: bytes) -> bool:
    name = raw.decode("utf-8", "replace")
    if name.startswith(("half", "ulong")) or name == "image3d_t":
        return False
    t = catalogue().type(name)
    return t is None or (_version(t.since) is None and not _strip(t.requires))


@cache
def _by_kind_query() -> Query:
    """The visited kinds, each captured under its own name: the nodes come back by kind,
    with no `.type` to read per node."""
    lang = language()
    alts = " ".join(f"({k}) @{k}" for k in sorted(VISIT_ALL) if lang.id_for_node_kind(k, True) is not None)
    return Query(lang, f"[{alts}]")


def _visited(root: Node, ranges: list[tuple[int, int]] | None) -> dict[str, list[Node]]:
    """The nodes of the visited kinds under `root`, by kind, in no order; with `ranges`
    (sorted, disjoint: a focus), those that start in one of them. Function definitions
    outside the ranges lie outside them: the query does not enter them."""
    query = _by_kind_query()
    if ranges is None:
        return captures(query, root)
    out: dict[str, list[Node]] = {}
    for start, end in ranges:
        for kind, nodes in captures(query, root, (start, max(start, end))).items():
            # The cursor also hands back nodes that only overlap the range (rarely any).
            if min(map(_START, nodes)) < start or max(map(_START, nodes)) >= end:
                nodes = [n for n in nodes if start <= n.start_byte < end]
            if kind in out:
                out[kind].extend(nodes)
            else:
                out[kind] = nodes
    return out


@cache
def _gated_constant_names() -> frozenset[bytes]:
    """Spellings `on_identifier` may report: the atomics-model constants and the catalogue's."""
    return frozenset(n.encode() for n in (*tables.CONSTANTS, *catalogue().constants))


def _split_focus(index: Items, focus: list[tuple[int, int]]) -> tuple[list[tuple[int, int]], list[Body]]:
    """The bodies of the function items wholly inside `focus`, and the focus less them."""
    starts, ends, items = index.starts, index.ends, index.items
    bodies: list[Body] = []
    for a, b in focus:
        for k in range(bisect_left(starts, a), bisect_left(starts, b)):
            if items[k].kind in FUNCTION_IDS and ends[k] <= b:
                body = index.body(k)
                if body is not None:
                    bodies.append(body)
    if not bodies:
        return focus, bodies
    ranges: list[tuple[int, int]] = []
    i = 0
    for a, b in focus:  # the bodies are sorted, each inside one range
        pos = a
        while i < len(bodies) and bodies[i].start < b:
            if pos < bodies[i].start:
                ranges.append((pos, bodies[i].start))
            pos = max(pos, bodies[i].end)
            i += 1
        if pos < b:
            ranges.append((pos, b))
    return ranges, bodies


def collect_uses(tree: Tree, source: bytes, view: Any = None,
                 focus: list[tuple[int, int]] | None = None, file: str | None = None) -> list[Use]:
    """All gated uses in source order; `view` expands qualifier macros. Never raises on user source.
    With `focus`, uses inside other function definitions may be left out. `file` names the
    file across edits: what its unchanged items define is then carried to the next run."""
    return collect_uses_and_literals(tree, source, view, focus, file)[0]


def collect_uses_and_literals(tree: Tree, source: bytes, view: Any = None,
                              focus: list[tuple[int, int]] | None = None,
                              file: str | None = None,
                              kinds: KindIndex | None = None) -> tuple[list[Use], list[Literal] | None]:
    """`collect_uses`, and on the way every number literal (starting in the focus) that may be a
    floating one, in source order: those with a '.', 'e' or 'E' (None if the walk gave up).
    `kinds`: the lint's shared index of the whole tree (it must hold `VISIT_ALL`)."""
    collector = _Collector(source, view, focus, file, kinds)
    try:
        uses = collector.run(tree)
    except RecursionError:
        return [], None
    uses.sort(key=lambda u: (u.start, u.end))
    collector.literals.sort(key=attrgetter("start"))  # leaves: their starts differ
    return uses, collector.literals
