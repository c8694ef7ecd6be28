"""Completion candidates at a byte offset: context from the text before the cursor,
names from the catalogue (filtered by the target), the tree and the language."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Tree

from cllint.analysis.catalogue import catalogue
from cllint.analysis.features import EXTENSIONS, FEATURES
from cllint.analysis.target import Target
from cllint.analysis.ide.names import resolve, name_at, text, visible

KEYWORDS = ("if", "else", "for", "while", "do", "switch", "case", "default", "break", "continue",
            "return", "struct", "union", "enum", "typedef", "const", "volatile", "restrict",
            "static", "extern", "inline", "sizeof", "void", "bool", "char", "uchar", "short", "ushort",
            "int", "uint", "long", "ulong", "float", "double", "half", "size_t", "ptrdiff_t")
QUALIFIERS = ("kernel", "__kernel", "global", "__global", "local", "__local", "constant", "__constant",
              "private", "__private", "generic", "__generic", "read_only", "__read_only", "write_only",
              "__write_only", "read_write", "__read_write", "__attribute__")
SWIZZLES = {2: ("x", "y", "s0", "s1", "lo", "hi", "even", "odd"),
            3: ("x", "y", "z", "s0", "s1", "s2", "lo", "hi", "even", "odd"),
            4: ("x", "y", "z", "w", "xy", "zw", "xyz", "s0", "s1", "s2", "s3", "lo", "hi", "even", "odd")}
_VECTOR = re.compile(r"\b(?:u?char|u?short|u?int|u?long|float|double|half)(2|3|4|8|16)\b")
_WORD = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class Candidate:
    label: str
    kind: str  # "function" | "keyword" | "variable" | "macro" | "struct" | "field" | "constant" | "type"
    detail: str = ""
    snippet: str | None = None
    documentation: str = ""


def _line_prefix(src: bytes, offset: int) -> bytes:
    return src[src.rfind(b"\n", 0, offset) + 1:offset]


def _builtins(target: Target, prefix: str) -> list[Candidate]:
    out = []
    cat = catalogue()
    for b in cat.functions.values():
        if not b.name.startswith(prefix) or not target.satisfies(b.since, b.requires):
            continue
        ov = [o for o in b.overloads if target.satisfies(b.overload_since(o), b.overload_requires(o))]
        if not ov:
            continue
        first = ov[0]
        args = ", ".join(f"${{{i + 1}:{p.name}}}" for i, p in enumerate(first.params))
        extra = f" (+{len(ov) - 1} overloads)" if len(ov) > 1 else ""
        out.append(Candidate(b.name, "function", f"{first.signature}{extra}", f"{b.name}({args})", b.summary))
    out += [Candidate(c.name, "constant", c.type) for c in cat.constants.values()
            if c.name.startswith(prefix) and target.satisfies(c.since, c.requires)]
    out += [Candidate(t.name, "type", "built-in type") for t in cat.types.values()
            if t.name.startswith(prefix) and target.satisfies(t.since, t.requires)]
    return out


def _swizzles(tree: Tree, src: bytes, dot: int) -> list[Candidate]:
    node = name_at(tree, dot)
    decl = resolve(tree, src, node) if node is not None else None
    if decl is None:
        return []
    m = _VECTOR.search(text(src, decl.node))
    if not m:
        return []
    n = int(m.group(1))
    names = SWIZZLES.get(n, tuple(f"s{i:x}" for i in range(n)) + ("lo", "hi", "even", "odd"))
    return [Candidate(s, "field", f"component of {m.group(0)}") for s in names]


def complete(tree: Tree, src: bytes, offset: int, target: Target) -> list[Candidate]:
    line = _line_prefix(src, offset)
    word = (_WORD.search(line) or re.match(rb"", b"")).group(0).decode()
    before = line[: len(line) - len(word)]
    if re.search(rb"#\s*pragma\s+OPENCL\s+EXTENSION\s+$", before):
        return [Candidate(e, "constant", "extension") for e in sorted(EXTENSIONS) if e.startswith(word)]
    if re.search(rb"(#\s*(ifdef|ifndef)\s+|defined\s*\(\s*|defined\s+)$", before):
        names = sorted(set(FEATURES) | set(EXTENSIONS) | set(target.predefined_macros()))
        return [Candidate(n, "macro", "available" if target.has(n) else "not on this target")
                for n in names if n.startswith(word)]
    if before.endswith(b"."):
        return [c for c in _swizzles(tree, src, offset - len(word) - 1) if c.label.startswith(word)]
    if before.rstrip().endswith(b"#"):
        return []
    out: list[Candidate] = []
    seen: set[str] = set()
    for d in visible(tree, src, offset):
        if d.name.startswith(word) and d.name not in seen and d.name_node.end_byte != offset:
            seen.add(d.name)
            kind = {"macro": "macro", "struct": "struct", "function": "function", "kernel": "function"}.get(d.kind, "variable")
            out.append(Candidate(d.name, kind, d.kind))
    out += [Candidate(k, "keyword") for k in (*KEYWORDS, *QUALIFIERS) if k.startswith(word)]
    out += [c for c in _builtins(target, word) if c.label not in seen]
    return out
