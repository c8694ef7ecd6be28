"""The edit that silences one code on one line with `// cllint: ignore[CODE]`."""

from __future__ import annotations

import re

_DIRECTIVE = re.compile(rb"//\s*cllint:\s*ignore\[([A-Za-z0-9_,\s]*)\]")


def suppress_edit(src: bytes, offset: int, code: str) -> tuple[int, int, str]:
    """(start, end, text) to apply; extends an existing directive on that line."""
    start = src.rfind(b"\n", 0, offset) + 1
    end = src.find(b"\n", offset)
    end = len(src) if end < 0 else end
    if end > start and src[end - 1:end] == b"\r":
        end -= 1
    m = _DIRECTIVE.search(src, start, end)
    if m:
        codes = m.group(1).strip()
        at = m.end(1)
        return (at, at, f", {code}" if codes else code)
    return (end, end, f"  // cllint: ignore[{code}]")
