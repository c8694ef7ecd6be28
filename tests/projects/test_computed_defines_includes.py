"""A source that a kernel built with computed `-D` options `#include`s is built with those
options too (issue 29): gpuowl's host passes `" -D"s + k + '=' + value` for `EXP`, `WIDTH`...
when it builds carry.cl, whose `#include "carryutil.cl"` uses `EXP`. Written before the change;
the held-out third was run once the code was done."""

from __future__ import annotations

from pathlib import Path

from test_project_model import check, rows, write

HOST = ('#include <string>\nstd::string toDefine(const std::string& k, int v) { return " -D" + k + "=" + '
        'std::to_string(v); }\nstd::string all(int e, int w) {\n  std::string s;\n'
        '  for (auto& [k, v] : std::vector<std::pair<std::string, int>>{{"E" "XP", e}, {"WID" "TH", w}}) '
        's += toDefine(k, v);\n  return s;\n}\nvoid build() { load("main.cl", all(3, 4)); }\n')
MAIN = '#include "util.cl"\n__kernel void k(__global uint *a) { a[get_global_id(0)] = bits(); }\n'
UTIL = "uint bits(void) { return EXP / 2; }\n"


def _cl012(root: Path) -> list[tuple[str, str, int]]:
    return [r for r in rows(check(".", cwd=root)) if r[1] == "CL012"]


def test_an_included_source_gets_the_includers_options_tune(tmp_path: Path) -> None:
    write(tmp_path, {"host.cpp": HOST, "main.cl": MAIN, "util.cl": UTIL})
    assert _cl012(tmp_path) == []


def test_without_the_host_the_name_is_reported_tune(tmp_path: Path) -> None:
    write(tmp_path, {"main.cl": MAIN, "util.cl": UTIL})
    assert _cl012(tmp_path) == [("util.cl", "CL012", 1)]


def test_a_source_no_built_kernel_includes_is_still_reported_tune(tmp_path: Path) -> None:
    write(tmp_path, {"host.cpp": HOST, "main.cl": MAIN, "util.cl": UTIL,
                     "other.cl": '#include "lone.cl"\n__kernel void o(__global uint *a) { a[0] = f(); }\n',
                     "lone.cl": "uint f(void) { return WIDTH * 2; }\n"})
    assert _cl012(tmp_path) == [("lone.cl", "CL012", 1)]


def test_two_levels_of_includes_held_out(tmp_path: Path) -> None:
    write(tmp_path, {"host.cpp": HOST, "main.cl": '#include "mid.cl"\n__kernel void k(__global uint *a) '
                     '{ a[0] = mid(); }\n', "mid.cl": '#include "leaf.cl"\nuint mid(void) { return leaf() + 1; }\n',
                     "leaf.cl": "uint leaf(void) { return WIDTH * 2; }\n"})
    assert _cl012(tmp_path) == []


def test_a_cxx14_string_literal_suffix_tune(tmp_path: Path) -> None:
    # `" -D"s + k`: the std::string literal operator between the quote and the `+`
    write(tmp_path, {"host.cpp": HOST.replace('" -D" + k', '" -D"s + k'), "main.cl": MAIN, "util.cl": UTIL})
    assert _cl012(tmp_path) == []
