"""Headers the host hands the compiler by name (issue 29, session 13): `clCompileProgram`'s
`header_include_names`, pyopencl's `compile(headers=[("pi.h", prg)])` and a C++ method that
adds a header to a program (`AddHeader("inputmaps.cl", src)`, `add_custom_header("gemm_kq.h",
...)`). An `#include` of such a name is no CL002: the header exists when the host builds.

Each case folder is a small workspace checked as a user runs `cllint check .` in it, labelled by
clang-19 building the program as `BUILD` says, with the headers the host supplies (`supplied:`,
their text in `<name>.supplied`) on an include path of their own. `heldout/` was written with
`tune/` and not looked at while the code was written."""

from __future__ import annotations

from pathlib import Path

import pytest
from labelled_workspaces import CLANG, build, build_fields, case_id, cases, clang_build, expected, reports

CASES = cases("host_headers")


def test_both_sets_have_cases() -> None:
    assert {p.parent.name for p in CASES} == {"tune", "heldout"}


@pytest.mark.skipif(CLANG is None, reason="clang-19 labels the cases")
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_label_is_clangs(case: Path, tmp_path: Path) -> None:
    supplied = tmp_path / "supplied"
    for name in build_fields(case).get("supplied", "").split():
        (supplied / name).parent.mkdir(parents=True, exist_ok=True)
        (supplied / name).write_bytes((case / f"{name}.supplied").read_bytes())
    done = clang_build(case, tmp_path, "CL1.2", "-I", str(supplied))
    assert (done.returncode != 0) == bool(expected(case)), done.stderr


def test_an_embedded_kernels_label_reads_the_hosts_string() -> None:
    for case in CASES:
        for s in build(case)[1]:
            if s.endswith(".txt"):  # the kernel the Python host holds, as clang reads it
                kernel = (case / s).read_text().strip()
                assert any(kernel in p.read_text() for p in case.glob("*.py")), case


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_reports_are_the_labels(case: Path) -> None:
    assert reports(case) == expected(case)


def _names(**files: str) -> list[str]:
    from cllint.project.host_headers import host_header_names

    return sorted(host_header_names({Path(name.replace("_", ".")): text.encode() for name, text in files.items()}))


def test_the_core_apis_names_come_from_its_seventh_argument() -> None:
    # the spec's example (OpenCL 1.2, clCompileProgram), and a compound literal
    spec = """cl_program input_headers[2] = { foo_pg, myinc_pg };
              char * input_header_names[2] = { "foo.h", "mydir/myinc.h" };
              clCompileProgram(program_A, 0, NULL, // num_devices & device_list
                               NULL, 2, input_headers, input_header_names, NULL, NULL);"""
    assert _names(a_c=spec) == ["foo.h", "mydir/myinc.h"]
    literal = 'clCompileProgram(p, 0, NULL, "-DX", 1, &h, (const char *[]){"x.h"}, NULL, NULL);'
    assert _names(a_cpp=literal) == ["x.h"]
    pushed = 'names.push_back("p.h"); clCompileProgram(p, 0, 0, 0, 1, hs.data(), names.data(), 0, 0);'
    assert _names(a_cpp=pushed) == ["p.h"]
    # a literal in another argument (the options) is no header name
    assert _names(a_c='clCompileProgram(p, 0, NULL, "-include x.h", 0, NULL, NULL, NULL, NULL);') == []


def test_a_method_adds_a_header_only_by_its_name_and_a_header_suffix() -> None:
    assert _names(a_cpp='prog.AddHeader("a.cl", s); ctx->add_custom_header("b.h", t); p.addHeaders("c.clh", u);') \
        == ["a.cl", "b.h", "c.clh"]
    # not a header-adding method, a name with no header suffix, a free function, a header path
    assert _names(a_cpp='p.AddSource("a.cl", s); p.AddHeader("config", s); AddHeader("b.h", s); '
                        'p.add_header_dir("inc/c.h"); p.ReadHeader("d.h");') == []


def test_pyopencls_names_are_those_of_compile_headers() -> None:
    assert _names(run_py='prg = cl.Program(ctx, src).compile(options=[], headers=[("pi.h", pi), (\'e.h\', e)])') \
        == ["e.h", "pi.h"]
    # `headers=` of another call (an HTTP request) names no OpenCL header
    assert _names(run_py='requests.get(url, headers=[("X-Key", "k.h")]); prg.compile()') == []


def test_a_source_gets_only_the_names_it_includes() -> None:
    from cllint.project.supplied_headers import included_of

    text = b'#include "a.h"\n#  include <dir/b.h>\n// c.h\nconst char *s = "d.h";\n'
    assert included_of(["a.h", "dir/b.h", "c.h", "d.h", "b.h"], text) == ("a.h", "dir/b.h")


def test_the_preprocessor_excuses_only_the_names_the_resolver_carries() -> None:
    from cllint.analysis.lint import LintOptions
    from cllint.analysis.preprocessor.view import build_view, program_resolver
    from cllint.analysis.target import Target
    from cllint.includes import FileIncludeResolver

    text = b'#include "given.h"\n#include "absent.h"\nkernel void k(void) {}\n'
    resolver = FileIncludeResolver([], host_headers=["given.h"])
    view = build_view("/nowhere/k.cl", text, target=Target.preset("CL1.2"), include_resolver=resolver)
    assert [d.message for d in view.diagnostics if d.code == "CL002"] == ["cannot find include file 'absent.h'"]
    # the editor's resolver (a plain callable) is wrapped to carry them
    wrapped = program_resolver(lambda name, angled, including: None, LintOptions(host_headers=("given.h",)))
    assert wrapped is not None and "given.h" in getattr(wrapped, "host_headers")


def test_the_names_reach_the_options_and_their_cache_key() -> None:
    from cllint.analysis.lint import LintOptions
    from cllint.project.model import ProgramContext
    from cllint.results_cache import options_key

    given = ProgramContext(host_headers=("gemm.h",)).apply(LintOptions())
    assert given.host_headers == ("gemm.h",)
    assert given != LintOptions() and options_key(given) != options_key(LintOptions())


def test_clang_does_not_build_a_file_whose_header_the_host_supplies() -> None:
    from cllint.analysis.lint import LintOptions
    from cllint.compiler import build_known

    source = b'#include "gemm.h"\nkernel void k(void) {}\n'
    assert build_known(source, LintOptions(options_known=True))
    assert not build_known(source, LintOptions(options_known=True, host_headers=("gemm.h",)))
