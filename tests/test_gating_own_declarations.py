"""CL301 on names the program declares itself (issue 29, session 16: beignet's built-in library,
whose `ocl_types.h` defines `enum { memory_order_relaxed, ..., memory_order_seq_cst }` and whose
`ocl_work_group.h` declares `OVERLOADABLE int work_group_broadcast(int, size_t)`). Such a program
is built without clang's default header (`clang -cc1`, `-cl-no-stdinc`): the names are its own,
not the built-ins, and need no optional feature. An enumerator or function the file or a
header it includes declares is not a built-in's use; a built-in name nothing in the program
declares still is.

Labels: a case without a report builds with clang-19 at OpenCL C 3.0 with no optional feature
and no default header (`-cl-no-stdinc -Xclang -cl-ext=-all`): the program supplies its names. A
reported one does not build so (it relies on the built-in, which the spec's 6.2.1 gates by the
feature the report names; clang-19 gates some of them only, see CL301's docstring). `HELDOUT` was written with `TUNE` and only scored once the code was done.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cllint.analysis.lint import LintOptions, lint_tree
from cllint.analysis.syntax import parse
from cllint.includes import FileIncludeResolver

CLANG = shutil.which("clang-19")

TYPES_H = b"""#define OVERLOADABLE __attribute__((overloadable))
typedef enum { memory_order_relaxed, memory_order_acquire, memory_order_release, memory_order_acq_rel,
               memory_order_seq_cst } memory_order;
typedef enum { memory_scope_work_item, memory_scope_work_group, memory_scope_device } memory_scope;
int lib_cas(volatile global int *p, int e, int d, memory_order s, memory_scope sc);
"""
GROUP_H = b"""#define OVERLOADABLE __attribute__((overloadable))
OVERLOADABLE int work_group_broadcast(int a, unsigned long local_id);
OVERLOADABLE int sub_group_reduce_add(int x);
int my_broadcast(int a);
"""

# (name, header, source, feature a report names or None)
TUNE = [
    ("enumerators_from_header", TYPES_H, b"""#include "lib.h"
int flag_set(volatile global int *p) { return lib_cas(p, 0, 1, memory_order_seq_cst, memory_scope_device); }
""", None),
    ("prototype_from_header", GROUP_H, b"""#include "lib.h"
int first(int v) { return work_group_broadcast(v, 0); }
""", None),
    ("enumerators_in_file", b"", b"""typedef enum { memory_scope_work_item, memory_scope_device } memory_scope;
int scope_of(int x) { return x ? memory_scope_device : memory_scope_work_item; }
""", None),
    ("builtin_beside_other_names", b"int helper(int x);\n", b"""#include "lib.h"
kernel void k(global atomic_int *c) {
  atomic_store_explicit(c, helper(1), memory_order_seq_cst, memory_scope_work_group);
}
""", "__opencl_c_atomic_order_seq_cst"),
]
HELDOUT = [
    ("overloadable_subgroup_prototype", GROUP_H, b"""#include "lib.h"
int total(int v) { return sub_group_reduce_add(v); }
""", None),
    ("other_enumerators_only", b"typedef enum { scope_a, scope_b } my_scope;\n", b"""#include "lib.h"
kernel void k(global atomic_int *c) {
  atomic_store_explicit(c, scope_a, memory_order_relaxed, memory_scope_device);
}
""", "__opencl_c_atomic_scope_device"),
    ("other_function_declared", GROUP_H.replace(b"OVERLOADABLE int work_group_broadcast(int a, unsigned long local_id);\n", b""),
     b"""#include "lib.h"
kernel void k(global int *o) { o[get_global_id(0)] = work_group_broadcast(my_broadcast(1), 0); }
""", "__opencl_c_work_group_collective_functions"),
]


def _write(tmp: Path, header: bytes, source: bytes) -> Path:
    (tmp / "lib.h").write_bytes(header)
    path = tmp / "k.cl"
    path.write_bytes(source)
    return path


def reported(tmp: Path, header: bytes, source: bytes) -> list[tuple[str, str]]:
    path = _write(tmp, header, source)
    diags = lint_tree(str(path), source, parse(source), LintOptions(), include_resolver=FileIncludeResolver())
    return sorted((d.code, d.message) for d in diags if d.code == "CL301")


def _score(cases: list, tmp: Path) -> tuple[int, int]:
    right = 0
    for name, header, source, feature in cases:
        folder = tmp / name
        folder.mkdir()
        got = reported(folder, header, source)
        right += (not got) if feature is None else bool(got) and all(feature in m for _, m in got)
    return right, len(cases)


@pytest.mark.skipif(CLANG is None, reason="clang-19 labels the cases")
@pytest.mark.parametrize("case", TUNE + HELDOUT, ids=lambda c: c[0])
def test_the_label_is_clangs(case: tuple, tmp_path: Path) -> None:
    _, header, source, feature = case
    path = _write(tmp_path, header, source)
    done = subprocess.run([CLANG, "-x", "cl", "-cl-std=CL3.0", "-target", "spir64", "-fsyntax-only", "-cl-no-stdinc",
                           "-Xclang", "-cl-ext=-all", str(path)], capture_output=True, text=True, timeout=60)
    assert (done.returncode != 0) == (feature is not None), done.stderr


@pytest.mark.parametrize("case", TUNE, ids=lambda c: c[0])
def test_tune(case: tuple, tmp_path: Path) -> None:
    _, header, source, feature = case
    got = reported(tmp_path, header, source)
    if feature is None:
        assert got == []
    else:
        assert got and all(feature in message for _, message in got), got


def test_heldout(tmp_path: Path) -> None:
    right, total = _score(HELDOUT, tmp_path)
    assert right == total, (right, total)
