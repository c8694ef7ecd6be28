"""Clojure hosts (issue 29, session 22: the uncomplicate projects, clojurecl, bayadera,
neanderthal, build their kernels from `.clj` files):

- `(build-program! (program-with-source ctx [a-src b-src]) (format "-cl-std=CL2.0 -DWGS=%d" n))`
  builds its sources at that version, the option a literal, a `format` string or a name a `let`
  binds to one; the sources named directly (`(slurp "k/a.cl")`) or through names bound to a
  `slurp`;
- a source the build joins from a dependency's resources (`(slurp (io/resource
  "uncomplicate/clojurecl/kernels/reduction.cl"))`, no such file in the workspace) before a
  workspace source defines what that source leaves undeclared (CL011);
- `(enq-kernel! queue k (work-size [1]))` with `k (kernel prog "name")` launches one work-item:
  no race report in a kernel every launch of which is such;
- a `-I` whose folder the host fills in at run time (`(format "... -I%s/" dir)`, `"-I" + dir`,
  `f"-I{dir}"`) may supply any header the workspace lacks (CL002).

Cases written before the code, each a workspace checked as a user runs `cllint check .`; held
out by crc32(name) % 3 == 0 (inline_cases.split), first run once the code was done.

    .venv/bin/python tests/projects/test_clojure_hosts.py    # figures per half
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent))  # (tests/inline_cases.py)
from inline_cases import case_id, split  # noqa: E402
from labelled_workspaces import check_json, write_workspace  # noqa: E402

# clang-19 rejects a program-scope `global` at CL1.2 (CL110) and accepts it at CL2.0
GLOBAL = "global int counter = 0;\nint bump(int x) { return x + counter; }\n"
USER = "kernel void k(global int *p) { p[get_global_id(0)] = bump(counter); }\n"
ALONE = "global int counter = 0;\nkernel void k(global int *p) { p[get_global_id(0)] = counter; }\n"
# a function a dependency's reduction source defines
REDUCE_USER = ("kernel void est(global float *acc, global const float *x) {\n"
               "    local float lacc[64];\n"
               "    acc[get_global_id(0)] = work_group_reduction_sum(lacc, x[get_global_id(0)]);\n}\n")
# every work-item updates one element: a race unless one work-item runs it
RACY = "kernel void polar_rect(global float4 *x, global float4 *y) {\n    *y = *x;\n    *x *= 2.0f;\n}\n"
INCLUDES = '#include "Random123/philox.h"\nkernel void k(global uint *p) { p[get_global_id(0)] = 1u; }\n'


def _clj(body: str) -> str:
    return ("(ns app.core\n  (:require [clojure.java.io :as io]\n"
            "            [uncomplicate.clojurecl.core :refer :all]))\n\n" + body)


# case -> (files, the (file name, code, line) error and warning reports wanted)
CASES: dict[str, tuple[dict[str, str], list[tuple[str, str, int]]]] = {
    # -- `-cl-std` ----------------------------------------------------------------------------
    "clj_format_options_std": ({
        "src/clojure/app/core.clj": _clj(
            '(defn engine [ctx wgs]\n'
            '  (let [src [(slurp (io/resource "app/kernels/red.cl"))\n'
            '             (slurp (io/resource "app/kernels/use.cl"))]]\n'
            '    (build-program! (program-with-source ctx src)\n'
            '                    (format "-cl-std=CL2.0 -DREAL=float -DWGS=%d" wgs) nil)))\n'),
        "src/opencl/app/kernels/red.cl": GLOBAL, "src/opencl/app/kernels/use.cl": USER,
    }, []),
    "clj_let_bound_sources_std": ({
        "src/app/engines.clj": _clj(
            '(let [red-src (slurp (io/resource "app/red.cl"))\n'
            '      use-src (slurp (io/resource "app/use.cl"))\n'
            '      options "-cl-std=CL2.0 -DREAL=float -DWGS=%d"]\n'
            '  (defn engine [ctx wgs]\n'
            '    (let-release [prog (build-program! (program-with-source ctx [red-src use-src])\n'
            '                                       (format options wgs) nil)]\n'
            '      prog)))\n'),
        "resources/app/red.cl": GLOBAL, "resources/app/use.cl": USER,
    }, []),
    "clj_string_std_option": ({
        "test/app/core_test.clj": _clj(
            '(let [src (slurp "test/opencl/k.cl")]\n'
            '  (with-release [prog (build-program! (program-with-source ctx [src]) nil "-cl-std=CL2.0" nil)]\n'
            '    (kernel prog "k")))\n'),
        "test/opencl/k.cl": ALONE,
    }, []),
    "clj_vector_of_slurps_format_std": ({
        "test/app/toolbox_test.clj": _clj(
            '(let [program-source [(slurp "src/opencl/red.cl")\n'
            '                      (slurp "test/opencl/use.cl")]]\n'
            '  (with-release [program (build-program! (program-with-source ctx program-source)\n'
            '                                         (format "-cl-std=CL2.0 -DREAL=float -DWGS=%d" wgs)\n'
            '                                         nil)]\n'
            '    program))\n'),
        "src/opencl/red.cl": GLOBAL, "test/opencl/use.cl": USER,
    }, []),
    "clj_options_bound_in_let": ({
        "src/app/core.clj": _clj(
            '(let [k-src (slurp (io/resource "app/k.cl"))\n'
            '      dataset-options "-cl-std=CL2.0 -DREAL=float -DWGS=%d"]\n'
            '  (defn engine [ctx wgs]\n'
            '    (build-program! (program-with-source ctx [k-src]) (format dataset-options wgs) nil)))\n'),
        "resources/app/k.cl": ALONE,
    }, []),
    "cljc_host_reads_alike": ({
        "src/app/core.cljc": _clj(
            '(let [k-src (slurp (io/resource "app/k.cl"))]\n'
            '  (defn engine [ctx wgs]\n'
            '    (build-program! (program-with-source ctx [k-src]) (format "-cl-std=CL2.0 -DWGS=%d" wgs) nil)))\n'),
        "resources/app/k.cl": ALONE,
    }, []),
    "clj_inline_string_option": ({
        "src/app/core.clj": _clj(
            '(defn engine [ctx]\n'
            '  (build-program! (program-with-source ctx [(slurp (io/resource "app/k.cl"))]) "-cl-std=CL2.0" nil))\n'),
        "resources/app/k.cl": ALONE,
    }, []),
    "clj_build_without_std": ({
        "src/app/core.clj": _clj(
            '(let [k-src (slurp (io/resource "app/k.cl"))]\n'
            '  (defn engine [ctx wgs]\n'
            '    (build-program! (program-with-source ctx [k-src]) (format "-DWGS=%d" wgs) nil)))\n'),
        "resources/app/k.cl": ALONE,
    }, [("k.cl", "CL110", 1)]),
    "clj_std_in_docstring_of_api": ({
        "src/app/core.clj": _clj(
            '(defn build-program!\n'
            '  "Builds a program.\n\n'
            '  Examples:\n      (build-program! program \\"-cl-std=CL2.0\\" ch)\n  "\n'
            '  [program options] (comment program options))\n\n'
            '(let [k-src (slurp (io/resource "app/k.cl"))]\n'
            '  (defn engine [ctx]\n'
            '    (build-program! (program-with-source ctx [k-src]))))\n'),
        "resources/app/k.cl": ALONE,
    }, [("k.cl", "CL110", 1)]),
    "clj_std_in_a_comment": ({
        "src/app/core.clj": _clj(
            ';; one day: (build-program! prog "-cl-std=CL2.0")\n'
            '(let [k-src (slurp (io/resource "app/k.cl"))]\n'
            '  (defn engine [ctx]\n'
            '    (build-program! (program-with-source ctx [k-src]) "-DN=1" nil)))\n'),
        "resources/app/k.cl": ALONE,
    }, [("k.cl", "CL110", 1)]),
    "clj_two_versions": ({
        "src/app/core.clj": _clj(
            '(let [k-src (slurp (io/resource "app/k.cl"))]\n'
            '  (defn new-engine [ctx]\n'
            '    (build-program! (program-with-source ctx [k-src]) "-cl-std=CL2.0" nil))\n'
            '  (defn old-engine [ctx]\n'
            '    (build-program! (program-with-source ctx [k-src]) "-cl-std=CL1.2" nil)))\n'),
        "resources/app/k.cl": ALONE,
    }, [("k.cl", "CL110", 1)]),
    # -- a source from a dependency's resources -------------------------------------------------
    "clj_dependency_source_first": ({
        "src/app/engines.clj": _clj(
            '(let [reduction-src (slurp (io/resource "uncomplicate/clojurecl/kernels/reduction.cl"))\n'
            '      est-src (slurp (io/resource "app/opencl/est.cl"))]\n'
            '  (defn engine [ctx wgs]\n'
            '    (build-program! (program-with-source ctx [reduction-src est-src])\n'
            '                    (format "-DREAL=float -DWGS=%d" wgs) nil)))\n'),
        "src/device/app/opencl/est.cl": REDUCE_USER,
    }, []),
    "clj_all_sources_present": ({
        "src/app/engines.clj": _clj(
            '(let [reduction-src (slurp (io/resource "app/opencl/reduction.cl"))\n'
            '      est-src (slurp (io/resource "app/opencl/est.cl"))]\n'
            '  (defn engine [ctx wgs]\n'
            '    (build-program! (program-with-source ctx [reduction-src est-src])\n'
            '                    (format "-DREAL=float -DWGS=%d" wgs) nil)))\n'),
        "src/device/app/opencl/reduction.cl": "float twice(float x) { return 2.0f * x; }\n",
        "src/device/app/opencl/est.cl": REDUCE_USER,
    }, [("est.cl", "CL011", 3)]),
    "clj_dependency_source_after": ({
        "src/app/engines.clj": _clj(
            '(let [reduction-src (slurp (io/resource "uncomplicate/clojurecl/kernels/reduction.cl"))\n'
            '      est-src (slurp (io/resource "app/opencl/est.cl"))]\n'
            '  (defn engine [ctx wgs]\n'
            '    (build-program! (program-with-source ctx [est-src reduction-src])\n'
            '                    (format "-DREAL=float -DWGS=%d" wgs) nil)))\n'),
        "src/device/app/opencl/est.cl": REDUCE_USER,
    }, [("est.cl", "CL011", 3)]),
    "clj_dependency_through_op": ({
        "src/app/engines.clj": _clj(
            '(let [reduction-src (slurp (io/resource "uncomplicate/clojurecl/kernels/reduction.cl"))\n'
            '      likelihood-src (slurp (io/resource "app/opencl/est.cl"))]\n'
            '  (defn likelihood-engine [ctx model wgs]\n'
            '    (build-program!\n'
            '     (program-with-source ctx (op (source model) [reduction-src likelihood-src]))\n'
            '     (format "-DREAL=float -DWGS=%d" wgs)\n'
            '     nil)))\n'),
        "src/device/app/opencl/est.cl": REDUCE_USER,
    }, []),
    # -- launches of one work-item --------------------------------------------------------------
    "clj_one_item_launch_bound_sizes": ({
        "test/app/ch05.clj": _clj(
            '(let [work-sizes (work-size [1])\n'
            '      program-source (slurp (io/resource "examples/ch05/polar-rect.cl"))]\n'
            '  (with-release [prog (build-program! (program-with-source ctx [program-source]))\n'
            '                 polar-rect-kernel (kernel prog "polar_rect")]\n'
            '    (set-args! polar-rect-kernel cl-x cl-y)\n'
            '    (enq-kernel! cqueue polar-rect-kernel work-sizes)))\n'),
        "test/resources/examples/ch05/polar-rect.cl": RACY,
    }, []),
    "clj_one_item_inline": ({
        "test/app/ch10.clj": _clj(
            '(let [program-source (slurp (io/resource "examples/ch10/polar.cl"))]\n'
            '  (with-release [prog (build-program! (program-with-source ctx [program-source]))\n'
            '                 naive (kernel prog "polar_rect")]\n'
            '    (enq-kernel! cqueue naive (work-size [1]) nil profile-event)))\n'),
        "test/resources/examples/ch10/polar.cl": RACY,
    }, []),
    "clj_wide_launch_keeps_race": ({
        "test/app/ch07.clj": _clj(
            '(let [program-source (slurp (io/resource "examples/ch07/polar.cl"))\n'
            '      work-sizes (work-size [512] [1])]\n'
            '  (with-release [prog (build-program! (program-with-source ctx [program-source]))\n'
            '                 k (kernel prog "polar_rect")]\n'
            '    (enq-kernel! cqueue k work-sizes nil profile-event)))\n'),
        "test/resources/examples/ch07/polar.cl": RACY,
    }, [("polar.cl", "CL211", 3)]),
    "clj_one_and_wide_launches": ({
        "test/app/ch07.clj": _clj(
            '(let [program-source (slurp (io/resource "examples/ch07/polar.cl"))]\n'
            '  (with-release [prog (build-program! (program-with-source ctx [program-source]))\n'
            '                 k (kernel prog "polar_rect")]\n'
            '    (enq-kernel! cqueue k (work-size [1]))\n'
            '    (enq-kernel! cqueue k (work-size [64]))))\n'),
        "test/resources/examples/ch07/polar.cl": RACY,
    }, [("polar.cl", "CL211", 3)]),
    "clj_inline_kernel_form_one_item": ({
        "test/app/ch05.clj": _clj(
            '(let [program-source (slurp (io/resource "examples/ch05/polar.cl"))]\n'
            '  (with-release [prog (build-program! (program-with-source ctx [program-source]))]\n'
            '    (enq-kernel! cqueue (kernel prog "polar_rect") (work-size [1]))))\n'),
        "test/resources/examples/ch05/polar.cl": RACY,
    }, []),
    # -- include folders the host computes --------------------------------------------------------
    "clj_computed_include_folder": ({
        "src/app/core.clj": _clj(
            '(let [k-src (slurp (io/resource "app/k.cl"))]\n'
            '  (defn engine [ctx include-dir wgs]\n'
            '    (build-program! (program-with-source ctx [k-src])\n'
            '                    (format "-DREAL=float -DWGS=%d -I%s/" wgs include-dir) nil)))\n'),
        "resources/app/k.cl": INCLUDES,
    }, []),
    "clj_no_include_option_missing_header": ({
        "src/app/core.clj": _clj(
            '(let [k-src (slurp (io/resource "app/k.cl"))]\n'
            '  (defn engine [ctx wgs]\n'
            '    (build-program! (program-with-source ctx [k-src]) (format "-DREAL=float -DWGS=%d" wgs) nil)))\n'),
        "resources/app/k.cl": INCLUDES,
    }, [("k.cl", "CL002", 1)]),
    "cpp_computed_include_concat": ({
        "host.cpp": '#include <CL/cl.h>\n#include <string>\n'
                    'void build(cl_program p, cl_device_id d, const std::string &dir) {\n'
                    '    const char *src = load("k.cl");\n'
                    '    std::string opts = "-I" + dir + " -DN=4";\n'
                    '    clBuildProgram(p, 1, &d, opts.c_str(), NULL, NULL);\n}\n',
        "k.cl": INCLUDES,
    }, []),
    "py_computed_include_fstring": ({
        "run.py": 'import pyopencl as cl\n\n\ndef build(ctx, inc):\n'
                  '    src = open("k.cl").read()\n'
                  '    return cl.Program(ctx, src).build(options=[f"-I{inc}"])\n',
        "k.cl": INCLUDES,
    }, []),
}


def _reports(name: str, root: Path) -> list[tuple[str, str, int]]:
    files, _ = CASES[name]
    write_workspace(root, files)
    return sorted((Path(r["path"]).name, r["code"], r["line"]) for r in check_json(root) if r["severity"] != "info")


TUNE = sorted(n for n in CASES if split(n) == "tune")
HELDOUT = sorted(n for n in CASES if split(n) == "heldout")


@pytest.mark.parametrize("name", TUNE, ids=case_id)
def test_tune_case(name: str, tmp_path: Path) -> None:
    assert _reports(name, tmp_path) == sorted(CASES[name][1])


def test_heldout_cases(tmp_path: Path) -> None:
    # scored once after the code (see BENCHMARKS.md, session 22, JVM hosts)
    wrong = [n for n in HELDOUT if _reports(n, tmp_path / n) != sorted(CASES[n][1])]
    assert wrong == []


def test_both_halves_have_both_labels() -> None:
    for half in (TUNE, HELDOUT):
        assert any(CASES[n][1] for n in half) and any(not CASES[n][1] for n in half)


def main() -> int:
    for label, half in (("tune", TUNE), ("heldout", HELDOUT)):
        with tempfile.TemporaryDirectory() as tmp:
            wrong = [n for n in half if _reports(n, Path(tmp) / n) != sorted(CASES[n][1])]
        print(f"{label}: {len(half) - len(wrong)}/{len(half)}", *(f"  wrong: {n}" for n in wrong), sep="\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
