"""Every use of an optional feature, extension or versioned construct in one syntax tree."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from operator import attrgetter
from typing import Any

from tree_sitter import Node, Tree

from ..catalogue import Builtin, catalogue
from ..features import DNF, GENERIC, INT64, PROGRAM_SCOPE, V1_1, V2_0, Version
from ..model.walk import nodes_of_kinds
from . import tables


@dataclass(frozen=True, slots=True)
class Use:
    start: int
    end: int
    kind: str  # "type", "qualifier", "built-in", "constant", "literal", "block", "variable"
    name: str  # what the message quotes
    since: Version | None
    requires: DNF  # DNF over feature/extension macros, baseline names dropped
    deprecated: Version | None = None
    item: tuple[int, int] | None = None  # the statement or declaration to wrap in a guard


def _version(text: str | None) -> Version | None:
    if not text:
        return None
    try:
        return Version.parse(text)
    except ValueError:
        return None


def _strip(req: DNF | None) -> DNF:
    """Drop names every target has; an alternative left empty means no requirement."""
    if not req:
        return ()
    out = []
    for alt in req:
        rest = tuple(n for n in alt if n not in tables.BASELINE)
        if not rest:
            return ()
        out.append(rest)
    return tuple(out)


def _implies(a: DNF, b: DNF) -> bool:
    """Every alternative of `a` contains some alternative of `b`."""
    return all(any(set(bb) <= set(aa) for bb in b) for aa in a)


@cache
def builtin_need(name: str) -> tuple[Version | None, DNF, Version | None] | None:
    """(since, requires, deprecated) of a built-in, the weakest requirement over its overloads."""
    fn: Builtin | None = catalogue().function(name)
    if fn is None:
        return None
    since = _version(fn.since)
    req: DNF = _strip(fn.requires)
    if not req and fn.overloads:
        reqs = [_strip(fn.overload_requires(o)) for o in fn.overloads]
        if all(reqs):
            for cand in sorted(set(reqs), key=lambda r: sum(len(a) for a in r)):
                if all(_implies(r, cand) for r in reqs):
                    req = cand
                    break
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


def _item(node: Node) -> tuple[int, int] | None:
    n: Node | None = node
    while n is not None and n.parent is not None:
        if n.parent.type in _ITEM_PARENTS and n.type not in ("comment",):
            return n.start_byte, n.end_byte
        n = n.parent
    return None


def _in_function(node: Node) -> bool:
    n = node.parent
    while n is not None:
        if n.type in ("function_definition", "compound_statement", "parameter_list", "struct_specifier",
                      "union_specifier", "field_declaration_list"):
            return True
        n = n.parent
    return False


class _Collector:
    def __init__(self, source: bytes, view: Any = None,
                 focus: list[tuple[int, int]] | None = None) -> None:
        self.focus = focus
        self.source = source
        self.view = view
        self.out: list[Use] = []
        self.cat = catalogue()
        self.local_functions: set[str] = set()
        # With a focus, the file's definitions are not all collected (a query for them
        # walks the whole tree, too slow per keystroke): names are looked up on demand.
        self.lookup_root: Node | None = None
        self._looked_up: dict[str, bool] = {}
        # number literals with a '.', 'e' or 'E' (every floating literal has one), in no order
        self.literals: list[Node] = []

    def text(self, node: Node) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def add(self, node: Node, kind: str, name: str, since: Version | None, req: DNF | None,
            deprecated: Version | None = None) -> None:
        req = _strip(req)
        if since is None and not req and deprecated is None:
            return
        self.out.append(Use(node.start_byte, node.end_byte, kind, name, since, req, deprecated, _item(node)))

    def run(self, tree: Tree) -> list[Use]:
        root = tree.root_node
        if self.focus is None:  # one query: the definitions come with the visited nodes
            found = nodes_of_kinds(root, _VISIT_ALL, ordered=False)
        else:  # local definitions are looked up by name, only for gated built-in names
            self.lookup_root = root
            found = _visited(root, self.focus)
        handlers = {kind: getattr(self, "on_" + kind) for kind in _HANDLED}
        gated = _gated_constant_names()
        source = self.source
        calls = []  # handled once every local function is known (their uses have their own ranges)
        for n in found:
            k = n.type
            # The first tests of on_identifier and on_number_literal, without the calls:
            # most nodes are identifiers and numbers that need nothing.
            if k == "identifier":
                if source[n.start_byte:n.end_byte] not in gated:
                    continue
            elif k == "number_literal":
                raw = source[n.start_byte:n.end_byte]
                if b"." in raw or b"e" in raw or b"E" in raw:
                    self.literals.append(n)
                if not raw or raw[-1] not in _HALF_SUFFIX:
                    continue
            elif k == "call_expression":
                calls.append(n)
                continue
            elif k == "function_definition":
                self._local_function(n)
                continue
            handler = handlers.get(k)
            if handler is not None:
                try:
                    handler(n)
                except (AttributeError, ValueError, IndexError):  # odd trees: skip the node
                    continue
        if self.lookup_root is not None:
            self._look_up([n.child_by_field_name("function") for n in calls])
        for n in calls:
            try:
                self.on_call_expression(n)
            except (AttributeError, ValueError, IndexError):
                continue
        return self.out

    def _defined_here(self, name: str) -> bool:
        """The file defines a function `name` (which then shadows the built-in)."""
        if self.lookup_root is None:
            return name in self.local_functions
        got = self._looked_up.get(name)
        if got is None:
            got = self._looked_up[name] = _defines(self.source, self.lookup_root, name)
        return got

    def _look_up(self, callees: list[Node | None]) -> None:
        """`_defined_here` for every gated built-in the calls name."""
        names = {self.text(f) for f in callees if f is not None and f.type == "identifier"}
        for name in names:
            if name not in self._looked_up and builtin_need(name) is not None:
                self._looked_up[name] = _defines(self.source, self.lookup_root, name)

    def _local_function(self, n: Node) -> None:
        decl = n.child_by_field_name("declarator")
        while decl is not None and decl.type != "function_declarator":
            decl = decl.child_by_field_name("declarator")
        name = decl.child_by_field_name("declarator") if decl is not None else None
        if name is not None:
            self.local_functions.add(self.text(name))

    # -- types and qualifiers ----------------------------------------------------------

    def on_primitive_type(self, n: Node) -> None:
        name = self.text(n)
        if name.startswith("half"):
            if not _is_pointer_use(n):
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
        self.add(n, "qualifier", "pipe", V2_0, tables.PIPES)

    def on_block_literal(self, n: Node) -> None:
        self.add(n, "block", "^{...}", V2_0, tables.DEVICE_ENQUEUE)

    def on_declaration(self, n: Node) -> None:
        if _in_function(n):
            return
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
        if "constant" in spaces or "typedef" in storage or "extern" in storage:
            return
        for d in n.children_by_field_name("declarator"):
            inner = d
            while inner is not None and inner.type in ("init_declarator", "pointer_declarator", "array_declarator",
                                                       "parenthesized_declarator"):
                nxt = inner.child_by_field_name("declarator")
                if nxt is None:
                    break
                inner = nxt
            if inner is None or inner.type == "function_declarator":
                continue
            self.add(inner, "variable", self.text(inner), V2_0, ((PROGRAM_SCOPE,),))

    # -- expressions -------------------------------------------------------------------

    def on_call_expression(self, n: Node) -> None:
        fn = n.child_by_field_name("function")
        if fn is None or fn.type != "identifier":
            return
        name = self.text(fn)
        need = builtin_need(name)
        if need is None or self._defined_here(name):
            return
        since, req, deprecated = need
        args = n.child_by_field_name("arguments")
        nargs = args.named_child_count if args is not None else 0
        if name in _IMAGE_WRITES and nargs == 4:
            req = (("cl_khr_mipmap_image_writes",),)
        elif name in _IMAGE_READS and nargs >= 4:
            req = (("cl_khr_mipmap_image",),)
        self.add(fn, "built-in", name, since, req, deprecated)

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


def _is_pointer_use(n: Node) -> bool:
    """`half` in a pointer declaration (allowed without cl_khr_fp16: 6.3.2 / clang)."""
    parent = n.parent
    if parent is None:
        return False
    if parent.type == "type_descriptor":
        return any(c.type == "abstract_pointer_declarator" for c in parent.children)
    decls = parent.children_by_field_name("declarator")
    if not decls:
        return parent.type in ("sizeof_expression",)
    for d in decls:
        inner = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
        if inner is None or inner.type != "pointer_declarator":
            return False
    return True


_HANDLED = ("primitive_type", "sized_type_specifier", "access_qualifier", "address_space_qualifier",
            "pipe_qualifier", "block_literal", "declaration", "call_expression", "identifier", "number_literal")
_DEFINITIONS = frozenset({"function_definition"})
_VISIT = frozenset(_HANDLED)
_VISIT_ALL = _VISIT | _DEFINITIONS
_HALF_SUFFIX = frozenset(b"hH")


@cache
def _gated_constant_names() -> frozenset[bytes]:
    """Spellings `on_identifier` may report: the atomics-model constants and the catalogue's."""
    return frozenset(n.encode() for n in (*tables.CONSTANTS, *catalogue().constants))


# A declarator's name follows specifiers, '*', ')' or '}' (a struct return type); after
# these it is an operand or a parenthesised name, which `_local_function` never reads.
_NOT_BEFORE_A_NAME = frozenset(b"=(,+-%<>[{;?!&|~^.:")  # not "/": a comment may end there


def _may_declare(src: bytes, at: int) -> bool:
    i = at - 1
    while i >= 0 and src[i] in b" \t\r\n":
        i -= 1
    return i < 0 or src[i] not in _NOT_BEFORE_A_NAME


_WORD_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def _defines(src: bytes, root: Node, name: str) -> bool:
    """Where `name` occurs as a word, is it a definition's name? (`bytes.find` runs in C
    at memory speed; a regular expression over the file cost more than the edit's analysis.)"""
    word = name.encode()
    size = len(src)
    pos = src.find(word)
    while pos >= 0:
        end = pos + len(word)
        if (pos == 0 or src[pos - 1] not in _WORD_BYTES) and (end >= size or src[end] not in _WORD_BYTES) \
                and _may_declare(src, pos) and _names_definition(root.descendant_for_byte_range(pos, end)):
            return True
        pos = src.find(word, end)
    return False


def _names_definition(n: Node | None) -> bool:
    """`n` is the name `_local_function` reads off a definition: the `declarator` of the
    function declarator that the definition reaches through `declarator` fields."""
    if n is None:
        return False
    f = n.parent
    if f is None or f.type != "function_declarator" or f.child_by_field_name("declarator") != n:
        return False
    child, up = f, f.parent
    while up is not None and up.child_by_field_name("declarator") == child:
        if up.type == "function_definition":
            return True
        child, up = up, up.parent
    return False


def _visited(root: Node, focus: list[tuple[int, int]] | None) -> list[Node]:
    """The nodes with a handler that a pre-order walk of `root` meets, in its order; with
    `focus`, function definitions outside it are not entered."""
    if focus is None:
        # Order does not matter here: collect_uses sorts the uses by range, and the nodes that
        # could tie (one range, several uses) are one node whose handler adds them in order.
        return nodes_of_kinds(root, _VISIT, ordered=False)
    # Function definitions outside the focus lie outside its ranges: the query skips them.
    return nodes_of_kinds(root, _VISIT, ordered=False, ranges=focus)


def collect_uses(tree: Tree, source: bytes, view: Any = None,
                 focus: list[tuple[int, int]] | None = None) -> list[Use]:
    """All gated uses in source order; `view` expands qualifier macros. Never raises on user source.
    With `focus`, uses inside other function definitions may be left out."""
    return collect_uses_and_literals(tree, source, view, focus)[0]


def collect_uses_and_literals(tree: Tree, source: bytes, view: Any = None,
                              focus: list[tuple[int, int]] | None = None) -> tuple[list[Use], list[Node] | None]:
    """`collect_uses`, and on the way every number literal (starting in the focus) that may be a
    floating one, in source order: those with a '.', 'e' or 'E' (None if the walk gave up)."""
    collector = _Collector(source, view, focus)
    try:
        uses = collector.run(tree)
    except RecursionError:
        return [], None
    uses.sort(key=lambda u: (u.start, u.end))
    collector.literals.sort(key=attrgetter("start_byte"))  # leaves: their starts differ
    return uses, collector.literals
