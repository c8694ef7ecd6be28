"""Hover: built-ins from the catalogue, declarations of user names, macro definitions."""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Tree

from cllint.analysis.catalogue import Builtin, catalogue, spec_url
from cllint.analysis.target import Target
from cllint.analysis.ide.names import line_of, name_at, resolve, text

MAX_OVERLOADS = 8


@dataclass(frozen=True)
class HoverResult:
    markdown: str
    start: int
    end: int


def _requirements(since: str | None, requires: tuple[tuple[str, ...], ...]) -> str:
    parts = [f"OpenCL C {since}+"] if since else []
    if requires:
        parts.append(" or ".join(" and ".join(f"`{n}`" for n in conj) for conj in requires))
    return "; ".join(parts)


def builtin_markdown(b: Builtin, target: Target | None = None) -> str:
    sigs = [f"{o.returns} {b.name}({', '.join(f'{p.type} {p.name}' for p in o.params)})"
            for o in b.overloads[:MAX_OVERLOADS]]
    more = len(b.overloads) - MAX_OVERLOADS
    lines = ["```opencl", *sigs, "```"]
    if more > 0:
        lines.append(f"*+{more} more overloads*")
    lines += ["", b.summary, "", f"**Requires:** {_requirements(b.since, b.requires) or 'core'}"]
    if b.deprecated:
        lines.append(f"**Deprecated** in OpenCL C {b.deprecated}")
    if target is not None and not target.satisfies(b.since, b.requires):
        lines.append(f"**Not available** on target `{target.describe()}`")
    lines.append(f"\n[OpenCL C specification]({b.url})")
    return "\n".join(lines)


def declaration_text(src: bytes, decl) -> str:
    """What a declaration says, on one line: a parameter, a declaration, a function's head."""
    node = decl.node
    end = node.end_byte
    body = node.child_by_field_name("body")
    if body is not None:
        end = body.start_byte
    if decl.kind in ("parameter", "local", "global", "function", "kernel", "typedef", "struct"):
        return " ".join(src[node.start_byte:end].decode("utf-8", "replace").split())[:300]
    return line_of(src, decl.name_node.start_byte)


def hover(tree: Tree, src: bytes, offset: int, target: Target | None = None) -> HoverResult | None:
    node = name_at(tree, offset)
    if node is None:
        return None
    name = text(src, node)
    decl = resolve(tree, src, node)
    if decl is not None:
        if decl.kind == "macro":
            body = text(src, decl.node).rstrip()
            return HoverResult(f"```c\n{body}\n```", node.start_byte, node.end_byte)
        line = declaration_text(src, decl)
        return HoverResult(f"```opencl\n{line}\n```\n*{decl.kind}*", node.start_byte, node.end_byte)
    cat = catalogue()
    if (b := cat.function(name)) is not None:
        return HoverResult(builtin_markdown(b, target), node.start_byte, node.end_byte)
    if (c := cat.constant(name)) is not None:
        value = f" = {c.value}" if c.value else ""
        md = (f"```opencl\n{c.type} {c.name}{value}\n```\n**Requires:** "
              f"{_requirements(c.since, c.requires) or 'core'}\n\n[OpenCL C specification]({spec_url(c.spec)})")
        return HoverResult(md, node.start_byte, node.end_byte)
    if (t := cat.type(name)) is not None:
        return HoverResult(f"```opencl\n{t.name}\n```\nbuilt-in type; **Requires:** "
                           f"{_requirements(t.since, t.requires) or 'core'}", node.start_byte, node.end_byte)
    return None
