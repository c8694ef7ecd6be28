"""What `cllint check` imports on a small, clean kernel (issue 32: each module costs start-up
~0.3M instructions to find and load, before its body runs). Modules whose code only some
files reach (errors, macro-written overloads, double or pipe programs, compiler tests' RUN
lines, an edit's reparse) and standard modules only other formats or inputs need are
imported where they are used; the diagnostics are those of the tree before (the corpus
and the rule tests)."""

from __future__ import annotations

import json
from pathlib import Path

from check_in_process import check_with_modules

LAZY_CLLINT = [
    "cllint.analysis.preprocessor.expanded_items",
    "cllint.analysis.semantic.build_overloads",
    "cllint.analysis.gating.fp64_programs",
    "cllint.analysis.gating.pipe_programs",
    "cllint.analysis.gating.pragma_scope",
    "cllint.analysis.gating.clang_decided",
    "cllint.analysis.model.alternative_heads",
    "cllint.analysis.preprocessor.macro_args",
    "cllint.project.string_defines",
    "cllint.analysis.lit_runs",
    "cllint.analysis.semantic.suggest",
    # the race check's fences (barriers), loaded values and struct fields: stores of those only
    "cllint.analysis.races.fences",
    "cllint.analysis.races.stable_loads",
    "cllint.analysis.races.components",
    # the types headers declare: files with an `#include` only
    "cllint.analysis.semantic.header_types",
    # the incremental driver's function ranges: CL301's grouping of a file's unguarded uses
    "cllint.analysis.incremental",
]
LAZY_STDLIB = ["pickle", "glob", "copy", "shlex", "struct"]



def _check(tmp_path: Path, source: str, *options: str) -> tuple[str, set[str]]:
    folder = tmp_path / "k"
    folder.mkdir(exist_ok=True)
    path = folder / "k.cl"
    path.write_text(source)
    return check_with_modules(tmp_path, *options, str(path))


def test_a_clean_kernel_in_text_imports_none_of_them(tmp_path: Path) -> None:
    shown, modules = _check(tmp_path, "__kernel void k(__global float *a) { a[get_global_id(0)] = 1.0f; }\n")
    assert "k.cl" not in shown  # nothing reported
    assert modules.isdisjoint(LAZY_CLLINT), sorted(modules & set(LAZY_CLLINT))
    assert modules.isdisjoint(LAZY_STDLIB + ["json"]), sorted(modules & set(LAZY_STDLIB + ["json"]))


def test_json_output_still_imports_json_and_reports(tmp_path: Path) -> None:
    shown, modules = _check(tmp_path, "__kernel void k(__global int *a) { a[0] = undeclared; }\n", "--format", "json")
    assert "json" in modules
    found = json.loads(shown)
    assert [d["code"] for d in found] == ["CL010"]


def test_a_file_with_a_syntax_error_reads_its_expansions(tmp_path: Path) -> None:
    shown, modules = _check(tmp_path, "__kernel void k(__global int *a) { a[0] = ; }\n", "--format", "json")
    assert "cllint.analysis.preprocessor.expanded_items" in modules
    assert [d["code"] for d in json.loads(shown)] == ["CL001"]
