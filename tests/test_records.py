"""Records written as plain classes (issue 32): cllint patches nothing in the standard library,
each record's constructor takes its fields in `__match_args__` order (what `records.replace`
rebuilds from), and the written-out methods keep the dataclass semantics they replaced."""

from __future__ import annotations

import importlib
import inspect
import pickle
import pkgutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

import cllint
from cllint.analysis.diagnostics import Diagnostic, Severity, Span
from cllint.analysis.features import Version
from cllint.analysis.model.types import AddressSpace, Pointer, Scalar, Struct
from cllint.analysis.records import replace

# The child snapshots the standard library modules a run uses, runs `cllint check`, and prints
# every attribute added to or replaced in them (the old cllint/classcache.py shadowed `exec`
# inside `dataclasses` for every library in the process).
CHILD = textwrap.dedent("""
    import argparse, builtins, collections, dataclasses, enum, functools, json, os, pathlib, pickle, re, typing
    mods = [argparse, builtins, collections, dataclasses, enum, functools, json, os, pathlib, pickle, re, typing]
    before = [dict(vars(m)) for m in mods]
    import sys
    from cllint.cli.main import main
    sys.argv = ["cllint", "check", "--no-cache", "--exit-zero", sys.argv[1]]
    try:
        main()
    except SystemExit:
        pass
    for m, old in zip(mods, before):
        for k, v in vars(m).items():
            if k not in old or old[k] is not v:
                print("PATCHED", m.__name__, k)
""")


def test_a_check_run_patches_no_standard_library_module(tmp_path: Path) -> None:
    src = tmp_path / "k.cl"
    src.write_text("__kernel void k(__global float *a) { a[get_global_id(0)] = 1.0f; }\n")
    out = subprocess.run([sys.executable, "-c", CHILD, str(src)], capture_output=True, text=True, check=True,
                         cwd=tmp_path).stdout
    patched = [line for line in out.splitlines() if line.startswith("PATCHED")]
    assert patched == []


def _record_classes() -> list[type]:
    found: list[type] = []
    import cllint.analysis
    import cllint.cli

    names = [info.name for pkg in (cllint, cllint.analysis, cllint.cli)
             for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + ".")]
    for name in names:
        if name.endswith("__main__"):
            continue  # runs the CLI
        try:
            mod = importlib.import_module(name)
        except ImportError:
            continue  # optional dependencies (pyopencl)
        for obj in vars(mod).values():
            if (inspect.isclass(obj) and obj.__module__ == mod.__name__ and "__match_args__" in obj.__dict__
                    and not hasattr(obj, "__dataclass_fields__") and not issubclass(obj, tuple)):
                found.append(obj)
    return found


def test_every_record_constructor_takes_its_fields_in_order() -> None:
    records = _record_classes()
    assert len(records) > 50, "the lint path's records were written out"
    for cls in records:
        if cls.__init__ is object.__init__:
            assert cls.__match_args__ == (), cls.__qualname__  # a base with no fields of its own
            continue
        params = [p for p in inspect.signature(cls.__init__).parameters if p != "self"]
        assert tuple(params) == cls.__match_args__, cls.__qualname__
        for base in cls.__mro__[1:]:
            inherited = base.__dict__.get("__match_args__")
            if inherited:
                assert cls.__match_args__[:len(inherited)] == inherited, (cls.__qualname__, base.__qualname__)


def test_equality_hash_and_repr_follow_the_fields() -> None:
    f = Scalar("float")
    p = Pointer(f, AddressSpace.GLOBAL)
    assert p == Pointer(Scalar("float"), AddressSpace.GLOBAL) and hash(p) == hash(Pointer(f, AddressSpace.GLOBAL))
    assert p != Pointer(f, AddressSpace.LOCAL) and p != Pointer(f, AddressSpace.GLOBAL, explicit=False)
    assert f != Scalar("int") and Scalar("float") != "float"
    # a field kept out of comparisons (a struct's members, filled in when complete)
    assert Struct("s", None, key=3) == Struct("s", (), key=3) and Struct("s", key=3) != Struct("s", key=4)
    assert repr(Span("f", 1, 2)) == "Span(file='f', start=1, end=2)"


def test_replace_builds_a_new_record_and_refuses_unknown_fields() -> None:
    d = Diagnostic("CL010", Severity.ERROR, "m", Span("f", 0, 1))
    moved = replace(d, span=Span("f", 5, 6))
    assert moved.span == Span("f", 5, 6) and moved.code == "CL010" and d.span == Span("f", 0, 1)
    with pytest.raises(TypeError, match="no field"):
        replace(d, spam=1)

    @dataclass(frozen=True)
    class Old:
        x: int
        y: int = 2

    assert replace(Old(1), y=3) == Old(1, 3)


def test_records_pickle_including_the_ones_that_refuse_assignment() -> None:
    d = Diagnostic("CL010", Severity.ERROR, "m", Span("f", 0, 1))
    assert pickle.loads(pickle.dumps(d)) == d
    v = Version(1, 2)
    assert pickle.loads(pickle.dumps(v)) == v
    with pytest.raises(AttributeError):
        v.major = 3  # type: ignore[misc]
