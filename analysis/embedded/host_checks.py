"""CL6xx: pyopencl calls checked against the kernels the program defines, only where the
source shows both (a program bound once to a name, built from a literal we read whole).

    prg = cl.Program(ctx, SRC).build()
    prg.add(queue, (n,), None, a_buf, b_buf)       # CL601 when 'add' takes another count
    knl = prg.add; knl(queue, (n,), None, ...)     # the same through a name bound once
    prg.ad(queue, (n,), None, ...)                 # CL602: the program defines no 'ad'
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from tree_sitter import Node

from cllint.analysis.diagnostics import Diagnostic, Note, Severity, Span
from cllint.grammar import parse

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
_QUEUE_GLOBAL_LOCAL = 3  # Kernel.__call__(queue, global_size, local_size, *args, ...)
# After the kernel's arguments the call takes global_offset, g_times_l, allow_empty_ndrange and
# wait_for positionally too (pyopencl/invoker.py): only more than that is surely too many.
_LAUNCH_OPTIONS = 4


@dataclass(frozen=True)
class KernelSignature:
    name: str
    params: int
    name_span: tuple[int, int] | None  # host range of the kernel's name


@dataclass(frozen=True)
class ProgramKernels:
    kernels: dict[str, KernelSignature]
    complete: bool  # False when macros, includes or #if could add or hide kernels


def program_kernels(kernel: HostKernel) -> ProgramKernels:
    tree = parse(kernel.source)
    found: dict[str, KernelSignature] = {}
    complete = b"#include" not in kernel.source and not tree.root_node.has_error
    for node in walk(tree.root_node):
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
    return KernelSignature((name.text or b"").decode(), len(decls),
                           kernel.positions.to_host(name.start_byte, name.end_byte))


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
        elif node.type in ("as_pattern_target", "global_statement", "nonlocal_statement"):
            targets = [node]
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
    out: list[Diagnostic] = []
    for call in walk(root):
        if call.type != "call":
            continue
        fn = call.child_by_field_name("function")
        target = _kernel_target(fn, single, signatures)
        if target is None:
            continue
        program, kernel_name, name_node = target
        out.extend(_check_call(path, call, program, kernel_name, name_node))
    return out


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


def _check_call(path: str, call: Node, program: ProgramKernels, name: str, name_node: Node) -> list[Diagnostic]:
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
        return []
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
