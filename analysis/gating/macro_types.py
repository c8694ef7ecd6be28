"""Gated types, built-ins and constants spelled through a macro: `#define real double` then
`real x;`, `#define CVT(x) ((half)(x))` then `CVT(y)`, `#define SUM(x) work_group_reduce_add(x)`.

The tree holds `real` or a call of `CVT`; the compiler sees `double` or a cast to `half`
at that place (clang-19 reports "use of type 'double' requires ... support" there, with a
note on the macro). The use is placed on the macro name where it is used, and remembers
where the macro was defined, so that a guard around the `#define` counts as well as one
around the use (`#ifdef cl_khr_fp64` / `#define real double` / `#endif`).

A built-in named in a macro body needs what its name needs over all its overloads
(`builtin_need`, the weakest): the arguments are not typed there, so what an overload needs
through its argument types (`atom_add` on `long`) is not claimed.
"""

from __future__ import annotations


from tree_sitter import Node, Tree

from ..catalogue import catalogue
from ..features import DNF, INT64, Version
from ..model.walk import nodes_of_kinds
from ..preprocessor.expr import Token, tokenize
from ..preprocessor.view import PreprocessorView
from . import tables
from .uses import Use, _gated_constant_names, _item, _names_no_half_value, _plain_type, _strip, _version, builtin_need
from cllint.analysis.lazy_re import lazy

_KINDS = frozenset({"type_identifier", "identifier"})
_DEFINITIONS = frozenset({"function_definition"})
_QUALIFIER_WORDS = frozenset({"const", "volatile", "restrict", "global", "__global", "local", "__local",
                              "constant", "__constant", "private", "__private", "generic", "__generic"})
_MAX_DEPTH = 8
_WORD = lazy(r"[A-Za-z_]\w*")


def _word_need(word: str) -> tuple[Version | None, DNF] | None:
    """What one type word of a macro body needs, as `on_primitive_type` would judge it."""
    if word == "long":
        return None, ((INT64,),)
    if _plain_type(word.encode()):
        return None
    if word.startswith("half"):
        return None, tables.FP16
    if word.startswith("ulong"):
        return None, ((INT64,),)
    t = catalogue().type(word)
    if t is None:
        return None
    return _version(t.since), _strip(t.requires)


def _name_need(word: str, called: bool) -> tuple[str, Version | None, DNF] | None:
    """(kind, since, requires) of a built-in called, or a gated constant named, in a body."""
    if called:
        need = builtin_need(word)
        return None if need is None else ("built-in", need[0], _strip(need[1]))
    if word.encode() not in _gated_constant_names():
        return None
    if word in tables.CONSTANTS:
        since, req = tables.CONSTANTS[word]
        return "constant", since, _strip(req)
    c = catalogue().constant(word)
    return None if c is None else ("constant", _version(c.since), _strip(c.requires))


def _body_gated(words: list[str]) -> bool:
    """A first test on a body's words: a type, built-in or constant there needs something."""
    for w in words:
        if _word_need(w) is not None:
            return True
        for called in (True, False):
            need = _name_need(w, called)
            if need is not None and (need[1] is not None or need[2]):
                return True
    return False


def _points_or_sizes(toks: list[Token], i: int) -> bool:
    """The type word at `i` names a pointer (`half *`) or a size (`sizeof(half)`): no half value."""
    j = i + 1
    while j < len(toks) and toks[j].text in _QUALIFIER_WORDS:
        j += 1
    if j < len(toks) and toks[j].text == "*":
        return True
    return i >= 2 and toks[i - 1].text == "(" and toks[i - 2].text in ("sizeof", "__alignof__", "_Alignof")


def _tokens(view: PreprocessorView, body: str, offset: int, hide: frozenset[str], depth: int = 0) -> list[Token]:
    """The body's tokens, object-like macros in it replaced by theirs (chains: `#define ZERO
    ((real)0)` with `#define real double`). Function-like ones are left as they are."""
    out: list[Token] = []
    for tok in tokenize(body):
        inner = view.macro_at(tok.text, offset) if tok.kind == "id" and tok.text not in hide else None
        if inner is not None and inner.params is None and depth < _MAX_DEPTH:
            out.extend(_tokens(view, inner.body, offset, hide | {tok.text}, depth + 1))
        else:
            out.append(tok)
    return out


def _needs_in(toks: list[Token], pure_type: bool,
              defined: frozenset[str]) -> list[tuple[str, str, Version | None, DNF]]:
    """(kind, word, since, requires) for each gated type, built-in or constant, once each. In
    a body made only of type words the use's place decides whether `half` makes a value;
    elsewhere the tokens do. `defined`: functions the file defines (they shadow built-ins)."""
    out: dict[str, tuple[str, str, Version | None, DNF]] = {}
    for i, tok in enumerate(toks):
        if tok.kind != "id" or tok.text in out:
            continue
        need = _word_need(tok.text)
        if need is not None:
            if tok.text.startswith("half") and not pure_type and _points_or_sizes(toks, i):
                continue
            found: tuple[str, Version | None, DNF] | None = ("type", *need)
        else:
            called = i + 1 < len(toks) and toks[i + 1].text == "("
            found = None if called and tok.text in defined else _name_need(tok.text, called)
        if found is not None and (found[1] is not None or found[2]):
            out[tok.text] = (found[0], tok.text, found[1], found[2])
    return list(out.values())


def _gated_macros(view: PreprocessorView, file: str) -> set[str]:
    """Names of this file's macros whose bodies hold a gated type word, directly or through
    other macros (a first test, by words; most files have none)."""
    bodies: dict[str, set[str]] = {}
    for m in view.macro_definitions():
        bodies.setdefault(m.name, set()).update(_WORD.findall(m.body))
    gated = {n for n, words in bodies.items() if _body_gated(sorted(words))}
    grew = bool(gated)
    while grew:  # chains: `#define ZERO ((real)0)` over `#define real double`
        more = {n for n, words in bodies.items() if n not in gated and words & gated}
        gated |= more
        grew = bool(more)
    own = {m.name for m in view.macro_definitions() if m.span.file == file}
    return gated & own


def _in_directive(source: bytes, offset: int) -> bool:
    """On a preprocessor line (`#if PRECISION == 64`): not code the compiler types."""
    start = source.rfind(b"\n", 0, offset) + 1
    return source[start:offset].lstrip().startswith(b"#")


def macro_type_uses(tree: Tree, source: bytes, view: PreprocessorView | None, file: str,
                    focus: list[tuple[int, int]] | None = None) -> list[Use]:
    """Uses of gated types that reach the code through macros of this file (starting in
    `focus`). Never raises on user source; [] without a view."""
    if view is None:
        return []
    names = _gated_macros(view, file)
    if not names:
        return []
    out: list[Use] = []
    wanted = {n.encode() for n in names}
    defined: frozenset[str] | None = None
    for node in nodes_of_kinds(tree.root_node, _KINDS, ordered=False, ranges=focus):
        if source[node.start_byte:node.end_byte] not in wanted or _in_directive(source, node.start_byte):
            continue
        if defined is None:
            defined = _defined_functions(tree, source)
        try:
            out.extend(_at(node, source, view, defined))
        except (AttributeError, ValueError, IndexError, RecursionError):  # odd trees: skip the node
            continue
    out.sort(key=lambda u: (u.start, u.end))
    return out


def _defined_functions(tree: Tree, source: bytes) -> frozenset[str]:
    """Names of the functions the file defines (a definition shadows a built-in's name)."""
    names = set()
    for d in nodes_of_kinds(tree.root_node, _DEFINITIONS, ordered=False):
        decl = d.child_by_field_name("declarator")
        while decl is not None and decl.type != "function_declarator":
            decl = decl.child_by_field_name("declarator")
        name = decl.child_by_field_name("declarator") if decl is not None else None
        if name is not None:
            names.add(source[name.start_byte:name.end_byte].decode("utf-8", "replace"))
    return frozenset(names)


def _at(node: Node, source: bytes, view: PreprocessorView, defined: frozenset[str]) -> list[Use]:
    name = source[node.start_byte:node.end_byte].decode()
    macro = view.macro_at(name, node.start_byte)
    if macro is None:
        return []
    if macro.params is not None:
        parent = node.parent  # a function-like macro expands only where it is called
        if parent is None or parent.type != "call_expression" or parent.child_by_field_name("function") != node:
            return []
        pure = False
    else:
        pure = view.expand_type_macro(name, node.start_byte) is not None
    toks = _tokens(view, macro.body, node.start_byte, frozenset({name}))
    uses = []
    for kind, word, since, requires in _needs_in(toks, pure, defined):
        if pure and word.startswith("half") and _names_no_half_value(node):
            continue
        uses.append(Use(node.start_byte, node.end_byte, kind, word, since, requires, None, _item(node),
                        detail=f" through macro '{name}'", defined_at=macro.span.start))
    return uses
