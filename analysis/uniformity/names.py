"""Light name resolution inside one function: parameters and locals, shadowing by scope.

A stand-in for the semantic model (analysis/model/) until it lands; only `resolve`
and `VarInfo` are used by the rest of the package, so swapping it is local.
"""

from __future__ import annotations


from typing import TYPE_CHECKING

from tree_sitter import Node

if TYPE_CHECKING:
    from cllint.analysis.uniformity.spellings import Spellings

SHARED_SPACES = {"global", "local", "constant"}
SCOPES = {"compound_statement", "for_statement"}


class VarInfo:
    key: int  # start byte of the declaring identifier: unique within the file
    name: str
    decl: Node
    param_index: int | None
    shared: bool  # the variable itself lives in __local/__global/__constant memory
    pointer: bool
    pointee_shared: bool  # pointer into memory the work-group shares
    array: bool
    aliases: set[int]  # private storage a private pointer may point to
    # the space a macro or a typedef spells for it (`GLOBAL int *p`, `gptr p`: spellings.py);
    # None where the declaration writes the word itself, or none
    spelt: str | None

    __match_args__ = ("key", "name", "decl", "param_index", "shared", "pointer", "pointee_shared", "array",
                      "aliases", "spelt")

    def __init__(
        self,
        key: int,
        name: str,
        decl: Node,
        param_index: int | None = None,
        shared: bool = False,
        pointer: bool = False,
        pointee_shared: bool = False,
        array: bool = False,
        aliases: set[int] | None = None,
        spelt: str | None = None,
    ) -> None:
        self.key = key
        self.name = name
        self.decl = decl
        self.param_index = param_index
        self.shared = shared
        self.pointer = pointer
        self.pointee_shared = pointee_shared
        self.array = array
        self.aliases = set() if aliases is None else aliases
        self.spelt = spelt

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"key={self.key!r}, " f"name={self.name!r}, "
                f"decl={self.decl!r}, " f"param_index={self.param_index!r}, " f"shared={self.shared!r}, "
                f"pointer={self.pointer!r}, " f"pointee_shared={self.pointee_shared!r}, "
                f"array={self.array!r}, " f"aliases={self.aliases!r}, " f"spelt={self.spelt!r})")

    @property
    def private_aggregate(self) -> bool:
        return not self.shared and not self.pointer


_FIELD_KEYS = -(1 << 40)  # below every other key: declarations' bytes, RET, out-parameters


class Names:
    uses: dict[int, VarInfo]  # identifier start byte -> variable
    variables: list[VarInfo]
    # Fields of private structs read or written by name (`c.lid`), each a key of its own:
    # variable key -> field path ('a.b') -> key. A struct mixing uniform and per-work-item
    # fields then varies only where a per-work-item field is read.
    fields: dict[int, dict[str, int]]
    _next_field: int

    __match_args__ = ("uses", "variables", "fields", "_next_field")

    def __init__(
        self,
        uses: dict[int, VarInfo],
        variables: list[VarInfo],
        fields: dict[int, dict[str, int]] | None = None,
        _next_field: int = _FIELD_KEYS,
    ) -> None:
        self.uses = uses
        self.variables = variables
        self.fields = {} if fields is None else fields
        self._next_field = _next_field

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"uses={self.uses!r}, " f"variables={self.variables!r}, "
                f"fields={self.fields!r}, " f"_next_field={self._next_field!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.uses, self.variables, self.fields, self._next_field)
        theirs = (other.uses, other.variables, other.fields, other._next_field)
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable

    def var(self, node: Node) -> VarInfo | None:
        if node.type != "identifier":
            return None
        return self.uses.get(node.start_byte)

    def field_key(self, v: VarInfo, path: str) -> int:
        table = self.fields.setdefault(v.key, {})
        key = table.get(path)
        if key is None:
            key = table[path] = self._next_field
            self._next_field -= 1
        return key

    def field_path(self, node: Node) -> tuple[VarInfo, str] | None:
        """`c.a.b` on a private struct variable `c` (no `->`, no subscripts): (c, 'a.b')."""
        parts: list[str] = []
        while node.type == "field_expression":
            op = node.child_by_field_name("operator")
            name = node.child_by_field_name("field")
            arg = node.child_by_field_name("argument")
            if op is None or _text(op) != "." or name is None or arg is None:
                return None
            parts.append(_text(name))
            node = arg
            while node.type == "parenthesized_expression" and node.named_child_count == 1:
                node = node.named_children[0]
        v = self.var(node)
        if v is None or v.shared or v.pointer or v.array or not parts:
            return None
        return v, ".".join(reversed(parts))

    def overlapping(self, v: VarInfo, path: str | None) -> list[int]:
        """Field keys of `v` a read of `path` sees (None: the whole variable). A vector's
        components stored from a literal (`#0`, `#1`: dataflow's `vector_fields`) are seen by
        the selectors that name them (`.y`, `.s1`, `.xy`); any other selector sees them all."""
        table = self.fields.get(v.key)
        if not table:
            return []
        if path is None:
            return list(table.values())
        out = [k for f, k in table.items()
               if f == path or f.startswith(path + ".") or path.startswith(f + ".")]
        if any(f.startswith(COMPONENT) for f in table):
            picked = components(path.split(".", 1)[0])
            out += [k for f, k in table.items() if f.startswith(COMPONENT)
                    and (picked is None or int(f[len(COMPONENT):]) in picked)]
        return out


COMPONENT = "#"  # the field-path prefix of a vector component by index (`#0` is `.x` and `.s0`)
_XYZW = {"x": 0, "y": 1, "z": 2, "w": 3}


def components(selector: str) -> frozenset[int] | None:
    """The component indices a vector selector names (`y` -> {1}, `s1f` -> {1, 15}, `xz` ->
    {0, 2}); None for any other (`lo`, `hi`, `even`, `odd`: read as all)."""
    if selector and all(c in _XYZW for c in selector):
        return frozenset(_XYZW[c] for c in selector)
    if len(selector) > 1 and selector[0] in "sS":
        try:
            return frozenset(int(c, 16) for c in selector[1:])
        except ValueError:
            return None
    return None


def _text(node: Node) -> str:
    text = node.text
    return text.decode("utf-8", "replace") if text else ""


def _address_space(decl: Node) -> str | None:
    for child in decl.children:
        if child.type == "type_qualifier":
            for q in child.children:
                if q.type == "address_space_qualifier":
                    return _text(q).lstrip("_")
        elif child.type == "address_space_qualifier":
            return _text(child).lstrip("_")
    return None


def _declarator_name(node: Node | None) -> tuple[Node | None, bool, bool]:
    """The identifier a declarator declares, and whether it is a pointer / an array."""
    pointer = array = False
    while node is not None and node.type != "identifier":
        if node.type == "pointer_declarator":
            pointer = pointer or not array
        elif node.type == "array_declarator":
            array = True
        elif node.type == "function_declarator":
            return None, False, False
        elif node.type == "parenthesized_declarator":
            inner = node.named_children[0] if node.named_child_count == 1 else None
            if inner is not None and inner.type == "pointer_declarator" and array and not pointer:
                pointer, array = True, False  # `(*t)[8]`: a pointer to rows, not an array
            node = inner
            continue
        node = node.child_by_field_name("declarator")
    return node, pointer, array


def _declare(decl: Node, declarator: Node, scope: dict[str, VarInfo], out: list[VarInfo],
             param_index: int | None = None, space_default: str | None = None,
             spelt: Spellings | None = None) -> VarInfo | None:
    ident, pointer, array = _declarator_name(declarator)
    if ident is None:
        return None
    spelt_space = None
    if spelt is not None:
        if declarator.type == "identifier" and (spelt_space := spelt.pointer_space(decl)) is not None:
            pointer = True  # `gptr p` of `typedef __global int *gptr`: a pointer into that space
        elif _address_space(decl) is None:
            # `GLOBAL int *p` of `#define GLOBAL __global`; `gint *p` of `typedef __global int gint`
            spelt_space = spelt.space(decl) or spelt.element_space(decl)
    if param_index is not None and array and not pointer and declarator.type == "array_declarator" \
            and _arrays_only(declarator, ident):
        # `global int a[128]`, `global int a[8][8]`: a parameter of array type is a pointer (C99
        # 6.7.5.3), to its element or to rows of the other extents
        pointer, array = True, False
    space = spelt_space or _address_space(decl) or space_default
    shared_space = space in SHARED_SPACES
    info = VarInfo(
        key=ident.start_byte, name=_text(ident), decl=ident, param_index=param_index,
        shared=shared_space and not pointer and param_index is None,
        pointer=pointer, pointee_shared=pointer and (shared_space or param_index is not None and space != "private"),
        array=array, spelt=spelt_space,
    )
    if pointer and param_index is not None and space is None:
        info.pointee_shared = False  # a private (or generic) out-parameter
    scope[info.name] = info
    out.append(info)
    return info


def _arrays_only(declarator: Node, ident: Node) -> bool:
    """Whether only array declarators lie between `declarator` and the name it declares."""
    node: Node | None = declarator
    while node is not None and node.type == "array_declarator":
        node = node.child_by_field_name("declarator")
    return node == ident


def program_globals(root: Node) -> tuple[tuple[Node, Node], ...]:
    """(declaration, declarator) of each program-scope variable in the `__global` address
    space (OpenCL C 2.0, `global int g[64];`, and `int g[64];`: a program-scope variable
    declared with no address space is in `__global`: 6.7, address space inference): memory every
    work-item of every work-group shares, as a `__global` pointer argument's. A `const` one
    without a space is left out (nothing stores into it)."""
    out: list[tuple[Node, Node]] = []
    for decl in root.named_children:
        if decl.type != "declaration":
            continue
        space = _address_space(decl)
        if space != "global" and (space is not None or _const(decl)):
            continue
        for d in decl.children_by_field_name("declarator"):
            target = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
            if target is not None and (space is not None or _declarator_name(target)[0] is not None):
                out.append((decl, target))
    return tuple(out)


def _const(decl: Node) -> bool:
    return any(c.type == "type_qualifier" and _text(c) == "const" for c in decl.children)


def declared_name(declarator: Node) -> Node | None:
    """The identifier a declarator declares (`g` of `g[64]`, `*p`), None for a function's."""
    return _declarator_name(declarator)[0]


def resolve(func: Node, program: tuple[tuple[Node, Node], ...] = (), spelt: Spellings | None = None) -> Names:
    """Resolve identifiers in a function_definition to its parameters and locals, and to the
    program-scope `__global` variables `program` declares (`program_globals`); `spelt`, the
    file's qualifiers spelt through macros and typedefs, where it has any."""
    uses: dict[int, VarInfo] = {}
    variables: list[VarInfo] = []
    scope: dict[str, VarInfo] = {}
    for decl, declarator in program:
        info = _declare(decl, declarator, scope, variables, space_default="global")
        if info is not None and info.pointer:  # (a pointer stored in global memory: not followed)
            del scope[info.name]
            variables.remove(info)
    fdecl = func.child_by_field_name("declarator")
    while fdecl is not None and fdecl.type != "function_declarator":
        fdecl = fdecl.child_by_field_name("declarator")
    if fdecl is not None:
        params = fdecl.child_by_field_name("parameters")
        index = 0
        for p in params.named_children if params else ():
            if p.type != "parameter_declaration":
                continue
            d = p.child_by_field_name("declarator")
            if d is not None:
                info = _declare(p, d, scope, variables, index, spelt=spelt)
                if info:
                    uses[info.key] = info
            index += 1
    body = func.child_by_field_name("body")
    if body is None:
        return Names(uses, variables)
    stack: list[tuple[Node, dict[str, VarInfo]]] = [(body, scope)]
    while stack:
        node, sc = stack.pop()
        t = node.type
        if t in SCOPES:
            sc = dict(sc)
        if t == "identifier":
            info = sc.get(_text(node))
            if info is not None:
                uses[node.start_byte] = info
            continue
        if t == "declaration":
            pending: list[Node] = []
            for d in node.children_by_field_name("declarator"):
                target = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
                value = d.child_by_field_name("value") if d.type == "init_declarator" else None
                if value is not None:
                    pending.append(value)
                # Array sizes may name earlier variables.
                for sub in _walk_declarator_sizes(target):
                    pending.append(sub)
                info = _declare(node, target, sc, variables, spelt=spelt)
                if info:
                    uses[info.key] = info
            # Initialisers see the names declared so far (C scoping is close enough).
            for v in reversed(pending):
                stack.append((v, sc))
            continue
        if t in ("field_identifier", "statement_identifier", "type_identifier", "comment"):
            continue
        # Tokens (anonymous leaves: punctuation, keywords) name nothing and hold nothing.
        stack.extend([(child, sc) for child in reversed(node.children) if child.is_named or child.child_count])
    # Only a private pointer's assignments record aliases: most bodies declare none, and then
    # the query over the body would find nothing to do.
    if any(v.pointer and not v.pointee_shared for v in variables):
        _aliases(body, Names(uses, variables))
    return Names(uses, variables)


def _walk_declarator_sizes(node: Node | None) -> list[Node]:
    out = []
    while node is not None and node.type != "identifier":
        if node.type == "array_declarator":
            size = node.child_by_field_name("size")
            if size is not None:
                out.append(size)
        node = node.child_by_field_name("declarator")
    return out


def root_var(names: Names, node: Node | None) -> VarInfo | None:
    """The variable an lvalue or address expression is rooted at (`a[i].x` -> `a`)."""
    while node is not None:
        t = node.type
        if t == "identifier":
            return names.var(node)
        if t in ("subscript_expression", "field_expression", "pointer_expression",
                 "parenthesized_expression", "cast_expression"):
            node = node.child_by_field_name("argument") or node.child_by_field_name("value") \
                or (node.named_children[-1] if node.named_children else None)
        else:
            return None
    return None


_ALIASING = frozenset({"init_declarator", "assignment_expression"})
# what an lvalue's root passes through on its way up to a `&` (not a subscript's index)
_LVALUE_STEPS = frozenset({"field_expression", "parenthesized_expression", "cast_expression"})


def _address_taken(ident: Node, top: Node) -> bool:
    """Whether `ident` is the root of an lvalue whose address is taken within `top` (`&x`,
    `&s.f`, `&(x)`): only then does a pointer made from it point at it."""
    node = ident
    while node is not None and node != top:
        parent = node.parent
        if parent is None:
            return False
        if parent.type == "pointer_expression":
            op = parent.child_by_field_name("operator")
            return op is not None and op.type == "&"
        if parent.type == "subscript_expression" and parent.child_by_field_name("argument") == node:
            node = parent  # `&a[i]`: a's element
            continue
        if parent.type not in _LVALUE_STEPS:
            return False
        node = parent
    return False


def _aliases(body: Node, names: Names) -> None:
    """Flow-insensitive points-to for private pointers: `p = &x`, `p = arr`, `p = q`."""
    from cllint.analysis.model.walk import nodes_of_kinds
    from cllint.analysis.syntax import walk

    # The two kinds read, by one query in pre-order (the walk's order: a copy `q = p` takes
    # what `p` points to so far) instead of a Python walk of every node.
    for node in nodes_of_kinds(body, _ALIASING):
        lhs = rhs = None
        if node.type == "init_declarator":
            ident, _, _ = _declarator_name(node.child_by_field_name("declarator"))
            lhs, rhs = ident, node.child_by_field_name("value")
        elif node.type == "assignment_expression":
            lhs, rhs = node.child_by_field_name("left"), node.child_by_field_name("right")
        if lhs is None or rhs is None:
            continue
        p = names.var(lhs)
        if p is None or not p.pointer or p.pointee_shared:
            continue
        for sub in walk(rhs):
            if sub.type == "identifier":
                v = names.var(sub)
                if v is None or v is p or v.shared:
                    continue
                if v.pointer:
                    p.aliases |= v.aliases  # copy of another private pointer
                elif v.array or _address_taken(sub, rhs):
                    p.aliases.add(v.key)
                # (else an offset or an index, `lacc + local_size`: no storage the pointer reaches)
