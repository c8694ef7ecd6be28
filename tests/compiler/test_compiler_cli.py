"""`cllint check --compiler clang` end to end: a subprocess, real files, real clang-19."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from compiler_cases import TUNE, marked_line  # noqa: E402

CLANG = shutil.which("clang-19")
needs_clang = pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")


def cllint(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cllint", *args], cwd=cwd, capture_output=True,
                          timeout=120, env=env)


def check_json(path: Path, *extra: str) -> list[dict]:
    r = cllint("check", "--no-cache", "--format", "json", "--compiler", "clang", *extra, path.name, cwd=path.parent)
    assert r.returncode in (0, 1), r.stderr.decode()
    return json.loads(r.stdout)


@needs_clang
@pytest.mark.parametrize("name", sorted(TUNE))
def test_clang_only_error_reported_once_on_its_line(name: str, tmp_path: Path) -> None:
    bad, good = TUNE[name]
    (tmp_path / "bad.cl").write_text(bad)
    found = check_json(tmp_path / "bad.cl")
    assert [(d["code"], d["line"]) for d in found if d["code"] == "CL099"] == [("CL099", marked_line(bad))]
    assert all(d["message"].startswith("clang: ") for d in found if d["code"] == "CL099")
    (tmp_path / "good.cl").write_text(good)
    assert check_json(tmp_path / "good.cl") == []


@needs_clang
def test_exact_range_and_text_output(tmp_path: Path) -> None:
    (tmp_path / "k.cl").write_text(TUNE["bitwise-not-float"][0])
    [d] = check_json(tmp_path / "k.cl")
    # clang: invalid argument type 'float' to unary expression, over '~a[1]'
    assert (d["line"], d["column"], d["end_line"], d["end_column"]) == (2, 12, 2, 17)
    assert d["message"] == "clang: invalid argument type 'float' to unary expression"
    assert d["severity"] == "error"
    r = cllint("check", "--no-cache", "--compiler", "clang", "k.cl", cwd=tmp_path)
    assert r.returncode == 1
    assert "k.cl:2:12: CL099 clang: invalid argument type" in r.stdout.decode()


@needs_clang
def test_native_error_is_not_duplicated(tmp_path: Path) -> None:
    # CL022 (native) and clang both reject line 3; only the native report stays.
    src = "kernel void k(global int *a) {\n    global int *p = a;\n    a[0] = p * 2;\n}\n"
    (tmp_path / "k.cl").write_text(src)
    found = check_json(tmp_path / "k.cl")
    assert [d["code"] for d in found if d["line"] == 3] == ["CL022"]


@needs_clang
def test_off_by_default_and_selectable(tmp_path: Path) -> None:
    (tmp_path / "k.cl").write_text(TUNE["deref-int"][0])
    r = cllint("check", "--no-cache", "--format", "json", "k.cl", cwd=tmp_path)
    assert json.loads(r.stdout) == [] and r.returncode == 0
    assert check_json(tmp_path / "k.cl", "--ignore", "CL099") == []


@needs_clang
def test_defines_includes_and_target_reach_clang(tmp_path: Path) -> None:
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "h.h").write_text("#define SCALE 2\n")
    src = ('#include "h.h"\nkernel void k(global int *a) {\n    a[0] = SCALE * WIDTH;\n'
           "#ifdef cl_khr_fp64\n    double d = 1.0;\n    a[1] = (int)d;\n#endif\n}\n")
    (tmp_path / "k.cl").write_text(src)
    assert check_json(tmp_path / "k.cl", "-I", "inc", "-D", "WIDTH=4") == []
    # Without the define: a host macro is CL012's business (a warning once a name), not clang's error.
    assert [d["code"] for d in check_json(tmp_path / "k.cl", "-I", "inc") if d["code"] == "CL099"] == []
    # A CL1.0 target without cl_khr_fp64: the guarded block is skipped by clang too.
    src2 = "kernel void k(global float *a) {\n    float2 v = (float2)(1.0f, 2.0f);\n    a[0] = v.x;\n}\n"
    (tmp_path / "v.cl").write_text(src2)
    assert check_json(tmp_path / "v.cl", "--std", "CL3.0", "--features=-all") == []


def test_missing_clang_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "k.cl").write_text(TUNE["deref-int"][1])
    bare = tmp_path / "bin"
    bare.mkdir()
    env = {**os.environ, "PATH": str(bare)}
    r = cllint("check", "--no-cache", "--compiler", "clang", "k.cl", cwd=tmp_path, env=env)
    assert r.returncode == 2
    err = r.stderr.decode()
    assert "clang" in err and "clang-19" in err and "--compiler clang" in err


# clang-19 defines cl_amd_media_ops(2) for spir64 but declares none of their built-ins (its
# driver's -fdeclare-opencl-builtins leaves them out): code written for both sides of the
# guard, as xmrig's, would get "use of undeclared identifier 'amd_bitalign'" from the
# AMD side. The clang layer compiles the side that does not need them.
AMD_OR_FALLBACK = """#ifdef cl_amd_media_ops
#pragma OPENCL EXTENSION cl_amd_media_ops : enable
#else
inline uint2 amd_bitalign(const uint2 a, const uint2 b, const uint c) { return (a << (32 - c)) | (b >> c); }
#endif
kernel void k(global uint2 *a) { a[0] = amd_bitalign(a[0], a[1], 8u); }
"""


@needs_clang
def test_an_extension_clang_defines_without_its_builtins_is_not_compiled_for(tmp_path: Path) -> None:
    (tmp_path / "k.cl").write_text(AMD_OR_FALLBACK)
    assert [d for d in check_json(tmp_path / "k.cl") if d["code"] == "CL099"] == []


# The same gap unguarded: an Intel-only kernel calls cl_intel_subgroups' built-ins directly. The
# native rules take `intel_`/`amd_` names as the vendor's built-ins (CL011 is silent); the
# clang layer, which cannot see them, must not call them undeclared either (intel/compute-samples'
# VME kernels: 216 CL099 in the editor).
VENDOR_ONLY = """kernel void k(global float *a) {
    intel_sub_group_avc_ime_payload_t payload = intel_sub_group_avc_ime_initialize((ushort2)(0), 0, 0);
    a[0] = intel_sub_group_shuffle(a[1], 1u);
    a[1] = missing_helper(a[2]) + intel_sub_group_avc_ime_get_border_reached(payload, 0);
}
"""


@needs_clang
def test_vendor_builtins_clang_does_not_declare_are_not_undeclared(tmp_path: Path) -> None:
    (tmp_path / "k.cl").write_text(VENDOR_ONLY)
    found = [(d["code"], d["message"]) for d in check_json(tmp_path / "k.cl") if d["code"] in ("CL099", "CL011")]
    # the user's own missing helper is still reported (once, natively); clang's errors, which
    # follow from the vendor's names (`payload` is then undeclared too), are not
    assert [c for c, _ in found if c == "CL099"] == [], found
    assert any("missing_helper" in m for _, m in found), found


# A kernel that enables an extension clang-19 does not know (Qualcomm's extra vector types give
# `float32`) is built by a compiler that does: clang's one build is not the device's.
UNKNOWN_EXTENSION = """#pragma OPENCL EXTENSION cl_qcom_extra_vector_types : enable
kernel void k(global float *a) {
    float32 acc = (float32)(0);
    a[0] = acc.s0;
}
"""


@needs_clang
def test_an_extension_clang_does_not_know_leaves_the_build_to_the_device(tmp_path: Path) -> None:
    (tmp_path / "k.cl").write_text(UNKNOWN_EXTENSION)
    assert [d for d in check_json(tmp_path / "k.cl") if d["code"] == "CL099"] == []
    # a known extension's pragma changes nothing: clang still builds it
    (tmp_path / "k.cl").write_text("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                                   "kernel void k(global int *a) {\n    int x = ;\n}\n")
    assert [d["code"] for d in check_json(tmp_path / "k.cl")] != []
