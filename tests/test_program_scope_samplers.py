"""Samplers declared at program scope (spec 6.15.14.1, "Samplers can also be declared as
global constants in the program source": `const sampler_t s = ...` or `constant sampler_t`)
live in the constant address space: they need no `__opencl_c_program_scope_global_variables`.
Every line here is what clang-19 says with the feature off (`-cl-std=CL3.0 -Xclang
-cl-ext=-__opencl_c_program_scope_global_variables,...`), written before the fix."""

from __future__ import annotations

from test_features import lines, lint

SAMPLERS = b"""const sampler_t s1 = CLK_NORMALIZED_COORDS_FALSE | CLK_FILTER_NEAREST | CLK_ADDRESS_NONE;
constant sampler_t s2 = CLK_NORMALIZED_COORDS_TRUE | CLK_FILTER_LINEAR | CLK_ADDRESS_CLAMP;
__constant sampler_t s3 = CLK_NORMALIZED_COORDS_FALSE;
const int k = 3;
global int g;
kernel void f(read_only image2d_t i, global float4 *o) {
    o[0] = read_imagef(i, s1, (int2)(0, k + g)) + read_imagef(i, s2, (float2)(0)) + read_imagef(i, s3, (int2)(0));
}
"""


def test_program_scope_samplers_are_constants_not_gated_globals() -> None:
    # The images feature is off in the CL3.0 preset too: only the program-scope needs count.
    found = lines(SAMPLERS, [d for d in lint(SAMPLERS, "CL3.0", "target") if "program_scope" in d.message])
    # Only the two globals that clang rejects without the feature (lines 4 and 5).
    assert found == {("CL302", 4), ("CL302", 5)}
    scoped = [d.message for d in lint(SAMPLERS, "CL3.0") if "program_scope" in d.message]
    assert len(scoped) == 2 and not any("'s" in m for m in scoped)
