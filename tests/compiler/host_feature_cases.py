"""Labelled workspaces for the clang layer and the features a host checks before it builds
(issue 29): the host asks the device for an extension (`strstr(ext, "cl_khr_subgroups")`,
`"cl_khr_subgroups" in dev.extensions`) and builds the kernel only where it has it, so the
kernel's use of the extension's built-ins is no error, even at a version where clang-19 does
not declare them on its own (portability mode judges at OpenCL C 1.2). A line marked
`// clang` is a real error the host's build meets too: CL099 stays there, and only there.

Each label was checked with clang-19 on the program as the host builds it on a device with
the extension (`-cl-std=CL3.0 -target spir64`, where clang declares these built-ins): clean,
except the marked line. HELDOUT was written with TUNE and is not looked at while tuning
(tests/compiler/test_compiler_host_features.py reports the two apart).
"""

from __future__ import annotations

# name -> (host file name, host text, kernel text)
TUNE: dict[str, tuple[str, str, str]] = {
    "subgroups-strstr": (
        "host.cpp",
        'bool sg = strstr(ext_buffer, "cl_khr_subgroups") != NULL;\n'
        'if (sg) clBuildProgram(p, 1, &dev, "", NULL, NULL);\n',
        "#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n"
        "kernel void k(global float *a) {\n"
        "    uint n = get_sub_group_size();\n"
        "    a[get_sub_group_local_id()] = sub_group_reduce_add(a[n]);\n"
        "}\n"),
    "integer-dot-packed": (
        "host.cpp",
        'has_integer_dot = strstr(ext_buffer, "cl_khr_integer_dot_product") != NULL;\n',
        "#ifdef cl_khr_integer_dot_product\n"
        "#pragma OPENCL EXTENSION cl_khr_integer_dot_product : enable\n"
        "#endif\n"
        "kernel void k(global const uint *a, global int *o) {\n"
        "    o[0] = dot_acc_sat_4x8packed_ss_int(a[0], a[1], o[1]);\n"
        "}\n"),
    "real-error-beside-checked-feature": (
        "host.cpp",
        'if (strstr(ext, "cl_khr_subgroups")) build(prog);\n',
        "#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n"
        "kernel void k(global float *a) {\n"
        "    a[0] = get_sub_group_size();\n"
        "    a[1] = a[2] % 2.0f;  // clang\n"
        "}\n"),
    "intel-subgroups-checked": (
        "host.c",
        'if (strstr(extensions, "cl_intel_subgroups") == NULL) return CL_INVALID_DEVICE;\n',
        "kernel void k(global int *a) {\n"
        "    a[get_sub_group_local_id()] = get_sub_group_id();\n"
        "}\n"),
}

HELDOUT: dict[str, tuple[str, str, str]] = {
    "subgroup-shuffle-python": (
        "host.py",
        'if "cl_khr_subgroup_shuffle" in dev.extensions:\n'
        '    prg = cl.Program(ctx, src).build()\n',
        "#pragma OPENCL EXTENSION cl_khr_subgroup_shuffle : enable\n"
        "kernel void k(global int *a) {\n"
        "    a[0] = sub_group_shuffle(a[1], 1u);\n"
        "}\n"),
    "integer-dot-vectors": (
        "host.cpp",
        'bool dp = device.getInfo<CL_DEVICE_EXTENSIONS>().find("cl_khr_integer_dot_product") != std::string::npos;\n',
        "#pragma OPENCL EXTENSION cl_khr_integer_dot_product : enable\n"
        "kernel void k(global const char4 *a, global int *o) {\n"
        "    o[0] = dot(a[0], a[1]);\n"
        "}\n"),
    "real-error-beside-dot": (
        "host.cpp",
        'if (strstr(ext, "cl_khr_integer_dot_product")) use_dp4a = true;\n',
        "#pragma OPENCL EXTENSION cl_khr_integer_dot_product : enable\n"
        "kernel void k(global const uint *a, global int *o) {\n"
        "    o[0] = dot_4x8packed_uu_uint(a[0], a[1]);\n"
        "    o[1] = ~((float)o[2]);  // clang\n"
        "}\n"),
}

# The same kernels with no host check: the built-ins are the kernel's own requirement, and
# at the version judged clang-19 does not declare them: some report stays on their lines.
UNCHECKED_KERNEL = TUNE["subgroups-strstr"][2]


def marked_lines(text: str) -> list[int]:
    return [i for i, line in enumerate(text.splitlines(), 1) if line.endswith("// clang")]
