"""`_path` (analysis/model/symbols.py) with one head's parents' child indexes shared: the same
child-index paths as a scan of each parent's children, for every node of a head, and None for
a node outside it (issue 32: a 14-parameter head's paths were ~0.5 ms of a keystroke)."""

from __future__ import annotations

from cllint.analysis.model.symbols import _path
from cllint.grammar import parse

SOURCE = b"""typedef enum mode_t { A, B } mode_t;
kernel void
wide (read_only image2d_t in, write_only image2d_t out, const int width, const int height,
      const float lower, const float upper, const float4 lower_color, const float4 upper_color,
      constant float *profile, read_only image2d_t lut, const int use, mode_t mode, int (*cb)(int, int))
{
  out = in;
}
float (*pick(int which, float a[restrict 4]))(float) { return 0; }
"""


def _scan(item, node):  # noqa: ANN001, ANN202 - the reference: each parent's children looked through
    out = []
    n = node
    while n is not None and n != item:
        parent = n.parent
        if parent is None:
            return None
        i = next((i for i, c in enumerate(parent.children) if c == n), None)
        if i is None:
            return None
        out.append(i)
        n = parent
    return tuple(reversed(out)) if n is not None else None


def test_shared_child_indexes_give_the_scanned_paths() -> None:
    tree = parse(SOURCE)
    items = [n for n in tree.root_node.children if n.type == "function_definition"]
    assert len(items) == 2
    checked = 0
    for item in items:
        places: dict[int, dict[int, int]] = {}
        stack = [item.child_by_field_name("declarator")]
        while stack:
            n = stack.pop()
            stack.extend(n.children)
            assert _path(item, n, places) == _scan(item, n)
            checked += 1
        outside = tree.root_node.children[0]
        assert _path(item, outside, places) is None and _scan(item, outside) is None
    assert checked > 100
