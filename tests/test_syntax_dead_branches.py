"""CL001 says nothing about text in a conditional branch that is known not to be compiled
(issue 17, item 6): known when the file's own `#define`s, `-D` or the chosen target decide
the condition. Where nothing decides it (a name the host passes with `-D` at build time), the
host picks the arm: nothing is reported in it (issue 29) until the build options are known
(`-D`, `define`, a `[[program]]`), and then the compiler's reading (an undefined macro is 0) holds."""

from __future__ import annotations

from cllint.analysis.lint import LintOptions, lint_tree
from cllint.analysis.target import Target
from cllint.grammar import parse

# The text that is not code sits in a branch with no written alternative, so the parser reads
# it (the first branch of a group is read, as a compiler would with the condition true).
DEAD_BY_FILE = b"""#define PAGES 4
kernel void k(global int *o) {
#if PAGES != 4
  ERROR: unsupported page count !!!
#endif
  o[0] = PAGES;
}
"""
UNDECIDED = b"""kernel void k(global int *o) {
#if PAGES != 4
  ERROR: unsupported page count !!!
#endif
  o[0] = 1;
}
"""
VERSION = b"""kernel void k(global int *o) {
#if __OPENCL_C_VERSION__ < 200
  ERROR: needs OpenCL C 2.0 !!!
#endif
  o[0] = 1;
}
"""


def syntax_lines(source: bytes, **options: object) -> list[int]:
    opts = LintOptions(select=("CL001",), **options)  # type: ignore[arg-type]
    diags = lint_tree("k.cl", source, parse(source), opts)
    return sorted({source.count(b"\n", 0, d.span.start) + 1 for d in diags})


def test_a_branch_the_file_rules_out_is_not_reported() -> None:
    assert syntax_lines(DEAD_BY_FILE) == []


def test_a_branch_the_host_decides_is_not_judged() -> None:
    assert syntax_lines(UNDECIDED) == []


def test_with_the_options_known_an_undefined_macro_is_0() -> None:
    lines = syntax_lines(UNDECIDED, options_known=True)
    assert 3 in lines or 4 in lines


def test_a_define_on_the_command_line_decides() -> None:
    assert syntax_lines(UNDECIDED, defines=(("PAGES", "4"),)) == []
    assert syntax_lines(UNDECIDED, defines=(("PAGES", "8"),)) != []


def test_the_target_decides_only_in_target_mode() -> None:
    cl20 = Target.preset("CL2.0")
    # target mode: a CL2.0 device does not compile the branch
    assert syntax_lines(VERSION, target=cl20, mode="target") == []
    # portability mode: the file may be built for any version; the branch may be compiled
    assert syntax_lines(VERSION, target=cl20, mode="portability") != []
    assert syntax_lines(VERSION, target=Target.preset("CL1.2"), mode="target") != []


# A bracket opened in an arm no compiler of OpenCL C takes leaves the file's end unclosed
# for the grammar, which reads every first arm (sph-style hash kernels copied from C sources
# whose closing `#ifdef __cplusplus }` was cut). The compiler sees no bracket at all.
CPLUSPLUS_OPEN = b"""#ifdef __cplusplus
extern "C"{
#endif
kernel void k(global int *o) { o[0] = 1; }
"""
LIVE_OPEN = b"""#ifdef cl_khr_fp64
void f(void) {
#endif
kernel void k(global int *o) { o[0] = 1; }
"""


def test_an_unclosed_bracket_opened_in_a_dead_arm_is_not_reported() -> None:
    assert syntax_lines(CPLUSPLUS_OPEN) == []


def test_an_unclosed_bracket_opened_in_a_live_arm_still_is() -> None:
    assert syntax_lines(LIVE_OPEN) != []
