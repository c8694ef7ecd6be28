"""Kernels in Python host code, found with tree-sitter-python: `cl.Program(ctx, SRC)` with a
literal or a name assigned one, the snippets of ElementwiseKernel / ReductionKernel /
GenericScanKernel, and any string with `# cllint: opencl` on the line before it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache

from tree_sitter import Language, Node, Parser, Tree

from . import pyopencl_templates as templates
from .expansion import CannotExpand, expansion_for
from .kernel import HostKernel
from .literals import Unmappable, python_string
from .posmap import KernelBuilder
from .placeholders import Mode

MARKER_WORD = re.compile(rb"cllint:\s*opencl\b")
IMPORTS_PYOPENCL = re.compile(rb"^\s*(?:import|from)\s+pyopencl\b", re.MULTILINE)
_STRINGS = ("string", "concatenated_string")
_LIBRARY = {"Program", "ElementwiseKernel", "ReductionKernel", "GenericScanKernel"}


@cache
def _language() -> Language:
    import tree_sitter_python

    return Language(tree_sitter_python.language())


def parse_python(source: bytes) -> Tree:
    return Parser(_language()).parse(source)


def marked_line_before(source: bytes, offset: int, comment: bytes) -> bool:
    """True when the line before the one holding `offset` is a comment with the marker."""
    line_start = source.rfind(b"\n", 0, offset) + 1
    if line_start == 0:
        return False
    prev_start = source.rfind(b"\n", 0, line_start - 1) + 1
    previous = source[prev_start:line_start].strip()
    return previous.startswith(comment) and b"cllint:" in previous and MARKER_WORD.search(previous) is not None


def imports_pyopencl(source: bytes) -> bool:
    return IMPORTS_PYOPENCL.search(source) is not None


@dataclass
class _Module:
    """What the finder knows about names in one Python file."""

    source: bytes
    aliases: set[str] = field(default_factory=set)  # names bound to pyopencl or a submodule
    imported: dict[str, str] = field(default_factory=dict)  # local name -> pyopencl class
    literals: dict[str, list[Node]] = field(default_factory=dict)  # name -> values assigned
    # name -> where it is assigned something else (a call, an attribute): within a function,
    # the literal an earlier method assigned is not its value
    computed: dict[str, list[int]] = field(default_factory=dict)


def walk(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.children))


def _read_imports(root: Node, mod: _Module) -> None:
    for node in walk(root):
        if node.type == "import_statement":
            for name in node.children_by_field_name("name"):
                dotted = name.child_by_field_name("name") if name.type == "aliased_import" else name
                alias = name.child_by_field_name("alias") if name.type == "aliased_import" else None
                text = (dotted.text or b"").decode() if dotted else ""
                if text.split(".")[0] == "pyopencl":
                    mod.aliases.add((alias.text or b"").decode() if alias else text)
        elif node.type == "import_from_statement":
            module = node.child_by_field_name("module_name")
            if module is None or not (module.text or b"").decode().startswith("pyopencl"):
                continue
            for name in node.children_by_field_name("name"):
                dotted = name.child_by_field_name("name") if name.type == "aliased_import" else name
                alias = name.child_by_field_name("alias") if name.type == "aliased_import" else None
                text = (dotted.text or b"").decode() if dotted else ""
                local = (alias.text or b"").decode() if alias else text
                if text in _LIBRARY:
                    mod.imported[local] = text
                else:  # `from pyopencl import array as cl_array`
                    mod.aliases.add(local)


def _read_assignments(root: Node, mod: _Module) -> None:
    for node in walk(root):
        if node.type != "assignment":
            continue
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None or left.type != "identifier":
            continue
        name = (left.text or b"").decode()
        if (_text_value(right)[0] or right).type in _STRINGS or _strings(right):
            mod.literals.setdefault(name, []).append(right)
        elif left.text not in (right.text or b""):  # (not `src = src.replace(...)`: still that text)
            mod.computed.setdefault(name, []).append(right.start_byte)


_SEQUENCES = ("expression_list", "tuple", "list")


def _strings(node: Node) -> list[Node]:
    """The string literals a tuple or list of them holds (pyopencl joins an argument list given
    so with commas); [] for anything else."""
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    items = node.named_children if node.type in _SEQUENCES else []
    return items if items and all(i.type in _STRINGS for i in items) else []


def _function_of(node: Node) -> tuple[int, int]:
    """The byte range of the function definition holding `node` (the module's if none)."""
    n = node.parent
    while n is not None and n.type != "function_definition":
        n = n.parent
    return (n.start_byte, n.end_byte) if n is not None else (0, 1 << 62)


def _text_value(node: Node) -> tuple[Node | None, Mode, Node | None]:
    """The string literal an expression is, or formats (`"..." % x`, `"...".format(x)`), and
    the node holding the format's arguments."""
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    if node.type in _STRINGS or node.type == "identifier":
        return node, Mode.PLAIN, None
    if node.type == "binary_operator" and node.child_by_field_name("operator") is not None:
        op = node.child_by_field_name("operator")
        left = node.child_by_field_name("left")
        if op is not None and op.type == "%" and left is not None:
            inner, inner_mode, _ = _text_value(left)
            # `("..." % a) % b` formats twice: neither is expanded
            return inner, Mode.PERCENT, node.child_by_field_name("right") if inner_mode is Mode.PLAIN else None
    if node.type == "call":
        fn = node.child_by_field_name("function")
        if fn is not None and fn.type == "attribute":
            obj, attr = fn.child_by_field_name("object"), fn.child_by_field_name("attribute")
            if obj is not None and attr is not None and attr.text == b"format":
                inner, inner_mode, _ = _text_value(obj)
                return inner, Mode.FORMAT, node.child_by_field_name("arguments") if inner_mode is Mode.PLAIN else None
    return None, Mode.PLAIN, None


def _class_of(call: Node, mod: _Module) -> str | None:
    """Which pyopencl class a call constructs (`cl.Program`, `pyopencl.elementwise.X`, `X`)."""
    fn = call.child_by_field_name("function")
    if fn is None:
        return None
    text = (fn.text or b"").decode()
    if fn.type == "identifier":
        return mod.imported.get(text)
    if fn.type == "attribute":
        head, _, last = text.rpartition(".")
        if last in _LIBRARY and head.split(".")[0] in mod.aliases:
            return last
    return None


def _bind(call: Node, params: list[str]) -> dict[str, Node]:
    """Arguments by parameter name, positional then keyword (None where `*args` hides them)."""
    args = call.child_by_field_name("arguments")
    out: dict[str, Node] = {}
    if args is None:
        return out
    position = 0
    for arg in args.named_children:
        if arg.type == "keyword_argument":
            name, value = arg.child_by_field_name("name"), arg.child_by_field_name("value")
            if name is not None and value is not None:
                out[(name.text or b"").decode()] = value
        elif arg.type in ("list_splat", "dictionary_splat"):
            return {}
        elif arg.type != "comment":
            if position < len(params):
                out[params[position]] = arg
            position += 1
    return out


class PythonFinder:
    def __init__(self, source: bytes):
        self.source = source
        self.tree = parse_python(source)
        self.mod = _Module(source)
        root = self.tree.root_node
        _read_imports(root, self.mod)
        _read_assignments(root, self.mod)

    # -- resolving strings

    def _resolve(self, node: Node, before: int) -> tuple[Node | None, Mode, Node | None]:
        """A literal, or the literal last assigned to a name before `before` (or anywhere),
        with its format mode and arguments."""
        literal, mode, args = _text_value(node)
        if literal is None or literal.type != "identifier":
            return literal, mode, args
        name = (literal.text or b"").decode()
        values = self.mod.literals.get(name, [])
        if not values:
            return None, Mode.PLAIN, None
        earlier = [v for v in values if v.start_byte < before]
        lo, hi = _function_of(node)
        mine = [v for v in earlier if lo <= v.start_byte < hi]
        computed = [at for at in self.mod.computed.get(name, ()) if lo <= at < before]
        if computed and (not mine or computed[-1] > mine[-1].start_byte):
            return None, Mode.PLAIN, None  # the function computes the value last: not a literal
        earlier = mine or earlier
        chosen = (earlier or values)[-1]
        if _strings(chosen):
            return chosen, Mode.PLAIN, None
        value, assigned_mode, assigned_args = _text_value(chosen)
        # `SRC % args` where SRC = "...": the operator's; `SRC = "..." % args`: the assignment's
        if mode is Mode.PLAIN:
            return value, assigned_mode, assigned_args
        return value, mode, args if assigned_mode is Mode.PLAIN else None

    def _text(self, literal: Node, mode: Mode, args: Node | None) -> KernelBuilder:
        """The literal's kernel text: expanded where its arguments are literals and the result
        is the string Python computes, with neutral placeholders otherwise."""
        expansion = expansion_for(literal, mode, args)
        if expansion is not None:
            b = KernelBuilder()
            try:
                python_string(b, literal, self.source, mode, expansion)
                if b.text_since(0) == expansion.expected:
                    return b
            except (CannotExpand, Unmappable):
                pass
        b = KernelBuilder()
        python_string(b, literal, self.source, mode)
        return b

    def _piece(self, node: Node | None, before: int) -> templates.Piece | None:
        if node is None:
            return None
        if node.type == "list" and node.named_child_count == 0:  # `arguments=[]`
            return lambda b: None
        literal, mode, args = self._resolve(node, before)
        if literal is None:
            raise Unmappable("not a literal")
        if items := _strings(literal):  # `("__global int *a", "int n")`: joined with commas
            joined = KernelBuilder()
            for k, item in enumerate(items):
                if k:
                    joined.synthetic(", ")
                joined.extend(self._text(item, Mode.PLAIN, None))
            return lambda b: b.extend(joined)
        text = self._text(literal, mode, args)
        return lambda b: b.extend(text)

    # -- the finders

    def kernels(self) -> list[HostKernel]:
        out: list[HostKernel] = []
        seen: set[tuple[int, int]] = set()
        for node in walk(self.tree.root_node):
            if node.type == "call":
                kind = _class_of(node, self.mod)
                if kind is None:
                    continue
                try:
                    found = self._library_kernel(kind, node)
                except Unmappable:
                    continue
                if found is not None and found.anchor not in seen:
                    seen.add(found.anchor)
                    out.append(found)
            elif node.type in _STRINGS and self._marked(node):
                try:
                    found = self._program(node, node, "marker")
                except Unmappable:
                    continue
                if found is not None and found.anchor not in seen:
                    seen.add(found.anchor)
                    out.append(found)
        return out

    def _marked(self, node: Node) -> bool:
        """`# cllint: opencl` alone on the line before the string or its statement."""
        if node.parent is not None and node.parent.type == "concatenated_string":
            return False
        statement = node
        while statement.parent is not None and statement.parent.type not in ("module", "block"):
            statement = statement.parent
        return marked_line_before(self.source, node.start_byte, b"#") or \
            marked_line_before(self.source, statement.start_byte, b"#")

    def _program(self, value: Node, call: Node, origin: str) -> HostKernel | None:
        literal, mode, args = self._resolve(value, call.start_byte)
        if literal is None:
            return None
        text, positions = self._text(literal, mode, args).build()
        return HostKernel(text, positions, (literal.start_byte, literal.end_byte), origin,
                          self._bound_names(call) if origin == "program" else ())

    def _bound_names(self, call: Node) -> tuple[str, ...]:
        """`prg = cl.Program(...).build()`: the names the built program is assigned to (not
        `knl = cl.Program(...).build().knl`, a kernel)."""
        node = call
        attribute = node.parent
        if attribute is not None and attribute.type == "attribute" and \
                (attribute.child_by_field_name("attribute") or attribute).text == b"build" and \
                attribute.parent is not None and attribute.parent.type == "call":
            node = attribute.parent
        parent = node.parent
        if parent is not None and parent.type == "assignment":
            left = parent.child_by_field_name("left")
            if left is not None and left.type == "identifier":
                return ((left.text or b"").decode(),)
        return ()

    def _library_kernel(self, kind: str, call: Node) -> HostKernel | None:
        at = call.start_byte
        if kind == "Program":
            args = _bind(call, ["context", "source"])
            return self._program(args["source"], call, "program") if "source" in args else None
        b = KernelBuilder()
        if kind == "ElementwiseKernel":
            a = _bind(call, ["context", "arguments", "operation", "name"])
            args, op = self._piece(a.get("arguments"), at), self._piece(a.get("operation"), at)
            if args is None or op is None:
                return None
            templates.elementwise(b, lambda k: templates.arguments(k, args), op,
                                  self._piece(a.get("preamble"), at))
            origin = "elementwise"
        elif kind == "ReductionKernel":
            a = _bind(call, ["context", "dtype_out", "neutral", "reduce_expr", "map_expr", "arguments"])
            ctype = _ctype(a.get("dtype_out"))
            pieces = [self._piece(a.get(k), at) for k in ("neutral", "reduce_expr", "map_expr", "arguments")]
            if ctype is None or any(p is None for p in pieces):
                return None  # the default map_expr reads the library's own argument
            neutral, reduce_expr, map_expr, args = pieces
            templates.reduction(b, ctype, neutral, reduce_expr, map_expr,
                                lambda k: templates.arguments(k, args), self._piece(a.get("preamble"), at))
            origin = "reduction"
        else:  # GenericScanKernel
            a = _bind(call, ["context", "dtype", "arguments", "input_expr", "scan_expr", "neutral",
                             "output_statement", "is_segment_start_expr"])
            ctype = _ctype(a.get("dtype"))
            keys = ("arguments", "input_expr", "scan_expr", "neutral", "output_statement")
            pieces = [self._piece(a.get(k), at) for k in keys]
            if ctype is None or any(p is None for p in pieces) or a.get("input_fetch_exprs"):
                return None
            args, input_expr, scan_expr, neutral, output = pieces
            templates.scan(b, ctype, lambda k: templates.arguments(k, args), input_expr, scan_expr, neutral,
                           output, self._piece(a.get("is_segment_start_expr"), at),
                           self._piece(a.get("preamble"), at))
            origin = "scan"
        text, positions = b.build()
        return HostKernel(text, positions, (call.start_byte, call.end_byte), origin)


# A dtype the source does not spell (a variable, a struct dtype): a reserved type name that
# no rule reads into, so the snippets are still checked, their member accesses included.
UNKNOWN_CTYPE = "__pyopencl_dtype"


def _ctype(node: Node | None) -> str | None:
    """`np.float32`, `numpy.dtype(np.int32)`, `"float32"` as an OpenCL C type name."""
    if node is None:
        return None
    if node.type in ("identifier", "attribute", "subscript") and \
            (node.text or b"").decode().rpartition(".")[2] not in templates.NUMPY_CTYPES:
        return UNKNOWN_CTYPE
    if node.type == "call":
        args = node.child_by_field_name("arguments")
        if args is None or args.named_child_count != 1:
            return None
        node = args.named_children[0]
    text = (node.text or b"").decode().strip("'\"")
    return templates.NUMPY_CTYPES.get(text.rpartition(".")[2])


def find_python_kernels(source: bytes) -> list[HostKernel]:
    return PythonFinder(source).kernels()
