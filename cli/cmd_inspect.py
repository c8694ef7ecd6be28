"""`cllint inspect FILE`: print the semantic model of one file, for debugging and tests.

--symbols     functions (kernels, parameters, locals), program-scope variables, typedefs, tags
--types       the type of every declaration and expression statement, address spaces included
--conditions  the preprocessor's conditional regions and whether each is active for the target
With none of them, all three are printed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from cllint.analysis.model import SemanticModel, Symbol
from cllint.analysis.model.decls import text
from cllint.analysis.syntax import parse, walk
from cllint.analysis.target import Target, TargetError

STDS = ["CL1.0", "CL1.1", "CL1.2", "CL2.0", "CL3.0", "CL3.0-all"]


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("inspect", help="print the semantic model of a file (debugging)",
                              description="Print the symbols, types and preprocessor conditions that "
                                          "cllint sees in an OpenCL C file.")
    p.add_argument("file", metavar="FILE", help="an OpenCL C source file, or - for stdin")
    p.add_argument("--symbols", action="store_true", help="print symbols and scopes")
    p.add_argument("--types", action="store_true", help="print declaration and expression types")
    p.add_argument("--conditions", action="store_true", help="print preprocessor conditions")
    p.add_argument("--std", choices=STDS, default="CL1.2", help="OpenCL C version (default CL1.2)")
    p.add_argument("--target", help="a target preset or override string (wins over --std)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cllint.cli.main import UsageError

    try:
        target = Target.preset(args.target or args.std)
    except TargetError as exc:
        raise UsageError(str(exc)) from None
    if args.file == "-":
        source, name = sys.stdin.buffer.read(), "<stdin>"
    else:
        path = Path(args.file)
        try:
            source, name = path.read_bytes(), args.file
        except OSError as exc:
            raise UsageError(f"cannot read '{args.file}': {exc.strerror}") from None
    everything = not (args.symbols or args.types or args.conditions)
    view = _view(name, source, target)
    model = SemanticModel(parse(source), source, target, _expander(view))
    out: list[str] = [f"# {name} (target {target.name})"]
    if args.symbols or everything:
        out += ["", "symbols:", *dump_symbols(model)]
    if args.types or everything:
        out += ["", "types:", *dump_types(model)]
    if args.conditions or everything:
        out += ["", "conditions:", *dump_conditions(view, source)]
    sys.stdout.write("\n".join(out) + "\n")
    return 0


# -- preprocessor (optional: another layer, absent in older checkouts) ----------------------


def _view(name: str, source: bytes, target: Target) -> object | None:
    try:
        from cllint.analysis.preprocessor.view import build_view
    except ImportError:
        return None
    try:
        return build_view(name, source, target=target)
    except Exception:  # noqa: BLE001 - a debugging dump should still show the model
        return None


def _expander(view: object | None) -> Callable[[str, int], str | None] | None:
    fn = getattr(view, "expand_type_macro", None)
    return fn if callable(fn) else None


def dump_conditions(view: object | None, source: bytes) -> list[str]:
    regions = getattr(view, "regions", None)
    if view is None or regions is None:
        return ["  not available"]
    out = []
    for start, end, branch in regions:
        conds = getattr(branch, "conditions", [])
        if not conds:
            continue
        active = {True: "active", False: "inactive", None: "unknown"}[getattr(branch, "active", None)]
        cond = " && ".join(f"({c})" for c in conds)
        out.append(f"  {_pos(source, start)}-{_pos(source, end)} {active}: {cond}")
    return out or ["  (no conditional regions)"]


# -- symbols -------------------------------------------------------------------------------


def _pos(source: bytes, offset: int) -> str:
    line = source.count(b"\n", 0, offset) + 1
    col = offset - (source.rfind(b"\n", 0, offset) + 1) + 1
    return f"{line}:{col}"


def _where(model: SemanticModel, sym: Symbol) -> str:
    return _pos(model.source, sym.offset) if sym.node is not None else "-"


def _space(sym: Symbol) -> str:
    if sym.space is None:
        return ""
    return f" in {sym.space.spelling}{'' if sym.space_explicit else ' (inferred)'}"


def dump_symbols(model: SemanticModel) -> list[str]:
    out: list[str] = []
    for name, info in model.functions.items():
        kind = "kernel" if info.is_kernel else "function"
        how = "defined" if info.definition is not None else "declared"
        attrs = "".join(f" {a.name}({', '.join(a.args)})" for a in info.attributes)
        out.append(f"  {kind} {name}: {info.type.render()} [{how}, {len(info.prototypes)} prototype(s),"
                   f" {len(model.call_sites(name))} call(s)]{attrs} @{_where(model, info.symbol)}")
        fm = model.function(name)
        params = fm.params if fm is not None else list(info.params)
        for p in params:
            out.append(f"    parameter {p.name}: {p.type.render()}{_space(p)} @{_where(model, p)}")
        for local in fm.locals if fm is not None else []:
            storage = "".join(f" {s}" for s in sorted(local.storage))
            out.append(f"    local {local.name}: {local.type.render()}{_space(local)}{storage}"
                       f" @{_where(model, local)}")
    for name, g in model.globals.items():
        storage = "".join(f" {s}" for s in sorted(g.storage))
        out.append(f"  global {name}: {g.type.render()}{_space(g)}{storage} @{_where(model, g)}")
    for name, t in model.typedefs.items():
        out.append(f"  typedef {name} = {t.type.render()}{_space(t)} @{_where(model, t)}")
    for name, t in model.tags.items():
        fields = getattr(t.type, "fields", None)
        body = ""
        if fields is not None:
            body = " { " + "; ".join(f"{f.type.render()} {f.name}" for f in fields) + " }"
        out.append(f"  {t.kind.value} {name}{body} @{_where(model, t)}")
    for name, e in model.index.enumerators.items():
        out.append(f"  enumerator {name}: {e.type.render()} @{_where(model, e)}")
    return out or ["  (none)"]


# -- types ---------------------------------------------------------------------------------


def dump_types(model: SemanticModel) -> list[str]:
    out: list[str] = []
    src = model.source
    for node in walk(model.tree.root_node):
        if node.type == "expression_statement" and node.named_children:
            expr = node.named_children[0]
            snippet = " ".join(text(src, expr).split())[:60]
            out.append(f"  {_pos(src, expr.start_byte)} expr `{snippet}`: {model.type_of(expr).render()}")
        elif node.type in ("declaration", "parameter_declaration") or (
                node.type == "function_definition"):
            for ref in _declared_names(node):
                sym = model.resolve(ref)
                if sym is None:
                    continue
                out.append(f"  {_pos(src, ref.start_byte)} {sym.kind.value} {sym.name}: "
                           f"{sym.type.render()}{_space(sym)}")
                init = _init_of(ref)
                if init is not None:
                    snippet = " ".join(text(src, init).split())[:60]
                    out.append(f"  {_pos(src, init.start_byte)} init `{snippet}`: {model.type_of(init).render()}")
    return out or ["  (none)"]


def _declared_names(node):  # noqa: ANN001, ANN202
    """Name nodes of the declarators directly in `node` (not in nested bodies)."""
    stack = [c for i, c in enumerate(node.children) if node.field_name_for_child(i) == "declarator"][::-1]
    while stack:
        n = stack.pop()
        if n.type == "identifier":
            yield n
            continue
        if n.type in ("parameter_list", "compound_statement", "initializer_list", "argument_list"):
            continue
        stack.extend(reversed([c for i, c in enumerate(n.children) if n.field_name_for_child(i) == "declarator"]))


def _init_of(name):  # noqa: ANN001, ANN202
    n = name.parent
    while n is not None and n.type not in ("declaration", "init_declarator"):
        n = n.parent
    if n is not None and n.type == "init_declarator":
        return n.child_by_field_name("value")
    return None
