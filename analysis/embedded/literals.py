"""String literals of Python and C/C++ host code copied into a kernel, escape by escape, so
that every kernel byte knows the host bytes it came from."""

from __future__ import annotations

import ast
import re

from tree_sitter import Node

from .expansion import Expansion
from .placeholders import PATTERNS, Mode, is_escape, neutral, replacement
from .posmap import KernelBuilder


class Unmappable(Exception):
    """A literal whose value cannot be tied to host positions exactly (skipped)."""


def copy_text(builder: KernelBuilder, source: bytes, start: int, end: int, mode: Mode,
              expansion: Expansion | None = None) -> None:
    """Host bytes [start, end) with no escapes in them; placeholders become the literal values
    `expansion` fills them with, or neutral identifiers."""
    pattern = PATTERNS[mode]
    pos = start
    for m in pattern.finditer(source, start, end):
        builder.verbatim(source[pos : m.start()], pos)
        filled = expansion.fill(m, mode) if expansion is not None and not is_escape(m) else None
        if filled is not None:
            builder.decoded(filled, m.start(), m.end())
        elif is_escape(m):
            builder.decoded(replacement(m), m.start(), m.end())
        else:
            builder.placeholder(replacement(m), m.start(), m.end())
        pos = m.end()
    builder.verbatim(source[pos:end], pos)


# ---------------------------------------------------------------- Python

def _python_prefix(node: Node) -> str:
    start = node.child(0)
    text = start.text.decode() if start is not None and start.text else ""
    return text.rstrip("'\"").lower()


def python_string(builder: KernelBuilder, node: Node, source: bytes, mode: Mode,
                  expansion: Expansion | None = None) -> None:
    """A `string` or `concatenated_string` node (implicit concatenation joins the parts)."""
    if node.type == "concatenated_string":
        for part in node.named_children:
            if part.type == "string":
                python_string(builder, part, source, mode, expansion)
            elif part.type != "comment":
                raise Unmappable(part.type)
        return
    if node.type != "string":
        raise Unmappable(node.type)
    prefix = _python_prefix(node)
    raw = "r" in prefix
    if "f" in prefix:
        mode, expansion = Mode.FORMAT, None
    children = node.children
    if len(children) < 2 or children[0].type != "string_start" or children[-1].type != "string_end":
        raise Unmappable("unterminated string")
    pos = children[0].end_byte
    end = children[-1].start_byte
    for special in _python_specials(node):
        if special.type == "escape_sequence" and raw:
            continue
        copy_text(builder, source, pos, special.start_byte, mode, expansion)
        if special.type == "escape_sequence":
            builder.decoded(_python_escape(special.text or b"", "b" in prefix), special.start_byte, special.end_byte)
        elif special.type == "escape_interpolation":  # `{{` in an f-string
            builder.decoded(special.text[:1] if special.text else b"", special.start_byte, special.end_byte)
        else:  # an f-string interpolation: a plain name reads as a placeholder
            expr = special.child_by_field_name("expression")
            if expr is None or expr.type not in ("identifier", "attribute") or special.child_by_field_name("format_specifier"):
                raise Unmappable("f-string expression")
            length = special.end_byte - special.start_byte
            builder.placeholder(neutral((expr.text or b"").decode().split(".")[-1], length),
                                special.start_byte, special.end_byte)
        pos = special.end_byte
    copy_text(builder, source, pos, end, Mode.PLAIN if "f" in prefix else mode, expansion)


def _python_specials(node: Node) -> list[Node]:
    out: list[Node] = []
    for child in node.children:
        if child.type in ("escape_sequence", "interpolation", "escape_interpolation"):
            out.append(child)
        elif child.type == "string_content":
            out.extend(c for c in child.children
                       if c.type in ("escape_sequence", "interpolation", "escape_interpolation"))
    return out


def _python_escape(text: bytes, is_bytes: bool) -> bytes:
    try:
        if is_bytes:
            return ast.literal_eval("b'" + text.decode("latin-1") + "'")
        return ast.literal_eval("'" + text.decode("utf-8") + "'").encode("utf-8", "surrogatepass")
    except (SyntaxError, ValueError, UnicodeError) as exc:
        raise Unmappable("escape") from exc


# ---------------------------------------------------------------- C and C++

_C_SIMPLE = {b"n": b"\n", b"t": b"\t", b"r": b"\r", b"0": b"\0", b"\\": b"\\", b"'": b"'", b'"': b'"',
             b"?": b"?", b"a": b"\a", b"b": b"\b", b"f": b"\f", b"v": b"\v", b"\n": b""}
_C_OCTAL = re.compile(rb"\\([0-7]{1,3})$")
_C_HEX = re.compile(rb"\\x([0-9a-fA-F]+)$")


def _c_escape(text: bytes) -> bytes:
    if len(text) == 2 and text[1:] in _C_SIMPLE:
        return _C_SIMPLE[text[1:]]
    if text.startswith(b"\\\r\n"):
        return b""
    if m := _C_OCTAL.match(text):
        return bytes([int(m.group(1), 8) & 0xFF])
    if m := _C_HEX.match(text):
        return bytes([int(m.group(1), 16) & 0xFF])
    raise Unmappable("escape")


def c_string(builder: KernelBuilder, node: Node, source: bytes, mode: Mode = Mode.PLAIN) -> None:
    """A `string_literal`, `raw_string_literal` or `concatenated_string` node."""
    if node.type == "concatenated_string":
        for part in node.named_children:
            if part.type in ("string_literal", "raw_string_literal"):
                c_string(builder, part, source, mode)
            else:  # a macro between the parts (`"a" FOO "b"`) has no value we know
                raise Unmappable(part.type)
        return
    if node.type == "raw_string_literal":
        content = next((c for c in node.children if c.type == "raw_string_content"), None)
        if content is not None:
            copy_text(builder, source, content.start_byte, content.end_byte, mode)
        return
    if node.type != "string_literal":
        raise Unmappable(node.type)
    # the opening quote (after any L/u8/u/U prefix) and the closing one
    opening = next((c for c in node.children if c.type == '"'), None)
    closing = node.children[-1]
    if opening is None or closing.type != '"' or closing == opening:
        raise Unmappable("unterminated string")
    pos = opening.end_byte
    for child in node.children:
        if child.type == "escape_sequence":
            copy_text(builder, source, pos, child.start_byte, mode)
            builder.decoded(_c_escape(child.text or b""), child.start_byte, child.end_byte)
            pos = child.end_byte
    copy_text(builder, source, pos, closing.start_byte, mode)
