"""What an edit re-analyses: the changed functions and their callers, transitively, read from
each body's words (a mention counts as a call). Session 17 finds a function's callers when the
walk reaches it instead of building the whole file's call graph on every keystroke (0.3 ms of
darktable's basic.cl); the sets are the graph's. Labels by hand from the call structure."""

from __future__ import annotations

from tree_sitter import Parser

from cllint.analysis.incremental import IncrementalLinter, top_level_functions
from cllint.grammar import language

CHAIN = """float leaf(float x) { return x * 2.0f; }
float mid(float x) { return leaf(x) + 1.0f; }
float top(float x) { return mid(x) - leaf(x); }
__kernel void k(__global float *p) { p[0] = top(p[0]); }
__kernel void other(__global float *p) { p[0] = 1.0f; }
"""
# the same name defined in both arms: either definition's edit reaches the caller
TWICE = """#ifdef FAST
float f(float x) { return x; }
#else
float f(float x) { return x + x; }
#endif
__kernel void k(__global float *p) { p[0] = f(p[0]); }
float g(float x) { return x; }
"""
MUTUAL = """int even(int n);
int odd(int n) { return n == 0 ? 0 : even(n - 1); }
int even(int n) { return n == 0 ? 1 : odd(n - 1); }
__kernel void k(__global int *p) { p[0] = odd(p[0]); }
"""


def _functions(src: str):  # noqa: ANN202
    data = src.encode()
    return top_level_functions(Parser(language()).parse(data), data)


def _index(functions, name: str) -> int:  # noqa: ANN001
    return next(i for i, f in enumerate(functions) if f.name == name.encode())


def _names(functions, got: set[int]) -> list[str]:  # noqa: ANN001
    return sorted(functions[i].name.decode() for i in got)


def _graph_closure(functions, changed: set[int]) -> set[int]:  # noqa: ANN001
    """The closure through the whole graph, as before."""
    _, callers = IncrementalLinter._graph(functions)
    out, todo = set(changed), list(changed)
    while todo:
        for j in callers[todo.pop()] - out:
            out.add(j)
            todo.append(j)
    return out


def test_a_leaf_reaches_every_caller_above_it() -> None:
    fs = _functions(CHAIN)
    got = IncrementalLinter._closure(fs, {_index(fs, "leaf")})
    assert _names(fs, got) == ["k", "leaf", "mid", "top"]
    assert got == _graph_closure(fs, {_index(fs, "leaf")})
    assert _names(fs, IncrementalLinter._closure(fs, {_index(fs, "other")})) == ["other"]


def test_either_definition_of_a_name_reaches_its_callers() -> None:
    fs = _functions(TWICE)
    firsts = [i for i, f in enumerate(fs) if f.name == b"f"]
    assert len(firsts) == 2
    for i in firsts:
        got = IncrementalLinter._closure(fs, {i})
        assert _names(fs, got) == ["f", "k"] and got == _graph_closure(fs, {i})


def test_a_cycle_is_walked_once() -> None:
    fs = _functions(MUTUAL)
    got = IncrementalLinter._closure(fs, {_index(fs, "even")})
    assert _names(fs, got) == ["even", "k", "odd"] and got == _graph_closure(fs, {_index(fs, "even")})
