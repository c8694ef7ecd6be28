"""What the headers a file includes declare, for the name checks (CL010-CL013).

A file whose every `#include` (in any arm, through the headers' own includes) resolves to a
file the include resolver reads is checked like a file without includes: the names its headers
declare count as declared. One unresolved or computed include, or a header too broken to read,
and `closure` answers None: the checks then stay silent on undeclared names, as before.

Conservative by construction: every word of a header outside its function bodies and comments
(any arm, macro bodies and arguments of top-level macro calls included) quiets a name, and so
does any name a `##` in a macro could paste (`keccak_##bits` makes `keccak_256`); "did you mean"
suggests only names a header declares (not its macros: a host's `-D` names often sit near them). Each header's facts are read once per
(file, content), so a keystroke in the including file re-reads nothing.
"""

from __future__ import annotations


from tree_sitter import Node, Tree

from cllint.analysis.database import current
from cllint.analysis.digest import blake2b
from cllint.analysis.lazy_re import lazy
from cllint.analysis.model.walk import nodes_once
from cllint.analysis.preprocessor.directives import scan_directives
from cllint.analysis.preprocessor.view import resolve_include

_WORD = lazy(r"[A-Za-z_]\w*")
_MAX_HEADERS = 512  # in one file's closure; more reads as unreadable
_UNREADABLE = 0.25  # share of a header's bytes in top-level parse errors
# In the database (analysis/database.py), least recently used first: headers read
# ("headers.read") and parsed ("headers.parsed") by (file, content), their closures'
# combined names by the closure's digest ("headers.closures").
_CACHE_MAX = 512
_CLOSURES_MAX = 32
_UNSET = object()

# What a header's reading looks at (`_Reader.read`).
_READ_KINDS = frozenset({"comment", "function_definition", "declaration", "type_definition", "struct_specifier",
                         "union_specifier", "enum_specifier", "enumerator"})

# Declarator wrappers whose `declarator` field leads to the declared name.
_WRAPPERS = frozenset({"init_declarator", "pointer_declarator", "array_declarator", "parenthesized_declarator",
                       "attributed_declarator", "function_declarator"})


def body_words(params: tuple[str, ...] | None, body: str) -> list[str]:
    """The words of a macro's body that may reach the code: a function-like macro's
    parameters stand for its arguments, never for themselves (`#define OFF(n) ((n) >> 5)`
    says nothing about a variable `n`)."""
    words = _WORD.findall(body)
    return [w for w in words if w not in params] if params else words


class Pastes:
    """What `##` in macro bodies can make: any name holding a fixed fragment pasted to a
    parameter, and (`free`) any two words pasted together (`CAT(a, b) a##b`)."""

    __slots__ = ("fragments", "free")
    fragments: frozenset[str]
    free: bool

    __match_args__ = ("fragments", "free")

    def __init__(self, fragments: frozenset[str] = frozenset(), free: bool = False) -> None:
        self.fragments = fragments
        self.free = free

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(fragments={self.fragments!r}, free={self.free!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.fragments, self.free) == (other.fragments, other.free)

    def __hash__(self) -> int:
        return hash((self.fragments, self.free))

    def could_make(self, name: str, words: frozenset[str]) -> bool:
        if any(f in name for f in self.fragments):
            return True
        return self.free and any(name[:i] in words and (name[i:] in words or name[i:].isdigit())
                                 for i in range(1, len(name)))


def pastes_of(macros: list[tuple[tuple[str, ...] | None, str]]) -> Pastes:
    """The pastes of macros given as (parameters, body)."""
    fragments: set[str] = set()
    free = False
    for params, body in macros:
        if "##" not in body:
            continue
        names = set(params or ()) | {"__VA_ARGS__"}
        parts = body.split("##")
        for left, right in zip(parts, parts[1:]):
            lw, rw = _WORD.findall(left), _WORD.findall(right)
            lt = lw[-1] if lw and left.rstrip().endswith(lw[-1]) else None
            rt = rw[0] if rw and right.lstrip().startswith(rw[0]) else None
            if lt is not None and lt not in names:
                fragments.add(lt)
            if rt is not None and rt not in names:
                fragments.add(rt)
            if (lt is None or lt in names) and (rt is None or rt in names):
                free = True
    return Pastes(frozenset(fragments), free)


class Function:
    """A function a header declares or defines: its parameter count where every declaration
    shows it plainly (None: variadic, overloadable, a macro pack, `()`, or declarations that
    disagree) and the words of its heads (a macro among them makes the count unsure)."""

    __slots__ = ("arity", "head_words")
    arity: int | None
    head_words: frozenset[str]

    __match_args__ = ("arity", "head_words")

    def __init__(self, arity: int | None, head_words: frozenset[str]) -> None:
        self.arity = arity
        self.head_words = head_words

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(arity={self.arity!r}, head_words={self.head_words!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.arity, self.head_words) == (other.arity, other.head_words)

    def __hash__(self) -> int:
        return hash((self.arity, self.head_words))


class Header:
    """One header's own facts (its includes are followed by `closure`)."""

    __slots__ = ("digest", "includes", "quiet", "declared", "macro_words", "pastes", "functions",
                 "unreadable")
    digest: bytes
    includes: tuple[tuple[str | None, bool], ...]  # (path, angled); None: computed
    quiet: frozenset[str]  # every word outside function bodies and comments
    declared: frozenset[str]  # names it declares: suggestions
    macro_words: frozenset[str]  # names it #defines and the words of their bodies
    pastes: Pastes
    functions: dict[str, Function]
    unreadable: bool

    __match_args__ = ("digest", "includes", "quiet", "declared", "macro_words", "pastes", "functions",
                      "unreadable")

    def __init__(
        self,
        digest: bytes,
        includes: tuple[tuple[str | None, bool], ...],
        quiet: frozenset[str],
        declared: frozenset[str],
        macro_words: frozenset[str],
        pastes: Pastes,
        functions: dict[str, Function] | None = None,
        unreadable: bool = False,
    ) -> None:
        self.digest = digest
        self.includes = includes
        self.quiet = quiet
        self.declared = declared
        self.macro_words = macro_words
        self.pastes = pastes
        self.functions = {} if functions is None else functions
        self.unreadable = unreadable

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"digest={self.digest!r}, " f"includes={self.includes!r}, "
                f"quiet={self.quiet!r}, " f"declared={self.declared!r}, "
                f"macro_words={self.macro_words!r}, " f"pastes={self.pastes!r}, "
                f"functions={self.functions!r}, " f"unreadable={self.unreadable!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.digest, self.includes, self.quiet, self.declared, self.macro_words, self.pastes,
                self.functions, self.unreadable)
        theirs = (other.digest, other.includes, other.quiet, other.declared, other.macro_words, other.pastes,
                  other.functions, other.unreadable)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.digest, self.includes, self.quiet, self.declared, self.macro_words, self.pastes,
                     self.functions, self.unreadable))


class Headers:
    """What all the headers of one file declare together."""

    __slots__ = ("key", "quiet", "declared", "macro_words", "pastes", "functions")
    key: bytes  # digest of every header read, in order: equal keys, equal facts
    quiet: frozenset[str]
    declared: frozenset[str]
    macro_words: frozenset[str]
    pastes: Pastes
    functions: dict[str, Function]

    __match_args__ = ("key", "quiet", "declared", "macro_words", "pastes", "functions")

    def __init__(
        self,
        key: bytes,
        quiet: frozenset[str] = frozenset(),
        declared: frozenset[str] = frozenset(),
        macro_words: frozenset[str] = frozenset(),
        pastes: Pastes = Pastes(),
        functions: dict[str, Function] | None = None,
    ) -> None:
        self.key = key
        self.quiet = quiet
        self.declared = declared
        self.macro_words = macro_words
        self.pastes = pastes
        self.functions = {} if functions is None else functions

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"key={self.key!r}, " f"quiet={self.quiet!r}, "
                f"declared={self.declared!r}, " f"macro_words={self.macro_words!r}, "
                f"pastes={self.pastes!r}, " f"functions={self.functions!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.key, self.quiet, self.declared, self.macro_words, self.pastes, self.functions)
        theirs = (other.key, other.quiet, other.declared, other.macro_words, other.pastes, other.functions)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.key, self.quiet, self.declared, self.macro_words, self.pastes, self.functions))

    def could_declare(self, name: str) -> bool:
        return name in self.quiet or self.pastes.could_make(name, self.quiet)


NO_HEADERS = Headers(b"")


def closure(view: object) -> Headers | None:  # a PreprocessorView
    """The facts of every header the file includes, NO_HEADERS for a file without includes,
    None when one include cannot be read. Remembered on the view (built once per text)."""
    memo = getattr(view, "__dict__", {})
    got = memo.get("_semantic_headers", _UNSET)
    if got is _UNSET:
        got = memo["_semantic_headers"] = _closure(view)
    return got  # type: ignore[return-value]


def declared_in_includes(view: object) -> frozenset[str]:
    """The names the headers a file includes declare, from those that resolve (one that does
    not adds nothing): evidence that a name is the program's own (a built-in library's
    `enum { memory_order_relaxed, ... }`), where `closure` must read them all. Remembered on
    the view."""
    memo = getattr(view, "__dict__", {})
    got = memo.get("_declared_in_includes")
    if got is None:
        got = memo["_declared_in_includes"] = _declared_in_includes(view)
    return got


def _declared_in_includes(view) -> frozenset[str]:  # noqa: ANN001
    todo = [(d.path, d.angled, view.file_id) for d in getattr(view, "directives", ())
            if d.kind == "include" and d.path is not None]
    resolver = getattr(view, "include_resolver", None)
    if not todo or resolver is None:
        return frozenset()
    seen: set[object] = set()
    out: set[str] = set()
    while todo and len(seen) < _MAX_HEADERS:
        path, angled, including = todo.pop(0)
        found = resolve_include(resolver, path, angled, including)
        if found is None or found[0] in seen:
            continue
        seen.add(found[0])
        header = _header(found[0], found[1])
        out |= header.declared
        todo.extend((p, a, found[0]) for p, a in header.includes if p is not None)
    return frozenset(out)


def key(view: object) -> bytes:
    """What the headers add to the file's skeleton (analysis/db.py `view_key`): a header
    edited in another buffer changes the findings of bodies the edit did not touch."""
    found = closure(view)
    return b"headers:-" if found is None else b"headers:" + found.key


def _closure(view) -> Headers | None:  # noqa: ANN001
    todo = [(d.path, d.angled, view.file_id) for d in getattr(view, "directives", ()) if d.kind == "include"]
    if not todo:
        return NO_HEADERS
    resolver = getattr(view, "include_resolver", None)
    if resolver is None or any(path is None for path, _, _ in todo):
        return None  # no resolver, or a computed include (hashcat's `#include M2S(...)`): not followed
    seen: dict[object, Header] = {}
    while todo:
        path, angled, including = todo.pop(0)
        if path is None:
            return None  # a computed include: not followed
        found = resolve_include(resolver, path, angled, including)
        if found is None:
            return None
        file_id, content = found
        if file_id in seen:
            continue
        header = _header(file_id, content)
        if header.unreadable or len(seen) >= _MAX_HEADERS:
            return None
        seen[file_id] = header
        if any(p is None for p, _ in header.includes):
            return None
        todo.extend((p, a, file_id) for p, a in header.includes)
    return _combine(list(seen.values()))


def _combine(headers: list[Header]) -> Headers:
    h = blake2b(digest_size=16)
    for header in headers:
        h.update(header.digest)
    digest = h.digest()
    closures = current().table("headers.closures", _CLOSURES_MAX)
    got = closures.touch(digest)
    if got is not None:
        return got
    functions: dict[str, Function] = {}
    for header in headers:
        for name, f in header.functions.items():
            functions[name] = _merge(functions.get(name), f)
    pastes = Pastes(frozenset().union(*(x.pastes.fragments for x in headers)), any(x.pastes.free for x in headers))
    got = Headers(digest, frozenset().union(*(x.quiet for x in headers)),
                  frozenset().union(*(x.declared for x in headers)),
                  frozenset().union(*(x.macro_words for x in headers)), pastes, functions)
    return closures.put(digest, got)


def _merge(a: Function | None, b: Function) -> Function:
    if a is None:
        return b
    arity = a.arity if a.arity == b.arity else None
    return Function(arity, a.head_words | b.head_words)


def _header(file_id: object, content: bytes) -> Header:
    # By (file, content): the resolvers hand back the same bytes object while the file is
    # unchanged, whose hash Python keeps, so a hit costs no hashing of the text.
    k = (file_id, content)
    read = current().table("headers.read", _CACHE_MAX)
    got = read.touch(k)
    if got is None:
        got = read.put(k, _read(file_id, content))
    return got


class Parsed:
    """One header's text read once, for its names (here) and its types (header_types.py)."""

    __slots__ = ("digest", "directives", "tree")
    digest: bytes
    directives: list
    tree: Tree

    __match_args__ = ("digest", "directives", "tree")

    def __init__(self, digest: bytes, directives: list, tree: Tree) -> None:
        self.digest = digest
        self.directives = directives
        self.tree = tree

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"digest={self.digest!r}, " f"directives={self.directives!r}, "
                f"tree={self.tree!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.digest, self.directives, self.tree) == (other.digest, other.directives, other.tree)

    def __hash__(self) -> int:
        return hash((self.digest, self.directives, self.tree))


def parsed(file_id: object, content: bytes) -> Parsed:
    """The header's digest, directives and tree, by (file, content) like `_header`."""
    k = (file_id, content)
    table = current().table("headers.parsed", _CACHE_MAX)
    got = table.touch(k)
    if got is None:
        from cllint.grammar import parse  # here: a file without includes never parses a header

        got = table.put(k, Parsed(blake2b(content, digest_size=16).digest(), scan_directives(content),
                                  parse(content)))
    return got


def _read(file_id: object, content: bytes) -> Header:
    once = parsed(file_id, content)
    directives, digest, tree = once.directives, once.digest, once.tree
    includes = tuple((d.path, d.angled) for d in directives if d.kind == "include")
    macro_words: set[str] = set()
    for d in directives:
        if d.kind == "define" and d.name:
            macro_words.add(d.name)
            macro_words.update(body_words(d.params, d.body))
    reader = _Reader(content)
    reader.read(tree.root_node)
    errors = sum(n.end_byte - n.start_byte for n in tree.root_node.children if n.type == "ERROR")
    pastes = pastes_of([(d.params, d.body) for d in directives if d.kind == "define"])
    return Header(digest, includes, frozenset(reader.words()) | macro_words, frozenset(reader.declared),
                  frozenset(macro_words), pastes, reader.functions, errors > _UNREADABLE * max(len(content), 1))


class _Reader:
    """One walk over a header's tree: declared names, functions, and the ranges (function
    bodies, comments) whose words do not quiet a name."""

    def __init__(self, source: bytes) -> None:
        self.source = source
        self.declared: set[str] = set()
        self.functions: dict[str, Function] = {}
        self.skipped: list[tuple[int, int]] = []

    def text(self, node: Node) -> str:
        return self.source[node.start_byte:node.end_byte].decode("utf-8", "replace")

    def read(self, root: Node) -> None:
        # Only these kinds are read, in the order a walk meets them; a query finds them in C
        # (a walk of every node in Python cost ~1 s on hashcat's 2.4 MB inc_common.cl).
        for n in nodes_once(root, _READ_KINDS):
            k = n.type
            if k == "comment":
                self.skipped.append((n.start_byte, n.end_byte))
            elif k == "function_definition":
                self._function(n, n.child_by_field_name("body"))
            elif k == "declaration":
                for d in n.children_by_field_name("declarator"):
                    self._declarator(n, d)
            elif k == "type_definition":
                for d in n.children_by_field_name("declarator"):
                    name = self._name(d)
                    if name is not None:
                        self.declared.add(name)
            elif k in ("struct_specifier", "union_specifier", "enum_specifier"):
                tag = n.child_by_field_name("name")
                if tag is not None:
                    self.declared.add(self.text(tag))
            elif k == "enumerator":
                name = n.child_by_field_name("name")
                if name is not None:
                    self.declared.add(self.text(name))

    def _function(self, definition: Node, body: Node | None) -> None:
        if body is not None and not body.has_error:
            self.skipped.append((body.start_byte, body.end_byte))
        self._declarator(definition, definition.child_by_field_name("declarator"))

    def _declarator(self, decl: Node, d: Node | None) -> None:
        fn = None
        while d is not None and d.type in _WRAPPERS:
            if d.type == "function_declarator" and fn is None:
                fn = d
            d = d.child_by_field_name("declarator")
        if d is None or d.type != "identifier":
            return
        name = self.text(d)
        self.declared.add(name)
        if fn is None:
            return
        params = fn.child_by_field_name("parameters")
        head_end = decl.child_by_field_name("body").start_byte if decl.type == "function_definition" and \
            decl.child_by_field_name("body") is not None else decl.end_byte
        head = self.source[decl.start_byte:head_end].decode("utf-8", "replace")
        f = Function(_arity(params, head), frozenset(_WORD.findall(head)) - {name})
        self.functions[name] = _merge(self.functions.get(name), f)

    def _name(self, d: Node | None) -> str | None:
        while d is not None and d.type in _WRAPPERS:
            d = d.child_by_field_name("declarator")
        return self.text(d) if d is not None and d.type in ("identifier", "type_identifier") else None

    def words(self) -> set[str]:
        out: set[str] = set()
        at = 0
        for start, end in sorted(self.skipped):
            if start >= at:
                out.update(_WORD.findall(self.source[at:start].decode("utf-8", "replace")))
            at = max(at, end)
        out.update(_WORD.findall(self.source[at:].decode("utf-8", "replace")))
        return out


def _arity(params: Node | None, head: str) -> int | None:
    """The parameter count the head shows plainly; None where it does not."""
    if params is None or params.has_error or "overloadable" in head:
        return None
    items = [p for p in params.named_children if p.type != "comment"]
    if not items or any(p.type != "parameter_declaration" for p in items):
        return None  # `f()`, `...`, a macro pack
    if len(items) == 1 and params.child_count == 3 and items[0].text == b"void":
        return 0
    if not all(_plain_parameter(p) for p in items):
        return None
    return len(items)


_BUILTIN_TYPE = lazy(r"^(?:u?(?:char|short|int|long)|float|double|half|bool|size_t|ptrdiff_t|u?intptr_t)"
                           r"(?:2|3|4|8|16)?$")


def _plain_parameter(p: Node) -> bool:
    """A parameter that is one parameter whatever the macros: named (`float x`), or of a
    built-in type (`float`); a lone word (`void f(KERNEL_ARGS)`) may be a macro of several."""
    if p.child_by_field_name("declarator") is not None:
        return True
    t = p.child_by_field_name("type")
    return t is not None and (t.type in ("primitive_type", "sized_type_specifier") or
                              (t.text is not None and _BUILTIN_TYPE.match(t.text.decode("utf-8", "replace")) is not None))
