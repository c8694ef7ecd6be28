"""Kernels in C and C++ host code, found with tree-sitter-cpp: string literals (raw or
ordinary, concatenated) passed to `clCreateProgramWithSource` or `cl::Program` (and
`cl::Program::Sources`), directly or through a variable initialised with one, and any
literal with `// cllint: opencl` on the line before it."""

from __future__ import annotations

import re

from functools import cache

from tree_sitter import Language, Node, Parser, Tree

from .kernel import HostKernel
from .literals import Unmappable, c_string
from .posmap import KernelBuilder
from .python_host import marked_line_before, walk

_STRINGS = ("string_literal", "raw_string_literal", "concatenated_string")
_CREATE = "clCreateProgramWithSource"
_WRAPPERS = ("Program", "Sources")  # cl::Program(ctx, src), cl::Program::Sources{src}
_WRAPPER_TYPE_NODES = ("qualified_identifier", "type_identifier", "template_type")


@cache
def _language() -> Language:
    import tree_sitter_cpp

    return Language(tree_sitter_cpp.language())


def parse_cpp(source: bytes) -> Tree:
    return Parser(_language()).parse(source)


def _is_wrapper(type_node: Node | None) -> bool:
    if type_node is None or type_node.type not in _WRAPPER_TYPE_NODES:
        return False
    text = (type_node.text or b"").decode().replace(" ", "")
    return text.startswith("cl::") and text.rsplit("::", 1)[-1].split("<")[0] in _WRAPPERS


class CppFinder:
    def __init__(self, source: bytes):
        self.source = source
        self.tree = parse_cpp(source)
        self.literals: dict[str, list[Node]] = {}
        for node in walk(self.tree.root_node):
            if node.type == "init_declarator":
                name = _declared_name(node.child_by_field_name("declarator"))
                value = node.child_by_field_name("value")
                if name and value is not None:
                    if value.type == "initializer_list" and any(
                            c.type not in _STRINGS for c in value.named_children if c.type != "comment"):
                        continue  # `{cond ? "float" : "double", "...", ...}`: pieces of one program, some computed
                    for literal in _strings_in(value, deep=value.type == "initializer_list"):
                        self.literals.setdefault(name, []).append(literal)

    def kernels(self) -> list[HostKernel]:
        chosen: dict[tuple[int, int], tuple[Node, str]] = {}
        for node in walk(self.tree.root_node):
            for literal in self._sources_of(node):
                chosen.setdefault((literal.start_byte, literal.end_byte), (literal, "program"))
            if node.type in _STRINGS and (node.parent is None or node.parent.type != "concatenated_string"):
                if self._marked(node):
                    chosen.setdefault((node.start_byte, node.end_byte), (node, "marker"))
        out = []
        for literal, origin in sorted(chosen.values(), key=lambda v: v[0].start_byte):
            b = KernelBuilder()
            try:
                c_string(b, literal, self.source)
            except Unmappable:
                continue
            text, positions = b.build()
            if not _LOOKS_LIKE_CODE.search(text):
                continue  # a title or a file name, not program text (no `;`, `{`, `}` or directive)
            out.append(HostKernel(text, positions, (literal.start_byte, literal.end_byte), origin))
        return out

    def _sources_of(self, node: Node) -> list[Node]:
        """The literals a program-creating call or declaration reads its source from."""
        args: list[Node] = []
        if node.type == "call_expression":
            fn = node.child_by_field_name("function")
            arguments = node.child_by_field_name("arguments")
            if fn is None or arguments is None:
                return []
            if fn.type == "identifier" and fn.text == _CREATE.encode():
                if arguments.named_child_count >= 3:
                    args = [arguments.named_children[2]]
            elif _is_wrapper(fn):
                args = arguments.named_children
        elif node.type == "declaration" and _is_wrapper(node.child_by_field_name("type")):
            for declarator in node.children_by_field_name("declarator"):
                value = declarator.child_by_field_name("value")  # cl::Program p(ctx, src) / {src}
                if value is not None and value.type in ("argument_list", "initializer_list"):
                    args.extend(value.named_children)
                elif value is not None:  # `cl::Program p = make(ctx, "title")`: the call's own business
                    args.append(value)
                elif declarator.type == "function_declarator":  # read as a function declaration
                    params = declarator.child_by_field_name("parameters")
                    args.extend(p.child_by_field_name("type") or p for p in (params.named_children if params else []))
        elif node.type == "new_expression" and _is_wrapper(node.child_by_field_name("type")):
            arguments = node.child_by_field_name("arguments")
            args = arguments.named_children if arguments is not None else []
        out: list[Node] = []
        for arg in args:
            out.extend(_strings_in(arg, deep=True))
            for ident in _names_in(arg):
                out.extend(self._latest(ident, node.start_byte))
        return out

    def _latest(self, name: str, before: int) -> list[Node]:
        values = self.literals.get(name, [])
        earlier = [v for v in values if v.start_byte < before]
        return [(earlier or values)[-1]] if values else []

    def _marked(self, node: Node) -> bool:
        statement = node
        while statement.parent is not None and statement.parent.type not in (
                "translation_unit", "compound_statement", "declaration_list", "field_declaration_list"):
            statement = statement.parent
        return marked_line_before(self.source, node.start_byte, b"//") or \
            marked_line_before(self.source, statement.start_byte, b"//")


_LOOKS_LIKE_CODE = re.compile(rb"[;{}]|^[ \t]*#", re.M)


def _declared_name(node: Node | None) -> str | None:
    while node is not None and node.type in ("pointer_declarator", "array_declarator", "reference_declarator",
                                             "init_declarator", "parenthesized_declarator"):
        node = node.child_by_field_name("declarator") or (node.named_children[-1] if node.named_children else None)
    if node is not None and node.type == "identifier":
        return (node.text or b"").decode()
    return None


# Expressions that pass a literal on as the program's source; a call's arguments are not
# (`cl::Program(ctx, loadProgram("vadd.cl"))` reads a file named by the literal).
_PASSES_ON = ("initializer_list", "parenthesized_expression", "cast_expression", "pointer_expression",
              "compound_literal_expression", "initializer_pair", "argument_list")


def _strings_in(node: Node, deep: bool) -> list[Node]:
    """The node itself when it is a literal, or (deep) the literals it passes on."""
    if node.type in _STRINGS:
        return [node]
    if not deep or node.type not in _PASSES_ON:
        return []
    out = []
    for child in node.named_children:
        out.extend(_strings_in(child, deep))
    return out


def _names_in(node: Node) -> list[str]:
    """Identifiers an argument reads (`src`, `&src`, `(const char **)&src`, `{src}`)."""
    if node.type in ("identifier", "type_identifier"):
        return [(node.text or b"").decode()]
    if node.type in ("pointer_expression", "cast_expression", "parenthesized_expression", "initializer_list",
                     "argument_list", "call_expression", "field_expression", "compound_literal_expression"):
        out: list[str] = []
        for child in node.named_children:
            if child.type not in ("type_descriptor",):
                out.extend(_names_in(child))
        return out
    return []


def find_cpp_kernels(source: bytes) -> list[HostKernel]:
    return CppFinder(source).kernels()
