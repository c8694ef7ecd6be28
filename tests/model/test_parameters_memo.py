"""Plain parameter lists are read once per text and target (analysis/model/decls.py);
a remembered reading must point at the new tree's nodes and follow the target."""

from __future__ import annotations

from cllint.analysis.model import SemanticModel
from cllint.analysis.model.types import AddressSpace, Pointer
from cllint.analysis.target import Target
from cllint.grammar import parse

HEAD = b"void helper(global float *p, const int n, read_only image2d_t img) { }\n"


def _params(src: bytes, target: str):
    model = SemanticModel(parse(src), src, Target.preset(target))
    return model.functions["helper"].params


def test_a_remembered_list_names_the_new_trees_nodes() -> None:
    first = _params(HEAD, "CL1.2")
    moved = b"// moved down\n\n" + HEAD
    again = _params(moved, "CL1.2")
    assert [p.name for p in again] == ["p", "n", "img"]
    for a, b in zip(first, again):
        assert b.node.start_byte == a.node.start_byte + len(b"// moved down\n\n")
        assert moved[b.node.start_byte:b.node.end_byte].decode() == b.name
        assert a.type == b.type


def test_unqualified_pointers_follow_the_target() -> None:
    src = b"void helper(float *p) { }\n"
    old = _params(src, "CL1.2")[0].type
    new = _params(src, "CL2.0")[0].type
    assert isinstance(old, Pointer) and old.space is AddressSpace.PRIVATE
    assert isinstance(new, Pointer) and new.space is AddressSpace.GENERIC


def test_array_and_parenthesised_declarators() -> None:
    src = b"void helper(const float (*const xtrans)[6], int a[3]) { }\n"
    first = _params(src, "CL1.2")
    moved = b"\n" + src
    again = _params(moved, "CL1.2")
    assert [p.name for p in again] == ["xtrans", "a"]
    assert [p.type for p in again] == [p.type for p in first]
    assert all(moved[p.node.start_byte:p.node.end_byte].decode() == p.name for p in again)
