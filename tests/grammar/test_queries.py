"""Every editor query compiles against the grammar (a renamed node fails here) and
captures what editors rely on."""

from __future__ import annotations

import pytest
from tree_sitter import Query, QueryCursor

from cllint.grammar import language, parse, query_source

NAMES = ["highlights", "locals", "tags", "folds", "injections"]


@pytest.mark.parametrize("name", NAMES)
def test_query_compiles(name: str) -> None:
    Query(language(), query_source(name))


def _captures(name: str, source: bytes) -> dict[str, list[str]]:
    tree = parse(source)
    caps = QueryCursor(Query(language(), query_source(name))).captures(tree.root_node)
    return {k: [source[n.start_byte : n.end_byte].decode() for n in v] for k, v in caps.items()}


def test_highlights_mark_opencl_constructs() -> None:
    src = b"kernel void k(global float *a) { a[get_global_id(0)] = 1.0h; barrier(CLK_LOCAL_MEM_FENCE); }\n"
    caps = _captures("highlights", src)
    assert "global" in caps["keyword.storage"]
    assert "kernel" in caps["keyword.function"]
    assert {"get_global_id", "barrier"} <= set(caps["function.builtin"])
    assert "CLK_LOCAL_MEM_FENCE" in caps["constant.builtin"]


def test_tags_find_kernels() -> None:
    caps = _captures("tags", b"kernel void scale(global float *a) { }\nvoid helper(void) { }\n")
    assert "scale" in caps["name"]
