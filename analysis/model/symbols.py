"""The per-file semantic model: a file-level index plus lazily built per-function facts.

`SemanticModel(tree, source, target, macro_expander=None)`:
- the *file index* (`FileIndex`) holds what is declared at file scope: functions (definitions,
  prototypes, kernels, attributes), program-scope variables, typedefs, struct/union/enum tags and
  enumerators. It reads only top-level declarations, never function bodies.
- *function facts* (`FunctionModel`: scopes, locals, resolved references, call sites, expression
  types) are built on first use from the function node and the file index alone, so an
  incremental layer can redo one function when only its body changed.

Nothing here raises on user source: ERROR nodes are skipped, and what they hide is simply absent.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import ChainMap
from collections.abc import Callable, Iterator

from functools import partial
from operator import attrgetter

from tree_sitter import Node, Tree

from cllint.analysis.database import Table, current
from cllint.analysis.records import replace
from cllint.analysis.catalogue import catalogue
from cllint.analysis.digest import blake2b
from cllint.analysis.target import Target

from .decls import Attribute, Declared, MacroExpander, Specifiers, Typedef, TypeReader, text
from .exprs import ExprTyper
from .imported import HeaderFunction, Imported
from .rekey import Stale, rekeyed
from .scopes import Scope, ScopeKind, Symbol, SymbolKind
from .walk import KindIndex, name_node, nodes_of_kinds
from .types import (
    AddressSpace,
    Array,
    Enum_,
    Function,
    Pipe,
    Pointer,
    Struct,
    Vector,
    Type,
    Unknown,
    program_scope_space,
    with_space,
)

__all__ = ["FileIndex", "FunctionInfo", "FunctionModel", "SemanticModel"]

# Containers whose children are still file-level items.
_CONTAINERS = frozenset({"translation_unit", "ERROR", "preproc_if", "preproc_ifdef", "preproc_else",
                         "preproc_elif", "preproc_elifdef", "preproc_conditional", "linkage_specification",
                         "declaration_list"})
# Subtrees that hold no references to resolve.
_SKIP = frozenset({"attribute_specifier", "macro_modifier", "preproc_skipped", "preproc_conditional_text",
                   "comment", "preproc_call", "preproc_def", "preproc_function_def", "preproc_include",
                   "string_literal", "char_literal", "number_literal"})
_BLOCKS = frozenset({"compound_statement", "for_statement", "block_literal"})
# Every kind FunctionModel._walk_nodes treats otherwise than "go on to the named children"
# (less the leaves among _SKIP, which hold nothing).
WALKED = (_SKIP - {"number_literal", "char_literal"}) | _BLOCKS | {
    "declaration", "type_definition", "struct_specifier", "union_specifier", "enum_specifier", "identifier",
    "type_identifier", "field_expression", "call_expression", "cast_expression", "sizeof_expression",
    "vector_literal", "compound_literal_expression", "type_descriptor"}


_LEAVES = frozenset({"identifier", "type_identifier"})
_START, _END = attrgetter("start_byte"), attrgetter("end_byte")
_FAR = 1 << 62
_UNSEEN = object()


class FunctionInfo:
    """File-level facts about one function name: its signature, kernels' attributes, declarations."""

    __slots__ = ("name", "symbol", "is_kernel", "return_type", "_params", "attributes", "definition",
                 "prototypes")
    name: str
    symbol: Symbol
    is_kernel: bool
    return_type: Type
    # The parameters, or how to make them: most functions' are never asked for (a
    # keystroke re-reads every head), and making them costs more than reading them.
    _params: tuple[Symbol, ...] | Callable[[], tuple[Symbol, ...]]
    attributes: tuple[Attribute, ...]
    definition: Node | None  # the function_definition, if the file has one
    prototypes: tuple[Node, ...]  # declarations without a body

    __match_args__ = ("name", "symbol", "is_kernel", "return_type", "_params", "attributes", "definition",
                      "prototypes")

    def __init__(
        self,
        name: str,
        symbol: Symbol,
        is_kernel: bool,
        return_type: Type,
        _params: tuple[Symbol, ...] | Callable[[], tuple[Symbol, ...]],
        attributes: tuple[Attribute, ...],
        definition: Node | None,
        prototypes: tuple[Node, ...],
    ) -> None:
        self.name = name
        self.symbol = symbol
        self.is_kernel = is_kernel
        self.return_type = return_type
        self._params = _params
        self.attributes = attributes
        self.definition = definition
        self.prototypes = prototypes

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"name={self.name!r}, " f"symbol={self.symbol!r}, "
                f"is_kernel={self.is_kernel!r}, " f"return_type={self.return_type!r}, "
                f"_params={self._params!r}, " f"attributes={self.attributes!r}, "
                f"definition={self.definition!r}, " f"prototypes={self.prototypes!r})")

    @property
    def params(self) -> tuple[Symbol, ...]:
        made = self._params
        if callable(made):
            made = made()
            object.__setattr__(self, "_params", made)
        return made

    @property
    def type(self) -> Type:
        return self.symbol.type

    def attribute(self, name: str) -> Attribute | None:
        return next((a for a in self.attributes if a.name == name), None)

    @property
    def reqd_work_group_size(self) -> tuple[int, ...] | None:
        a = self.attribute("reqd_work_group_size")
        try:
            return tuple(int(x, 0) for x in a.args) if a else None
        except ValueError:
            return None


class FileIndex:
    functions: dict[str, FunctionInfo]
    globals: dict[str, Symbol]
    typedefs: dict[str, Typedef]
    typedef_symbols: dict[str, Symbol]
    tags: dict[str, Type]
    tag_symbols: dict[str, Symbol]
    enumerators: dict[str, Symbol]
    field_nodes: dict[tuple[int, str], Node]
    definitions: list[Node]  # every function_definition, in order
    scope: Scope
    refs: dict[int, Symbol]  # file-scope name nodes -> symbols

    __match_args__ = ("functions", "globals", "typedefs", "typedef_symbols", "tags", "tag_symbols",
                      "enumerators", "field_nodes", "definitions", "scope", "refs")

    def __init__(
        self,
        functions: dict[str, FunctionInfo] | None = None,
        globals: dict[str, Symbol] | None = None,
        typedefs: dict[str, Typedef] | None = None,
        typedef_symbols: dict[str, Symbol] | None = None,
        tags: dict[str, Type] | None = None,
        tag_symbols: dict[str, Symbol] | None = None,
        enumerators: dict[str, Symbol] | None = None,
        field_nodes: dict[tuple[int, str], Node] | None = None,
        definitions: list[Node] | None = None,
        scope: Scope | None = None,
        refs: dict[int, Symbol] | None = None,
    ) -> None:
        self.functions = {} if functions is None else functions
        self.globals = {} if globals is None else globals
        self.typedefs = {} if typedefs is None else typedefs
        self.typedef_symbols = {} if typedef_symbols is None else typedef_symbols
        self.tags = {} if tags is None else tags
        self.tag_symbols = {} if tag_symbols is None else tag_symbols
        self.enumerators = {} if enumerators is None else enumerators
        self.field_nodes = {} if field_nodes is None else field_nodes
        self.definitions = [] if definitions is None else definitions
        self.scope = Scope(ScopeKind.FILE, 0, 0) if scope is None else scope
        self.refs = {} if refs is None else refs

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"functions={self.functions!r}, " f"globals={self.globals!r}, "
                f"typedefs={self.typedefs!r}, " f"typedef_symbols={self.typedef_symbols!r}, "
                f"tags={self.tags!r}, " f"tag_symbols={self.tag_symbols!r}, "
                f"enumerators={self.enumerators!r}, " f"field_nodes={self.field_nodes!r}, "
                f"definitions={self.definitions!r}, " f"scope={self.scope!r}, " f"refs={self.refs!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.functions, self.globals, self.typedefs, self.typedef_symbols, self.tags,
                self.tag_symbols, self.enumerators, self.field_nodes, self.definitions, self.scope, self.refs)
        theirs = (other.functions, other.globals, other.typedefs, other.typedef_symbols, other.tags,
                  other.tag_symbols, other.enumerators, other.field_nodes, other.definitions, other.scope,
                  other.refs)
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable

    def lookup(self, name: str) -> Symbol | None:
        f = self.functions.get(name)
        if f is not None:
            return f.symbol
        return self.globals.get(name) or self.enumerators.get(name)


def _declarators(node: Node) -> list[Node]:
    return [c for i, c in enumerate(node.children) if node.field_name_for_child(i) == "declarator"]


def _object_space(d: Declared, spec: Specifiers, target: Target, file_scope: bool) -> tuple[AddressSpace, bool]:
    """Where a variable lives (6.7 Inference): written, else program scope/static/extern ->
    global (2.0+) or constant, else private."""
    space = d.space  # the reader carries the specifiers' space until a `*` takes it
    if space is not None:
        return space, True
    if file_scope or spec.storage & {"static", "extern"}:
        return program_scope_space(target), False
    return AddressSpace.PRIVATE, False


class _Builder:
    """Reads the file-level items into a FileIndex."""

    def __init__(self, tree: Tree, source: bytes, target: Target, expander: MacroExpander | None,
                 macro_state: Callable[[int], bytes] | None = None, strict_generic: bool = False,
                 imported: Imported | None = None) -> None:
        self.source, self.target, self.expander = source, target, expander
        self.imported = imported
        self.index = FileIndex()
        self.index.scope = Scope(ScopeKind.FILE, 0, max(len(source), tree.root_node.end_byte) + 1,
                                 tree.root_node)
        self._protos: dict[str, list[Node]] = {}
        self._defs: dict[str, Node] = {}
        # name -> (declared, specifiers, item, how to make its parameter symbols)
        self._fn_decl: dict[str, tuple[Declared, Specifiers, Node, Callable[[], tuple[Symbol, ...]]]] = {}
        # What a function head's reading depends on besides its text: the macros in force
        # (macro_state) and the items before it (_env, a running digest of their text).
        self._macro_state = macro_state
        self._env = blake2b(digest_size=16) if macro_state is not None else None
        # Where the file's structs, unions and enums before the item are defined: their keys
        # (offsets). Only a head whose types name one of them depends on it (`_Head.offsets`),
        # so a body edit above a tag leaves the other heads after it replayable.
        self._offsets = blake2b(digest_size=16) if macro_state is not None else None
        self._tag_starts: list[int] = []  # the starts the digest holds, in order (see `_Head.moved`)
        # (name, name node) of each declarator, per declaration or definition item
        self._declared: dict[int, list[tuple[str | None, Node | None]]] = {}
        self._heads: Table | None = None  # the database's "model.heads", found at the first head
        self.reader = TypeReader(source, target, self.index.typedefs, self.index.tags, expander, strict_generic)
        if imported is not None and imported.key:
            self._seed(imported)

    def _seed(self, imported: Imported) -> None:
        """The headers' declarations come first; the file's own items overwrite a name they
        declare again. Heads read before are replayed only with the same headers."""
        idx = self.index
        idx.typedefs.update(imported.typedefs)
        idx.tags.update(imported.tags)
        infos = imported.memo.get("functions")
        if infos is None:
            infos = imported.memo["functions"] = {name: _header_function(name, f)
                                                  for name, f in imported.functions.items()}
        idx.functions.update(infos)  # type: ignore[arg-type]
        idx.scope.symbols.update((name, info.symbol) for name, info in infos.items())  # type: ignore[attr-defined]
        if self._env is not None:
            self._env.update(imported.key)

    def build(self, root: Node) -> FileIndex:
        stack = [root]
        items: list[Node] = []
        while stack:  # collect items in source order without recursing into bodies
            n = stack.pop()
            if n.type in _CONTAINERS:
                stack.extend(reversed(n.children))
            else:
                items.append(n)
        env = self._env
        for item in items:
            try:
                self._item(item)
            except RecursionError:  # pathological nesting: skip the item, keep the rest
                continue
            finally:
                if env is not None and item.type != "comment" and item.type != "function_definition":
                    env.update(item.type.encode())
                    raw = item.text or b""
                    env.update(raw)
                    if b"{" in raw:  # a struct, union or enum defined here is keyed by its offset
                        self._offsets.update(item.start_byte.to_bytes(8, "little"))  # type: ignore[union-attr]
                        self._tag_starts.append(item.start_byte)
        self._finish_functions()
        if self.imported is not None:
            self._unseed_clashes(self.imported)
        return self.index

    def _unseed_clashes(self, imported: Imported) -> None:
        """A header function whose name the file gives to something else is not the file's."""
        idx = self.index
        for name in imported.functions:
            info = idx.functions.get(name)
            if info is not None and info.symbol.node is None and info.definition is None and not info.prototypes and \
                    (name in idx.globals or name in idx.enumerators or name in idx.typedefs):
                del idx.functions[name]
                if idx.scope.symbols.get(name) is info.symbol:
                    del idx.scope.symbols[name]

    def _drain(self) -> None:
        """Record tags and enumerators the reader met while reading the last item."""
        idx = self.index
        for t, node in self.reader.defined_tags:
            name = getattr(t, "name", None)
            if name:
                idx.tags[name] = t
                kind = SymbolKind.ENUM if isinstance(t, Enum_) else (
                    SymbolKind.UNION if isinstance(t, Struct) and t.union else SymbolKind.STRUCT)
                nn = node.child_by_field_name("name")
                sym = Symbol(name, kind, t, nn, node, scope_start=0)
                idx.tag_symbols[name] = sym
                if nn is not None:
                    idx.refs[nn.id] = sym
        for name, node, t in self.reader.enumerators:
            sym = Symbol(name, SymbolKind.ENUMERATOR, t, node, node.parent)
            idx.enumerators[name] = sym
            idx.scope.symbols.setdefault(name, sym)
            idx.refs[node.id] = sym
        idx.field_nodes.update(self.reader.fields)
        self.reader.defined_tags.clear()
        self.reader.enumerators.clear()
        self.reader.fields.clear()

    def _item(self, item: Node) -> None:
        k = item.type
        if k in ("struct_specifier", "union_specifier", "enum_specifier"):
            self.reader.specifiers(_Wrap(item))  # type: ignore[arg-type]
            self._drain()
        elif k == "type_definition":
            spec = self.reader.specifiers(item)
            for d in _declarators(item):
                got = self.reader.declare(spec, d, context="typedef")
                if got.name:
                    td = Typedef(got.type, got.space, got.cv)
                    self.index.typedefs[got.name] = td
                    sym = Symbol(got.name, SymbolKind.TYPEDEF, got.type, got.name_node, item,
                                 space=td.space, space_explicit=td.space is not None)
                    self.index.typedef_symbols[got.name] = sym
                    if got.name_node is not None:
                        self.index.refs[got.name_node.id] = sym
            self._drain()
        elif k == "declaration":
            spec = self.reader.specifiers(item)
            self._drain()
            declared = self._declared.setdefault(item.id, [])
            for d in _declarators(item):
                got = self.reader.declare(spec, d, context="program-scope")
                declared.append((got.name, got.name_node))
                if not got.name:
                    continue
                if isinstance(got.type, Function):
                    self._protos.setdefault(got.name, []).append(item)
                    self._fn_decl.setdefault(got.name, (got, spec, item, partial(_param_symbols, got, item)))
                    continue
                self._global(got, spec, item)
        elif k == "function_definition":
            got, spec, params = self._head(item)
            self._declared[item.id] = [(got.name, got.name_node)]
            self.index.definitions.append(item)
            if got.name and isinstance(got.type, Function):
                self._defs.setdefault(got.name, item)
                self._fn_decl[got.name] = (got, spec, item, params)  # the definition's signature wins
        elif k == "expression_statement" or k == "macro_invocation":
            return

    def _head(self, item: Node) -> tuple[Declared, Specifiers, Callable[[], tuple[Symbol, ...]]]:
        """A function definition's head. Reading one costs as much as all the rest of the
        file index, and an edit inside a body leaves every head as it was: a head read
        before with the same text, macros and preceding items is replayed instead."""
        key = None
        env = self._env
        body = item.child_by_field_name("body")
        if env is not None and self._macro_state is not None and body is not None:
            head = self.source[item.start_byte : body.start_byte]
            env.update(b"function_definition")
            env.update(head)
            # the node count: with a syntax error elsewhere, the same text can parse otherwise
            key = (self.target, self.reader.strict_generic, self._macro_state(item.start_byte), env.copy().digest(), head,
                   item.descendant_count - body.descendant_count)
            heads = self._heads
            if heads is None:  # once per build, not per head
                heads = self._heads = current().table("model.heads", _HEADS_MAX)
            hit = heads.get(key)
            if hit is not None and (hit.offsets is None or hit.offsets == self._offsets.digest()):  # type: ignore[union-attr]
                replayed = hit.replay(item, self.source)
                if replayed is not None:
                    return replayed
            elif hit is not None:  # a tag it names may have moved: its types at the tags' new keys
                moved = hit.moved(self._tag_starts, self._file_tags())
                replayed = moved.replay(item, self.source) if moved is not None else None
                if replayed is not None:
                    moved.offsets = self._offsets.digest()  # type: ignore[union-attr]
                    heads.put(key, moved)
                    return replayed
        spec = self.reader.specifiers(item)
        quiet = not (self.reader.defined_tags or self.reader.enumerators or self.reader.fields)
        self._drain()
        got = self.reader.declare(spec, item.child_by_field_name("declarator"), context="program-scope")
        # A head that defines a tag, enumerator or field is read again each time (it adds
        # to the index); so is one whose names cannot be found again by position.
        defines = bool(self.reader.defined_tags or self.reader.enumerators or self.reader.fields)
        if defines and self._offsets is not None:  # a tag defined in a head is keyed by its offset too
            self._offsets.update(item.start_byte.to_bytes(8, "little"))
            self._tag_starts.append(item.start_byte)
        if key is not None and quiet and not defines:
            head_memo = _Head.of(got, spec, item)
            if head_memo is not None:
                if _names_file_tag([spec.type, got.type, *(p.type for p in got.params or ())]):
                    head_memo.offsets = self._offsets.digest()  # type: ignore[union-attr]
                    head_memo.tag_starts = tuple(self._tag_starts)
                (self._heads or current().table("model.heads", _HEADS_MAX)).put(key, head_memo)
        return got, spec, partial(_param_symbols, got, item)

    def _file_tags(self) -> dict[int, Type]:
        """The file's structs, unions and enums indexed so far, by key: named ones, and the
        anonymous ones a typedef names (what a head's types can name)."""
        idx = self.index
        out: dict[int, Type] = {}
        for t in (*idx.tags.values(), *(td.type for td in idx.typedefs.values())):
            if isinstance(t, (Struct, Enum_)) and t.key >= 0:
                out.setdefault(t.key, t)
        return out

    def _global(self, got: Declared, spec: Specifiers, item: Node) -> None:
        space, explicit = _object_space(got, spec, self.target, file_scope=True)
        t = with_space(got.type, space)
        sym = Symbol(got.name or "", SymbolKind.GLOBAL, t, got.name_node, item, space, explicit,
                     spec.storage, spec.cv | got.cv, attributes=got.attributes)
        self.index.globals[sym.name] = sym
        self.index.scope.symbols[sym.name] = sym
        if got.name_node is not None:
            self.index.refs[got.name_node.id] = sym

    def _finish_functions(self) -> None:
        for name, (got, spec, item, params) in self._fn_decl.items():
            ftype = got.type if isinstance(got.type, Function) else Function(Unknown("?"), ())
            protos = tuple(self._protos.get(name, ()))
            kernel = spec.is_kernel or any(self.reader.specifiers(p).is_kernel for p in protos)
            definition = self._defs.get(name)
            attrs = got.attributes
            sym = Symbol(name, SymbolKind.FUNCTION, ftype, got.name_node, item, storage=spec.storage,
                         is_kernel=kernel, attributes=attrs)
            self.index.functions[name] = FunctionInfo(name, sym, kernel, ftype.ret, params, attrs, definition,
                                                      protos)
            self.index.scope.symbols[name] = sym
            for n in self._name_nodes(name, definition, protos):
                self.index.refs[n.id] = sym

    def _name_nodes(self, name: str, definition: Node | None, protos: tuple[Node, ...]) -> Iterator[Node]:
        # The names were read with each item (reading a declarator again costs as much).
        for item in ([definition] if definition is not None else []) + list(protos):
            for got_name, node in self._declared.get(item.id, ()):
                if got_name == name and node is not None:
                    yield node


_HEADS_MAX = 8192


def _path(item: Node, node: Node, places: dict[int, dict[int, int]] | None = None) -> tuple[int, ...] | None:
    """Child indexes leading from `item` down to `node` (None if it is not below it).
    `places`: each parent's child indexes by node id, shared by the paths of one head (its
    parameters share a list: looking each up among the list's children, commas included,
    was ~0.5 ms of a 14-parameter head)."""
    out: list[int] = []
    n = node
    if places is None:
        places = {}
    while n is not None and n != item:
        parent = n.parent
        if parent is None:
            return None
        where = places.get(parent.id)
        if where is None:
            where = places[parent.id] = {}
            for k, c in enumerate(parent.children):
                where.setdefault(c.id, k)  # the first, as a scan would find
        i = where.get(n.id)
        if i is None:
            return None
        out.append(i)
        n = parent
    return tuple(reversed(out)) if n is not None else None


def _follow(item: Node, path: tuple[int, ...], kind: str, name: bytes) -> Node | None:
    n: Node | None = item
    for i in path:  # (a head that parsed otherwise, as error recovery can: no such child)
        n = n.child(i) if n is not None and i < n.child_count else None
    return n if n is not None and n.type == kind and n.text == name else None


class _Head:
    """A function head's reading without its nodes: the names are found again by the
    child-index paths to them (the same text parses to the same subtree). `offsets`: where
    the file's tags before it were defined, when its types name one of them (their keys are
    those offsets); None when they name none, so that moving the tags leaves it valid."""

    __slots__ = ("spec", "name", "type", "space", "cv", "attributes", "name_at", "params", "offsets", "tag_starts")
    spec: Specifiers
    name: str | None
    type: Type
    space: AddressSpace | None
    cv: frozenset[str]
    attributes: tuple[Attribute, ...]
    name_at: tuple[tuple[int, ...], str, bytes] | None
    # (name, type, cv, where its name node is) per parameter
    params: tuple[tuple[str | None, Type, frozenset[str], tuple[tuple[int, ...], str, bytes] | None], ...]
    offsets: bytes | None
    # with `offsets`: the starts of the items it digests, where `moved` maps old keys to new
    tag_starts: tuple[int, ...] | None

    __match_args__ = ("spec", "name", "type", "space", "cv", "attributes", "name_at", "params", "offsets",
                      "tag_starts")

    def __init__(
        self,
        spec: Specifiers,
        name: str | None,
        type: Type,
        space: AddressSpace | None,
        cv: frozenset[str],
        attributes: tuple[Attribute, ...],
        name_at: tuple[tuple[int, ...], str, bytes] | None,
        params: tuple[tuple[str | None, Type, frozenset[str], tuple[tuple[int, ...], str, bytes] | None], ...],
        offsets: bytes | None = None,
        tag_starts: tuple[int, ...] | None = None,
    ) -> None:
        self.spec = spec
        self.name = name
        self.type = type
        self.space = space
        self.cv = cv
        self.attributes = attributes
        self.name_at = name_at
        self.params = params
        self.offsets = offsets
        self.tag_starts = tag_starts

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"spec={self.spec!r}, " f"name={self.name!r}, "
                f"type={self.type!r}, " f"space={self.space!r}, " f"cv={self.cv!r}, "
                f"attributes={self.attributes!r}, " f"name_at={self.name_at!r}, " f"params={self.params!r}, "
                f"offsets={self.offsets!r}, " f"tag_starts={self.tag_starts!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.spec, self.name, self.type, self.space, self.cv, self.attributes, self.name_at,
                self.params, self.offsets, self.tag_starts)
        theirs = (other.spec, other.name, other.type, other.space, other.cv, other.attributes, other.name_at,
                  other.params, other.offsets, other.tag_starts)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.spec, self.name, self.type, self.space, self.cv, self.attributes, self.name_at,
                     self.params, self.offsets, self.tag_starts))

    def moved(self, starts: list[int], tags: dict[int, Type]) -> _Head | None:
        """This head with the file tags its types name at their keys now: the items that define
        tags before it are the same ones (the memo's key holds their text), at `starts` instead
        of `tag_starts`, and a tag keyed within one moved with it. `tags`: the index's tags by
        key. None where that cannot be said (rekey.Stale): the head is read again."""
        old = self.tag_starts
        if old is None or len(old) != len(starts):
            return None

        def key_of(key: int) -> int:
            i = bisect_right(old, key) - 1
            return key if i < 0 else key + starts[i] - old[i]

        try:
            spec = replace(self.spec, type=rekeyed(self.spec.type, key_of, tags))
            params = tuple((name, rekeyed(t, key_of, tags), cv, where) for name, t, cv, where in self.params)
            return _Head(spec, self.name, rekeyed(self.type, key_of, tags), self.space, self.cv, self.attributes,
                         self.name_at, params, None, tuple(starts))
        except Stale:
            return None

    @classmethod
    def of(cls, got: Declared, spec: Specifiers, item: Node) -> _Head | None:
        places: dict[int, dict[int, int]] = {}

        def at(node: Node | None) -> tuple[tuple[int, ...], str, bytes] | None | bool:
            if node is None:
                return None
            path = _path(item, node, places)
            return False if path is None else (path, node.type, node.text or b"")

        name_at = at(got.name_node)
        params = []
        for p in got.params or ():
            where = at(p.name_node)
            if where is False:
                return None
            params.append((p.name, p.type, p.cv, where))
        if name_at is False:
            return None
        return cls(spec, got.name, got.type, got.space, got.cv, got.attributes, name_at,  # type: ignore[arg-type]
                   tuple(params))  # type: ignore[arg-type]

    def replay(self, item: Node, source: bytes) -> tuple[Declared, Specifiers, Callable[[], tuple[Symbol, ...]]] | None:
        name_node = None
        if self.name_at is not None:
            name_node = _follow(item, *self.name_at)
            if name_node is None:
                return None
        got = Declared(self.name, name_node, self.type, self.space, self.cv, attributes=self.attributes)
        return got, self.spec, partial(self._param_symbols, item)

    def _param_symbols(self, item: Node) -> tuple[Symbol, ...]:
        out = []
        for name, t, cv, where in self.params:
            node = _follow(item, *where) if where is not None else None
            out.append(Symbol(name or "", SymbolKind.PARAMETER, t, node, node, AddressSpace.PRIVATE, False,
                              cv=cv, scope_start=item.start_byte))
        return tuple(out)


def _names_file_tag(types: list[Type]) -> bool:
    """Whether any of `types` names, at any depth, a struct, union or enum the file defines
    (key >= 0: a header's are keyed below zero, a forward reference at -1)."""
    seen: set[int] = set()
    stack: list[Type] = list(types)
    while stack:
        t = stack.pop()
        if id(t) in seen:
            continue
        seen.add(id(t))
        if isinstance(t, (Struct, Enum_)):
            if t.key >= 0:
                return True
            if isinstance(t, Struct) and t.fields:
                stack.extend(f.type for f in t.fields)
        elif isinstance(t, Pointer):
            stack.append(t.pointee)
        elif isinstance(t, (Array, Vector, Pipe)):
            stack.append(t.elem)
        elif isinstance(t, Function):
            stack.append(t.ret)
            stack.extend(t.params)
    return False


# Function heads read (`_Head`), by (target, strictness, macros in force, digest of the
# items before, head text, node count): the database's "model.heads".


def _header_function(name: str, f: HeaderFunction) -> FunctionInfo:
    """A function only a header declares: no node of the file's tree names it."""
    sym = Symbol(name, SymbolKind.FUNCTION, f.type)
    params = tuple(Symbol(p or "", SymbolKind.PARAMETER, t, None, None, AddressSpace.PRIVATE, False, cv=cv)
                   for p, t, cv in zip(f.param_names, f.type.params, f.param_cv, strict=True))
    return FunctionInfo(name, sym, False, f.type.ret, params, (), None, ())


def _param_symbols(got: Declared, item: Node) -> tuple[Symbol, ...]:
    return tuple(Symbol(p.name or "", SymbolKind.PARAMETER, p.type, p.name_node, p.name_node,
                        AddressSpace.PRIVATE, False, cv=p.cv, scope_start=item.start_byte)
                 for p in got.params or ())


class _Wrap:
    """Presents a bare struct/enum specifier as a declaration whose `type` it is."""

    def __init__(self, node: Node) -> None:
        self.children = [node]

    def field_name_for_child(self, i: int) -> str:
        return "type"


class FunctionModel:
    """Facts about one function body: scopes, locals, resolved references, calls, expression types.

    Built from the function_definition node and the file index only.
    """

    def __init__(self, model: SemanticModel, node: Node) -> None:
        self.model = model
        self.node = node
        self.index = model.index
        self.source = model.source
        self.target = model.target
        spec_reader = TypeReader(self.source, self.target, self.index.typedefs, self.index.tags, model.expander,
                                 model.strict_generic)
        spec = spec_reader.specifiers(node)
        got = spec_reader.declare(spec, node.child_by_field_name("declarator"), context="program-scope")
        self.name = got.name or ""
        info = self.index.functions.get(self.name)
        self.info = info if info is not None and info.definition == node else None
        self.is_kernel = spec.is_kernel or (self.info.is_kernel if self.info else False)
        self.return_type = got.type.ret if isinstance(got.type, Function) else Unknown()
        self.scope = Scope(ScopeKind.FUNCTION, node.start_byte, node.end_byte, node, self.index.scope)
        self.refs: dict[int, Symbol] = {}
        self.locals: list[Symbol] = []
        self.calls: list[Node] = []
        self._callees: set[int] = set()  # ids of identifiers in call position (no parent walks)
        self._typedefs: ChainMap[str, Typedef] = ChainMap({}, self.index.typedefs)
        self._tags: ChainMap[str, Type] = ChainMap({}, self.index.tags)
        self._typedef_symbols: dict[str, Symbol] = {}
        self.field_nodes: dict[tuple[int, str], Node] = {}
        self.params: list[Symbol] = []
        for p in got.params or ():
            sym = Symbol(p.name or "", SymbolKind.PARAMETER, p.type, p.name_node, p.name_node,
                         AddressSpace.PRIVATE, False, cv=p.cv, scope_start=node.start_byte)
            self.params.append(sym)
            if p.name:
                self.scope.symbols[p.name] = sym
            if p.name_node is not None:
                self.refs[p.name_node.id] = sym
        body = node.child_by_field_name("body")
        if body is not None and body.child_count > 1 and body.children[1].type == "preproc_skipped":
            from .alternative_heads import alternative_parameter_names  # (a head under `#if` arms: rare)

            for name in alternative_parameter_names(body, self.source):
                if name not in self.scope.symbols:  # another `#if` arm's head (its type is the build's)
                    self.scope.symbols[name] = Symbol(name, SymbolKind.PARAMETER, Unknown(), None, None,
                                                      AddressSpace.PRIVATE, False, scope_start=node.start_byte)
        own = self.index.functions.get(self.name)
        decl = node.child_by_field_name("declarator")
        self.name_id: int | None = None  # the function's own name in its declarator
        if own is not None and decl is not None:
            for n in _walk_names(decl):
                if n.type == "identifier" and text(self.source, n) == self.name:
                    self.refs[n.id] = own.symbol
                    self.name_id = n.id
                    break
        self.typer = ExprTyper(self)
        body = node.child_by_field_name("body")
        if body is not None:
            self._walk(body)

    # -- public -----------------------------------------------------------------------

    def type_of(self, node: Node) -> Type:
        return self.typer.type_of(node)

    def names_a_function_uncalled(self) -> bool:
        """Some identifier of the body names a function without calling it (`&f`, `g = f`):
        neither a callee nor the function's own name in its head."""
        callees, own = self._callees, self.name_id
        return any(sym.kind is SymbolKind.FUNCTION and i not in callees and i != own for i, sym in self.refs.items())

    def scope_at(self, offset: int) -> Scope:
        return self.scope.innermost(offset)

    # -- building ---------------------------------------------------------------------

    def _reader(self) -> TypeReader:
        return TypeReader(self.source, self.target, self._typedefs, self._tags, self.model.expander,
                          self.model.strict_generic)

    def _walk(self, body: Node) -> None:
        if not self._walk_captured(body):
            self._walk_nodes(body)

    def _walk_captured(self, body: Node) -> bool:
        """`_walk_nodes` over the nodes one query finds, in pre-order, instead of every node.

        Only the kinds the walk acts on (`WALKED`) come back; every other node just passes the
        walk on to its named children, so what lies under it is handled as it comes. Subtrees the
        walk does not enter (`_SKIP` kinds, declarations but for their initialisers, type
        definitions, field names...) are byte ranges to leave out, with the parts it does enter
        (initialisers, a field expression's argument, a block's body) as ranges to keep. Byte
        ranges decide nesting exactly when no node found is empty and only a leaf shares its
        parent's range; otherwise (broken code with MISSING nodes) this returns False before
        changing anything, and the caller walks node by node."""
        if self.model.kinds is not None:
            found = self.model.kinds.under(body, WALKED)
        elif not body.has_error:
            # The body's named nodes, read once and kept for the semantic checks' and the other
            # analyses' own sets (walk.py's `_subtree`): in pre-order, which the sorts below give.
            found = nodes_of_kinds(body, WALKED)
        else:
            found = nodes_of_kinds(body, WALKED, ordered=False)
            found.sort(key=_END, reverse=True)  # stable: (start, -end) order, ties as found
            found.sort(key=_START)
        last_s = last_e = -1
        for i, n in enumerate(found):
            s, e = n.start_byte, n.end_byte
            if s >= e:
                return False
            if s == last_s and e == last_e:  # a node and its only child: the parent comes first
                prev = found[i - 1]
                leaf, prev_leaf = n.type in _LEAVES, prev.type in _LEAVES
                if leaf == prev_leaf or (i >= 2 and found[i - 2].start_byte == s and found[i - 2].end_byte == e):
                    return False
                if prev_leaf:
                    found[i - 1], found[i] = n, prev
            last_s, last_e = s, e
        scope = self.scope
        scopes = [scope]
        # regions: [end byte, kind, islands, next island]; kind 0 scope, 1 skipped, 2 island kept
        regions: list[list] = []
        top_end, top_kind, top = _FAR, -1, None
        roots: set[int] = set()  # nodes the walk enters directly (no type_descriptor filter)
        blocks: set[int] = set()  # blocks that opened a scope (their children are not filtered)
        top_body = body.id
        source = self.source
        refs = self.refs
        # What names mean in `scope` until the walk leaves it or declares something
        # (declarations, tags, typedefs); the builtin fallback, per name and call position.
        names: dict[bytes, Symbol | None] = {}
        outer_names: list[dict[bytes, Symbol | None]] = []  # `names` of the scopes outside, as left
        builtins: dict[tuple[bytes, bool], Symbol | None] = {}
        callees = self._callees
        for n in found:
            s = n.start_byte
            if s >= top_end:
                while regions and s >= regions[-1][0]:
                    if regions.pop()[1] == 0:
                        scopes.pop()
                        names = outer_names.pop()
                scope = scopes[-1]
                if regions:
                    top = regions[-1]
                    top_end, top_kind = top[0], top[1]
                else:
                    top_end, top_kind, top = _FAR, -1, None
            if top_kind == 1:
                islands, j = top[2], top[3]
                while j < len(islands) and islands[j].end_byte <= s:
                    j += 1
                top[3] = j
                if j == len(islands) or islands[j].start_byte > s or n.end_byte > islands[j].end_byte:
                    continue  # not walked
                top[3] = j + 1
                top = [islands[j].end_byte, 2]
                regions.append(top)
                top_end, top_kind = top[0], 2
            k = n.type
            if k == "identifier":
                word = source[s:n.end_byte]
                sym = names.get(word, _UNSEEN)
                if sym is _UNSEEN:
                    sym = names[word] = scope.lookup(word.decode("utf-8", "replace"))
                if sym is None:
                    key = (word, n.id in callees)
                    sym = builtins.get(key, _UNSEEN)
                    if sym is _UNSEEN:
                        sym = builtins[key] = self._builtin(n)
                if sym is not None:
                    refs[n.id] = sym
                continue
            skip: tuple | list | None = None  # islands of a region left out
            if k in _SKIP:
                skip = ()
            elif k in _BLOCKS and n.id != top_body:
                scope = Scope(ScopeKind.BLOCK, s, n.end_byte, n, scope)
                scopes[-1].children.append(scope)
                scopes.append(scope)
                # Until the block declares something, a name means there what it means
                # outside: the lookups are shared (else a name used N blocks deep is
                # looked up through N scopes in each of them).
                outer_names.append(names)
                top = [n.end_byte, 0]
                regions.append(top)
                top_end, top_kind = top[0], 0
                blocks.add(n.id)
                if k != "block_literal":
                    continue
                self._block_params(n, scope)
                names = {}
                b = n.child_by_field_name("body")
                if b is not None:
                    top_body = b.id  # the block's own braces share its scope
                    roots.add(b.id)
                skip = (b,) if b is not None else ()
            elif k == "declaration":
                skip = self._declaration(n, scope, len(scopes) == 1)
                roots.update(v.id for v in skip)
                names = {}
            elif k == "type_definition":
                self._typedef(n, scope)
                skip = ()
                names = {}
            elif k in ("struct_specifier", "union_specifier", "enum_specifier"):
                self._specifier_only(n, scope)
                skip = ()
                names = {}
            elif k == "type_identifier":
                name = source[s:n.end_byte].decode("utf-8", "replace")
                sym = self._typedef_symbols.get(name) or self.index.typedef_symbols.get(name)
                if sym is not None:
                    refs[n.id] = sym
                continue
            elif k == "field_expression":
                arg = n.child_by_field_name("argument")
                if arg is not None:
                    roots.add(arg.id)
                skip = (arg,) if arg is not None else ()
            elif k == "type_descriptor":
                if n.id not in roots:  # a child the walk filters out, unless a block's
                    parent = n.parent
                    if parent is None or parent.id not in blocks:
                        skip = _array_sizes(n)  # (their names are the code's: `(a[(n)]) + x`)
                        roots.update(v.id for v in skip)
            elif k == "call_expression":
                self.calls.append(n)
                callee = n.child_by_field_name("function")
                if callee is not None:
                    self._callees.add(callee.id)
            elif k in ("cast_expression", "sizeof_expression", "vector_literal", "compound_literal_expression"):
                for i, c in enumerate(n.children):  # read type names for tag/typedef references
                    if n.field_name_for_child(i) == "type":
                        self._type_refs(c)
            if skip is not None:
                top = [n.end_byte, 1, skip, 0]
                regions.append(top)
                top_end, top_kind = top[0], 1
        return True

    def _walk_nodes(self, body: Node) -> None:
        scopes = [self.scope]
        stack: list[tuple[Node, bool]] = [(body, False)]
        top_body = body
        while stack:
            node, leaving = stack.pop()
            if leaving:
                scopes.pop()
                continue
            k = node.type
            if k in _SKIP:
                continue
            if k in _BLOCKS and node != top_body:
                s = Scope(ScopeKind.BLOCK, node.start_byte, node.end_byte, node, scopes[-1])
                scopes[-1].children.append(s)
                scopes.append(s)
                stack.append((node, True))
                if k == "block_literal":
                    self._block_params(node, s)
                    b = node.child_by_field_name("body")
                    if b is not None:
                        stack.append((b, False))
                        top_body = b  # the block's own braces share its scope
                    continue
                stack.extend((c, False) for c in reversed(node.named_children))
                continue
            if k == "declaration":
                stack.extend((v, False) for v in reversed(self._declaration(node, scopes[-1], len(scopes) == 1)))
                continue
            if k == "type_definition":
                self._typedef(node, scopes[-1])
                continue
            if k in ("struct_specifier", "union_specifier", "enum_specifier"):
                self._specifier_only(node, scopes[-1])
                continue
            if k == "identifier":
                sym = scopes[-1].lookup(text(self.source, node)) or self._builtin(node)
                if sym is not None:
                    self.refs[node.id] = sym
                continue
            if k == "type_identifier":
                sym = self._typedef_symbols.get(text(self.source, node)) or \
                    self.index.typedef_symbols.get(text(self.source, node))
                if sym is not None:
                    self.refs[node.id] = sym
                continue
            if k == "field_expression":
                arg = node.child_by_field_name("argument")
                if arg is not None:
                    stack.append((arg, False))
                continue
            if k == "call_expression":
                self.calls.append(node)
                callee = node.child_by_field_name("function")
                if callee is not None:
                    self._callees.add(callee.id)
            if k in ("cast_expression", "sizeof_expression", "vector_literal", "compound_literal_expression"):
                for i, c in enumerate(node.children):  # read type names for tag/typedef references
                    if node.field_name_for_child(i) == "type":
                        self._type_refs(c)
            # Anonymous children (punctuation, operators, keywords) are leaves the walk ignores.
            for c in reversed(node.named_children):
                if c.type != "type_descriptor":
                    stack.append((c, False))
                else:  # a type's array sizes are expressions of the code (`(a[(n)]) + x`)
                    stack.extend((v, False) for v in reversed(_array_sizes(c)))

    def _builtin(self, node: Node) -> Symbol | None:
        name = text(self.source, node)
        is_callee = node.id in self._callees
        cat = catalogue()
        if is_callee and cat.function(name) is not None:
            return self.model.builtin_symbol(name)
        if cat.constant(name) is not None:
            return self.model.builtin_symbol(name)
        return None

    def _type_refs(self, node: Node) -> None:
        for n in _walk_names(node):
            if n.type == "type_identifier":
                sym = self._typedef_symbols.get(text(self.source, n)) or \
                    self.index.typedef_symbols.get(text(self.source, n))
                if sym is not None:
                    self.refs[n.id] = sym

    def _drain(self, reader: TypeReader, scope: Scope) -> None:
        for t, node in reader.defined_tags:
            name = getattr(t, "name", None)
            if name:
                self._tags.maps[0][name] = t
        for name, node, t in reader.enumerators:
            sym = Symbol(name, SymbolKind.ENUMERATOR, t, node, node.parent, scope_start=scope.start)
            scope.symbols[name] = sym
            self.refs[node.id] = sym
        self.field_nodes.update(reader.fields)

    def _specifier_only(self, node: Node, scope: Scope) -> None:
        reader = self._reader()
        reader.specifiers(_Wrap(node))  # type: ignore[arg-type]
        self._drain(reader, scope)

    def _typedef(self, node: Node, scope: Scope) -> None:
        reader = self._reader()
        spec = reader.specifiers(node)
        self._drain(reader, scope)
        for d in _declarators(node):
            got = reader.declare(spec, d, context="typedef")
            if got.name:
                td = Typedef(got.type, got.space, got.cv)
                self._typedefs.maps[0][got.name] = td
                sym = Symbol(got.name, SymbolKind.TYPEDEF, got.type, got.name_node, node, space=td.space,
                             space_explicit=td.space is not None, scope_start=scope.start)
                self._typedef_symbols[got.name] = sym
                if got.name_node is not None:
                    self.refs[got.name_node.id] = sym
        self._type_refs(node)

    def _declaration(self, node: Node, scope: Scope, outermost: bool) -> list[Node]:
        """Declare the names of a local declaration; return the initialisers still to walk."""
        reader = self._reader()
        spec = reader.specifiers(node)
        self._drain(reader, scope)
        for i, c in enumerate(node.children):
            if node.field_name_for_child(i) == "type":
                self._type_refs(c)
        pending: list[Node] = []
        for d in _declarators(node):
            got = reader.declare(spec, d, context="local")
            self._drain(reader, scope)
            if got.init is not None:
                pending.append(got.init)
            if not got.name:
                continue
            if isinstance(got.type, Function):  # a prototype inside a body
                sym = self.index.functions[got.name].symbol if got.name in self.index.functions else \
                    Symbol(got.name, SymbolKind.FUNCTION, got.type, got.name_node, node)
            else:
                space, explicit = _object_space(got, spec, self.target, file_scope=False)
                sym = Symbol(got.name, SymbolKind.LOCAL, with_space(got.type, space), got.name_node, node,
                             space, explicit, spec.storage, spec.cv | got.cv, attributes=got.attributes,
                             scope_start=scope.start, in_kernel_scope=outermost and self.is_kernel)
                self.locals.append(sym)
            scope.symbols[got.name] = sym
            if got.name_node is not None:
                self.refs[got.name_node.id] = sym
            # identifiers in array sizes are uses
            for n in _walk_names(d):
                if n.type == "identifier" and n != got.name_node and n.id not in self.refs:
                    found = scope.lookup(text(self.source, n))
                    if found is not None:
                        self.refs[n.id] = found
        return pending

    def _block_params(self, node: Node, scope: Scope) -> None:
        plist = node.child_by_field_name("parameters")
        if plist is None:
            return
        for p in self._reader().parameters(plist):
            if p.name:
                sym = Symbol(p.name, SymbolKind.PARAMETER, p.type, p.name_node, p.name_node,
                             AddressSpace.PRIVATE, False, scope_start=scope.start)
                scope.symbols[p.name] = sym
                if p.name_node is not None:
                    self.refs[p.name_node.id] = sym


def _array_sizes(descriptor: Node) -> tuple[Node, ...]:
    """The size expressions of a type descriptor's array declarators, in order. The parser
    reads `(image[(n)]) + x` as a cast to the type `image[(n)]` (it cannot tell a variable from a
    type name) where the compiler reads a sum: `n` is a name of the code either way."""
    whole = descriptor.text
    if whole is None or b"[" not in whole:
        return ()
    out: list[Node] = []
    stack = [descriptor]
    while stack:
        n = stack.pop()
        if n.type in ("abstract_array_declarator", "array_declarator"):
            size = n.child_by_field_name("size")
            if size is not None:
                out.append(size)
        stack.extend(reversed(n.named_children))
    out.sort(key=lambda v: v.start_byte)
    return tuple(out)


def _walk_names(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type in ("identifier", "type_identifier", "field_identifier"):
            yield n
        elif n.type not in ("parameter_list", "compound_statement", "initializer_list"):
            stack.extend(reversed(n.children))


class SemanticModel:
    """The semantic model of one file for one target."""

    def __init__(self, tree: Tree, source: bytes, target: Target,
                 macro_expander: MacroExpander | None = None,
                 macro_state: Callable[[int], bytes] | None = None,
                 kinds: KindIndex | None = None, strict_generic: bool = False,
                 imported: Imported | None = None) -> None:
        """`macro_state(offset)`: a digest of the macros in force at `offset` (the
        preprocessor view's `macro_state_at`); given, function heads read before are
        replayed rather than read again. `kinds`: the tree's nodes by kind, shared with
        the other analyses of one lint (it must hold `WALKED`). `strict_generic`: see
        `TypeReader` (target mode). `imported`: what the file's headers declare (see
        `imported.py`), None for a file whose headers are not read."""
        self.tree = tree
        self.kinds = kinds
        self.source = source
        self.target = target
        self.expander = macro_expander
        self.strict_generic = strict_generic
        self.imported = imported
        self.index = _Builder(tree, source, target, macro_expander, macro_state, strict_generic,
                              imported).build(tree.root_node)
        self._functions: dict[int, FunctionModel] = {}
        self._builtins: dict[str, Symbol] = {}
        self._file_typer: object | None = None
        self._def_starts = [d.start_byte for d in self.index.definitions]
        self._def_names: list[tuple[Node, str | None]] | None = None

    # -- file level -------------------------------------------------------------------

    @property
    def functions(self) -> dict[str, FunctionInfo]:
        return self.index.functions

    @property
    def kernels(self) -> list[FunctionInfo]:
        return [f for f in self.index.functions.values() if f.is_kernel]

    @property
    def globals(self) -> dict[str, Symbol]:
        return self.index.globals

    @property
    def typedefs(self) -> dict[str, Symbol]:
        return self.index.typedef_symbols

    @property
    def tags(self) -> dict[str, Symbol]:
        return self.index.tag_symbols

    def builtin_symbol(self, name: str) -> Symbol:
        sym = self._builtins.get(name)
        if sym is None:
            sym = Symbol(name, SymbolKind.BUILTIN, Unknown(name))
            self._builtins[name] = sym
        return sym

    # -- function level (lazy) --------------------------------------------------------

    def function(self, name: str) -> FunctionModel | None:
        """Body facts of the function defined as `name` (None for prototypes and unknown names)."""
        info = self.index.functions.get(name)
        if info is None or info.definition is None:
            return None
        return self.function_at_node(info.definition)

    def function_at_node(self, definition: Node) -> FunctionModel:
        fm = self._functions.get(definition.id)
        if fm is None:
            fm = FunctionModel(self, definition)
            self._functions[definition.id] = fm
        return fm

    def enclosing_function(self, node: Node) -> FunctionModel | None:
        # By byte range, not `node.parent`: tree-sitter finds a parent by walking down from the
        # root, so parent chains cost O(depth^2) on deep trees.
        d = self._definition_at(node.start_byte)
        if d is None or node.end_byte > d.end_byte:
            return None
        return self.function_at_node(d)

    def _definition_at(self, offset: int) -> Node | None:
        defs = self.index.definitions
        i = bisect_right(self._def_starts, offset) - 1
        if i >= 0 and offset < defs[i].end_byte:
            return defs[i]
        return None

    def definitions_in(self, ranges: list[tuple[int, int]] | None) -> list[Node]:
        """The definitions that start inside one of `ranges` (sorted, disjoint; None: all), in
        order, by bisection: a keystroke's run asked each of dozens whether it was in focus."""
        defs = self.index.definitions
        if ranges is None:
            return defs
        starts, out = self._def_starts, []
        for start, end in ranges:
            out += defs[bisect_left(starts, start):bisect_left(starts, end)]
        return out

    def definition_names(self) -> list[tuple[Node, str | None]]:
        """Each definition with the name its declarator gives (`walk.name_node`; None where the
        tree gives none), in order: read once per model, for the analyses that group definitions
        by name (overload sets), each of which read every head per keystroke."""
        if self._def_names is None:
            src = self.source
            self._def_names = [(d, None if (n := name_node(d)) is None else
                                src[n.start_byte:n.end_byte].decode("utf-8", "replace"))
                               for d in self.index.definitions]
        return self._def_names

    def function_models(self) -> list[FunctionModel]:
        return [self.function_at_node(d) for d in self.index.definitions]

    # -- queries ----------------------------------------------------------------------

    def resolve(self, node: Node) -> Symbol | None:
        """The symbol an identifier (or type/field name) refers to or declares."""
        fm = self.enclosing_function(node)
        if fm is not None and node.id in fm.refs:
            return fm.refs[node.id]
        if node.id in self.index.refs:
            return self.index.refs[node.id]
        if node.type == "field_identifier":
            return self._field(node, fm)
        name = text(self.source, node)
        if node.type == "type_identifier":
            return self.index.typedef_symbols.get(name) or self.index.tag_symbols.get(name)
        if node.type == "identifier" and fm is None:  # file-level initialisers, array sizes
            return self.index.lookup(name) or (self.builtin_symbol(name) if catalogue().constant(name) else None)
        return None

    def _field(self, node: Node, fm: FunctionModel | None) -> Symbol | None:
        parent = node.parent
        if parent is None or parent.type != "field_expression":
            return None
        arg = parent.child_by_field_name("argument")
        op = parent.child_by_field_name("operator")
        if arg is None:
            return None
        t = self.type_of(arg)
        if op is not None and text(self.source, op) == "->" and isinstance(t, (Pointer, Array)):
            t = t.pointee if isinstance(t, Pointer) else t.elem
        t = (fm.typer if fm is not None else self._typer()).complete(t)
        if not isinstance(t, Struct):
            return None
        name = text(self.source, node)
        f = t.field(name)
        if f is None:
            return None
        decl = self.index.field_nodes.get((t.key, name)) or (fm.field_nodes.get((t.key, name)) if fm else None)
        return Symbol(name, SymbolKind.FIELD, f.type, decl, decl.parent if decl is not None else None)

    def references(self, symbol: Symbol) -> list[Node]:
        """Every name node resolving to `symbol` (its declarations included), in source order."""
        out: list[Node] = []
        if symbol.kind in (SymbolKind.LOCAL, SymbolKind.PARAMETER) or symbol.scope_start > 0:
            fm = self._function_containing(symbol)
            models = [fm] if fm is not None else []
        else:
            models = self.function_models()
            out.extend(n for n in self._file_level_names() if self.resolve(n) is symbol)
        for fm in models:
            out.extend(n for n in _nodes_by_id(fm.node, fm.refs) if fm.refs[n.id] is symbol)
        out.sort(key=lambda n: n.start_byte)
        return _dedupe(out)

    def call_sites(self, name: str) -> list[Node]:
        """call_expression nodes calling the file's function `name`."""
        info = self.index.functions.get(name)
        if info is None:
            return []
        out = []
        for fm in self.function_models():
            for call in fm.calls:
                callee = call.child_by_field_name("function")
                if callee is not None and fm.refs.get(callee.id) is info.symbol:
                    out.append(call)
        return out

    def _function_containing(self, symbol: Symbol) -> FunctionModel | None:
        d = self._definition_at(symbol.offset)
        return self.function_at_node(d) if d is not None else None

    def _file_level_names(self) -> Iterator[Node]:
        stack = [self.tree.root_node]
        while stack:
            n = stack.pop()
            if n.type == "function_definition":
                continue  # bodies and their declarators belong to function models
            if n.type in ("identifier", "type_identifier"):
                yield n
            stack.extend(n.children)

    def symbol_at(self, offset: int) -> Symbol | None:
        node = self.tree.root_node.descendant_for_byte_range(offset, offset)
        if node is None:
            return None
        if node.type not in ("identifier", "type_identifier", "field_identifier") and offset > 0:
            before = self.tree.root_node.descendant_for_byte_range(offset - 1, offset - 1)
            if before is not None and before.type in ("identifier", "type_identifier", "field_identifier"):
                node = before
        return self.resolve(node) if node.type in ("identifier", "type_identifier", "field_identifier") else None

    def scope_at(self, offset: int) -> Scope:
        d = self._definition_at(offset)
        return self.function_at_node(d).scope_at(offset) if d is not None else self.index.scope

    def type_of(self, node: Node) -> Type:
        """The type of an expression node (Unknown for what cannot be typed)."""
        fm = self.enclosing_function(node)
        if fm is not None:
            return fm.type_of(node)
        return self._typer().type_of(node)

    def _typer(self) -> ExprTyper:
        if self._file_typer is None:
            self._file_typer = ExprTyper(None, self)
        return self._file_typer


def _nodes_by_id(root: Node, refs: dict[int, Symbol]) -> Iterator[Node]:
    stack = [root]
    while stack:
        n = stack.pop()
        if n.id in refs:
            yield n
        stack.extend(n.children)


def _dedupe(nodes: list[Node]) -> list[Node]:
    seen: set[tuple[int, int]] = set()
    out = []
    for n in nodes:
        key = (n.start_byte, n.end_byte)
        if key not in seen:
            seen.add(key)
            out.append(n)
    return out


# Re-exported for callers that only import this module.
MacroExpanderT = Callable[[str, int], "str | None"]
_ = (replace, Array)
