"""Calls: the number of arguments to the file's own functions (CL013), and built-in calls no
overload of the catalogue accepts (CL014), with the candidates as notes.

Counted only where the file shows every argument: an argument that names a macro may expand to
several, so such calls are left alone; a function declared inside an `#if` arm may have other
parameters in the other arm. Functions of included headers count where every declaration the
headers hold (in any arm) shows the same plain parameter list (`headers.py`). Built-in argument types are judged only when each is certain.
"""

from __future__ import annotations

from bisect import bisect_left
from functools import lru_cache

from tree_sitter import Node

from cllint.analysis.catalogue import Builtin, catalogue
from cllint.analysis.model import FunctionInfo, SymbolKind
from cllint.analysis.model.overloads import parse_catalogue_type
from cllint.analysis.model.walk import nodes_of_kinds
from cllint.analysis.model.types import Array, Enum_, Function, Opaque, Pointer, Scalar, Type, Vector

from .context import Body, FileFacts, known

_MAX_CANDIDATES = 4


def arguments(call: Node) -> list[Node] | None:
    """The call's arguments; None where their number is not the file's to tell: a macro
    pack after the last one (`f(a, b EXTRA_ARGS)`) expands to more."""
    args = call.child_by_field_name("arguments")
    if args is None:
        return None
    out = [a for a in args.named_children if a.type != "comment"]
    return None if any(a.type == "macro_argument_pack" for a in out) else out


_MACRO_MARKS = frozenset({"identifier", "type_identifier", "preproc_if", "preproc_ifdef", "preproc_call"})


def _mentions_macro(body: Body, nodes: list[Node]) -> bool:
    """Whether a macro's name, a preprocessor line or a parse error stands in `nodes`. The
    body's marks are found once, by one query, and each call's arguments are a range of them:
    reading every call's arguments afresh was quadratic in the nesting (`f(f(f(...)))`)."""
    marks = body.macro_marks
    if marks is None:
        marks = body.macro_marks = _macro_marks(body)
    for n in nodes:
        if n.has_error:  # an ERROR or MISSING node under it
            return True
        i = bisect_left(marks, n.start_byte)
        if i < len(marks) and marks[i] < n.end_byte:
            return True
    return False


def _macro_marks(body: Body) -> list[int]:
    """Starts of the macro names and directives of the body: only those inside a call's
    arguments (in the block) are ever asked about. The block's identifiers and type names
    are among the nodes `_check_body` found already; a directive always starts with `#`, so
    a block without one needs no query of its own."""
    facts, text, block, found = body.facts, body.text, body.block, body.found
    if block is None or found is None or b"#" in body.source[block.start_byte:block.end_byte]:
        found = nodes_of_kinds(body.fm.node, _MACRO_MARKS, ordered=False)
    else:
        found = [n for n in found if n.type in _NAMES]
    return sorted(n.start_byte for n in found if n.type.startswith("preproc_") or facts.is_macro(text(n)))


_NAMES = frozenset({"identifier", "type_identifier"})


def check_call(body: Body, call: Node) -> None:
    fn = call.child_by_field_name("function")
    args = arguments(call)
    if fn is None or fn.type != "identifier" or args is None or call.has_error:
        return
    name = body.text(fn)
    if body.facts.is_macro(name):
        _macro_call(body, call, name)
        return
    if _mentions_macro(body, args):
        return
    sym = body.fm.refs.get(fn.id)
    if sym is None:
        _header_call(body, call, name, args)
        return
    if sym.kind is SymbolKind.FUNCTION:
        _user_call(body, call, fn, name, args)
    elif sym.kind is SymbolKind.BUILTIN:
        headers = body.facts.headers
        if headers is not None and name in headers.functions:
            return  # the headers or the sources read before define a function of this name:
            # an overload (or a replacement) of the built-in, which the call may mean
        b = catalogue().function(name)
        if b is not None:
            _builtin_call(body, call, fn, b, args)


def _macro_call(body: Body, call: Node, name: str) -> None:
    """A function-like macro invoked with the wrong number of arguments (CL005). Counted as
    the preprocessor counts them, on the text: commas outside parentheses, strings and
    comments (braces and brackets do not group), before any expansion."""
    arity = body.facts.macro_arity(name)
    view = body.facts.view
    args = call.child_by_field_name("arguments")
    if arity is None or view is None or args is None or call.has_error:
        return
    m = view.macro_at(name, call.start_byte)
    if m is None or m.params is None:
        return  # undefined here, or object-like: `M(x)` calls what M expands to
    expected, variadic = arity
    have = macro_argument_count(body.source[args.start_byte + 1:args.end_byte - 1])
    if have == expected or (variadic and have >= expected) or (expected == 1 and have == 0):
        return  # `M()` passes one empty argument
    more = "many" if have > expected else "few"
    notes = ((m.span.start, m.span.end, f"macro '{name}' defined here"),) if m.span.file == view.file_id else ()
    body.add("CL005", args.start_byte, args.end_byte, f"too {more} arguments provided to function-like macro "
             f"invocation '{name}', expected {expected}, have {have}", notes)


def macro_argument_count(text: bytes) -> int:
    """Arguments between a macro call's parentheses, as C's preprocessor splits them."""
    depth, count, i, n = 0, 1, 0, len(text)
    blank = True
    while i < n:
        c = text[i]
        if c in b"\"'":  # a string or character literal: its commas are its own
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == 92 else 1  # 92: a backslash escapes the next byte
            i, blank = j + 1, False
            continue
        if text.startswith(b"/*", i):
            end = text.find(b"*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        if text.startswith(b"//", i):
            end = text.find(b"\n", i)
            i = n if end < 0 else end
            continue
        if c == 40:  # (
            depth += 1
        elif c == 41:  # )
            depth -= 1
        elif c == 44 and depth == 0:  # ,
            count += 1
        if not chr(c).isspace():
            blank = False
        i += 1
    return 0 if blank and count == 1 else count


def _user_call(body: Body, call: Node, fn: Node, name: str, args: list[Node]) -> None:
    info = body.model.index.functions.get(name)
    if info is None or not isinstance(info.type, Function) or info.type.variadic or name in body.facts.overloaded:
        return
    if _callee_unsure(body.facts, name, info):
        return
    expected, have = len(info.params), len(args)
    if have == expected:
        return
    more = "many" if have > expected else "few"
    decl = info.symbol.node
    body.add("CL013", call.start_byte, call.end_byte,
             f"too {more} arguments to function call '{name}', expected {expected}, have {have}",
             body.declared_here(decl, name))


def _callee_unsure(facts: FileFacts, name: str, info: FunctionInfo) -> bool:
    """Whether the file's declarations of `name` leave its parameter count unsure: a macro
    in a head, a parameter pack, a parameter type not known, or a declaration under an #if
    (another arm may declare it otherwise). Once per function and lint: hashcat's helpers
    are called thousands of times a file."""
    got = facts.callee_unsure.get(name)
    if got is None:
        view = facts.view
        decls = [d for d in (info.definition, *info.prototypes) if d is not None]
        got = facts.callee_unsure[name] = \
            any(facts.head_has_macro(d) or _has_parameter_pack(d) for d in decls) or \
            not all(known(p.type) for p in info.params) or \
            (view is not None and any(view.branch_at(d.start_byte).parent is not None for d in decls))
    return got


def _header_call(body: Body, call: Node, name: str, args: list[Node]) -> None:
    """A call to a function only the included headers declare."""
    headers = body.facts.headers
    f = headers.functions.get(name) if headers is not None else None
    if f is None or f.arity is None or not body.facts.header_function(name) or name in body.model.index.functions:
        return
    if any(body.facts.is_macro(w) for w in f.head_words):
        return  # a macro in a head may add parameters
    expected, have = f.arity, len(args)
    if have != expected:
        more = "many" if have > expected else "few"
        body.add("CL013", call.start_byte, call.end_byte,
                 f"too {more} arguments to function call '{name}', expected {expected}, have {have}")


def _has_parameter_pack(decl: Node) -> bool:
    """`void g(int x EXTRA_PARAMS)`: a macro after the last parameter adds parameters."""
    stack = [decl]
    while stack:
        n = stack.pop()
        if n.type == "macro_parameter_pack":
            return True
        if n.type not in ("compound_statement", "field_declaration_list"):
            stack.extend(n.children)
    return False


def _builtin_call(body: Body, call: Node, fn: Node, b: Builtin, args: list[Node]) -> None:
    have = len(args)
    arities = _arities(b.name)
    if arities is None:
        return  # printf and other variadic built-ins
    overloads = b.overloads
    if have not in arities:
        if len(arities) == 1:
            expected = next(iter(arities))
            more = "many" if have > expected else "few"
            message = f"too {more} arguments to function call '{b.name}', expected {expected}, have {have}"
        else:
            message = f"no matching function for call to '{b.name}'"
        body.add("CL014", call.start_byte, call.end_byte, message, _candidates(body, fn, b, overloads))
        return
    # Judged only where every argument is certain; asked last, as most calls fit by the
    # types alone (a certain argument's type is known, and `certain` walks the argument).
    types = [body.fm.type_of(a) for a in args]
    if not all(known(t) for t in types):
        return
    if b.name.startswith("as_") and any(_kind(t) in ("opaque", "pointer") for t in types):
        return  # (a reinterpretation of a value whose size the implementation or target sets)
    tied = _tied(b.name, types)
    if tied and all(body.certain(a) for a in args):
        shown = types[0].render()
        body.add("CL014", call.start_byte, call.end_byte,
                 f"call to '{b.name}' is ambiguous: no overload takes '{shown}', and {len(tied)} take it by a "
                 "conversion alike; cast the argument", _candidates(body, fn, b, list(tied)))
        return
    # By kind (pointer, vector, scalar, opaque) per position, vectors and images by their
    # type: scalars convert, and some parameters take integers for opaque values.
    if any(all(_fits_kind(t, parse_catalogue_type(p.type)) for t, p in zip(types, o.params))
           for o in overloads if len(o.params) == have):
        return
    if not b.name.startswith("convert_") and any(
            _kind(t) == "scalar" and _kind(parse_catalogue_type(p.type)) == "vector"
            for o in overloads if len(o.params) == have for t, p in zip(types, o.params)):
        return  # a scalar may widen to a vector argument (not a conversion's: spec 6.4.3, the
        # source and destination have one element count)
    if not all(body.certain(a) for a in args):
        return
    shown = ", ".join(f"'{t.render()}'" for t in types)
    body.add("CL014", call.start_byte, call.end_byte,
             f"no matching function for call to '{b.name}' with arguments of type {shown}",
             _candidates(body, fn, b, [o for o in overloads if len(o.params) == have]))


# Scalars every device has in every width (no fp64 or fp16), whose overloads are judged for a
# tie; `size_t` and friends are the device's width, so a call on them is the clang layer's.
_CORE_SCALARS = frozenset({"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "bool"})
_PROMOTED = frozenset({"char", "uchar", "short", "ushort", "bool"})  # to int (C's integer promotions)


def _tied(name: str, types: list[Type]) -> tuple:
    """The overloads an all-one-scalar-type call fits equally well when none takes the type
    exactly (clang-19: "call to 'abs' is ambiguous"); () when one is best or the call is not
    judged. Only overloads every device has count, each of one parameter type throughout."""
    if not types or not all(isinstance(t, Scalar) for t in types):
        return ()
    names = {t.name for t in types}  # type: ignore[attr-defined]
    if len(names) != 1:
        return ()
    return _tied_for(name, next(iter(names)), len(types))


@lru_cache(maxsize=1024)
def _tied_for(name: str, arg: str, count: int) -> tuple:
    b = catalogue().function(name)
    if arg not in _CORE_SCALARS or b is None or name.startswith(("as_", "convert_")):
        return ()  # (a reinterpretation or conversion takes any type of its kind: no overloads to tie)
    fitting = [o for o in b.overloads if len(o.params) == count]
    if any(len({p.type for p in o.params}) != 1 for o in fitting):
        return ()  # mixed parameter types (`select`, `ldexp`): not judged here
    if any(o.params[0].type == arg for o in fitting):
        return ()  # taken exactly (any extension's overload included)
    core = [o for o in fitting if o.requires is None and o.params[0].type in _CORE_SCALARS]
    if not core:
        return ()
    ranks = [_rank(arg, o.params[0].type) for o in core]
    best = min(ranks)
    tied = tuple(o for o, r in zip(core, ranks) if r == best)
    return tied if len(tied) > 1 else ()


def _rank(arg: str, param: str) -> int:
    """C's ranking of an implicit argument conversion: 1 a promotion, 2 any other conversion."""
    if (arg in _PROMOTED and param == "int") or (arg == "float" and param == "double"):
        return 1
    return 2


@lru_cache(maxsize=1024)
def _arities(name: str) -> frozenset[int] | None:
    """Argument counts the built-in's overloads take; None when one is variadic."""
    b = catalogue().function(name)
    if b is None or not b.overloads or any("..." in p.type for o in b.overloads for p in o.params):
        return None
    return frozenset(len(o.params) for o in b.overloads)


def _candidates(body: Body, fn: Node, b: Builtin, overloads: list) -> tuple[tuple[int, int, str], ...]:
    seen: list[str] = []
    for o in overloads:
        sig = f"{o.returns} {b.name}({', '.join(p.type for p in o.params)})"
        if sig not in seen:
            seen.append(sig)
    notes = [(fn.start_byte, fn.end_byte, f"candidate function: '{s}'") for s in seen[:_MAX_CANDIDATES]]
    if len(seen) > _MAX_CANDIDATES:
        notes.append((fn.start_byte, fn.end_byte, f"and {len(seen) - _MAX_CANDIDATES} more candidates"))
    return tuple(notes)


def _kind(t: Type) -> str:
    if isinstance(t, (Pointer, Array)):
        return "pointer"
    if isinstance(t, Vector):
        return "vector"
    if isinstance(t, (Scalar, Enum_)):
        return "scalar"
    if isinstance(t, Opaque):
        return "opaque"
    return "any"


def _is_image(t: Type) -> bool:
    return isinstance(t, Opaque) and t.name.startswith("image")


def _fits_kind(arg: Type, param: Type) -> bool:
    a, p = _kind(arg), _kind(param)
    if a == p == "vector":
        # Vectors never convert implicitly: an `int3` is no `float3` (`length(c)`), an `int2`
        # no `char4` (`dot(a, b)`) nor an `int4` (image coordinates).
        return (arg.elem.name, arg.n) == (param.elem.name, param.n)  # type: ignore[attr-defined]
    if a == p == "opaque" and _is_image(arg) and _is_image(param):
        return arg.name == param.name  # type: ignore[attr-defined]  # an image2d_t is no image3d_t
    # Integers stand for events, flags and orders (`async_work_group_copy(..., 0)`).
    return a == p or p == "any" or (a == "scalar" and p == "opaque")
