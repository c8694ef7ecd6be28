"""Programs as their hosts build them (issue 29), end to end through `cllint check`: small
workspaces in the shapes real projects have (fragments joined by the host, `-D` names the
host passes or computes, include folders the build adds, files that are not OpenCL C,
`[[program]]` in the configuration), each checked the way a user runs it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def check(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=180)


def rows(r: subprocess.CompletedProcess) -> list[tuple[str, str, int]]:
    assert r.returncode in (0, 1), r.stderr
    return sorted((Path(x["path"]).name, x["code"], x["line"]) for x in json.loads(r.stdout))


def codes(r: subprocess.CompletedProcess) -> list[str]:
    return [c for _, c, _ in rows(r)]


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


COMMON = "#define SCALE 3\nfloat helper(float x) { return x * SCALE; }\n"
MAIN = "__kernel void k(__global float *a) { a[0] = helper(a[1]) * SCALE; }\n"


# -- fragments: names exactly one other source defines -----------------------------------


def test_a_fragment_reads_the_source_that_defines_its_names(tmp_path: Path) -> None:
    write(tmp_path, {"common.cl": COMMON, "main.cl": MAIN})
    assert rows(check(".", cwd=tmp_path)) == [("main.cl", "CL007", 1)]
    # named alone, the file still sees the sources beside it
    assert rows(check("main.cl", cwd=tmp_path)) == [("main.cl", "CL007", 1)]


def test_the_note_names_the_source_and_the_names(tmp_path: Path) -> None:
    write(tmp_path, {"common.cl": COMMON, "main.cl": MAIN})
    (row,) = json.loads(check("main.cl", cwd=tmp_path).stdout)
    assert row["severity"] == "info"
    assert row["message"] == ("uses 2 names from common.cl ('SCALE', 'helper'): read as one program, "
                              "that source first")
    assert (row["line"], row["column"], row["end_column"]) == (1, 45, 51)  # the first use


def test_a_name_two_sources_define_is_not_guessed(tmp_path: Path) -> None:
    write(tmp_path, {"a.cl": COMMON, "b.cl": COMMON, "main.cl": MAIN})
    assert ("main.cl", "CL011", 1) in rows(check(".", cwd=tmp_path))


def test_an_alternative_implementation_is_not_a_prelude(tmp_path: Path) -> None:
    # both define `k`: they cannot be one program, so v2's `tail` is not v1's
    v1 = "float tail(float x) { return x; }\n__kernel void k(__global float *a) { a[0] = tail(a[1]); }\n"
    v2 = "__kernel void k(__global float *a) { a[0] = tail(a[1]); }\n"
    write(tmp_path, {"v1.cl": v1, "v2.cl": v2})
    assert rows(check(".", cwd=tmp_path)) == [("v2.cl", "CL011", 2 - 1)]


def test_a_function_only_a_paste_makes_comes_from_its_header(tmp_path: Path) -> None:
    header = ("#define DECLARE(T) inline T T##_twice(T x) { return x + x; }\n"
              "DECLARE(float)\n")
    user = "__kernel void k(__global float *a) { a[0] = float_twice(a[1]); }\n"
    write(tmp_path, {"kernels/pasted.h": header, "kernels/user.cl": user})
    assert codes(check(".", cwd=tmp_path)) == ["CL007"]


# -- what the host code says ---------------------------------------------------------------


def test_names_the_host_passes_with_minus_d_are_not_undeclared(tmp_path: Path) -> None:
    write(tmp_path, {
        "k.cl": "__kernel void k(__global float *a) { a[0] = TILE * WIDTH + offset; }\n",
        "host.cpp": 'void build(cl_program p) { clBuildProgram(p, 0, 0, "-DTILE=16 -D WIDTH=4", 0, 0); }\n',
        "run.py": 'import pyopencl as cl\nopts = [f"-Doffset={3}"]\n',
    })
    assert codes(check(".", cwd=tmp_path)) == []
    # without the host code the names are reported
    (tmp_path / "host.cpp").unlink()
    (tmp_path / "run.py").unlink()
    assert sorted(set(codes(check(".", cwd=tmp_path)))) == ["CL010", "CL012"]


@pytest.mark.parametrize("host", [
    'sprintf(buf, " %s-D MAX_THREADS=%lu ", opts, n);\n',
    'snprintf(buf, sizeof buf, "%s -DMAX_THREADS=%d", base, n);\n',
    'options += std::string("-DMAX_THREADS=") + std::to_string(n);\n',
])
def test_a_minus_d_after_a_format_placeholder_or_at_a_string_start(tmp_path: Path, host: str) -> None:
    write(tmp_path, {"k.cl": "__kernel void k(__global float *a) { a[get_global_id(0) % MAX_THREADS] = 0; }\n",
                     "host.c": host})
    assert codes(check(".", cwd=tmp_path)) == []


TUNED = "__kernel void k(__global float *a) { a[get_global_id(0) * WPTX] = VECTOR; }\n"


@pytest.mark.parametrize("host", [
    ("tune.cc", 'tuner.AddParameter(id, "WPTX", {1, 2, 4});\ntuner.AddParameter(id, "VECTOR", {1, 2});\n'),
    ("tune.py", 'tune_params = dict()\ntune_params["WPTX"] = [1, 2, 4]\ntune_params["VECTOR"] = [1, 2]\n'),
    ("miner.cpp", 'addDefinition(code, "WPTX", 64);\naddDefinition(code, "VECTOR", 2);\n'),
])
def test_names_a_kernel_tuner_defines_are_the_hosts(tmp_path: Path, host: tuple[str, str]) -> None:
    # auto-tuners (CLTune, CLBlast's tuners, Kernel Tuner) pass each tuning parameter with -D
    write(tmp_path, {"k.cl": TUNED, host[0]: host[1]})
    assert codes(check(".", cwd=tmp_path)) == []


def test_a_name_the_host_only_prints_is_not_passed(tmp_path: Path) -> None:
    write(tmp_path, {"k.cl": TUNED, "host.c": 'printf("WPTX VECTOR\\n");\nlog_value("WPTX", 1);\n'})
    assert codes(check(".", cwd=tmp_path)) == ["CL012", "CL012"]


def test_a_host_macro_that_stringizes_its_argument_after_minus_d(tmp_path: Path) -> None:
    write(tmp_path, {
        "kern/scale.cl": "__kernel void k(__global float *a) { a[0] = kFactor * a[1]; }\n",
        "src/args.hpp": '#define DefineKeyValue(key, v) " -D " #key "=" + std::to_string(v)\n',
        "src/scale.cpp": 'auto o = DefineKeyValue(kFactor, (f ? 1 : 2));\n',
    })
    assert codes(check(".", cwd=tmp_path)) == []


def test_a_kernel_the_host_builds_with_computed_names(tmp_path: Path) -> None:
    kernel = "__kernel void k(__global float *a) { a[0] = binOp(a[1], a[2]); }\n"
    write(tmp_path, {
        "kernels/reduce.cl": kernel,
        "kernels/other.cl": kernel,
        "src/reduce.cpp": 'std::string opts = std::string(" -D ") + opName<T>();\nbuild(reduce_cl_src, opts);\n',
    })
    # reduce.cl is built with -D names computed at run time: its undeclared names are the host's
    assert rows(check(".", cwd=tmp_path)) == [("other.cl", "CL011", 1)]


def test_sources_a_host_joins_into_one_program(tmp_path: Path) -> None:
    ops = "#define binOp(a, b) ((a) + (b))\n"
    write(tmp_path, {
        "kernel/ops.cl": ops,
        "kernel/mul_ops.cl": "#define binOp(a, b) ((a) * (b))\n",
        "kernel/mean.cl": "__kernel void k(__global float *a) { a[0] = binOp(a[1], a[2]); }\n",
        "src/mean.cpp": "auto k = getKernel(\"mean\", {{ops_cl_src, mean_cl_src}}, args);\n",
    })
    r = json.loads(check(".", cwd=tmp_path).stdout)
    assert [(x["code"], x["message"]) for x in r] == [
        ("CL007", "read after ops.cl, as mean.cpp:1 joins them into one program")]


def test_an_include_the_build_finds_on_its_own_path(tmp_path: Path) -> None:
    write(tmp_path, {
        "include/util/defs.h": "#define WG 64\nfloat clampf(float x);\n",
        "kernels/k.cl": "#include <util/defs.h>\n__kernel void k(__global float *a) { a[0] = clampf(a[WG]); }\n",
    })
    assert codes(check(".", cwd=tmp_path)) == []


def test_an_include_two_folders_could_give_stays_missing(tmp_path: Path) -> None:
    write(tmp_path, {
        "a/defs.h": "#define WG 64\n", "b/defs.h": "#define WG 32\n",
        "kernels/k.cl": "#include <defs.h>\n__kernel void k(__global float *a) { a[0] = a[WG]; }\n",
    })
    assert "CL002" in codes(check(".", cwd=tmp_path))


def test_an_include_from_the_folder_the_host_runs_in(tmp_path: Path) -> None:
    # benchmark suites: every program has its own main.h; a kernel in prog/kernel/ built by a
    # host running in prog/ includes "./main.h", which the nearest enclosing folder gives
    write(tmp_path, {
        "heartwall/main.h": "#define NPOINTS 51\n", "srad/main.h": "#define NPOINTS 7\n",
        "heartwall/kernel/k.cl": '#include "./main.h"\n__kernel void k(__global float *a) { a[0] = a[NPOINTS]; }\n',
        "srad/kernel/k.cl": '#include "./main.h"\n__kernel void k(__global float *a) { a[0] = a[NPOINTS]; }\n',
        "other/k.cl": '#include "main.h"\n__kernel void k(__global float *a) { a[0] = a[NPOINTS]; }\n',
    })
    # other/ has no main.h above it: two folders could give it, so it stays missing
    assert rows(check(".", cwd=tmp_path)) == [("k.cl", "CL002", 1)]


def test_pyopencl_headers_come_from_the_installed_package(tmp_path: Path) -> None:
    pytest.importorskip("pyopencl")
    write(tmp_path, {"k.cl": "#include <pyopencl-complex.h>\n"
                             "__kernel void k(__global cfloat_t *a) { a[0] = cfloat_mul(a[1], a[2]); }\n"})
    assert codes(check(".", cwd=tmp_path)) == []


def test_a_header_beside_the_host_file_is_on_its_kernels_path(tmp_path: Path) -> None:
    # a host passes its own folder with -I (`["-I", dirname(__file__)]`): an angled include of
    # a header there is found; one found nowhere is still missing
    write(tmp_path, {
        "app/defs.h": "#define WIDTH 4\nfloat scale(float x);\n",
        "app/run.py": 'import pyopencl as cl\nsrc = """\n#include <defs.h>\n'
                      '__kernel void k(__global float *a) { a[0] = scale(a[WIDTH]); }\n"""\n'
                      'prg = cl.Program(ctx, src).build(["-I", dirname(__file__)])\n',
        "app/other.py": 'import pyopencl as cl\nsrc = """\n#include <nowhere.h>\n'
                        '__kernel void k(__global float *a) { a[0] = 1.0f; }\n"""\nprg = cl.Program(ctx, src).build()\n',
    })
    assert rows(check(".", cwd=tmp_path)) == [("other.py", "CL002", 3)]


# -- files that are not OpenCL C -------------------------------------------------------------


@pytest.mark.parametrize("text, reason", [
    ("#include <cuda_runtime.h>\n__global__ void k(float *a) { a[threadIdx.x] = 1; }\n", "CUDA source"),
    ('static const char *k = "__kernel void %NAME(__global %TYPE *a) {}";\n', "template"),
    ('MSTRINGIFY(\n__kernel void k(__global float *a) { a[0] = 1; }\n)\n', "C string"),
    # a C declaration whose initializer is a stringifying macro (Darknet's OpenCL port)
    ('#ifndef K_CL\n#define K_CL\nstatic const char* const k_source = CONVERT_KERNEL_TO_STRING(\n'
     '__kernel void k(__global float *a) { a[0] = 1; }\n);\n#endif\n', "C string"),
    ('const char *src = TO_STR(\n__kernel void k(__global float *a) { a[0] = 1; }\n);\n', "C string"),
    ('static const char kernel_src[] = KSTR(\n__kernel void k(__global float *a) { a[0] = 1; }\n);\n',
     "C string"),  # held out: written with the two above, run after the change
    ('R"(\n__kernel void a(__global float *p) { p[0] = 1; }\n)"\n\nR"(\n__kernel void b() {}\n)"\n',
     "several pieces"),
    ("template <typename T> T twice(T x) { return x + x; }\n", "C++ source"),
])
def test_a_file_that_is_not_opencl_c_gets_one_note(tmp_path: Path, text: str, reason: str) -> None:
    write(tmp_path, {"k.cl": text})
    (row,) = json.loads(check(".", cwd=tmp_path).stdout)
    assert row["code"] == "CL006" and row["severity"] == "info" and row["line"] == 1
    assert reason in row["message"]


def test_one_raw_string_around_the_file_is_still_linted(tmp_path: Path) -> None:
    write(tmp_path, {"k.opencl": 'R"(\n__kernel void k(__global float *a) { a[0] = nope; }\n)"\n'})
    assert codes(check(".", cwd=tmp_path)) == ["CL010"]


# -- arms the host picks ---------------------------------------------------------------------


ARMS = ("__kernel void k(__global float *a) {\n#ifdef USE_B\n  a[0] = nope;\n#else\n  a[0] = 1.0f;\n#endif\n"
        "#if (LOOKUP_GAP != 2)\nwrong lookup gap!\n#endif\n}\n")


def test_nothing_is_reported_in_an_arm_the_host_picks(tmp_path: Path) -> None:
    write(tmp_path, {"k.cl": ARMS})
    assert codes(check(".", cwd=tmp_path)) == []
    # once the options are given, an undefined macro is 0, as the compiler reads it
    got = rows(check("-D", "LOOKUP_GAP=2", "-D", "USE_B", ".", cwd=tmp_path))
    assert ("k.cl", "CL010", 3) in got and not any(line == 8 for _, _, line in got)


# -- [[program]] in the configuration --------------------------------------------------------


def test_a_configured_program_gives_the_order_and_the_options(tmp_path: Path) -> None:
    write(tmp_path, {
        "common.cl": COMMON,
        "main.cl": "__kernel void k(__global float *a) {\n#ifdef USE_B\n  a[0] = nope;\n#endif\n"
                   "  a[1] = helper(a[2]) * EXTRA;\n}\n",
        ".cllint.toml": '[[program]]\nsources = ["common.cl", "main.cl"]\noptions = "-DEXTRA=2 -cl-mad-enable"\n',
    })
    assert codes(check(".", cwd=tmp_path)) == []  # no CL007: the program is not a guess
    (tmp_path / ".cllint.toml").write_text('[[program]]\nsources = ["common.cl", "main.cl"]\n'
                                           'options = "-DEXTRA=2 -D USE_B"\n')
    assert rows(check(".", cwd=tmp_path)) == [("main.cl", "CL010", 3)]


def test_a_force_included_header_and_the_version(tmp_path: Path) -> None:
    write(tmp_path, {
        "defs.h": "#define OVERLOADABLE __attribute__((overloadable))\n",
        "lib.cl": "OVERLOADABLE float sq(float x) { return x * x; }\nOVERLOADABLE int sq(int x) { return x * x; }\n"
                  "__kernel void k(__global float *a, __global int *b) { a[0] = sq(a[1]); b[0] = sq(b[1]); }\n",
        "pyproject.toml": '[tool.cllint]\n[[tool.cllint.program]]\nsources = ["lib.cl"]\n'
                          'options = "-include defs.h -cl-std=CL2.0"\n',
    })
    assert codes(check(".", cwd=tmp_path)) == []


@pytest.mark.parametrize("program, line, message", [
    ('sources = ["common.cl", "mian.cl"]\n', 2, "source 'mian.cl' of [[program]] not found"),
    ('sources = ["*.cu"]\n', 2, "no file matches '*.cu'"),
    ('sources = ["main.cl"]\noptions = "-DX=1 -cl-bogus"\n', 3, "unknown build option '-cl-bogus'"),
    ('sources = ["main.cl"]\noptions = "-include nothere.h"\n', 3, "'-include nothere.h': file not found"),
    ('sources = ["main.cl"]\noptions = "-D 1X"\n', 3, "'1X' is not a macro name"),
    ('sources = ["main.cl"]\nflags = "-DX"\n', 3, "unknown key 'flags' in [[program]]"),
    ('sources = []\n', 2, "needs 'sources'"),
])
def test_a_bad_program_is_named_with_its_file_and_line(tmp_path: Path, program: str, line: int, message: str) -> None:
    write(tmp_path, {"common.cl": COMMON, "main.cl": MAIN, ".cllint.toml": "[[program]]\n" + program})
    r = check(".", cwd=tmp_path)
    assert r.returncode == 2
    assert f".cllint.toml:{line}: " in r.stderr and message in r.stderr, r.stderr


# -- bad input -------------------------------------------------------------------------------


def test_unreadable_host_code_and_include_cycles_lose_nothing(tmp_path: Path) -> None:
    write(tmp_path, {
        "host.cpp": "clBuildProgram(p, 0, 0, \"-D \" + (((( ;;; \xff\n",
        "a.h": '#include "b.h"\n#define A 1\n', "b.h": '#include "a.h"\n#define B 2\n',
        "k.cl": '#include "a.h"\n__kernel void k(__global int *o) { o[0] = A + B + nope; }\n',
    })
    (tmp_path / "bin.cpp").write_bytes(b"\x00\x01\x02-D\x00")
    assert rows(check(".", cwd=tmp_path)) == [("k.cl", "CL010", 2)]


def test_the_compiler_layer_reads_the_program_too(tmp_path: Path) -> None:
    write(tmp_path, {"common.cl": COMMON, "main.cl": MAIN, "k.cl": ARMS})
    r = check("--compiler", "clang", ".", cwd=tmp_path)
    if shutil.which("clang-19") is None:  # (scripts/setup installs it; without it the option is refused)
        assert r.returncode == 2 and "clang" in r.stderr
        return
    # main.cl compiles after common.cl; k.cl's arms are the host's: no CL099 anywhere
    assert codes(r) == ["CL007"]


DEFAULTED = ("#ifndef USE_FP32\n#define USE_FP32 0\n#endif\n#ifndef USE_INT8\n#define USE_INT8 0\n#endif\n"
             "#if USE_INT8\ntypedef char data_t;\n#elif USE_FP32\ntypedef float data_t;\n#endif\n"
             "__kernel void k(__global data_t *a) { a[0] = a[1]; }\n")


def test_a_default_the_host_overrides_is_the_hosts_choice(tmp_path: Path) -> None:
    # `#ifndef X / #define X 0`: a default; the host passes -DX=1, so which arm builds is its choice
    write(tmp_path, {"k.cl": DEFAULTED})
    r = check("--compiler", "clang", ".", cwd=tmp_path)
    if shutil.which("clang-19") is None:
        assert r.returncode == 2 and "clang" in r.stderr
        return
    # no host: clang-19's build of the defaults has no data_t, but the native rules see it
    # declared in the arms a -D picks (issue 29, item 3): clang's build is a guess, no CL099
    assert codes(r) == []
    write(tmp_path, {"host.cpp": 'params += " -DUSE_FP32=1";\nclBuildProgram(p, 1, &d, params.c_str(), 0, 0);\n'})
    assert "CL099" not in codes(check("--compiler", "clang", ".", cwd=tmp_path))
    # options the user states make a build clang can check: its own findings come back
    write(tmp_path, {"k.cl": DEFAULTED.replace("a[0] = a[1];", "a[0] = a[1] % a[2];")})
    (tmp_path / "host.cpp").unlink()
    assert codes(check("--compiler", "clang", "-D", "USE_FP32=1", ".", cwd=tmp_path)) == ["CL099"]


def test_an_extension_the_host_checks_is_its_choice(tmp_path: Path) -> None:
    kernel = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n__kernel void k(__global half *h) { h[0] = h[1]; }\n"
    write(tmp_path, {"k.cl": kernel})
    assert "CL301" in codes(check(".", cwd=tmp_path))
    # the host builds it only where the device has the extension
    write(tmp_path, {"host.cpp": 'bool fp16 = strstr(extensions, "cl_khr_fp16") != nullptr;\n'})
    assert "CL301" not in codes(check(".", cwd=tmp_path))


IMAGE_KERNEL = ("__kernel void k(__read_only image2d_t img, sampler_t s, __global float4 *o) {\n"
                "  o[0] = read_imagef(img, s, (int2)(0, 0));\n}\n")


@pytest.mark.parametrize("host", [
    ("host.c", "cl_mem img = clCreateImage(ctx, CL_MEM_READ_ONLY, &fmt, &desc, NULL, &err);\n"),
    ("host.cpp", "cl::Image2D img(context, CL_MEM_READ_ONLY, format, w, h);\n"),
    ("host.py", "img = cl.Image(ctx, cl.mem_flags.READ_ONLY, fmt, shape=(w, h))\n"),
    ("legacy.c", "cl_mem img = clCreateImage2D(ctx, CL_MEM_READ_ONLY, &fmt, w, h, 0, NULL, &err);\n"),
])
def test_a_host_that_creates_images_requires_them(tmp_path: Path, host: tuple[str, str]) -> None:
    write(tmp_path, {"k.cl": IMAGE_KERNEL})
    assert "CL301" in codes(check(".", cwd=tmp_path))
    # the program cannot run on a device without images: the host's own calls would fail first
    write(tmp_path, {host[0]: host[1]})
    assert "CL301" not in codes(check(".", cwd=tmp_path))


def test_a_host_that_only_mentions_images_in_text_requires_nothing(tmp_path: Path) -> None:
    write(tmp_path, {"k.cl": IMAGE_KERNEL,
                     "host.c": "// TODO: use clCreateImage here one day\nputs(\"cl::Image2D\");\n"})
    assert "CL301" in codes(check(".", cwd=tmp_path))


def test_a_macro_several_sources_define_is_never_passed_with_minus_d(tmp_path: Path) -> None:
    write(tmp_path, {"a.cl": "#define TILE 8\n", "b.cl": "#define TILE 16\n",
                     "main.cl": "__kernel void k(__global float *x) { x[0] = TILE; }\n"})
    assert "CL012" not in codes(check(".", cwd=tmp_path))
    (tmp_path / "a.cl").unlink()
    (tmp_path / "b.cl").unlink()
    assert codes(check(".", cwd=tmp_path)) == ["CL012"]


def test_cplusplus_in_a_language_arm_is_still_opencl(tmp_path: Path) -> None:
    write(tmp_path, {"k.cl": "#ifdef __cplusplus\ntemplate <typename T> T id(T x) { return x; }\n#endif\n"
                             "__kernel void k(__global int *o) { o[0] = nope; }\n"})
    assert codes(check(".", cwd=tmp_path)) == ["CL010"]


def test_go_to_definition_follows_a_name_into_the_source_read_before(tmp_path: Path) -> None:
    from cllint.analysis.db import Change, Host
    from cllint.analysis.ide import navigation
    from cllint.analysis.lint import LintOptions
    from cllint.includes import FileIncludeResolver
    from cllint.project.model import Project

    write(tmp_path, {"common.cl": COMMON, "main.cl": MAIN})
    main = tmp_path / "main.cl"
    options = Project([tmp_path]).context(main).apply(LintOptions())
    host = Host(include_resolver=FileIncludeResolver([]))
    host.apply_change(Change(files={str(main): main.read_bytes()}, options={str(main): options}))
    snap = host.snapshot()
    assert snap.diagnostics(str(main))[0].code == "CL007"  # and no CL011: the name is declared
    (loc,) = navigation.definition(snap, str(main), MAIN.index("helper"))
    assert Path(loc.file).name == "common.cl" and COMMON.encode()[loc.start:loc.end] == b"helper"


def test_a_program_of_several_strings_some_computed_is_not_read_piece_by_piece(tmp_path: Path) -> None:
    write(tmp_path, {"host.c": (
        'void make(cl_context ctx, int single) {\n'
        '  const char *sources[3] = {\n'
        '    "__kernel void fill(__global ",\n'
        '    single ? "float" : "double",\n'
        '    "* out) { out[get_global_id(0)] = 0; }\\n",\n'
        '  };\n'
        '  clCreateProgramWithSource(ctx, 3, sources, 0, 0);\n'
        '}\n')})
    assert codes(check(".", cwd=tmp_path)) == []
    # one literal is still a kernel of its own
    write(tmp_path, {"host.c": 'const char *src = "__kernel void k(__global int *o) { o[0] = nope; }";\n'
                               'void make(cl_context c) { clCreateProgramWithSource(c, 1, &src, 0, 0); }\n'})
    assert codes(check(".", cwd=tmp_path)) == ["CL010"]


def test_include_on_the_command_line_is_read_first(tmp_path: Path) -> None:
    write(tmp_path, {
        "defs.h": "#define OVERLOADABLE __attribute__((overloadable))\n#define SCALE 2.0f\n",
        "lib.cl": "OVERLOADABLE float sq(float x) { return x * x; }\nOVERLOADABLE int sq(int x) { return x * x; }\n"
                  "__kernel void k(__global float *a) { a[0] = sq(a[1]) * SCALE; }\n",
    })
    # SCALE unknown: not what the build reads (an unknown word before a name that is defined
    # twice is taken for the build's attribute, so OVERLOADABLE alone says nothing: issue 29)
    assert codes(check("lib.cl", cwd=tmp_path)) != []
    assert codes(check("--include", "defs.h", "lib.cl", cwd=tmp_path)) == []
    r = check("--include", "nothere.h", "lib.cl", cwd=tmp_path)
    assert r.returncode == 2 and "--include nothere.h: no such file" in r.stderr
