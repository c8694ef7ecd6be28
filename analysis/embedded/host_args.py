"""What a pyopencl kernel call passes and what the kernel takes, where the source spells both:
the kernel's parameter types (OpenCL C) and the Python values at the call (a literal, `None`,
a numpy scalar such as `np.float32(x)`, a numpy array such as `np.zeros(n)`), for CL603-CL605.

Anything else (a variable bound twice, a typedef, `size_t`, a call we do not know) is
`None`: the checks stay silent on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from tree_sitter import Node

from .python_host import walk

# Bytes of each OpenCL C scalar type a host can pass (size_t and friends depend on the device).
_SCALAR_SIZES = {
    "char": 1, "uchar": 1, "short": 2, "ushort": 2, "half": 2,
    "int": 4, "uint": 4, "float": 4, "long": 8, "ulong": 8, "double": 8,
}
_SPELLED = {"unsigned char": "uchar", "signed char": "char", "unsigned short": "ushort",
            "unsigned int": "uint", "unsigned": "uint", "unsigned long": "ulong"}
_VECTOR_WIDTHS = (2, 3, 4, 8, 16)
# The numpy scalar type of each OpenCL C scalar type (for the fix's hint).
NUMPY_FOR = {"char": "int8", "uchar": "uint8", "short": "int16", "ushort": "uint16", "half": "float16",
             "int": "int32", "uint": "uint32", "float": "float32", "long": "int64", "ulong": "uint64",
             "double": "float64"}
# numpy scalar types whose width is the same on every platform (not int_, intp, long).
_NUMPY_SIZES = {
    "int8": 1, "uint8": 1, "byte": 1, "ubyte": 1, "bool_": 1,
    "int16": 2, "uint16": 2, "short": 2, "ushort": 2, "float16": 2, "half": 2,
    "int32": 4, "uint32": 4, "intc": 4, "uintc": 4, "float32": 4, "single": 4,
    "int64": 8, "uint64": 8, "longlong": 8, "ulonglong": 8, "float64": 8, "double": 8,
}
# numpy calls that return an array whatever their arguments are.
_ARRAY_MAKERS = frozenset({
    "zeros", "ones", "empty", "full", "array", "asarray", "ascontiguousarray", "arange",
    "linspace", "zeros_like", "ones_like", "empty_like", "full_like", "frombuffer", "fromfile",
})
_SPACES = {"__global": "__global", "global": "__global", "__constant": "__constant",
           "constant": "__constant", "__local": "__local", "local": "__local"}


class ParamKind(str, Enum):
    SCALAR = "scalar"  # a scalar or vector type of known size
    POINTER = "pointer"  # a pointer in __global, __constant or __local
    OTHER = "other"  # images, samplers, structs, typedefs, size_t: not checked


@dataclass(frozen=True)
class KernelParam:
    name: str
    type: str  # as clang prints it: 'float', '__global const float *'
    kind: ParamKind
    size: int | None = None  # bytes, for SCALAR
    space: str | None = None  # '__global', '__constant', '__local', for POINTER
    base: str | None = None  # the OpenCL C scalar type name, for SCALAR
    span: tuple[int, int] | None = None  # host range of the declaration


def kernel_param(decl: Node) -> KernelParam:
    """One `parameter_declaration` of a kernel, read as far as the checks need."""
    declarator = decl.child_by_field_name("declarator")
    type_node = decl.child_by_field_name("type")
    pointers = 0
    while declarator is not None and declarator.type == "pointer_declarator":
        pointers += 1
        declarator = declarator.child_by_field_name("declarator")
    name = (declarator.text or b"").decode() if declarator is not None and declarator.type == "identifier" else ""
    if type_node is None or declarator is None or declarator.type != "identifier":
        return KernelParam(name, "", ParamKind.OTHER)
    type_text = " ".join((type_node.text or b"").decode().split())
    qualifiers = [q for q in decl.children if q.type == "type_qualifier"]
    space = next((_SPACES.get((q.text or b"").decode()) for q in qualifiers
                  if any(c.type == "address_space_qualifier" for c in q.children)), None)
    others = [(q.text or b"").decode() for q in qualifiers if not any(c.type == "address_space_qualifier" for c in q.children)]
    if pointers == 1 and space is not None:
        rendered = " ".join([space, *others, type_text]) + " *"
        return KernelParam(name, rendered, ParamKind.POINTER, space=space)
    base, size = _scalar_size(type_text)
    if pointers or space is not None or size is None or type_node.type not in ("primitive_type", "sized_type_specifier"):
        return KernelParam(name, type_text, ParamKind.OTHER)
    return KernelParam(name, type_text, ParamKind.SCALAR, size=size, base=base)


def _scalar_size(type_text: str) -> tuple[str | None, int | None]:
    name = _SPELLED.get(type_text, type_text)
    if name in _SCALAR_SIZES:
        return name, _SCALAR_SIZES[name]
    for width in _VECTOR_WIDTHS:
        base = name[: -len(str(width))]
        if name.endswith(str(width)) and base in _SCALAR_SIZES:
            return None, _SCALAR_SIZES[base] * (4 if width == 3 else width)
    return None, None


class ValueKind(str, Enum):
    PYTHON = "python"  # an int, float or bool literal
    NONE = "none"
    NUMPY_SCALAR = "numpy scalar"
    NUMPY_ARRAY = "numpy array"


@dataclass(frozen=True)
class HostValue:
    kind: ValueKind
    type: str  # 'int', 'float', 'bool', 'None', 'np.float64', 'numpy.ndarray'
    size: int | None = None  # bytes, for NUMPY_SCALAR


@dataclass
class NumpyNames:
    """How the file spells numpy: module aliases and names imported from it."""

    modules: set[str]
    scalars: dict[str, str]  # local name -> numpy scalar type (`from numpy import float32`)


def numpy_names(root: Node) -> NumpyNames:
    out = NumpyNames(set(), {})
    for node in walk(root):
        if node.type == "import_statement":
            for name in node.children_by_field_name("name"):
                dotted = name.child_by_field_name("name") if name.type == "aliased_import" else name
                alias = name.child_by_field_name("alias") if name.type == "aliased_import" else None
                if dotted is not None and dotted.text == b"numpy":
                    out.modules.add((alias.text or b"").decode() if alias else "numpy")
        elif node.type == "import_from_statement":
            module = node.child_by_field_name("module_name")
            if module is None or module.text != b"numpy":
                continue
            for name in node.children_by_field_name("name"):
                dotted = name.child_by_field_name("name") if name.type == "aliased_import" else name
                alias = name.child_by_field_name("alias") if name.type == "aliased_import" else None
                text = (dotted.text or b"").decode() if dotted else ""
                if text in _NUMPY_SIZES:
                    out.scalars[(alias.text or b"").decode() if alias else text] = text
    return out


def host_value(node: Node, numpy: NumpyNames, single: dict[str, Node], depth: int = 0) -> HostValue | None:
    """What the expression at a call passes, or None when the source does not show it."""
    if node.type == "parenthesized_expression" and node.named_child_count == 1:
        return host_value(node.named_children[0], numpy, single, depth)
    if node.type in ("integer", "float", "true", "false"):
        return HostValue(ValueKind.PYTHON, {"integer": "int", "float": "float"}.get(node.type, "bool"))
    if node.type == "unary_operator" and node.named_child_count == 1 and \
            node.named_children[0].type in ("integer", "float") and node.children[0].type in ("-", "+"):
        return host_value(node.named_children[0], numpy, single, depth)
    if node.type == "none":
        return HostValue(ValueKind.NONE, "None")
    if node.type == "identifier" and depth < 3:
        value = single.get((node.text or b"").decode())
        # a parameter or loop target is bound to its own identifier: nothing we can read
        if value is None or value.type == "identifier" and value.text == node.text:
            return None
        return host_value(value, numpy, single, depth + 1)
    if node.type == "call":
        return _call_value(node, numpy, single, depth)
    return None


def _call_value(call: Node, numpy: NumpyNames, single: dict[str, Node], depth: int) -> HostValue | None:
    fn = call.child_by_field_name("function")
    args = call.child_by_field_name("arguments")
    if fn is None or args is None or args.type != "argument_list":
        return None
    text = (fn.text or b"").decode()
    head, _, last = text.rpartition(".")
    positional = [a for a in args.named_children if a.type not in ("keyword_argument", "comment")]
    if fn.type == "attribute" and last == "astype":  # `np.random.rand(n).astype(np.float32)`
        obj = fn.child_by_field_name("object")
        inner = host_value(obj, numpy, single, depth) if obj is not None else None
        return HostValue(ValueKind.NUMPY_ARRAY, "numpy.ndarray") if inner and inner.kind is ValueKind.NUMPY_ARRAY else None
    scalar = numpy.scalars.get(text) if fn.type == "identifier" else \
        (last if head in numpy.modules and last in _NUMPY_SIZES else None)
    if scalar is not None:
        # `np.float32(x)` of an array is an array: only one plain value makes a scalar
        if len(positional) != 1 or len(positional) != args.named_child_count or \
                positional[0].type in ("list", "tuple", "list_comprehension", "call"):
            return None
        return HostValue(ValueKind.NUMPY_SCALAR, text, _NUMPY_SIZES[scalar])
    if head in numpy.modules and last in _ARRAY_MAKERS or \
            head in {f"{m}.random" for m in numpy.modules} and last in ("rand", "randn") and positional:
        return HostValue(ValueKind.NUMPY_ARRAY, "numpy.ndarray")
    return None
