"""Template placeholders in kernel strings (`%(name)s`, `%s`, `{name}`, `${name}`) read as
neutral identifiers of the same length: names starting with `__` that no rule reports
(reserved names are the implementation's), so the code around them is still checked."""

from __future__ import annotations

import re
from enum import Enum


class Mode(str, Enum):
    PLAIN = "plain"  # a literal used as is: only unambiguous placeholders
    PERCENT = "percent"  # the left operand of `%`: `%s`, `%d`, `%%` too
    FORMAT = "format"  # the receiver of `.format(...)` or an f-string: `{name}`, `{{`, `}}`


_ALWAYS = r"%\((?P<pname>\w+)\)[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]|\$\{(?P<mname>\w+)\}"
_PERCENT = r"|(?P<pct>%%)|%[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrs]"
_FORMAT = r"|(?P<brace>\{\{|\}\})|\{(?P<fname>\w*)(?:\.\w+|\[\w+\])*(?:![rsa])?(?::[^{}]*)?\}"

PATTERNS = {
    Mode.PLAIN: re.compile(_ALWAYS.encode()),
    Mode.PERCENT: re.compile((_ALWAYS + _PERCENT).encode()),
    Mode.FORMAT: re.compile((_ALWAYS + _FORMAT).encode()),
}


def neutral(name: str, length: int) -> bytes:
    """An identifier of exactly `length` bytes (placeholders are at least 2 long)."""
    word = "__" + re.sub(r"\W", "_", name)
    return word[:length].ljust(length, "_").encode()


def is_escape(match: re.Match[bytes]) -> bool:
    """`%%`, `{{` or `}}`: a character written twice, not a placeholder."""
    groups = match.groupdict()
    return bool(groups.get("pct") or groups.get("brace"))


def replacement(match: re.Match[bytes]) -> bytes:
    """What one placeholder match reads as in the kernel."""
    groups = match.groupdict()
    if groups.get("pct"):
        return b"%"
    if groups.get("brace"):
        return match.group()[:1]
    name = groups.get("pname") or groups.get("mname") or groups.get("fname") or ""
    return neutral(name.decode() if isinstance(name, bytes) else name, len(match.group()))
