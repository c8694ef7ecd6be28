"""The guard CL301 asks for around images works in every build (issue 29 follow-up).

A program built without `-cl-std` is OpenCL C 1.x (spec, `__OPENCL_C_VERSION__`: "the highest
OpenCL C 1.x language version supported by each device"), where `__opencl_c_images` is never
defined: wrapping a kernel in `#ifdef __opencl_c_images` would drop it from the default build on
every device. `__IMAGE_SUPPORT__` is defined wherever images are supported, in 1.x and 3.0 alike
(spec, predefined macros; clang-19 defines it for CL1.2 and CL3.0), so the fix and the message
name it. Written before the change."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from test_features import lint

# A kernel without images beside it: a program whose every kernel takes an image needs images
# whole, the host's check, not a guard (tests/test_image_programs.py).
KERNEL = b"""kernel void clear(global float4 *dst) { dst[0] = (float4)(0.0f); }

kernel void copy(read_only image2d_t src, global float4 *dst) {
    dst[0] = read_imagef(src, (int2)(0, 0));
}
"""


def _image_report():
    (d,) = [d for d in lint(KERNEL) if d.code == "CL301"]
    return d


def test_the_fix_wraps_in_image_support_not_the_3_0_feature_macro() -> None:
    d = _image_report()
    assert d.fix is not None and d.fix.title == "Wrap in '#ifdef __IMAGE_SUPPORT__'"
    assert "'__IMAGE_SUPPORT__'" in d.message
    fixed = KERNEL
    for e in sorted(d.fix.edits, key=lambda e: e.span.start, reverse=True):
        fixed = fixed[:e.span.start] + e.replacement.encode() + fixed[e.span.end:]
    assert b"\n#ifdef __IMAGE_SUPPORT__\nkernel void copy" in fixed and fixed.rstrip().endswith(b"#endif")
    # The fixed kernel is guarded: nothing left to report.
    assert [x for x in lint(fixed) if x.code == "CL301"] == []


@pytest.mark.skipif(shutil.which("clang-19") is None, reason="clang-19 is the oracle (scripts/setup installs it)")
@pytest.mark.parametrize("std", ["CL1.2", "CL3.0"])
def test_the_fixed_kernel_survives_the_default_and_the_3_0_build(std: str, tmp_path) -> None:
    """clang-19 as the oracle: the guarded kernel is still in the program (its symbol is in the
    preprocessed output) on a device with images, whichever version the host builds."""
    d = _image_report()
    fixed = KERNEL
    for e in sorted(d.fix.edits, key=lambda e: e.span.start, reverse=True):
        fixed = fixed[:e.span.start] + e.replacement.encode() + fixed[e.span.end:]
    src = tmp_path / "k.cl"
    src.write_bytes(fixed)
    out = subprocess.run(["clang-19", "-x", "cl", f"-cl-std={std}", "-target", "spir64", "-E", str(src)],
                         capture_output=True, check=True).stdout
    assert b"kernel void copy" in out
