"""Sources named on separate preprocessor lines of a host are separate statements, not one
program: Bullet3's `#define BT_NARROWPHASE_SAT_PATH ".../sat.cl"` then `#define
..._CONCAVE_PATH ".../satConcave.cl"` name one kernel file each (each built alone), and reading
them as joined gave clang-19 a redefinition of every shared struct (CL099 in the editor)."""

from __future__ import annotations

from pathlib import Path

from cllint.project.hosts import host_programs

STEMS = ["sat", "satConcave", "mpr", "common"]


def _programs(text: str, name: str = "host.cpp") -> list[tuple[str, ...]]:
    return [p.stems for p in host_programs({Path("/w") / name: text.encode()}, STEMS)]


def test_define_lines_name_one_source_each() -> None:
    text = ('#define SAT_PATH "kernels/sat.cl"\n'
            '#define SAT_CONCAVE_PATH "kernels/satConcave.cl"\n\n'
            '#define MPR_PATH "kernels/mpr.cl"\n')
    assert _programs(text) == []


def test_include_lines_name_one_source_each() -> None:
    text = '#include "kernels/sat.cl"\n#include "kernels/mpr.cl"\nbuild(program);\n'
    assert _programs(text) == []


def test_a_statement_still_joins_its_sources() -> None:
    text = 'const char *src[] = {\n    read("kernels/common.cl"),\n    read("kernels/sat.cl")\n};\n'
    assert _programs(text) == [("common", "sat")]


def test_a_continued_define_still_joins() -> None:  # one directive, continued with backslashes
    text = '#define SOURCES read("kernels/common.cl") + \\\n    read("kernels/mpr.cl")\n'
    assert _programs(text) == [("common", "mpr")]


def test_includes_inside_an_expression_join() -> None:  # CLBlast's raw-string kernels
    text = ('Routine r(queue, {"Xaxpy"},\n              {\n#include "../../kernels/common.opencl"\n'
            '// (comment to prevent auto-re-ordering)\n#include "../../kernels/mpr.opencl"\n              });\n')
    assert _programs(text.replace(".opencl", ".cl")) == [("common", "mpr")]


def test_python_comments_are_not_directives() -> None:
    text = 'src = (read("common.cl")\n       # the generator\n       + read("sat.cl"))\n'
    assert _programs(text, "host.py") == [("common", "sat")]


def test_includes_after_a_string_literal_join() -> None:  # CLBlast's tuner sources
    text = ('settings.sources = "#define ROUTINE_INVERT"\n#include "../kernels/common.opencl"\n'
            '#include "../kernels/mpr.opencl"\n      ;\n')
    assert _programs(text.replace(".opencl", ".cl")) == [("common", "mpr")]
