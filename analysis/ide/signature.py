"""Signature help: the call around the cursor (read from the text, since the tree is
often broken while typing), its overloads and the active parameter by counting commas."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Tree

from cllint.analysis.catalogue import catalogue
from cllint.analysis.target import Target
from cllint.analysis.ide.names import top_level, text

_NAME_BEFORE = re.compile(rb"([A-Za-z_][A-Za-z0-9_]*)\s*$")
MAX_SCAN = 4000


@dataclass(frozen=True)
class Signature:
    label: str
    params: tuple[str, ...]
    documentation: str = ""


@dataclass(frozen=True)
class SignatureResult:
    signatures: tuple[Signature, ...]
    active_parameter: int


def _open_call(src: bytes, offset: int) -> tuple[str, int] | None:
    depth, commas = 0, 0
    lo = max(0, offset - MAX_SCAN)
    i = offset - 1
    while i >= lo:
        ch = src[i]
        if ch in b")]}":
            depth += 1
        elif ch in b"([{":
            if depth == 0:
                if ch != ord("("):
                    return None
                m = _NAME_BEFORE.search(src, lo, i)
                return (m.group(1).decode(), commas) if m else None
            depth -= 1
        elif ch == ord(",") and depth == 0:
            commas += 1
        elif ch == ord(";") and depth == 0:
            return None
        i -= 1
    return None


def signature_help(tree: Tree, src: bytes, offset: int, target: Target | None = None) -> SignatureResult | None:
    found = _open_call(src, offset)
    if found is None:
        return None
    name, active = found
    sigs: list[Signature] = []
    for d in top_level(tree, src):
        if d.name == name and d.kind in ("function", "kernel"):
            params = d.node.child_by_field_name("declarator")
            while params is not None and params.type != "function_declarator":
                params = params.child_by_field_name("declarator")
            plist = params.child_by_field_name("parameters") if params is not None else None
            ps = tuple(" ".join(text(src, p).split()) for p in plist.named_children) if plist else ()
            sigs.append(Signature(f"{name}({', '.join(ps)})", ps))
            break
    b = catalogue().function(name)
    if not sigs and b is not None:
        for o in b.overloads:
            if target is not None and not target.satisfies(b.overload_since(o), b.overload_requires(o)):
                continue
            ps = tuple(f"{p.type} {p.name}" for p in o.params)
            sigs.append(Signature(f"{o.returns} {name}({', '.join(ps)})", ps, b.summary))
    return SignatureResult(tuple(sigs), active) if sigs else None
