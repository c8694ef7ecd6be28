"""What a function-like macro does with one of its arguments: paste it (`name##_impl`),
stringify it (`#name`), call it (`name(x)`), or pass it on as a value.

A name handed to a macro that only pastes or calls it is no value in the expanded code:
`CALL(sq, x)` with `#define CALL(f, x) f##_impl(x)` calls `sq_impl`, and `sq` itself is never
read, so it is not a function used as a value (CL401).
"""

from __future__ import annotations

from .expr import tokenize


_MAX_DEPTH = 6  # macros followed down, each handing the argument on to the next


def uses_argument_as_value(view: object, name: str, index: int, offset: int, depth: int = 0) -> bool | None:
    """Whether the macro `name` in force at `offset` may expand its argument `index` (0-based)
    to a bare value; False when it only pastes, stringifies or calls it, itself or through the
    macros it hands the argument on to (`LIBNAME(N, T)` -> `GLUE3(__lib, N, T)` -> `P##_##N`);
    None when `name` is no function-like macro of the file's (a header's, the command line's, or
    none)."""
    macro_at = getattr(view, "macro_at", None)
    macro = macro_at(name, offset) if macro_at is not None else None
    if macro is None or macro.params is None:
        return None
    params = macro.params
    if index < len(params):
        names = {params[index]}
    elif macro.variadic:
        names = {"__VA_ARGS__", *params[-1:]}  # (a GNU named pack takes the rest too)
    else:
        return None  # too many arguments: the call's own problem
    toks = tokenize(macro.body)
    for i, tok in enumerate(toks):
        if tok.kind != "id" or tok.text not in names:
            continue
        before = toks[i - 1].text if i > 0 else ""
        after = toks[i + 1].text if i + 1 < len(toks) else ""
        if before in ("##", "#") or after in ("##", "("):
            continue
        handed = _handed_on(toks, i)
        if handed is not None and depth < _MAX_DEPTH:
            callee, at, pasted = handed
            if pasted:
                continue  # to a macro whose name is pasted (`LIST##N(F)`): its use is not this file's to tell
            inner = uses_argument_as_value(view, callee, at, offset, depth + 1)
            if inner is False:
                continue
        return True
    return False


def _handed_on(toks: list, i: int) -> tuple[str, int, bool] | None:  # noqa: ANN001 - tokens
    """(callee, argument index, whether the callee's name is pasted) when token `i` is a whole
    argument of a call in a macro body (`GLUE3(__lib, N, T)`), else None."""
    after = toks[i + 1].text if i + 1 < len(toks) else ""
    if after not in (",", ")"):
        return None
    depth, commas = 0, 0
    for j in range(i - 1, -1, -1):
        t = toks[j].text
        if t in (")", "]"):
            depth += 1
        elif t in ("(", "["):
            if depth == 0:
                if t != "(" or j == 0 or toks[j - 1].kind != "id":
                    return None
                if j + 1 != i and toks[j + 1].text != "," and commas == 0:
                    return None  # (not a whole argument: `f(a + N)`)
                pasted = j >= 2 and toks[j - 2].text == "##"
                return toks[j - 1].text, commas, pasted
            depth -= 1
        elif t == "," and depth == 0:
            if commas == 0 and j + 1 != i:
                return None  # (the argument holds more than the name)
            commas += 1
    return None
