"""Symbol and scope kinds are members made once, as the `Enum`s they replace behaved (issue
32, session 19: two enums, 14 members, made at every start-up): each equal only to itself
(not to its value's string), with its `name` and `value`, an `Enum`-like repr, and kept
itself through copying and pickling. Cases written before the change; the last (held out)
was run once it was done."""

from __future__ import annotations

import copy
import pickle

from cllint.analysis.model.scopes import ScopeKind, SymbolKind


def test_members_have_names_values_and_identity() -> None:
    f = SymbolKind.FUNCTION
    assert f is SymbolKind.FUNCTION and f.name == "FUNCTION" and f.value == "function"
    assert f != "function" and f != SymbolKind.PARAMETER
    assert SymbolKind.ENUMERATOR.value == "enumerator" and ScopeKind.BLOCK.value == "block"
    assert repr(SymbolKind.LOCAL) == "<SymbolKind.LOCAL: 'local'>"
    assert repr(ScopeKind.FILE) == "<ScopeKind.FILE: 'file'>"


def test_members_survive_copying_and_pickling() -> None:
    for member in (SymbolKind.GLOBAL, ScopeKind.FUNCTION):
        assert copy.copy(member) is member and copy.deepcopy(member) is member
        assert pickle.loads(pickle.dumps(member)) is member


def test_members_key_sets_and_dicts_by_identity() -> None:
    # held out
    kinds = {SymbolKind.LOCAL: 1, SymbolKind.PARAMETER: 2}
    assert kinds[SymbolKind.PARAMETER] == 2 and SymbolKind.FIELD not in kinds
    assert "local" not in kinds
    assert len({SymbolKind.TYPEDEF, SymbolKind.TYPEDEF, SymbolKind.STRUCT}) == 2
