"""The types the headers a file includes declare, for the type-based checks.

Where every include resolves (`headers.closure`), the typedefs, struct/union/enum tags (with
their members) and function prototypes the headers declare at file scope are read in the order
the preprocessor sees them (a header's text up to an `#include`, then that header, then the
rest; each header once, as its guard makes it) and handed to the model (`model/imported.py`),
which puts them before the file's own declarations.

Precision first, every doubt leaves a name unknown (absent, as for an unread header):
- a declaration in a header's `#if`/`#ifdef` arm (any but an include guard), in a header
  included from an arm the file may leave out, or from inside a body;
- a declaration with a syntax error, a macro-like node, or a word that is a macro name (the
  headers', the file's or the command line's): a macro may add members or change the type;
- a name declared twice (two typedefs or tag definitions, functions whose types differ);
- kernels and `overloadable` functions.
Headers are read once per content (the database's "header_types.layouts") and the combined
declarations once per (headers, macros, target) ("header_types.imported"), so a keystroke in
the including file re-reads nothing.
"""

from __future__ import annotations

import os
import re
from collections import Counter

from tree_sitter import Node, Tree

from cllint.analysis.database import current
from cllint.analysis.digest import blake2b
from cllint.analysis.model.decls import Typedef, TypeReader
from cllint.analysis.model.imported import HeaderFunction, Imported
from cllint.analysis.model.types import Array, Function, Pointer, Type, Unknown
from cllint.analysis.preprocessor.view import PRELUDE, resolve_include
from cllint.analysis.target import Target

from .headers import closure, parsed
from cllint.analysis.lazy_re import lazy

_WORD = lazy(rb"[A-Za-z_]\w*")
_LAYOUTS_MAX = 256
_IMPORTED_MAX = 32
# Kinds whose presence makes a declaration unreadable without the preprocessor.
_MACRO_KINDS = frozenset({"macro_modifier", "macro_declarator", "macro_type_specifier", "ERROR", "preproc_call",
                          "macro_invocation"})
_ARMS = frozenset({"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef"})
_DIRECTIVES = frozenset({"preproc_def", "preproc_function_def", "preproc_call", "comment", "#endif", "#ifndef",
                         "#ifdef", "#if", "#else", "#elif", "#elifdef", "#elifndef", ";"})
_TAG_KINDS = frozenset({"struct_specifier", "union_specifier", "enum_specifier"})
_WRAPPERS = frozenset({"init_declarator", "pointer_declarator", "array_declarator", "parenthesized_declarator",
                       "attributed_declarator", "function_declarator"})


class _Item:
    """One file-scope declaration of a header."""

    __slots__ = ("node", "certain", "clean", "words", "names")
    node: Node
    certain: bool  # outside every arm but the include guard's
    clean: bool  # no syntax error, macro-like node, kernel or overloadable
    words: frozenset[bytes]  # of the declaration (a definition's head only)
    names: tuple[tuple[str, str], ...]  # (namespace: "type" | "tag" | "function", name) it declares

    __match_args__ = ("node", "certain", "clean", "words", "names")

    def __init__(
        self,
        node: Node,
        certain: bool,
        clean: bool,
        words: frozenset[bytes],
        names: tuple[tuple[str, str], ...],
    ) -> None:
        self.node = node
        self.certain = certain
        self.clean = clean
        self.words = words
        self.names = names

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"node={self.node!r}, " f"certain={self.certain!r}, "
                f"clean={self.clean!r}, " f"words={self.words!r}, " f"names={self.names!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.node, self.certain, self.clean, self.words, self.names)
        theirs = (other.node, other.certain, other.clean, other.words, other.names)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.node, self.certain, self.clean, self.words, self.names))


class _Layout:
    """A header read for its declarations: items and includes in source order."""

    digest: bytes
    source: bytes
    tree: Tree
    key_base: int  # keys its structs apart from the file's and other headers'
    macro_names: frozenset[bytes]
    events: list[tuple[str | None, bool, bool] | _Item]  # (path, angled, certain)

    __match_args__ = ("digest", "source", "tree", "key_base", "macro_names", "events")

    def __init__(
        self,
        digest: bytes,
        source: bytes,
        tree: Tree,
        key_base: int,
        macro_names: frozenset[bytes],
        events: list[tuple[str | None, bool, bool] | _Item] | None = None,
    ) -> None:
        self.digest = digest
        self.source = source
        self.tree = tree
        self.key_base = key_base
        self.macro_names = macro_names
        self.events = [] if events is None else events

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"digest={self.digest!r}, " f"source={self.source!r}, "
                f"tree={self.tree!r}, " f"key_base={self.key_base!r}, " f"macro_names={self.macro_names!r}, "
                f"events={self.events!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.digest, self.source, self.tree, self.key_base, self.macro_names, self.events)
        theirs = (other.digest, other.source, other.tree, other.key_base, other.macro_names, other.events)
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable


def imported(view: object, tree: Tree, target: Target, strict_generic: bool) -> Imported | None:
    """The headers' declarations for the model; None where a header is unread (then the file
    is checked as before) or the file has no includes. Not remembered on the view: a view is
    reused for a text whose directives did not move, where an include may have entered a body."""
    if getattr(view, "directives", None) is None:
        return None
    try:
        return _imported(view, tree, target, strict_generic)
    except RecursionError:  # pathological nesting in a header: read nothing from them
        return None


def _imported(view, tree: Tree, target: Target, strict_generic: bool) -> Imported | None:  # noqa: ANN001
    found = closure(view)
    if found is None or not found.key:
        return None
    # What decides the result, cheap to tell on a keystroke: the headers' contents (the
    # closure's key), the file's includes where they are, its macros and the target.
    includes = []
    for d in view.directives:
        if d.kind == "include" and d.path is not None:
            active = view.active_at(d.start)
            if d.keyword == PRELUDE:  # the program's sources before the file: read first, always
                includes.append((d.path, d.angled, True))
            elif active is not False:
                includes.append((d.path, d.angled, active is True and _at_file_scope(tree.root_node, d.start)))
    own_macros = frozenset(view.defined_names()) | frozenset(view.env.macros)
    k = (found.key, tuple(includes), own_macros, target, strict_generic)
    imported = current().table("header_types.imported", _IMPORTED_MAX)
    got = imported.touch(k)
    if got is not None:
        return got
    resolver = view.include_resolver
    seq: list[tuple[_Layout, _Item, bool]] = []
    seen: set[object] = set()
    layouts: list[_Layout] = []

    def visit(path: str, angled: bool, including: object, certain: bool, depth: int) -> None:
        got = resolve_include(resolver, path, angled, including)
        if got is None or depth > 64:
            return
        file_id, content = got
        # one header reached by two spellings (`src/cl/base.cl` from the file, the absolute
        # path from a prelude's include) is one header, read once as its guard makes it
        once = _same_file(file_id)
        if once in seen:
            return
        seen.add(once)
        layout = _layout(file_id, content)
        layouts.append(layout)
        for ev in layout.events:
            if isinstance(ev, _Item):
                seq.append((layout, ev, certain and ev.certain))
            elif ev[0] is not None:
                visit(ev[0], ev[1], file_id, certain and ev[2], depth + 1)

    for path, angled, certain in includes:
        visit(path, angled, view.file_id, certain, 0)
    macros = set().union(*(x.macro_names for x in layouts))
    macros.update(n.encode() for n in own_macros)
    h = blake2b(found.key, digest_size=16)
    h.update(repr((includes, target, strict_generic)).encode())
    for m in sorted(macros):
        h.update(m + b"\0")
    return imported.put(k, _read(h.digest(), seq, frozenset(macros), target, strict_generic))


def _same_file(file_id: object) -> object:
    """A path-like id as one absolute path; other ids (a buffer's, a prelude's) as they are."""
    if isinstance(file_id, str) and "\0" not in file_id and not file_id.startswith("<"):
        return os.path.abspath(file_id)
    return file_id


def _at_file_scope(root: Node, offset: int) -> bool:
    """The directive at `offset` sits among the file's items, not in a body or a struct."""
    n = root
    while True:
        child = next((c for c in n.children if c.start_byte <= offset < c.end_byte), None)
        if child is None:
            return True
        if child.type == "preproc_include":
            return True
        if child.type not in _ARMS and child.type not in ("ERROR", "linkage_specification", "declaration_list"):
            return False
        n = child


def _read(key: bytes, seq: list[tuple[_Layout, _Item, bool]], macros: frozenset[bytes], target: Target,
          strict_generic: bool) -> Imported:
    poison: set[tuple[str, str]] = set()
    defined: Counter[tuple[str, str]] = Counter()
    for _, item, certain in seq:
        ok = certain and item.clean and not (item.words & macros)
        for name in item.names:
            if not ok:
                poison.add(name)
            if name[0] != "function":
                defined[name] += 1
    poison.update(n for n, c in defined.items() if c > 1)
    typedefs: dict[str, Typedef] = {}
    tags: dict[str, Type] = {}
    functions: dict[str, list[HeaderFunction]] = {}
    readers: dict[int, TypeReader] = {}
    for layout, item, certain in seq:
        if not (certain and item.clean) or item.words & macros:
            continue
        reader = readers.get(id(layout))
        if reader is None:
            reader = readers[id(layout)] = TypeReader(layout.source, target, typedefs, tags, None, strict_generic,
                                                      layout.key_base)
        _declare(reader, item.node, poison, typedefs, functions)
        for t, node in reader.defined_tags:
            name = getattr(t, "name", None)
            if name and ("tag", name) not in poison:
                tags[name] = t
        reader.defined_tags.clear()
        reader.enumerators.clear()
        reader.fields.clear()
    # A prototype and the definition may name the parameters differently: the types must agree.
    agreed = {name: fs[-1] for name, fs in functions.items() if all(f.type == fs[0].type for f in fs)}
    return Imported(key, typedefs, tags, agreed)


def _declare(reader: TypeReader, item: Node, poison: set[tuple[str, str]], typedefs: dict[str, Typedef],
             functions: dict[str, list[HeaderFunction]]) -> None:
    k = item.type
    if k in _TAG_KINDS:
        reader.specifiers(_Wrap(item))  # type: ignore[arg-type]
    elif k == "type_definition":
        spec = reader.specifiers(item)
        for d in item.children_by_field_name("declarator"):
            got = reader.declare(spec, d, context="typedef")
            # `typedef REAL *rptr;` with REAL from the command line: what it points to and
            # where are the macro's; as unknown as an unread header
            if got.name and ("type", got.name) not in poison and _whole(got.type):
                typedefs[got.name] = Typedef(got.type, got.space, got.cv)
    elif k in ("declaration", "function_definition"):
        spec = reader.specifiers(item)
        for d in item.children_by_field_name("declarator"):
            got = reader.declare(spec, d, context="program-scope")
            if got.name and isinstance(got.type, Function) and ("function", got.name) not in poison:
                params = got.params or ()
                functions.setdefault(got.name, []).append(
                    HeaderFunction(got.type, tuple(p.name for p in params), tuple(p.cv for p in params)))


def _whole(t: Type) -> bool:
    """No unknown type along the pointers and arrays (a struct's members may be unknown)."""
    while isinstance(t, (Pointer, Array)):
        t = t.pointee if isinstance(t, Pointer) else t.elem
    return not isinstance(t, Unknown)


class _Wrap:
    """A bare struct/enum specifier as a declaration whose `type` it is (model/symbols.py)."""

    def __init__(self, node: Node) -> None:
        self.children = [node]

    def field_name_for_child(self, i: int) -> str:
        return "type"


# -- one header --------------------------------------------------------------------------


def _layout(file_id: object, content: bytes) -> _Layout:
    k = (file_id, content)
    layouts = current().table("header_types.layouts", _LAYOUTS_MAX)
    got = layouts.touch(k)
    if got is None:
        got = layouts.put(k, _scan(file_id, content))
    return got


def _scan(file_id: object, content: bytes) -> _Layout:
    once = parsed(file_id, content)  # the parse the name checks made (headers.py)
    digest = once.digest
    macros = frozenset(d.name.encode() for d in once.directives if d.kind == "define" and d.name)
    # Negative and far apart: a file's structs are keyed by their (non-negative) offsets.
    key_base = -((int.from_bytes(digest[:6], "big") + 1) << 32)
    layout = _Layout(digest, content, once.tree, key_base, macros)
    _walk(layout, layout.tree.root_node, True)
    return layout


def _walk(layout: _Layout, node: Node, certain: bool) -> None:
    for i, c in enumerate(node.children):
        k = c.type
        if k in _DIRECTIVES or node.field_name_for_child(i) in ("name", "condition"):
            continue
        if k in _ARMS:
            _walk(layout, c, certain and _is_guard(c))
        elif k in ("ERROR", "linkage_specification", "declaration_list"):
            _walk(layout, c, False if k == "ERROR" else certain)
        elif k == "preproc_include":
            p = c.child_by_field_name("path")
            raw = p.text.decode("utf-8", "replace") if p is not None and p.text is not None else ""
            quoted = p is not None and p.type in ("string_literal", "system_lib_string") and len(raw) >= 2
            layout.events.append((raw[1:-1] if quoted else None, p is not None and p.type == "system_lib_string",
                                  certain))
        elif c.is_named:
            layout.events.append(_item(layout.source, c, certain))


def _is_guard(arm: Node) -> bool:
    """`#ifndef X` / `#if !defined(X)` whose first line defines X, with no other arm: the text
    a header's first inclusion always reads."""
    if arm.child_by_field_name("alternative") is not None:
        return False
    if arm.type == "preproc_ifdef":
        name = arm.child_by_field_name("name")
        if arm.children[0].type != "#ifndef" or name is None:
            return False
        guard = name.text
    elif arm.type == "preproc_if":
        cond = arm.child_by_field_name("condition")
        m = re.fullmatch(rb"!\s*defined\s*\(?\s*(\w+)\s*\)?", cond.text or b"") if cond is not None else None
        if m is None:
            return False
        guard = m.group(1)
    else:
        return False
    first = next((c for i, c in enumerate(arm.children)
                  if c.is_named and arm.field_name_for_child(i) not in ("name", "condition") and c.type != "comment"),
                 None)
    return first is not None and first.type == "preproc_def" and \
        (first.child_by_field_name("name") is not None and first.child_by_field_name("name").text == guard)


def _item(source: bytes, node: Node, certain: bool) -> _Item:
    body = node.child_by_field_name("body") if node.type == "function_definition" else None
    end = body.start_byte if body is not None else node.end_byte
    head = source[node.start_byte:end]
    clean = not node.has_error and not _macro_like(node, end) and b"overloadable" not in head and \
        not any(c.type == "kernel_specifier" for c in node.children)
    return _Item(node, certain, clean, frozenset(_WORD.findall(head)), tuple(_names(node)))


def _macro_like(node: Node, end: int) -> bool:
    stack = [node]
    while stack:
        n = stack.pop()
        if n.start_byte >= end:
            continue
        if n.type in _MACRO_KINDS or n.is_missing:
            return True
        stack.extend(n.children)
    return False


def _names(item: Node) -> list[tuple[str, str]]:
    """What a declaration declares in the namespaces the model imports."""
    out: list[tuple[str, str]] = []
    k = item.type
    body = item.child_by_field_name("body") if k == "function_definition" else None
    stack = [item]
    while stack:  # tag definitions anywhere in it (nested ones too), not in a function body
        n = stack.pop()
        if n is body:
            continue
        if n.type in _TAG_KINDS and n.child_by_field_name("body") is not None:
            name = n.child_by_field_name("name")
            if name is not None and name.text is not None:
                out.append(("tag", name.text.decode("utf-8", "replace")))
        stack.extend(n.children)
    if k == "type_definition":
        out.extend(("type", n) for d in item.children_by_field_name("declarator") if (n := _name(d)) is not None)
    elif k in ("declaration", "function_definition"):
        for d in item.children_by_field_name("declarator"):
            fn = False
            while d is not None and d.type in _WRAPPERS:
                fn = fn or d.type == "function_declarator"
                d = d.child_by_field_name("declarator")
            if fn and d is not None and d.type == "identifier" and d.text is not None:
                out.append(("function", d.text.decode("utf-8", "replace")))
    return out


def _name(d: Node | None) -> str | None:
    while d is not None and d.type in _WRAPPERS:
        d = d.child_by_field_name("declarator")
    return d.text.decode("utf-8", "replace") if d is not None and d.text is not None and \
        d.type in ("identifier", "type_identifier") else None
