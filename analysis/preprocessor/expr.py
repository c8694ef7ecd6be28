"""`#if` expressions: tokens, macro expansion, a C-semantics evaluator and symbolic queries.

A `Condition` wraps an expression tree in which the macros *defined in the source* have already
been replaced (by the view, which knows their order and guards), while the names a compiler or
the command line provides (`__OPENCL_C_VERSION__`, `cl_khr_fp64`, `-D` names) stay symbolic as
`Ident`/`Defined` leaves. So one Condition can be evaluated against several targets
(`evaluate(env)`) and asked what it guarantees (`implies_defined`, `implied_min_version`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from itertools import product
from cllint.analysis.lazy_re import lazy

__all__ = [
    "Binary", "Condition", "Defined", "Env", "ExprError", "Ident", "Node", "Num", "Ternary",
    "Token", "Unary", "Unknown", "conj", "negate", "parse_tokens", "tokenize", "TRUE", "FALSE",
]  # fmt: skip

# -- tokens -------------------------------------------------------------------------------

_TOKEN = lazy(
    r"""
    (?P<ws>\s+)
    | (?P<id>[A-Za-z_][A-Za-z0-9_]*)
    | (?P<num>\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.])*)
    | (?P<char>[LuU]?'(?:[^'\\\n]|\\.)*'?)
    | (?P<str>"(?:[^"\\\n]|\\.)*"?)
    | (?P<op>\#\#|<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||\.\.\.|->|\+\+|--|[-+*/%&|^]=
            |[-+*/%<>!~&|^?:(),\#\[\]{};.=])
    | (?P<bad>.)
    """,
    re.VERBOSE | re.DOTALL,
)


class Token:
    __slots__ = ("kind", "text", "node")
    kind: str  # "id" | "num" | "char" | "str" | "op" | "bad" | "node"
    text: str
    node: Node | None  # kind == "node": an already-built subtree (a guarded macro)

    __match_args__ = ("kind", "text", "node")

    def __init__(self, kind: str, text: str, node: Node | None = None) -> None:
        self.kind = kind
        self.text = text
        self.node = node

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(kind={self.kind!r}, text={self.text!r}, node={self.node!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.kind, self.text, self.node) == (other.kind, other.text, other.node)

    def __hash__(self) -> int:
        return hash((self.kind, self.text, self.node))


def tokenize(text: str) -> list[Token]:
    """Preprocessing tokens of `text` (whitespace dropped); never raises."""
    out: list[Token] = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "bad"
        if kind != "ws":
            out.append(Token(kind, m.group(0)))
    return out


# -- tree ---------------------------------------------------------------------------------

_MASK = (1 << 64) - 1


class Num:
    __slots__ = ("value", "unsigned")
    value: int
    unsigned: bool

    __match_args__ = ("value", "unsigned")

    def __init__(self, value: int, unsigned: bool = False) -> None:
        self.value = value
        self.unsigned = unsigned

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(value={self.value!r}, unsigned={self.unsigned!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.value, self.unsigned) == (other.value, other.unsigned)

    def __hash__(self) -> int:
        return hash((self.value, self.unsigned))


class Ident:
    """A name the environment (target, `-D`) may define; 0 when undefined (C99 6.10.1p4)."""

    __slots__ = ("name",)
    name: str

    __match_args__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(name={self.name!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name,) == (other.name,)

    def __hash__(self) -> int:
        return hash((self.name,))


class Defined:
    __slots__ = ("name",)
    name: str

    __match_args__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(name={self.name!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name,) == (other.name,)

    def __hash__(self) -> int:
        return hash((self.name,))


class Unary:
    __slots__ = ("op", "operand")
    op: str
    operand: Node

    __match_args__ = ("op", "operand")

    def __init__(self, op: str, operand: Node) -> None:
        self.op = op
        self.operand = operand

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(op={self.op!r}, operand={self.operand!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.op, self.operand) == (other.op, other.operand)

    def __hash__(self) -> int:
        return hash((self.op, self.operand))


class Binary:
    __slots__ = ("op", "left", "right")
    op: str
    left: Node
    right: Node

    __match_args__ = ("op", "left", "right")

    def __init__(self, op: str, left: Node, right: Node) -> None:
        self.op = op
        self.left = left
        self.right = right

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(op={self.op!r}, left={self.left!r}, right={self.right!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.op, self.left, self.right) == (other.op, other.left, other.right)

    def __hash__(self) -> int:
        return hash((self.op, self.left, self.right))


class Ternary:
    __slots__ = ("cond", "then", "other")
    cond: Node
    then: Node
    other: Node

    __match_args__ = ("cond", "then", "other")

    def __init__(self, cond: Node, then: Node, other: Node) -> None:
        self.cond = cond
        self.then = then
        self.other = other

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(cond={self.cond!r}, then={self.then!r}, other={self.other!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.cond, self.then, self.other) == (other.cond, other.then, other.other)

    def __hash__(self) -> int:
        return hash((self.cond, self.then, self.other))


class Unknown:
    """A value the view cannot know (malformed text, a macro defined under unknown conditions)."""

    __slots__ = ("why",)
    why: str

    __match_args__ = ("why",)

    def __init__(self, why: str = "") -> None:
        self.why = why

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(why={self.why!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.why,) == (other.why,)

    def __hash__(self) -> int:
        return hash((self.why,))


Node = Num | Ident | Defined | Unary | Binary | Ternary | Unknown
TRUE = Num(1)
FALSE = Num(0)


def negate(node: Node) -> Node:
    if isinstance(node, Num):
        return FALSE if node.value else TRUE
    if isinstance(node, Unary) and node.op == "!":
        return node.operand
    return Unary("!", node)


def conj(nodes: Iterable[Node]) -> Node:
    out: Node | None = None
    for n in nodes:
        if isinstance(n, Num) and n.value:
            continue
        out = n if out is None else Binary("&&", out, n)
    return TRUE if out is None else out


# -- parser -------------------------------------------------------------------------------


class ExprError(Exception):
    """A malformed `#if` expression; the message is a clang-style clause."""


class ChainTooLong(ExprError):
    """A macro redefined under more conditions than the view folds into one value: the
    condition is unknown here, and the source is not at fault (no CL004)."""


_BINARY_PREC: dict[str, int] = {
    "||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
    "<": 7, "<=": 7, ">": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
}  # fmt: skip

_INT = lazy(r"(0[xX][0-9A-Fa-f]+|0[bB][01]+|[0-9]+)([uUlL]*)")
_ESCAPES = {"n": 10, "t": 9, "r": 13, "0": 0, "a": 7, "b": 8, "f": 12, "v": 11, "\\": 92, "'": 39, '"': 34, "?": 63}


HasInclude = Callable[[str, bool], "bool | None"]  # (path, angled) -> found; None: cannot tell


def parse_tokens(tokens: list[Token], has_include: HasInclude | None = None) -> Node:
    """Parse an expanded token list (no `defined` left except as `Defined` tokens); raises ExprError.

    clang's feature-check operators (`__has_builtin(x)`, `__has_include(<h>)`, ...) become the
    value clang-19 gives them (`has_operator`); `has_include` answers `__has_include`."""
    if not tokens:
        raise ExprError("expected value in expression")
    p = _Parser(tokens, has_include)
    node = p.ternary()
    if p.i < len(tokens):
        tok = tokens[p.i]
        if tok.text == ")":
            raise ExprError("extra ')' in expression")
        raise ExprError(f"token '{tok.text}' is not a valid binary operator in a preprocessor subexpression")
    return node


class _Parser:
    def __init__(self, tokens: list[Token], has_include: HasInclude | None = None) -> None:
        self.toks = tokens
        self.i = 0
        self.depth = 0
        self.has_include = has_include

    def peek(self) -> str | None:
        return self.toks[self.i].text if self.i < len(self.toks) else None

    def ternary(self) -> Node:
        self.depth += 1
        if self.depth > 200:
            raise ExprError("expression nested too deeply")
        cond = self.binary(1)
        if self.peek() == "?":
            self.i += 1
            then = self.ternary()
            if self.peek() != ":":
                raise ExprError("expected ':' in conditional expression")
            self.i += 1
            other = self.ternary()
            cond = Ternary(cond, then, other)
        self.depth -= 1
        return cond

    def binary(self, min_prec: int) -> Node:
        left = self.unary()
        while True:
            op = self.peek()
            prec = _BINARY_PREC.get(op or "")
            if prec is None or prec < min_prec or self.toks[self.i].kind != "op":
                return left
            self.i += 1
            right = self.binary(prec + 1)
            left = Binary(op, left, right)  # type: ignore[arg-type]

    def unary(self) -> Node:
        if self.i >= len(self.toks):
            raise ExprError("expected value in expression")
        tok = self.toks[self.i]
        self.i += 1
        if tok.kind == "op" and tok.text in ("!", "~", "-", "+"):
            self.depth += 1
            if self.depth > 200:
                raise ExprError("expression nested too deeply")
            node = Unary(tok.text, self.unary())
            self.depth -= 1
            return node
        if tok.kind == "op" and tok.text == "(":
            inner = self.ternary()
            if self.peek() != ")":
                raise ExprError("expected ')' in expression")
            self.i += 1
            return inner
        if tok.kind == "node" and tok.node is not None:
            return tok.node
        if tok.kind == "num":
            return _number(tok.text)
        if tok.kind == "char":
            return _char(tok.text)
        if tok.kind == "id":
            if tok.text in ("true", "false"):  # C23/C++ spelling; clang accepts with a warning
                return TRUE if tok.text == "true" else FALSE
            if tok.text in HAS_OPERATORS:
                return self.has_operator(tok.text)
            if self.peek() == "(":  # clang's words (`__has_cpp_attribute(x)` in OpenCL C, `F(1)`)
                raise ExprError(f"function-like macro '{tok.text}' is not defined")
            return Ident(tok.text)
        if tok.kind == "str":
            raise ExprError("invalid token at start of a preprocessor expression")
        if tok.text == "<" and self._placeholder():
            # `<name>` where a value goes: never C, but a text template's slot that its host
            # fills before building (`#define WORD_BYTES <word_bytes>`): a value unknown here
            self.i += 2
            return Unknown(f"<{self.toks[self.i - 2].text}> is filled in by the host")
        self.i -= 1
        raise ExprError("expected value in expression" if tok.text in (")", ",") else
                        f"invalid token '{tok.text}' at start of a preprocessor expression")


    def _placeholder(self) -> bool:
        """Whether `<` just read starts `<name>`."""
        toks, i = self.toks, self.i
        return i + 1 < len(toks) and toks[i].kind == "id" and toks[i + 1].kind == "op" and toks[i + 1].text == ">"

    def has_operator(self, op: str) -> Node:
        """`op(...)` after `op` was read: clang-19's answer (Num), or Unknown when it depends on
        what cllint cannot see (an include path, a target-specific builtin)."""
        if self.peek() != "(":
            raise ExprError(f"missing '(' after '{op}'")
        end = self.i + 1
        depth = 0
        while end < len(self.toks):
            text = self.toks[end].text
            if text == "(":
                depth += 1
            elif text == ")":
                if depth == 0:
                    break
                depth -= 1
            end += 1
        if end >= len(self.toks):
            raise ExprError(f"missing ')' after '{op}'" if end > self.i + 1 else "expected value in expression")
        arg = self.toks[self.i + 1 : end]
        self.i = end + 1
        if op in ("__has_include", "__has_include_next"):
            return self.include_value(op, arg)
        if len(arg) == 4 and arg[0].kind == arg[3].kind == "id" and arg[1].text == arg[2].text == ":":
            if op == "__has_c_attribute":
                return Unknown(f"{op}({arg[0].text}::{arg[3].text})")  # scoped: vendor attributes
            raise ExprError(f"missing ')' after '{arg[0].text}'")
        if len(arg) != 1 or arg[0].kind != "id":
            raise ExprError("builtin feature check macro requires a parenthesized identifier")
        return feature_value(op, arg[0].text)

    def include_value(self, op: str, arg: list[Token]) -> Node:
        if len(arg) == 1 and arg[0].kind == "str" and len(arg[0].text) >= 2 and arg[0].text.endswith('"'):
            path, angled = arg[0].text[1:-1], False
        elif len(arg) >= 3 and arg[0].text == "<" and arg[-1].text == ">":
            path, angled = "".join(t.text for t in arg[1:-1]), True
        else:
            raise ExprError(f"expected \"FILENAME\" or <FILENAME> in '{op}'")
        found = self.has_include(path, angled) if self.has_include is not None else None
        # What the include resolver (the -I paths cllint was given) finds; without one, or in
        # a dead arm, the arms stay undecided.
        if found is None:
            return Unknown(f"{op}({arg[0].text}...)")
        return TRUE if found else FALSE


def _number(text: str) -> Num:
    m = _INT.fullmatch(text)
    if m is None:
        hexa = text[:2] in ("0x", "0X")
        is_float = "." in text or (not hexa and re.search(r"[eE]", text) is not None)
        if is_float:
            raise ExprError("floating point literal in preprocessor expression")
        raise ExprError(f"invalid integer constant '{text}' in preprocessor expression")
    digits, suffix = m.groups()
    low = suffix.lower()
    if low not in ("", "u", "l", "ul", "lu", "ll", "ull", "llu"):
        raise ExprError(f"invalid suffix '{suffix}' on integer constant")
    if digits[:2] in ("0x", "0X"):
        value = int(digits, 16)
    elif digits[:2] in ("0b", "0B"):
        value = int(digits[2:], 2)
    elif len(digits) > 1 and digits[0] == "0":
        if any(c in "89" for c in digits):
            raise ExprError(f"invalid digit in octal constant '{text}'")
        value = int(digits, 8)
    else:
        value = int(digits)
    unsigned = "u" in low or value > (1 << 63) - 1
    if value > _MASK:
        raise ExprError(f"integer literal '{text}' is too large to be represented in any integer type")
    return Num(value, unsigned)


def _char(text: str) -> Num:
    body = text[text.index("'") + 1 :]
    if not body.endswith("'") or len(body) < 2:
        raise ExprError("missing terminating ' character")
    body = body[:-1]
    if not body:
        raise ExprError("empty character constant")
    if body[0] != "\\":
        return Num(ord(body[0]) if ord(body[0]) < 128 else ord(body[0].encode("utf-8", "replace")[0]))
    esc = body[1:]
    if esc[:1] in ("x", "X"):
        try:
            return Num(int(esc[1:], 16) & 0xFF)
        except ValueError:
            raise ExprError("\\x used with no following hex digits") from None
    if esc[:1].isdigit():
        try:
            return Num(int(esc[:3], 8) & 0xFF)
        except ValueError:
            pass
    return Num(_ESCAPES.get(esc[:1], ord(esc[:1] or "\\")))


# -- clang's feature-check operators --------------------------------------------------------

# The operators clang-19 accepts in OpenCL C `#if` lines (`__has_cpp_attribute` is not one:
# clang rejects it there, "function-like macro '__has_cpp_attribute' is not defined").
HAS_OPERATORS = frozenset({
    "__has_builtin", "__has_attribute", "__has_feature", "__has_extension", "__has_c_attribute",
    "__has_declspec_attribute", "__is_identifier", "__has_include", "__has_include_next",
})  # fmt: skip
# Builtins of one GPU or CPU family: clang answers for the target it compiles for, which
# need not be the device's, so these stay undecided when clang-19's own table lacks them.
_TARGET_BUILTIN = lazy(r"^__(builtin_)?(amdgcn|r600|nvvm|nvptx|ptx|ia32|x86|arm|aarch64|neon|sve|mips|"
                             r"hexagon|ppc|altivec|vsx|riscv|rvv|wasm|spirv|s390|ve|bpf|loongarch|lasx|lsx)_")


def feature_value(op: str, name: str) -> Node:
    """clang-19's value for `op(name)` (analysis/preprocessor/clang19_has.py), as a node: a number,
    a choice on `__OPENCL_C_VERSION__` for the few OpenCL 2.0 builtins, or Unknown."""
    from . import clang19_has as clang19

    if op == "__is_identifier":
        return FALSE if name in clang19.KEYWORDS else TRUE
    if op == "__has_declspec_attribute":
        return FALSE  # only with -fdeclspec / -fms-extensions
    since = clang19.SINCE_2_0.get(op, {})
    table = {"__has_builtin": clang19.BUILTIN, "__has_attribute": clang19.ATTRIBUTE,
             "__has_feature": clang19.FEATURE, "__has_extension": clang19.EXTENSION,
             "__has_c_attribute": clang19.C_ATTRIBUTE}[op]
    keys = [name]
    if op != "__has_builtin" and len(name) > 4 and name.startswith("__") and name.endswith("__"):
        keys.append(name[2:-2])  # `__aligned__` is `aligned`
    for key in keys:
        if key in table:
            return Num(table[key])
        if key in since:
            before, after = since[key]
            return Ternary(Binary(">=", Ident(VERSION_MACRO), Num(200)), Num(after), Num(before))
    if op == "__has_builtin" and _TARGET_BUILTIN.match(name):
        return Unknown(f"__has_builtin({name}) depends on the device's compiler")
    return FALSE


# -- evaluation ---------------------------------------------------------------------------


class Env:
    """Macros the compiler and command line define (name -> replacement text)."""

    def __init__(self, macros: Mapping[str, str]) -> None:
        from .clang19 import PREDEFINED

        # The compiler is clang-19: its own macros (`__clang__`, `__clang_major__`, `__GNUC__`)
        # are there under the target's and the command line's.
        self.macros = {**PREDEFINED, **macros}
        self._values: dict[str, tuple[int, bool] | None] = {}
        self._busy: set[str] = set()

    def __contains__(self, name: str) -> bool:
        return name in self.macros or name in HAS_OPERATORS  # `defined(__has_include)` is 1

    def value(self, name: str) -> tuple[int, bool] | None:
        """The integer value of macro `name` (0 when undefined); None when it is not an integer."""
        if name not in self.macros:
            return (0, False)
        if name in self._values:
            return self._values[name]
        if name in self._busy:  # self-referential `-DA=A`: the inner A is an identifier, 0
            return (0, False)
        self._busy.add(name)
        try:
            tokens = tokenize(self.macros[name])
            node = parse_tokens(_expand_defined(tokens)) if tokens else None
            result = _eval(node, self) if node is not None else None
        except ExprError:
            result = None
        finally:
            self._busy.discard(name)
        self._values[name] = result
        return result


def _expand_defined(tokens: list[Token]) -> list[Token]:
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        name, nxt = read_defined(tokens, i)
        if name is not None:
            out.append(Token("node", name, Defined(name)))
            i = nxt
            continue
        out.append(tokens[i])
        i += 1
    return out


def read_defined(tokens: list[Token], i: int) -> tuple[str | None, int]:
    """If tokens[i] starts `defined X` / `defined(X)`, return (X, index after); else (None, i).

    Raises ExprError for `defined` without a name.
    """
    tok = tokens[i]
    if tok.kind != "id" or tok.text != "defined":
        return None, i
    j = i + 1
    paren = j < len(tokens) and tokens[j].text == "("
    if paren:
        j += 1
    if j >= len(tokens) or tokens[j].kind != "id":
        raise ExprError("macro name missing after 'defined'")
    name = tokens[j].text
    j += 1
    if paren:
        if j >= len(tokens) or tokens[j].text != ")":
            raise ExprError("missing ')' after 'defined'")
        j += 1
    return name, j


def _wrap(value: int, unsigned: bool) -> tuple[int, bool]:
    value &= _MASK
    if not unsigned and value >= 1 << 63:
        value -= 1 << 64
    return value, unsigned


def _eval(node: Node, env: Env, memo: dict[int, tuple[int, bool] | None] | None = None) -> tuple[int, bool] | None:
    """C preprocessor arithmetic in intmax_t/uintmax_t; None where the value is unknown.

    Conditions share subtrees (a guarded macro's value is a chain of its definitions' guards,
    and each `#else` repeats the negated conditions before it): `memo` keeps each composite
    node's value for one evaluation, which is linear in the shared tree's size, not in the
    paths through it (a header library's `#if`s took seconds each)."""
    if isinstance(node, Num):
        return node.value, node.unsigned
    if isinstance(node, Ident):
        return env.value(node.name)
    if isinstance(node, Defined):
        return (1 if node.name in env else 0), False
    if isinstance(node, Unknown):
        return None
    if memo is None:
        memo = {}
    key = id(node)
    if key in memo:
        return memo[key]
    value = _eval_composite(node, env, memo)
    memo[key] = value
    return value


def _eval_composite(node: Node, env: Env, memo: dict[int, tuple[int, bool] | None]) -> tuple[int, bool] | None:
    if isinstance(node, Unary):
        v = _eval(node.operand, env, memo)
        if v is None:
            return None
        x, u = v
        if node.op == "!":
            return (0 if x else 1), False
        if node.op == "-":
            return _wrap(-x, u)
        if node.op == "~":
            return _wrap(~x, u)
        return v
    if isinstance(node, Ternary):
        c = _eval(node.cond, env, memo)
        a = _eval(node.then, env, memo)
        b = _eval(node.other, env, memo)
        if c is None:
            return a if a is not None and a == b else None
        unsigned = bool(a and a[1]) or bool(b and b[1])
        chosen = a if c[0] else b
        return None if chosen is None else _wrap(chosen[0], unsigned)
    if isinstance(node, Binary):
        return _eval_binary(node, env, memo)
    return None


def _eval_binary(node: Binary, env: Env, memo: dict[int, tuple[int, bool] | None]) -> tuple[int, bool] | None:
    op = node.op
    left = _eval(node.left, env, memo)
    if op in ("&&", "||"):
        # Short-circuit also for unknowns: `0 && ?` is 0, `1 || ?` is 1.
        if left is not None and (op == "&&") != bool(left[0]):
            return (0 if op == "&&" else 1), False
        right = _eval(node.right, env, memo)
        if right is not None and (op == "&&") != bool(right[0]):
            return (0 if op == "&&" else 1), False
        if left is None or right is None:
            return None
        return (1 if op == "&&" else 0), False
    right = _eval(node.right, env, memo)
    if left is None or right is None:
        return None
    (a, ua), (b, ub) = left, right
    if op in ("<<", ">>"):
        if b < 0 or b >= 64:
            return _wrap(0, ua) if op == "<<" or not (a < 0) else (-1, ua)
        return _wrap(a << b if op == "<<" else a >> b, ua)
    unsigned = ua or ub
    if unsigned:
        a &= _MASK
        b &= _MASK
    if op in ("==", "!=", "<", "<=", ">", ">="):
        res = {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
        return (1 if res else 0), False
    if op in ("/", "%"):
        if b == 0:
            return None  # clang: "division by zero in preprocessor expression"
        q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)  # C truncates toward zero
        return _wrap(q if op == "/" else a - q * b, unsigned)
    fn: dict[str, Callable[[int, int], int]] = {
        "+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y,
        "&": lambda x, y: x & y, "|": lambda x, y: x | y, "^": lambda x, y: x ^ y,
    }  # fmt: skip
    return _wrap(fn[op](a, b), unsigned)


# -- symbolic reasoning -------------------------------------------------------------------

# Names whose value is fixed wherever they are defined; the symbolic queries fold them.
FIXED_VALUES: dict[str, int] = {
    "CL_VERSION_1_0": 100, "CL_VERSION_1_1": 110, "CL_VERSION_1_2": 120,
    "CL_VERSION_2_0": 200, "CL_VERSION_2_1": 210, "CL_VERSION_2_2": 220, "CL_VERSION_3_0": 300,
}  # fmt: skip
VERSION_MACRO = "__OPENCL_C_VERSION__"

_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_NEG = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}
_CMP = {
    "<": lambda x, c: x < c, "<=": lambda x, c: x <= c, ">": lambda x, c: x > c,
    ">=": lambda x, c: x >= c, "==": lambda x, c: x == c, "!=": lambda x, c: x != c,
}
_MAX_TERMS = 256

# A literal: ("def", name, positive) | ("cmp", name, op, const) | ("opaque", key, positive)
Lit = tuple
Term = frozenset  # conjunction of literals
DNFForm = list  # disjunction of terms; None = too large to reason about


class _TooBig(Exception):
    pass


def _const(node: Node) -> int | None:
    """Value of a subtree that mentions no environment name except the fixed version macros."""
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Ident):
        return FIXED_VALUES.get(node.name)
    if isinstance(node, (Defined, Unknown)):
        return None
    if isinstance(node, Unary):
        v = _const(node.operand)
        return None if v is None else _eval(Unary(node.op, Num(v)), _EMPTY)[0]  # type: ignore[index]
    if isinstance(node, Binary):
        a, b = _const(node.left), _const(node.right)
        if a is None or b is None:
            return None
        r = _eval(Binary(node.op, Num(a), Num(b)), _EMPTY)
        return None if r is None else r[0]
    if isinstance(node, Ternary):
        c = _const(node.cond)
        if c is None:
            return None
        return _const(node.then if c else node.other)
    return None


_EMPTY = Env({})


def _dnf(node: Node, pos: bool) -> list[frozenset[Lit]]:
    c = _const(node)
    if c is not None:
        return [frozenset()] if bool(c) == pos else []
    if isinstance(node, Defined):
        return [frozenset({("def", node.name, pos)})]
    if isinstance(node, Ident):
        return [frozenset({("cmp", node.name, "!=" if pos else "==", 0)})]
    if isinstance(node, Unary) and node.op == "!":
        return _dnf(node.operand, not pos)
    if isinstance(node, Unary) and node.op == "+":
        return _dnf(node.operand, pos)
    if isinstance(node, Binary) and node.op in ("&&", "||"):
        if (node.op == "&&") == pos:
            return _and(_dnf(node.left, pos), _dnf(node.right, pos))
        return _or(_dnf(node.left, pos), _dnf(node.right, pos))
    if isinstance(node, Ternary):
        a = _and(_dnf(node.cond, True), _dnf(node.then, pos))
        b = _and(_dnf(node.cond, False), _dnf(node.other, pos))
        return _or(a, b)
    if isinstance(node, Binary) and node.op in _CMP:
        return _dnf_cmp(node, pos)
    return [frozenset({("opaque", repr(node), pos)})]


def _dnf_cmp(node: Binary, pos: bool) -> list[frozenset[Lit]]:
    op = node.op if pos else _NEG[node.op]
    left, right = node.left, node.right
    # Push comparisons into guarded macro values: (g ? a : b) >= k.
    for side, other, is_left in ((left, right, True), (right, left, False)):
        if isinstance(side, Ternary):
            mk = (lambda s: Binary(node.op, s, other)) if is_left else (lambda s: Binary(node.op, other, s))
            return _dnf(Ternary(side.cond, mk(side.then), mk(side.other)), pos)
    rc, lc = _const(right), _const(left)
    if isinstance(left, Ident) and rc is not None:
        return [frozenset({("cmp", left.name, op, rc)})]
    if isinstance(right, Ident) and lc is not None:
        return [frozenset({("cmp", right.name, _FLIP[op], lc)})]
    return [frozenset({("opaque", repr(node), pos)})]


def _and(a: list[frozenset[Lit]], b: list[frozenset[Lit]]) -> list[frozenset[Lit]]:
    if len(a) * len(b) > _MAX_TERMS:
        raise _TooBig
    return [t for x, y in product(a, b) if _consistent(t := x | y)]


def _or(a: list[frozenset[Lit]], b: list[frozenset[Lit]]) -> list[frozenset[Lit]]:
    if len(a) + len(b) > _MAX_TERMS:
        raise _TooBig
    return a + b


def _consistent(term: frozenset[Lit]) -> bool:
    """False when the conjunction is contradictory (cheap, sound-for-pruning checks only)."""
    defs: dict[str, bool] = {}
    bounds: dict[str, list[tuple[str, int]]] = {}
    opaque: dict[str, bool] = {}
    for lit in term:
        if lit[0] == "def":
            if defs.setdefault(lit[1], lit[2]) != lit[2]:
                return False
        elif lit[0] == "opaque":
            if opaque.setdefault(lit[1], lit[2]) != lit[2]:
                return False
        else:
            bounds.setdefault(lit[1], []).append((lit[2], lit[3]))
    for name, cmps in bounds.items():
        if defs.get(name) is False and not all(_CMP[op](0, c) for op, c in cmps):
            return False  # undefined means 0, which the comparisons exclude
        lo, hi = -(1 << 64), 1 << 64
        eq: set[int] = set()
        ne: set[int] = set()
        for op, c in cmps:
            if op in (">", ">="):
                lo = max(lo, c + (op == ">"))
            elif op in ("<", "<="):
                hi = min(hi, c - (op == "<"))
            elif op == "==":
                eq.add(c)
            else:
                ne.add(c)
        if lo > hi or len(eq) > 1 or any(not lo <= e <= hi or e in ne for e in eq):
            return False
        if not eq and hi - lo < 64 and all(v in ne for v in range(lo, hi + 1)):
            return False
    return True


def _lit_implies_defined(lit: Lit, names: set[str] | frozenset[str]) -> bool:
    if lit[0] == "def":
        return lit[2] and lit[1] in names
    if lit[0] == "cmp":
        # Undefined evaluates to 0; a comparison 0 fails can only hold when the name is defined.
        return lit[1] in names and not _CMP[lit[2]](0, lit[3])
    return False


class Condition:
    """One branch condition, or a conjunction of them; immutable and target-independent."""

    __slots__ = ("node", "text", "_dnf")
    node: Node
    text: str  # the source text it came from, for messages
    _dnf: list[frozenset[Lit]] | None

    __match_args__ = ("node", "text", "_dnf")

    def __init__(self, node: Node, text: str = "", _dnf: list[frozenset[Lit]] | None = None) -> None:
        self.node = node
        self.text = text
        self._dnf = _dnf

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(node={self.node!r}, text={self.text!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.node, self.text) == (other.node, other.text)

    def __hash__(self) -> int:
        return hash((self.node, self.text))

    def evaluate(self, env: Env | Mapping[str, str]) -> bool | None:
        """True/False against the macros of `env`; None when it depends on unknown values."""
        if not isinstance(env, Env):
            env = Env(env)
        v = _eval(self.node, env)
        return None if v is None else bool(v[0])

    def terms(self) -> list[frozenset[Lit]] | None:
        """Disjunctive normal form over literals; None when too large (queries answer 'no')."""
        if self._dnf is None:
            try:
                form = _dnf(self.node, True)
            except (_TooBig, RecursionError):
                return None
            object.__setattr__(self, "_dnf", form)
        return self._dnf

    def implies_defined(self, name: str) -> bool:
        """Sound: True only if every way of satisfying the condition has `name` defined."""
        return self.implies_any_defined({name})

    def implies_any_defined(self, names: set[str] | frozenset[str],
                            also: Callable[[Term], bool] | None = None) -> bool:
        """Sound: True only if every satisfying assignment defines at least one of `names`
        (or, with `also`, satisfies a term `also` accepts)."""
        terms = self.terms()
        if terms is None:
            return False
        return all(any(_lit_implies_defined(lit, names) for lit in t) or (also is not None and also(t)) for t in terms)

    def implied_min_version(self, macro: str = VERSION_MACRO) -> int | None:
        """The least `__OPENCL_C_VERSION__` value the condition allows, if it bounds it at all."""
        terms = self.terms()
        if terms is None or not terms:
            return None
        best: int | None = None
        for term in terms:
            lo: int | None = None
            for lit in term:
                if lit[0] == "cmp" and lit[1] == macro and lit[2] in (">", ">=", "=="):
                    bound = lit[3] + (lit[2] == ">")
                    lo = bound if lo is None else max(lo, bound)
            if lo is None or lo <= 0:
                return None
            best = lo if best is None else min(best, lo)
        return best

    def is_constant(self) -> bool | None:
        """The truth value when the condition mentions no environment name, else None."""
        c = _const(self.node)
        return None if c is None else bool(c)

    def __str__(self) -> str:
        return self.text or render(self.node)


def render(node: Node) -> str:
    if isinstance(node, Num):
        return f"{node.value}{'u' if node.unsigned else ''}"
    if isinstance(node, Ident):
        return node.name
    if isinstance(node, Defined):
        return f"defined({node.name})"
    if isinstance(node, Unary):
        return f"{node.op}{render(node.operand)}"
    if isinstance(node, Binary):
        return f"({render(node.left)} {node.op} {render(node.right)})"
    if isinstance(node, Ternary):
        return f"({render(node.cond)} ? {render(node.then)} : {render(node.other)})"
    return "<unknown>"
