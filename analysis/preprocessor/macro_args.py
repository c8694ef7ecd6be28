"""What a function-like macro does with one of its arguments: paste it (`name##_impl`),
stringify it (`#name`), call it (`name(x)`), or pass it on as a value.

A name handed to a macro that only pastes or calls it is no value in the expanded code:
`CALL(sq, x)` with `#define CALL(f, x) f##_impl(x)` calls `sq_impl`, and `sq` itself is never
read, so it is not a function used as a value (CL401).
"""

from __future__ import annotations

from .expr import tokenize


def uses_argument_as_value(view: object, name: str, index: int, offset: int) -> bool | None:
    """Whether the macro `name` in force at `offset` may expand its argument `index` (0-based)
    to a bare value; False when it only pastes, stringifies or calls it; None when `name` is no
    function-like macro of the file's (a header's, the command line's, or none)."""
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
        return True
    return False
