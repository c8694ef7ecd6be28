"""A fragment reads its includer's text before the `#include` line (issue 29): a source only
ever `#include`d by another is analysed on its own with what the includer defines before that
line (macros, types, functions) read first, as the compiler reads the includer's program. What
the includer defines after the line stays unknown; positions in the fragment are its own.
Written before the change; the `heldout` cases were run only once the code was done."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CLANG = shutil.which("clang-19")
UNKNOWN = ("CL010", "CL012")


def check(*args: str, cwd: Path) -> list[dict]:
    r = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json", "--exit-zero", *args],
                       cwd=cwd, capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def errors(found: list[dict], name: str) -> list[tuple[str, int, int, str]]:
    return sorted((d["code"], d["line"], d["column"], d["message"]) for d in found
                  if Path(d["path"]).name == name and d["severity"] in ("error", "warning"))


MAIN = """#define WIDTH 16
typedef ulong u64;
inline u64 rotl(u64 x, uint n) { return (x << n) | (x >> (64 - n)); }
#include "frag.cl"
#define LATE 3
__kernel void run(__global u64 *o) { o[0] = mix(o[1]); }
"""
FRAG = "u64 mix(u64 v) { return rotl(v, WIDTH % 64); }\n"


def test_tune_a_fragment_sees_the_macro_type_and_function_before_its_include(tmp_path: Path) -> None:
    write(tmp_path, {"main.cl": MAIN, "frag.cl": FRAG})
    assert errors(check(".", cwd=tmp_path), "frag.cl") == []


@pytest.mark.skipif(CLANG is None, reason="clang-19 is the oracle (scripts/setup installs it)")
def test_tune_the_compiler_layer_reads_the_includers_head_too(tmp_path: Path) -> None:
    write(tmp_path, {"main.cl": MAIN, "frag.cl": FRAG})
    found = check("--compiler", "clang", ".", cwd=tmp_path)
    assert errors(found, "frag.cl") == [] and errors(found, "main.cl") == []


def test_tune_a_name_defined_after_the_include_is_still_unknown_at_its_own_place(tmp_path: Path) -> None:
    frag = "u64 mix(u64 v) {\n    return rotl(v, WIDTH % 64) + LATE;\n}\n"
    write(tmp_path, {"main.cl": MAIN, "frag.cl": frag})
    found = errors(check(".", cwd=tmp_path), "frag.cl")
    # unknown: undeclared (CL010), or for a macro-like name, not defined in the file (CL012)
    assert [(code in UNKNOWN, line, col) for code, line, col, _ in found] == [(True, 2, 34)], found
    assert "'LATE'" in found[0][3]


def test_tune_the_editor_reads_the_same_program(tmp_path: Path) -> None:
    """The server's path: the project's context applied to the options, a Host with a resolver."""
    from cllint.analysis.db import Change, Host
    from cllint.analysis.lint import LintOptions
    from cllint.includes import FileIncludeResolver
    from cllint.project.model import Project

    write(tmp_path, {"main.cl": MAIN, "frag.cl": FRAG})
    frag = tmp_path / "frag.cl"
    options = Project([tmp_path]).context(frag).apply(LintOptions())
    host = Host(include_resolver=FileIncludeResolver([]))
    host.apply_change(Change(files={str(frag): frag.read_bytes()}, options={str(frag): options}))
    diags = host.snapshot().diagnostics(str(frag))
    assert [d.code for d in diags if d.severity.value in ("error", "warning")] == []
    if CLANG is not None:
        from cllint.compiler import run_clang

        assert "error" not in run_clang(CLANG, frag.read_bytes(), options, tmp_path)


# -- held out ------------------------------------------------------------------------------

HELD_MAIN = """#define SQR(x) ((x) * (x))
typedef struct { float a; float b; } pair_t;
#include "defs.h"
float norm2(pair_t p) { return SQR(p.a) + SQR(p.b); }
#include "parts/frag2.cl"
__kernel void k(__global float *o) { pair_t p = { o[0], o[1] }; o[2] = scaled(p); }
"""
HELD_DEFS = "#define FACTOR 0.5f\n"
HELD_FRAG = "float scaled(pair_t p) {\n    return norm2(p) * FACTOR + SQR(p.a);\n}\n"


def test_heldout_a_function_like_macro_a_struct_and_a_header_before_a_subfolder_include(tmp_path: Path) -> None:
    write(tmp_path, {"main.cl": HELD_MAIN, "defs.h": HELD_DEFS, "parts/frag2.cl": HELD_FRAG})
    args = ("--compiler", "clang", ".") if CLANG is not None else (".",)
    found = check(*args, cwd=tmp_path)
    assert errors(found, "frag2.cl") == [] and errors(found, "main.cl") == []


def test_heldout_a_name_after_the_include_stays_unknown_and_the_rest_is_known(tmp_path: Path) -> None:
    main = HELD_MAIN.replace("__kernel", "#define LIMIT 4\n__kernel")
    frag = HELD_FRAG.replace("+ SQR(p.a);", "+ SQR(p.a) * LIMIT;")
    write(tmp_path, {"main.cl": main, "defs.h": HELD_DEFS, "parts/frag2.cl": frag})
    found = errors(check(".", cwd=tmp_path), "frag2.cl")
    assert [(code in UNKNOWN, line) for code, line, _, _ in found] == [(True, 2)], found
    assert "'LIMIT'" in found[0][3]
