"""Hover: the type of the expression under the cursor with its address space (written or
inferred), the declaration of a symbol, the definition and expansion of a macro, and for a
built-in its overloads, requirements and specification link.

`hover_at(snap, file, offset)` reads the semantic model and the preprocessor view;
`hover(tree, src, offset, target)` is the tree-only fallback (names.py) it falls back on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node, Tree

from cllint.analysis.catalogue import Builtin, catalogue, spec_url
from cllint.analysis.diagnostics import FileId
from cllint.analysis.ide.model_cache import model as model_of
from cllint.analysis.ide.names import line_of, name_at, resolve, text
from cllint.analysis.model import AddressSpace, Array, Pointer, Symbol, SymbolKind, Type, Unknown
from cllint.analysis.model.types import has_generic
from cllint.analysis.target import Target

MAX_OVERLOADS = 8


@dataclass(frozen=True)
class HoverResult:
    markdown: str
    start: int
    end: int


def _requirements(since: str | None, requires: tuple[tuple[str, ...], ...]) -> str:
    parts = [f"OpenCL C {since}+"] if since else []
    if requires:
        parts.append(" or ".join(" and ".join(f"`{n}`" for n in conj) for conj in requires))
    return "; ".join(parts)


def builtin_markdown(b: Builtin, target: Target | None = None) -> str:
    sigs = [f"{o.returns} {b.name}({', '.join(f'{p.type} {p.name}' for p in o.params)})"
            for o in b.overloads[:MAX_OVERLOADS]]
    more = len(b.overloads) - MAX_OVERLOADS
    lines = ["```opencl", *sigs, "```"]
    if more > 0:
        lines.append(f"*+{more} more overloads*")
    lines += ["", b.summary, "", f"**Requires:** {_requirements(b.since, b.requires) or 'core'}"]
    if b.deprecated:
        lines.append(f"**Deprecated** in OpenCL C {b.deprecated}")
    if target is not None and not target.satisfies(b.since, b.requires):
        lines.append(f"**Not available** on target `{target.describe()}`")
    lines.append(f"\n[OpenCL C specification]({b.url})")
    return "\n".join(lines)


def declaration_text(src: bytes, decl) -> str:
    """What a declaration says, on one line: a parameter, a declaration, a function's head."""
    node = decl.node
    end = node.end_byte
    body = node.child_by_field_name("body")
    if body is not None:
        end = body.start_byte
    if decl.kind in ("parameter", "local", "global", "function", "kernel", "typedef", "struct"):
        return " ".join(src[node.start_byte:end].decode("utf-8", "replace").split())[:300]
    return line_of(src, decl.name_node.start_byte)


def hover(tree: Tree, src: bytes, offset: int, target: Target | None = None) -> HoverResult | None:
    node = name_at(tree, offset)
    if node is None:
        return None
    name = text(src, node)
    decl = resolve(tree, src, node)
    if decl is not None:
        if decl.kind == "macro":
            body = text(src, decl.node).rstrip()
            return HoverResult(f"```c\n{body}\n```", node.start_byte, node.end_byte)
        line = declaration_text(src, decl)
        return HoverResult(f"```opencl\n{line}\n```\n*{decl.kind}*", node.start_byte, node.end_byte)
    cat = catalogue()
    if (b := cat.function(name)) is not None:
        return HoverResult(builtin_markdown(b, target), node.start_byte, node.end_byte)
    if (c := cat.constant(name)) is not None:
        value = f" = {c.value}" if c.value else ""
        md = (f"```opencl\n{c.type} {c.name}{value}\n```\n**Requires:** "
              f"{_requirements(c.since, c.requires) or 'core'}\n\n[OpenCL C specification]({spec_url(c.spec)})")
        return HoverResult(md, node.start_byte, node.end_byte)
    if (t := cat.type(name)) is not None:
        return HoverResult(f"```opencl\n{t.name}\n```\nbuilt-in type; **Requires:** "
                           f"{_requirements(t.since, t.requires) or 'core'}", node.start_byte, node.end_byte)
    return None


# -- with the semantic model ------------------------------------------------------------

_EXPRESSIONS = frozenset({
    "identifier", "field_expression", "call_expression", "subscript_expression", "pointer_expression",
    "binary_expression", "unary_expression", "update_expression", "assignment_expression",
    "conditional_expression", "cast_expression", "parenthesized_expression", "compound_literal_expression",
    "number_literal", "char_literal", "string_literal", "sizeof_expression", "comma_expression",
})
_VARIABLES = frozenset({SymbolKind.PARAMETER, SymbolKind.LOCAL, SymbolKind.GLOBAL})
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
MAX_EXPANSION_DEPTH = 32
GENERIC_FEATURE = "__opencl_c_generic_address_space"


def written(t: Type) -> str:
    """C spelling of `t` as the user would write it: inferred address spaces left out."""
    if not isinstance(t, Pointer):
        return t.render()
    quals = " ".join(sorted(t.qualifiers))
    space = t.space.spelling if t.explicit else ""
    if isinstance(t.pointee, Pointer):
        return f"{written(t.pointee)}{space + ' ' if space else ''}{quals + ' ' if quals else ''}*"
    base = written(t.pointee) if not isinstance(t.pointee, Array) else f"({t.pointee.render()})"
    prefix = " ".join(x for x in (quals, space) if x)
    return f"{prefix + ' ' if prefix else ''}{base} *"


def inference_reason(target: Target) -> str:
    """Why an unqualified pointer points where it does on `target` (spec 6.7, Inference)."""
    v = target.version
    if has_generic(target):
        return f"OpenCL C {v}" + (f" with `{GENERIC_FEATURE}`" if str(v).startswith("3") else "")
    return f"OpenCL C {v}" + (f" without `{GENERIC_FEATURE}`" if not str(v).startswith("1") else "")


def type_line(t: Type, target: Target) -> str:
    """"`float *` — points to `__generic` (inferred: OpenCL C 2.0)"."""
    if isinstance(t, Pointer):
        line = f"`{written(t)}` — points to `{t.space.spelling}`"
        return line if t.explicit else f"{line} (inferred: {inference_reason(target)})"
    if isinstance(t, Array) and t.space is not None:
        return f"`{t.render()}` — elements in `{t.space.spelling}`"
    return f"`{t.render()}`"


def _space_line(sym: Symbol) -> str | None:
    if sym.kind not in _VARIABLES or sym.space is None:
        return None
    return f"**Lives in:** `{sym.space.spelling}`" + ("" if sym.space_explicit else " (inferred)")


def _declaration_source(src: bytes, node: Node) -> str:
    end = node.end_byte
    body = node.child_by_field_name("body")
    if body is not None:
        end = body.start_byte
    return " ".join(src[node.start_byte:end].decode("utf-8", "replace").split())[:300]


def expand_object_macro(view, name: str, offset: int) -> str | None:
    """Replacement text of an object-like macro, object-like macros inside it expanded."""
    macro = view.macro_at(name, offset)
    if macro is None or macro.params is not None:
        return None

    def expand(body: str, hide: frozenset[str], depth: int) -> str:
        def one(m: re.Match) -> str:
            word = m.group(0)
            inner = view.macro_at(word, offset) if word not in hide else None
            if inner is None or inner.params is not None or depth >= MAX_EXPANSION_DEPTH:
                return word
            return expand(inner.body, hide | {word}, depth + 1)
        return _IDENT.sub(one, body)

    return " ".join(expand(macro.body, frozenset({name}), 0).split())


def macro_markdown(view, name: str, offset: int) -> str | None:
    macro = view.macro_at(name, offset)
    if macro is None:
        return None
    params = ""
    if macro.params is not None:
        params = "(" + ", ".join([*macro.params, *(["..."] if macro.variadic else [])]) + ")"
    lines = ["```c", f"#define {name}{params} {macro.body}".rstrip(), "```"]
    expansion = expand_object_macro(view, name, offset)
    if expansion is not None and expansion != " ".join(macro.body.split()):
        lines.append(f"Expands to: `{expansion}`")
    if macro.span.file != view.file_id:
        lines.append(f"*defined in `{macro.span.file}`*")
    if macro.conditional:
        lines.append("*defined under a condition the target does not decide*")
    return "\n".join(lines)


def _expression_at(tree: Tree, offset: int) -> Node | None:
    node = tree.root_node.descendant_for_byte_range(offset, offset)
    while node is not None and node.type not in _EXPRESSIONS:
        if node.type in ("compound_statement", "function_definition", "translation_unit", "declaration"):
            return None
        node = node.parent
    return node


_DECLARATIONS = frozenset({"parameter_declaration", "declaration", "field_declaration", "function_definition",
                           "type_definition", "struct_specifier", "union_specifier", "enum_specifier", "enumerator"})


def _whole_declaration(sym: Symbol) -> Node | None:
    node = sym.node if sym.node is not None else sym.decl
    while node is not None and node.type not in _DECLARATIONS:
        node = node.parent
    return node if node is not None else sym.decl


def symbol_markdown(src: bytes, sym: Symbol, t: Type, target: Target) -> str:
    decl = _whole_declaration(sym)
    head = _declaration_source(src, decl) if decl is not None else sym.name
    kind = "kernel" if sym.is_kernel else sym.kind.value
    lines = ["```opencl", head, "```", f"*{kind}*"]
    if sym.kind not in (SymbolKind.FUNCTION, SymbolKind.TYPEDEF, SymbolKind.STRUCT, SymbolKind.UNION,
                        SymbolKind.ENUM) and not isinstance(t, Unknown):
        lines.append(f"\n**Type:** {type_line(t, target)}")
    if (where := _space_line(sym)) is not None:
        lines.append(where)
    return "\n".join(lines)


def hover_at(snap, file: FileId, offset: int) -> HoverResult | None:
    """Hover for `file` at byte `offset` in snapshot `snap` (analysis.db.Snapshot)."""
    tree, src, target = snap.tree(file), snap.text(file), snap.options(file).target
    m, view = model_of(snap, file), snap.preprocessor(file)
    node = name_at(tree, offset)
    if node is None:
        expr = _expression_at(tree, offset)
        if expr is None:
            return None
        t = m.type_of(expr)
        return None if isinstance(t, Unknown) else HoverResult(f"**Type:** {type_line(t, target)}", expr.start_byte,
                                                               expr.end_byte)
    name = text(src, node)
    sym = m.resolve(node)
    if sym is None or sym.kind == SymbolKind.BUILTIN:
        if (md := macro_markdown(view, name, node.start_byte)) is not None:
            return HoverResult(md, node.start_byte, node.end_byte)
        if (v := target.predefined_macros().get(name)) is not None:
            return HoverResult(f"```c\n#define {name} {v}\n```\n*predefined for `{target.describe()}`*",
                               node.start_byte, node.end_byte)
        return hover(tree, src, offset, target)
    typed = node.parent if node.type == "field_identifier" and node.parent is not None \
        and node.parent.type == "field_expression" else node
    t = m.type_of(typed) if typed.type != "type_identifier" else Unknown(name)
    if isinstance(t, Unknown):
        t = sym.type
    return HoverResult(symbol_markdown(src, sym, t, target), node.start_byte, node.end_byte)


_ = AddressSpace
