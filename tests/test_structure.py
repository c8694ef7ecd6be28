"""scripts/check_structure.py in CI (issue 33): no import cycle among cllint's modules, and no
module-level mutable state beyond the names its allow-list still carries; and what the script
finds, on small packages written here."""

from __future__ import annotations

import importlib.util
import io
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("check_structure", ROOT / "scripts" / "check_structure.py")
structure = importlib.util.module_from_spec(_spec)
sys.modules["check_structure"] = structure
_spec.loader.exec_module(structure)


def test_the_project_has_no_cycle_and_no_new_module_state() -> None:
    out = io.StringIO()
    status = structure.report(structure.modules(), structure.read_allowed(), out=out)
    assert status == 0, out.getvalue()
    assert " 0 import cycles" in out.getvalue()


def _package(root: Path, files: dict[str, str]) -> dict[str, Path]:
    for name, text in files.items():
        path = root / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return structure.modules(root, {"pkg": "pkg"})


@pytest.fixture
def project(tmp_path: Path):
    return lambda files: _package(tmp_path, {"__init__.py": "", **files})


def test_cycles_count_late_and_type_checking_imports(project) -> None:
    mods = project({
        "a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\n",
        "b.py": "from . import c\nclass B: ...\n",
        "c.py": "def f():\n    from pkg.a import x\n",  # late: a -> b -> c -> a
        "d.py": "from .a import x\n",  # outside the cycle
    })
    assert structure.cycles(structure.import_graph(mods)) == [["pkg.a", "pkg.b", "pkg.c"]]


def test_a_name_a_package_takes_from_its_submodule_is_that_submodules(project) -> None:
    """`from pkg.sub import Name` where sub/__init__ re-exports Name from sub.impl: a
    dependency on sub.impl, so sub.impl importing sub.other is no cycle with sub/__init__."""
    mods = project({
        "sub/__init__.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .impl import Name\n",
        "sub/impl.py": "from pkg.sub import other\nclass Name: ...\n",
        "sub/other.py": "X = 1\n",
        "user.py": "from pkg.sub import Name\n",
    })
    graph = structure.import_graph(mods)
    assert structure.cycles(graph) == []
    assert [e.target for e in graph["pkg.user"]] == ["pkg.sub.impl"]
    assert [e.target for e in graph["pkg.sub.impl"]] == ["pkg.sub.other"]


def test_module_state_is_what_code_changes_after_import(project) -> None:
    mods = project({
        "m.py": """
from collections import OrderedDict
from functools import cache, lru_cache
from types import MappingProxyType

TABLE = {"a": 1}                      # read only: a table
BUILT: dict[str, int] = {}            # filled at import: a table
for _k in "xy":
    BUILT[_k] = 1
FROZEN = frozenset({"a"})
PROXY = MappingProxyType({"a": 1})
_MEMO: dict = {}                      # changed by a function: state
_LRU = OrderedDict()
_LAST = None                          # rebound through `global`: state
_SEEN = set()

def use(k):
    global _LAST
    _LAST = k
    _MEMO[k] = TABLE.get(k)
    _LRU.move_to_end(k)
    return BUILT[k]

@cache
def loaded():                         # no parameter: a table built once
    return {}

@lru_cache(maxsize=8)
def typed(name):                      # a cache keyed by its argument: state
    return name
""",
        "other.py": "from pkg import m\n\ndef f():\n    m._SEEN.add(1)\n",
    })
    found = {(s.name, s.kind) for s in structure.mutable_state(mods)}
    assert found == {("_MEMO", "container"), ("_LRU", "container"), ("_LAST", "rebound"),
                     ("_SEEN", "container"), ("typed", "memo")}


def test_only_new_state_fails_and_stale_entries_are_named(project) -> None:
    mods = project({"m.py": "_A = {}\n_B = []\n\ndef f():\n    _A[1] = 2\n    _B.append(1)\n"})
    out = io.StringIO()
    assert structure.report(mods, {"pkg.m:_A", "pkg.m:_B"}, out=out) == 0
    out = io.StringIO()
    assert structure.report(mods, {"pkg.m:_A", "pkg.m:_GONE"}, out=out) == 1
    assert "new module-level state" in out.getvalue() and "pkg.m:_B" in out.getvalue()
    assert "no longer found" in out.getvalue() and "pkg.m:_GONE" in out.getvalue()


def test_the_device_worker_is_its_own_process(tmp_path: Path) -> None:
    mods = _package(tmp_path, {"__init__.py": "", "runner/__init__.py": "",
                               "runner/worker.py": "_JOBS = []\n\ndef f():\n    _JOBS.append(1)\n"})
    renamed = {k.replace("pkg.", "cllint.server."): v for k, v in mods.items()}
    assert structure.mutable_state(renamed) == []
