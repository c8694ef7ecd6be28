"""Reading types off declaration syntax: specifiers, declarators, type names, macro expansions.

`TypeReader` turns a declaration's specifiers (qualifiers, storage class, the type) and each of
its declarators into a `Declared`. It does not decide where an unqualified *object* lives (that
depends on scope, see `symbols.py`), but it does infer where unqualified *pointers* point, since
the spec makes that depend only on the target (6.7 Inference).

Macros used where qualifiers go (`macro_modifier`, `macro_declarator`) or as a type name are
expanded through the optional `macro_expander(name, offset) -> str | None` and their text is
read word by word; what cannot be read becomes `Unknown`, never an exception.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from tree_sitter import Node

from cllint.analysis.lazy_re import lazy
from cllint.analysis.database import current
from cllint.analysis.records import replace
from cllint.analysis.syntax import macro_named, spelled_name
from cllint.analysis.target import Target

from .types import (
    AddressSpace,
    Array,
    Enum_,
    Field,
    Function,
    NumberedSpace,
    Opaque,
    Pipe,
    Pointer,
    Scalar,
    Struct,
    Type,
    Unknown,
    builtin_named,
    default_pointee_space,
    has_generic,
    numbered_space,
    with_space,
)

MacroExpander = Callable[[str, int], "str | None"]

CV = frozenset({"const", "volatile", "restrict"})
STORAGE = frozenset({"static", "extern", "typedef", "inline", "__inline", "register", "auto"})
ACCESS = {"read_only": "read_only", "__read_only": "read_only", "write_only": "write_only",
          "__write_only": "write_only", "read_write": "read_write", "__read_write": "read_write"}
KERNEL = frozenset({"kernel", "__kernel"})
_WORD = lazy(r"[A-Za-z_]\w*")
_ATTR = lazy(r"(\w+)\s*\(([^()]*)\)")


class Attribute:
    """One `__attribute__((name(args)))` entry, e.g. reqd_work_group_size(8, 1, 1)."""

    __slots__ = ("name", "args")
    name: str
    args: tuple[str, ...]

    __match_args__ = ("name", "args")

    def __init__(self, name: str, args: tuple[str, ...] = ()) -> None:
        self.name = name
        self.args = args

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(name={self.name!r}, args={self.args!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name, self.args) == (other.name, other.args)

    def __hash__(self) -> int:
        return hash((self.name, self.args))


class Typedef:
    __slots__ = ("type", "space", "cv")
    type: Type
    space: AddressSpace | None  # `typedef __local int lint;` carries a space
    cv: frozenset[str]

    __match_args__ = ("type", "space", "cv")

    def __init__(
        self,
        type: Type,
        space: AddressSpace | None = None,
        cv: frozenset[str] = frozenset(),
    ) -> None:
        self.type = type
        self.space = space
        self.cv = cv

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(type={self.type!r}, space={self.space!r}, cv={self.cv!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.type, self.space, self.cv) == (other.type, other.space, other.cv)

    def __hash__(self) -> int:
        return hash((self.type, self.space, self.cv))


class Specifiers:
    __slots__ = ("type", "space", "cv", "storage", "access", "is_kernel", "attributes")
    type: Type
    space: AddressSpace | None
    cv: frozenset[str]
    storage: frozenset[str]
    access: str | None
    is_kernel: bool
    attributes: tuple[Attribute, ...]

    __match_args__ = ("type", "space", "cv", "storage", "access", "is_kernel", "attributes")

    def __init__(
        self,
        type: Type,
        space: AddressSpace | None = None,
        cv: frozenset[str] = frozenset(),
        storage: frozenset[str] = frozenset(),
        access: str | None = None,
        is_kernel: bool = False,
        attributes: tuple[Attribute, ...] = (),
    ) -> None:
        self.type = type
        self.space = space
        self.cv = cv
        self.storage = storage
        self.access = access
        self.is_kernel = is_kernel
        self.attributes = attributes

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"type={self.type!r}, " f"space={self.space!r}, "
                f"cv={self.cv!r}, " f"storage={self.storage!r}, " f"access={self.access!r}, "
                f"is_kernel={self.is_kernel!r}, " f"attributes={self.attributes!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.type, self.space, self.cv, self.storage, self.access, self.is_kernel, self.attributes)
        theirs = (other.type, other.space, other.cv, other.storage, other.access, other.is_kernel,
                  other.attributes)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.type, self.space, self.cv, self.storage, self.access, self.is_kernel,
                     self.attributes))


class Declared:
    """One declarator read against its specifiers."""

    __slots__ = ("name", "name_node", "type", "space", "cv", "init", "params", "params_node", "attributes")
    name: str | None
    name_node: Node | None
    type: Type
    space: AddressSpace | None  # the object's own space, when written
    cv: frozenset[str]
    init: Node | None
    params: tuple[Declared, ...] | None  # for function declarators
    params_node: Node | None
    attributes: tuple[Attribute, ...]

    __match_args__ = ("name", "name_node", "type", "space", "cv", "init", "params", "params_node",
                      "attributes")

    def __init__(
        self,
        name: str | None,
        name_node: Node | None,
        type: Type,
        space: AddressSpace | None,
        cv: frozenset[str],
        init: Node | None = None,
        params: tuple[Declared, ...] | None = None,
        params_node: Node | None = None,
        attributes: tuple[Attribute, ...] = (),
    ) -> None:
        self.name = name
        self.name_node = name_node
        self.type = type
        self.space = space
        self.cv = cv
        self.init = init
        self.params = params
        self.params_node = params_node
        self.attributes = attributes

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"name={self.name!r}, " f"name_node={self.name_node!r}, "
                f"type={self.type!r}, " f"space={self.space!r}, " f"cv={self.cv!r}, " f"init={self.init!r}, "
                f"params={self.params!r}, " f"params_node={self.params_node!r}, "
                f"attributes={self.attributes!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.name, self.name_node, self.type, self.space, self.cv, self.init, self.params,
                self.params_node, self.attributes)
        theirs = (other.name, other.name_node, other.type, other.space, other.cv, other.init, other.params,
                  other.params_node, other.attributes)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.name, self.name_node, self.type, self.space, self.cv, self.init, self.params,
                     self.params_node, self.attributes))


class _Acc:
    base: Type | None
    words: list[str]  # words of a multi-word C type (unsigned int)
    space: AddressSpace | None
    cv: set[str]
    storage: set[str]
    access: str | None
    kernel: bool
    pipe: bool
    attributes: list[Attribute]

    __match_args__ = ("base", "words", "space", "cv", "storage", "access", "kernel", "pipe", "attributes")

    def __init__(
        self,
        base: Type | None = None,
        words: list[str] | None = None,
        space: AddressSpace | None = None,
        cv: set[str] | None = None,
        storage: set[str] | None = None,
        access: str | None = None,
        kernel: bool = False,
        pipe: bool = False,
        attributes: list[Attribute] | None = None,
    ) -> None:
        self.base = base
        self.words = [] if words is None else words
        self.space = space
        self.cv = set() if cv is None else cv
        self.storage = set() if storage is None else storage
        self.access = access
        self.kernel = kernel
        self.pipe = pipe
        self.attributes = [] if attributes is None else attributes

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"base={self.base!r}, " f"words={self.words!r}, "
                f"space={self.space!r}, " f"cv={self.cv!r}, " f"storage={self.storage!r}, "
                f"access={self.access!r}, " f"kernel={self.kernel!r}, " f"pipe={self.pipe!r}, "
                f"attributes={self.attributes!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.base, self.words, self.space, self.cv, self.storage, self.access, self.kernel, self.pipe,
                self.attributes)
        theirs = (other.base, other.words, other.space, other.cv, other.storage, other.access, other.kernel,
                  other.pipe, other.attributes)
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable


def text(source: bytes, node: Node) -> str:
    return source[node.start_byte:node.end_byte].decode("utf-8", "replace")


def _attribute_space(a: Attribute) -> AddressSpace | NumberedSpace | None:
    """`opencl_global` and the like, or `address_space(3)` (a number, nothing else)."""
    if a.name == "address_space":
        return numbered_space(int(a.args[0])) if len(a.args) == 1 and a.args[0].isdigit() else None
    return AddressSpace.from_attribute(a.name)


def _sized(words: list[str]) -> Scalar:
    """`unsigned int`, `long long`, `signed char`... -> the OpenCL scalar."""
    unsigned = "unsigned" in words
    core = [w for w in words if w not in ("signed", "unsigned")]
    if "char" in core:
        base = "char"
    elif "short" in core:
        base = "short"
    elif "long" in core:
        base = "long"
    else:
        base = "int"
    return Scalar(("u" if unsigned else "") + base)


class TypeReader:
    """Reads types in one lexical context. `tags` and `typedefs` are the names in scope."""

    def __init__(self, source: bytes, target: Target, typedefs: Mapping[str, Typedef],
                 tags: Mapping[str, Type], expander: MacroExpander | None = None,
                 strict_generic: bool = False, key_base: int = 0) -> None:
        """`strict_generic`: read `generic` as the target does: on one without the generic
        address space, as clang does after rejecting the qualifier, `__private` (target
        mode; in portability mode a file that writes `generic` is taken at its word).
        `key_base`: added to the byte offsets that key struct and enum definitions (a
        header's are read apart from the file's, whose offsets they must not meet)."""
        self.source = source
        self.key_base = key_base
        self.target = target
        self.strict_generic = strict_generic
        self.typedefs = typedefs
        self.tags = tags
        self.expander = expander
        # Filled while reading; the caller turns them into symbols.
        self.defined_tags: list[tuple[Type, Node]] = []
        self.enumerators: list[tuple[str, Node, Type]] = []
        self.fields: dict[tuple[int, str], Node] = {}  # (struct key, field) -> field_identifier
        self._local_tags: dict[str, Type] = {}

    # -- specifiers ---------------------------------------------------------------------

    def specifiers(self, decl: Node) -> Specifiers:
        """The specifier part of a declaration, parameter, field, type name or function definition."""
        acc = _Acc()
        for i, child in enumerate(decl.children):
            fname = decl.field_name_for_child(i)
            if fname == "type":
                acc.base = self._type_specifier(child, acc)
            elif fname in ("declarator", "body", "value", "default_value"):
                continue
            else:
                self._modifier(child, acc)
        if acc.space is None:  # clang's attribute spellings of a space: `__attribute__((opencl_global))`
            acc.space = next((sp for a in acc.attributes if (sp := _attribute_space(a))), None)
        base = acc.base
        if base is None:  # `unsigned x`, or implicit int in old or broken code
            base = _sized(acc.words) if acc.words else Scalar("int")
        if acc.pipe:
            base = Pipe(base, acc.access)
        elif acc.access and isinstance(base, Opaque):
            base = replace(base, access=acc.access)
        return Specifiers(base, acc.space, frozenset(acc.cv), frozenset(acc.storage), acc.access,
                          acc.kernel, tuple(acc.attributes))

    def _modifier(self, node: Node, acc: _Acc) -> None:
        k = node.type
        if k == "type_qualifier":
            inner = node.named_children[0] if node.named_children else None
            if inner is not None and inner.type == "address_space_qualifier":
                acc.space = self._space(text(self.source, inner)) or acc.space
            elif inner is not None and inner.type == "access_qualifier":
                acc.access = ACCESS.get(text(self.source, inner).strip())
            else:
                word = text(self.source, node).strip()
                if word in CV or word.lstrip("_") in CV:
                    acc.cv.add(word.strip("_"))
        elif k == "storage_class_specifier":
            acc.storage.add(text(self.source, node).strip().strip("_"))
        elif k == "kernel_specifier":
            acc.kernel = True
        elif k == "pipe_qualifier":
            acc.pipe = True
        elif k == "attribute_specifier":
            acc.attributes.extend(self._attributes(node))
        elif k == "macro_modifier":
            self._macro(node, acc)
        elif k == "function_specifier" or k == "ms_declspec_modifier":
            acc.storage.add(text(self.source, node).strip().strip("_"))
        elif k in ("primitive_type", "sized_type_specifier", "type_identifier") and acc.base is None:
            acc.base = self._type_specifier(node, acc)

    def _space(self, word: str) -> AddressSpace | None:
        space = AddressSpace.from_keyword(word)
        if space is AddressSpace.GENERIC and self.strict_generic and not has_generic(self.target):
            return AddressSpace.PRIVATE
        return space

    def _attributes(self, node: Node) -> list[Attribute]:
        out = []
        for m in _ATTR.finditer(text(self.source, node)):
            args = tuple(a.strip() for a in m.group(2).split(",") if a.strip())
            out.append(Attribute(m.group(1).strip("_"), args))
        if not out:
            for w in _WORD.findall(text(self.source, node)):
                if w != "__attribute__":
                    out.append(Attribute(w.strip("_")))
        return out

    def _macro(self, node: Node, acc: _Acc) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        name = text(self.source, name_node)
        expansion = self._expand(name, node.start_byte) if self.expander is not None else None
        if expansion:
            self._words(expansion, acc)
        elif expansion is None and name == "pipe":  # `typedef pipe int t;`: the grammar reads the keyword so
            acc.pipe = True

    def _expand(self, name: str, offset: int) -> str | None:
        try:  # the expander is someone else's code; a failure there must not stop the model
            return self.expander(name, offset) if self.expander else None
        except Exception:  # noqa: BLE001
            return None

    def _words(self, expansion: str, acc: _Acc) -> None:
        """Read a macro's expansion text for qualifiers, storage classes, attributes and a type."""
        for m in re.finditer(r"__attribute__\s*\(\((.*)\)\)", expansion):
            for a in _ATTR.finditer(m.group(1)):
                acc.attributes.append(Attribute(a.group(1).strip("_"),
                                                tuple(x.strip() for x in a.group(2).split(",") if x.strip())))
        expansion = re.sub(r"__attribute__\s*\(\(.*\)\)", " ", expansion)
        for w in _WORD.findall(expansion):
            space = self._space(w)
            if space is not None:
                acc.space = space
            elif w.strip("_") in CV:
                acc.cv.add(w.strip("_"))
            elif w.strip("_") in STORAGE:
                acc.storage.add(w.strip("_"))
            elif w in ACCESS:
                acc.access = ACCESS[w]
            elif w in KERNEL:
                acc.kernel = True
            elif w == "pipe":
                acc.pipe = True
            elif w in ("signed", "unsigned", "short", "long", "char", "int") and acc.base is None:
                acc.words.append(w)
            elif acc.base is None:
                t = builtin_named(w) or (self.typedefs[w].type if w in self.typedefs else None)
                if t is not None:
                    acc.base = t

    # -- type specifiers ----------------------------------------------------------------

    def _type_specifier(self, node: Node, acc: _Acc) -> Type:
        k = node.type
        if k == "primitive_type":
            name = text(self.source, node).strip()
            return builtin_named(name) or Unknown(name)
        if k == "sized_type_specifier":
            words = _WORD.findall(text(self.source, node))
            inner = node.child_by_field_name("type")
            if inner is not None and inner.type != "primitive_type":
                return self._type_specifier(inner, acc)
            return _sized(words)
        if k == "type_identifier":
            name = text(self.source, node)
            td = self.typedefs.get(name)
            if td is not None:
                acc.space = acc.space or td.space
                acc.cv |= td.cv
                return td.type
            builtin = builtin_named(name)
            if builtin is not None:
                return builtin
            expansion = self._expand(name, node.start_byte)
            if expansion and expansion.count("*") == 1:
                pointer = self._macro_pointer(expansion, acc)
                if pointer is not None:
                    return pointer
            if expansion:
                sub = _Acc()
                self._words(expansion, sub)
                acc.space = acc.space or sub.space
                acc.cv |= sub.cv
                acc.storage |= sub.storage
                acc.kernel = acc.kernel or sub.kernel
                if sub.base is not None:
                    return sub.base
                if sub.words:
                    return _sized(sub.words)
            return Unknown(name)
        if k in ("struct_specifier", "union_specifier"):
            return self._struct(node, union=k == "union_specifier")
        if k == "enum_specifier":
            return self._enum(node)
        if k == "macro_type_specifier":
            return Unknown(text(self.source, node))
        return Unknown(text(self.source, node)[:40])

    def _macro_pointer(self, expansion: str, acc: _Acc) -> Type | None:
        """`#define counter32_t volatile __global int*`: a type macro that is a pointer whose
        pointee's address space it writes. What precedes the `*` qualifies the pointee (its
        space is not the declaration's, so `counter32_t n` is no `__global` parameter: CL106);
        const or volatile after it qualify the pointer (`#define IP int*`: a pointer to the default
        space, 6.7). None where no type is named."""
        head, _, tail = expansion.partition("*")
        sub = _Acc()
        self._words(head, sub)
        base = sub.base if sub.base is not None else (_sized(sub.words) if sub.words else None)
        if base is None:
            return None
        after = _Acc()
        self._words(tail, after)
        if after.space is not None or after.base is not None or after.words:
            return None
        acc.cv |= after.cv
        acc.storage |= sub.storage
        return Pointer(base, sub.space or default_pointee_space(self.target), sub.space is not None,
                       frozenset(sub.cv & {"const", "volatile"}))

    def tag(self, name: str) -> Type | None:
        return self._local_tags.get(name) or self.tags.get(name)

    def _struct(self, node: Node, union: bool) -> Type:
        name_node = node.child_by_field_name("name")
        name = text(self.source, name_node) if name_node is not None else None
        body = node.child_by_field_name("body")
        if body is None:
            found = self.tag(name) if name else None
            return found if found is not None else Struct(name, None, union)
        key = self.key_base + node.start_byte
        if name:  # forward view for self-references (`struct node *next;`)
            self._local_tags[name] = Struct(name, None, union, key)
        fields: list[Field] = []
        for fd in _field_declarations(body):
            spec = self.specifiers(fd)
            declarators = [c for i, c in enumerate(fd.children) if fd.field_name_for_child(i) == "declarator"]
            if not declarators and isinstance(spec.type, Struct):  # anonymous member struct/union
                for f in spec.type.fields or ():
                    fields.append(f)
            for d in declarators:
                got = self.declare(spec, d, context="field")
                if got.name:
                    fields.append(Field(got.name, got.type))
                    if got.name_node is not None:
                        self.fields[(key, got.name)] = got.name_node
        if len({f.name for f in fields}) < len(fields):  # one name in several `#if` arms
            fields = _arm_fields(fields)
        t = Struct(name, tuple(fields), union, key)
        if name:
            self._local_tags[name] = t
        self.defined_tags.append((t, node))
        return t

    def _enum(self, node: Node) -> Type:
        name_node = node.child_by_field_name("name")
        name = text(self.source, name_node) if name_node is not None else None
        body = node.child_by_field_name("body")
        if body is None:
            found = self.tag(name) if name else None
            return found if found is not None else Enum_(name)
        t = Enum_(name, self.key_base + node.start_byte)
        if name:
            self._local_tags[name] = t
        for e in body.named_children:
            n = e.child_by_field_name("name") if e.type == "enumerator" else None
            if n is not None:
                self.enumerators.append((text(self.source, n), n, t))
        self.defined_tags.append((t, node))
        return t

    # -- declarators --------------------------------------------------------------------

    def declare(self, spec: Specifiers, node: Node | None, context: str = "local") -> Declared:
        """Apply a declarator to its specifiers; `node` None gives the bare specifier type."""
        t: Type = spec.type
        space, cv = spec.space, set(spec.cv)
        name_node: Node | None = None
        name: str | None = None
        init: Node | None = None
        params: tuple[Declared, ...] | None = None
        params_node: Node | None = None
        attrs = list(spec.attributes)
        n = node
        guard = 0
        while n is not None and guard < 200:
            guard += 1
            k = n.type
            if k == "init_declarator":
                init = n.child_by_field_name("value")
                n = n.child_by_field_name("declarator")
            elif k in ("pointer_declarator", "abstract_pointer_declarator"):
                t = Pointer(t, space or default_pointee_space(self.target, context), space is not None,
                            frozenset(cv & {"const", "volatile"}))
                space, cv = None, set()
                for c in n.children:  # qualifiers after `*` qualify the pointer itself
                    if c.type in ("type_qualifier", "macro_modifier"):
                        sub = _Acc()
                        self._modifier(c, sub)
                        space = sub.space or space
                        cv |= sub.cv
                n = n.child_by_field_name("declarator")
            elif k in ("block_pointer_declarator", "abstract_block_pointer_declarator"):
                # A block (6.14): no pointer, no address space of its own; what it returns
                # and takes are in the function type read so far, which it replaces.
                t = Opaque("block")
                space, cv = None, set()
                n = n.child_by_field_name("declarator")
            elif k in ("array_declarator", "abstract_array_declarator"):
                t = Array(t, self._size(n.child_by_field_name("size")), space)
                n = n.child_by_field_name("declarator")
            elif k in ("function_declarator", "abstract_function_declarator"):
                params_node = n.child_by_field_name("parameters")
                params = self.parameters(params_node) if params_node is not None else ()
                variadic = params_node is not None and any(c.type == "variadic_parameter"
                                                           for c in params_node.children)
                t = Function(t, tuple(p.type for p in params), variadic)
                for c in n.children:
                    if c.type == "attribute_specifier":
                        attrs.extend(self._attributes(c))
                made = macro_named(n)
                if made is not None:  # `NAME(x)(params)`: the outer list is the parameters
                    inner = made.child_by_field_name("declarator")
                    name_node = inner if inner is not None and inner.type == "identifier" else made
                    name = spelled_name(made)
                    break
                n = n.child_by_field_name("declarator")
            elif k == "macro_declarator":
                sub = _Acc(space=space, cv=cv)
                m = n.child_by_field_name("macro")
                if m is not None:
                    self._macro(m, sub)
                space, cv = sub.space, sub.cv
                attrs.extend(sub.attributes)
                n = n.child_by_field_name("declarator")
            elif k in ("identifier", "field_identifier", "type_identifier"):
                name_node = n
                break
            elif k in ("parenthesized_declarator", "abstract_parenthesized_declarator",
                       "attributed_declarator"):
                for c in n.children:
                    if c.type == "attribute_specifier" or c.type == "attribute_declaration":
                        attrs.extend(self._attributes(c))
                inner = [c for c in n.named_children if c.type not in ("attribute_specifier",
                                                                       "attribute_declaration")]
                n = inner[0] if inner else None
            else:
                break
        if space is not None:
            t = with_space(t, space)
        if name is None and name_node is not None:
            name = text(self.source, name_node)
        return Declared(name, name_node, t, space, frozenset(cv), init, params, params_node, tuple(attrs))

    def parameters(self, plist: Node) -> tuple[Declared, ...]:
        # Most parameter lists are keywords, built-in types and names: their reading depends
        # on the text and the target only, so it is remembered across files and keystrokes
        # (a kernel file's heads are otherwise read again on every edit).
        # With a syntax error elsewhere, the same text can parse to another tree: the node
        # count tells them apart.
        raw = (plist.text, plist.descendant_count)
        db = current()
        plains = db.table("model.plain_parameters", 4096)
        plain = plains.get(raw)
        if plain is None:
            plain = plains.put(raw, _plain(plist))
        key = (self.target, self.strict_generic, raw) if plain and not plist.has_error else None
        if key is not None:
            hit = db.table("model.parameters", 4096).get(key)
            nodes = _parameter_nodes(plist)
            if hit is not None and len(hit) == len(nodes):
                return tuple(Declared(name, _name_node(p) if name is not None else None, t, space, cv,
                                      attributes=attrs)
                             for p, (name, t, space, cv, attrs) in zip(nodes, hit))
        got_all = self._parameters(plist)
        if key is not None and len(got_all) == len(_parameter_nodes(plist)):
            db.table("model.parameters", 4096).put(
                key, tuple((d.name, d.type, d.space, d.cv, d.attributes) for d in got_all))
        return got_all

    def _parameters(self, plist: Node) -> tuple[Declared, ...]:
        out: list[Declared] = []
        for p in plist.named_children:
            if p.type != "parameter_declaration":
                continue
            spec = self.specifiers(p)
            got = self.declare(spec, p.child_by_field_name("declarator"), context="parameter")
            if isinstance(got.type, Scalar) and got.type.is_void and got.name is None:
                continue  # f(void)
            if isinstance(got.type, Array):  # array parameters are pointers (C99 6.7.5.3)
                elem_space = got.space or spec.space
                got = replace(got, type=Pointer(got.type.elem, elem_space or default_pointee_space(
                    self.target, "parameter"), elem_space is not None))
            out.append(got)
        return tuple(out)

    def type_name(self, node: Node) -> Type:
        """A `type_descriptor` (casts, sizeof, vector literals)."""
        spec = self.specifiers(node)
        return self.declare(spec, node.child_by_field_name("declarator"), context="cast").type

    def _size(self, node: Node | None) -> int | None:
        if node is None:
            return None
        try:
            return int(text(self.source, node).rstrip("uUlL"), 0)
        except ValueError:
            return None


# -- remembered parameter lists ---------------------------------------------------------

# Parameter lists read, by (target, strictness, (text, node count)), the database's
# "model.parameters"; whether a list's reading depends on its text alone, its
# "model.plain_parameters" by (text, node count).
# Named nodes whose reading depends on their text alone (no typedef, tag, macro or size).
_PLAIN_KINDS = frozenset({"parameter_declaration", "type_qualifier", "address_space_qualifier",
                          "access_qualifier", "primitive_type", "sized_type_specifier", "identifier",
                          "pointer_declarator", "array_declarator", "parenthesized_declarator",
                          "number_literal"})


def _plain(plist: Node) -> bool:
    if plist.has_error:
        return False
    stack = list(plist.named_children)
    while stack:
        n = stack.pop()
        if n.type not in _PLAIN_KINDS:
            return False
        stack.extend(n.named_children)
    return True


def _parameter_nodes(plist: Node) -> list[Node]:
    return [p for p in plist.named_children if p.type == "parameter_declaration"]


def _name_node(p: Node) -> Node | None:
    """The identifier a plain parameter declares (see `_plain`)."""
    d = p.child_by_field_name("declarator")
    while d is not None and d.type != "identifier":  # the walk `declare` makes
        if d.type in ("pointer_declarator", "array_declarator"):
            d = d.child_by_field_name("declarator")
        elif d.type == "parenthesized_declarator":
            d = d.named_children[0] if d.named_children else None
        else:
            return None
    return d


_ARMS = frozenset({"preproc_if", "preproc_ifdef", "preproc_elif", "preproc_elifdef", "preproc_else"})


def _field_declarations(body: Node) -> list[Node]:
    """The field declarations of a struct's or union's body, those under `#if` arms included
    (ROCm's `heap_t` declares a counter under `#if defined NON_SLAB_TRACKING`): a member any arm
    declares may be the build's (a name several arms declare: `_arm_fields`)."""
    out: list[Node] = []
    stack = list(reversed(body.named_children))
    while stack:
        node = stack.pop()
        if node.type == "field_declaration":
            out.append(node)
        elif node.type in _ARMS:
            stack.extend(reversed(node.named_children))
    return out


def _arm_fields(fields: list[Field]) -> list[Field]:
    """`fields` with one entry per name: a name `#if` arms declare with different types has the
    type the build picks, unknown here."""
    types: dict[str, list[Type]] = {}
    for f in fields:
        types.setdefault(f.name, []).append(f.type)
    out: list[Field] = []
    for f in fields:
        if not f.name:  # (anonymous members are each their own)
            out.append(f)
            continue
        seen = types.pop(f.name, None)
        if seen is not None:
            out.append(f if all(t == seen[0] for t in seen) else Field(f.name, Unknown()))
    return out
