"""CL6xx: pyopencl calls checked against the kernels the program defines, only where the
source shows both (a program bound once to a name, built from a literal we read whole).

    prg = cl.Program(ctx, SRC).build()
    prg.add(queue, (n,), None, a_buf, b_buf)       # CL601 when 'add' takes another count
    knl = prg.add; knl(queue, (n,), None, ...)     # the same through a name bound once
    prg.ad(queue, (n,), None, ...)                 # CL602: the program defines no 'ad'
    prg.add(queue, (n,), None, a_buf, 2.0)         # CL603: a Python float for 'float s'
    prg.add(queue, (n,), None, np.zeros(n), s)     # CL604: an array for '__global float *a'
    prg.add(queue, (n,), (8, 8), a_buf, s)         # CL605: 2 local dimensions, 1 global
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from tree_sitter import Node

from cllint.analysis.records import replace
from cllint.analysis.diagnostics import Applicability, Diagnostic, Edit, Fix, Note, Severity, Span
from cllint.analysis.model.walk import nodes_of_kinds
from cllint.grammar import parse

from .host_args import NUMPY_FOR, HostValue, KernelParam, NumpyNames, ParamKind, ValueKind, host_value, \
    kernel_param, numpy_names
from .kernel import HostKernel
from .python_host import parse_python, walk

# pyopencl.Program's own attributes: `prg.build(...)` is no kernel lookup.
PROGRAM_ATTRIBUTES = frozenset({
    "build", "compile", "get_info", "get_build_info", "all_kernels", "int_ptr", "from_int_ptr",
    "kernel_names", "set_specialization_constant", "link", "create_with_built_in_kernels",
    "reference_count", "context", "num_devices", "devices", "source", "binary_sizes", "binaries",
    "num_kernels", "il", "scope_global_ctors_present", "scope_global_dtors_present",
})
_CONDITIONALS = ("preproc_if", "preproc_ifdef", "preproc_elif", "preproc_else", "preproc_elifdef")
_PROGRAM_KINDS = frozenset({*_CONDITIONALS, "preproc_function_def", "function_definition"})
_QUEUE_GLOBAL_LOCAL = 3  # Kernel.__call__(queue, global_size, local_size, *args, ...)
# After the kernel's arguments the call takes global_offset, g_times_l, allow_empty_ndrange and
# wait_for positionally too (pyopencl/invoker.py): only more than that is surely too many.
_LAUNCH_OPTIONS = 4


@dataclass(frozen=True)
class KernelSignature:
    name: str
    params: int
    name_span: tuple[int, int] | None  # host range of the kernel's name
    parameters: tuple[KernelParam, ...] = ()


@dataclass(frozen=True)
class ProgramKernels:
    kernels: dict[str, KernelSignature]
    complete: bool  # False when macros, includes or #if could add or hide kernels


def program_kernels(kernel: HostKernel) -> ProgramKernels:
    tree = parse(kernel.source)
    found: dict[str, KernelSignature] = {}
    complete = b"#include" not in kernel.source and not tree.root_node.has_error
    # One query for the few kinds read, not a Python walk of every node (80 ms per keystroke
    # on a 1,100-line kernel in the editor).
    for node in nodes_of_kinds(tree.root_node, _PROGRAM_KINDS):
        if node.type in _CONDITIONALS or node.type == "preproc_function_def":
            complete = False
        if node.type != "function_definition" or not any(c.type == "kernel_specifier" for c in node.children):
            continue
        if any(a.type in _CONDITIONALS for a in _ancestors(node)):
            complete = False
            continue
        signature = _signature(node, kernel)
        if signature is None or signature.name in found:
            complete = False
            continue
        found[signature.name] = signature
    return ProgramKernels(found, complete)


def _ancestors(node: Node) -> list[Node]:
    out = []
    while node.parent is not None:
        node = node.parent
        out.append(node)
    return out


def _signature(node: Node, kernel: HostKernel) -> KernelSignature | None:
    declarator = node.child_by_field_name("declarator")
    while declarator is not None and declarator.type != "function_declarator":
        declarator = declarator.child_by_field_name("declarator")
    if declarator is None:
        return None
    name = declarator.child_by_field_name("declarator")
    params = declarator.child_by_field_name("parameters")
    if name is None or name.type != "identifier" or params is None:
        return None
    decls = [p for p in params.named_children if p.type == "parameter_declaration"]
    if any(p.type not in ("parameter_declaration", "comment") for p in params.named_children):
        return None  # `...` or a macro in the list: the count is not what it looks like
    if len(decls) == 1 and (decls[0].text or b"").strip() == b"void":
        decls = []
    # a placeholder the host fills in as the name, or as a whole parameter (`(%s)` may be several)
    held = kernel.positions.has_placeholder
    if held(name.start_byte, name.end_byte) or \
            any(held(d.start_byte, d.end_byte) and d.child_by_field_name("declarator") is None for d in decls):
        return None
    return KernelSignature((name.text or b"").decode(), len(decls),
                           kernel.positions.to_host(name.start_byte, name.end_byte),
                           tuple(replace(kernel_param(d), span=kernel.positions.to_host(d.start_byte, d.end_byte))
                                 for d in decls))


def _bindings(root: Node) -> dict[str, list[Node]]:
    """Every place a name is bound (assigned, a parameter, a loop or `with` target)."""
    out: dict[str, list[Node]] = {}
    for node in walk(root):
        targets: list[Node] = []
        if node.type in ("assignment", "augmented_assignment", "for_statement", "for_in_clause"):
            left = node.child_by_field_name("left")
            targets = [left] if left is not None else []
        elif node.type in ("parameters", "lambda_parameters"):
            targets = list(node.named_children)
        elif node.type in ("as_pattern_target", "global_statement", "nonlocal_statement",
                           "import_statement", "import_from_statement"):
            targets = [node]
        elif node.type in ("named_expression", "function_definition", "class_definition"):
            name = node.child_by_field_name("name")
            targets = [name] if name is not None else []
        for target in targets:
            for ident in walk(target):
                if ident.type == "identifier":
                    value = node.child_by_field_name("right") if node.type == "assignment" and target == ident else None
                    out.setdefault((ident.text or b"").decode(), []).append(value or ident)
    return out


def check_host_calls(path: str, source: bytes, kernels: list[HostKernel]) -> list[Diagnostic]:
    programs = {name: k for k in kernels if k.origin == "program" for name in k.bound_to}
    if not programs:
        return []
    root = parse_python(source).root_node
    bindings = _bindings(root)
    # names bound once, to a program or to `prg.kernel`
    single = {name: values[0] for name, values in bindings.items() if len(values) == 1}
    signatures = {name: program_kernels(programs[name]) for name in programs if name in single}
    values = _Values(numpy_names(root), single, _converted(root, single))
    out: list[Diagnostic] = []
    for call in walk(root):
        if call.type != "call":
            continue
        fn = call.child_by_field_name("function")
        target = _kernel_target(fn, single, signatures)
        if target is None:
            continue
        program, kernel_name, name_node = target
        out.extend(_check_call(path, call, program, kernel_name, name_node, values))
    return out


@dataclass(frozen=True)
class _Values:
    """What the checks of argument values read from the whole file."""

    numpy: NumpyNames
    single: dict[str, Node]
    # kernels given `set_scalar_arg_dtypes` (pyopencl then converts Python scalars); "*": unknown
    converted: frozenset[str]


def _converted(root: Node, single: dict[str, Node]) -> frozenset[str]:
    out: set[str] = set()
    for node in walk(root):
        attribute = node.child_by_field_name("attribute") if node.type == "attribute" else None
        if attribute is None or attribute.text != b"set_scalar_arg_dtypes":
            continue
        receiver = node.child_by_field_name("object")
        if receiver is not None and receiver.type == "identifier":
            receiver = single.get((receiver.text or b"").decode())
        kernel = receiver.child_by_field_name("attribute") if receiver is not None and receiver.type == "attribute" else None
        out.add((kernel.text or b"").decode() if kernel is not None else "*")
    return frozenset(out)


def _kernel_target(fn: Node | None, single: dict[str, Node],
                   signatures: dict[str, ProgramKernels]) -> tuple[ProgramKernels, str, Node] | None:
    """(program, kernel name, the name's node) for `prg.NAME(...)` or `knl(...)` with
    `knl = prg.NAME` bound once."""
    if fn is not None and fn.type == "identifier":
        value = single.get((fn.text or b"").decode())
        if value is None or value.type != "attribute":
            return None
        fn = value
    if fn is None or fn.type != "attribute":
        return None
    obj, attr = fn.child_by_field_name("object"), fn.child_by_field_name("attribute")
    if obj is None or attr is None or obj.type != "identifier":
        return None
    program = signatures.get((obj.text or b"").decode())
    name = (attr.text or b"").decode()
    if program is None or name in PROGRAM_ATTRIBUTES or name.startswith("_"):
        return None
    return program, name, attr


def _check_call(path: str, call: Node, program: ProgramKernels, name: str, name_node: Node,
                values: _Values) -> list[Diagnostic]:
    args = call.child_by_field_name("arguments")
    if args is None or args.type != "argument_list":
        return []
    items = [a for a in args.named_children if a.type != "comment"]
    if any(a.type in ("list_splat", "dictionary_splat", "parenthesized_list_splat") for a in items):
        return []
    positional = [a for a in items if a.type != "keyword_argument"]
    if len(positional) < _QUEUE_GLOBAL_LOCAL:
        return []
    signature = program.kernels.get(name)
    if signature is None:
        if not program.complete:
            return []
        close = difflib.get_close_matches(name, list(program.kernels), n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        return [Diagnostic("CL602", Severity.ERROR, f"no kernel named '{name}' in the program{hint}",
                           Span(path, name_node.start_byte, name_node.end_byte),
                           _declared_here(path, program.kernels[close[0]]) if close else ())]
    given = len(positional) - _QUEUE_GLOBAL_LOCAL
    if signature.params <= given <= signature.params + _LAUNCH_OPTIONS:
        launch = _work_sizes(path, args, positional, given - signature.params)
        passed = positional[_QUEUE_GLOBAL_LOCAL : _QUEUE_GLOBAL_LOCAL + signature.params]
        return launch + [d for param, arg in zip(signature.parameters, passed, strict=False)
                         if (d := _check_argument(path, name, param, arg, values)) is not None]
    if given > signature.params:
        extra = positional[_QUEUE_GLOBAL_LOCAL + signature.params :]
        span = Span(path, extra[0].start_byte, extra[-1].end_byte)
        what = "many"
    else:
        closing = args.children[-1]
        span = Span(path, closing.start_byte, closing.end_byte)
        what = "few"
    message = f"too {what} arguments to kernel '{name}': expected {signature.params}, have {given}"
    return [Diagnostic("CL601", Severity.ERROR, message, span, _declared_here(path, signature))]


def _declared_here(path: str, signature: KernelSignature) -> tuple[Note, ...]:
    if signature.name_span is None:
        return ()
    return (Note(Span(path, *signature.name_span), f"kernel '{signature.name}' declared here"),)


def _check_argument(path: str, kernel: str, param: KernelParam, arg: Node, values: _Values) -> Diagnostic | None:
    """CL603 for a scalar parameter, CL604 for a pointer one, as pyopencl's set_arg fails."""
    if param.kind is ParamKind.OTHER:
        return None
    value = host_value(arg, values.numpy, values.single)
    if value is None:
        return None
    span = Span(path, arg.start_byte, arg.end_byte)
    if param.kind is ParamKind.SCALAR:
        if kernel in values.converted or "*" in values.converted or not _wrong_scalar(param, value):
            return None
        # A Python float for a `float` names the same type twice: say what pyopencl wants instead.
        why = ": pyopencl needs a sized numpy scalar here" if value.kind is ValueKind.PYTHON else ""
        return Diagnostic("CL603", Severity.ERROR, f"{_argument(value)} cannot be passed to parameter "
                          f"'{param.name}' of type '{param.type}'{_size(param.size, value)}{why}", span,
                          _param_here(path, param), fix=_numpy_fix(param, value, arg, values.numpy, span))
    # None is a NULL __global or __constant pointer (pyopencl passes it); a __local one needs a size
    wrong = value.kind is ValueKind.NUMPY_ARRAY and param.space != "__local" or \
        value.kind is ValueKind.NONE and param.space == "__local" or value.kind is ValueKind.PYTHON
    if not wrong:
        return None
    return Diagnostic("CL604", Severity.ERROR,
                      f"{_argument(value)} cannot be passed to parameter '{param.name}' of type '{param.type}'",
                      span, _param_here(path, param))


def _wrong_scalar(param: KernelParam, value: HostValue) -> bool:
    if value.kind in (ValueKind.PYTHON, ValueKind.NONE):
        return True  # pyopencl's set_arg takes no Python number and no None for a scalar
    return value.kind is ValueKind.NUMPY_SCALAR and value.size is not None and value.size != param.size


def _argument(value: HostValue) -> str:
    if value.kind is ValueKind.NONE:
        return "argument 'None'"
    if value.kind is ValueKind.PYTHON:
        return f"Python '{value.type}' argument"
    return f"argument of type '{value.type}'{_size(value.size, value)}"


def _size(size: int | None, value: HostValue) -> str:
    """The widths, when they are what differs (numpy scalars)."""
    return f" ({size} bytes)" if value.kind is ValueKind.NUMPY_SCALAR and size is not None else ""


def _param_here(path: str, param: KernelParam) -> tuple[Note, ...]:
    if param.span is None:
        return ()
    return (Note(Span(path, *param.span), f"parameter '{param.name}' declared here"),)


def _numpy_fix(param: KernelParam, value: HostValue, arg: Node, numpy: NumpyNames, span: Span) -> Fix | None:
    """`2.0` -> `np.float32(2.0)`, `np.float64(x)` -> `np.float32(x)`, for a scalar (not vector) type."""
    dtype = NUMPY_FOR.get(param.base or "")
    module = min(numpy.modules, key=len) if numpy.modules else None
    if dtype is None or module is None or value.kind is ValueKind.NONE:
        return None
    if value.kind is ValueKind.PYTHON:
        replacement = f"{module}.{dtype}({(arg.text or b'').decode()})"
    elif arg.type == "call" and (fn := arg.child_by_field_name("function")) is not None and \
            (args := arg.child_by_field_name("arguments")) is not None:
        replacement = f"{module}.{dtype}{(args.text or b'').decode()}"
    else:
        return None
    return Fix(f"Pass '{module}.{dtype}(...)'", (Edit(span, replacement),), Applicability.UNSAFE)


def _work_sizes(path: str, args: Node, positional: list[Node], options: int) -> list[Diagnostic]:
    """CL605: global and local sizes spelled as tuples or lists of different lengths."""
    if options >= 2 or any(a.type == "keyword_argument" and (a.child_by_field_name("name") or a).text == b"g_times_l"
                           for a in args.named_children):
        return []  # g_times_l multiplies the sizes: leave that form to pyopencl
    global_size, local_size = positional[1], positional[2]
    dims = [_dimensions(global_size), _dimensions(local_size)]
    if None in dims or dims[0] == dims[1]:
        return []
    message = f"local size has {dims[1]} dimension{'s' * (dims[1] != 1)} but global size has {dims[0]}"
    return [Diagnostic("CL605", Severity.ERROR, message, Span(path, local_size.start_byte, local_size.end_byte),
                       (Note(Span(path, global_size.start_byte, global_size.end_byte), "global size given here"),))]


def _dimensions(node: Node) -> int | None:
    if node.type not in ("tuple", "list"):
        return None
    items = [c for c in node.named_children if c.type != "comment"]
    if any(c.type in ("list_splat", "parenthesized_list_splat") for c in items):
        return None
    return len(items)
