"""Conditions share subtrees: a macro defined under several guards is a chain of those guards,
and each `#else` repeats the negated conditions before it. Evaluation reads each shared node
once per condition: a header library (IGC's built-ins) spent seconds per `#if` walking the
paths through such a tree."""
from __future__ import annotations

from cllint.analysis.preprocessor.expr import Binary, Condition, Env, Ident, Num, Ternary


class _CountingEnv(Env):
    def __init__(self, macros: dict[str, str]) -> None:
        super().__init__(macros)
        self.reads = 0

    def value(self, name: str) -> tuple[int, bool] | None:
        self.reads += 1
        return super().value(name)


def test_a_shared_subtree_is_read_once() -> None:
    node = Binary("+", Ident("N"), Num(0))
    for _ in range(12):  # each level names the one below twice: 4,096 paths to N
        node = Binary("+", node, node)
    env = _CountingEnv({"N": "1"})
    assert Condition(Binary("==", node, Num(4096))).evaluate(env) is True
    assert env.reads == 1


def test_a_guard_chain_keeps_its_value() -> None:
    guard = Binary("&&", Ident("A"), Ident("B"))
    chain = Ternary(guard, Num(1), Ternary(guard, Num(0), Ident("C")))
    assert Condition(chain).evaluate(Env({"A": "1", "B": "1"})) is True
    assert Condition(chain).evaluate(Env({"A": "1", "C": "0"})) is False
    assert Condition(chain).evaluate(Env({"A": "1", "C": "5"})) is True
