"""Labelled workspaces: kernels a build file lists (issue 29), read as the host builds them.

Shapes taken from real projects: a CMake function or macro takes the kernels of a target as
its arguments and copies (or links, or installs) each beside the others, so that at run time
they lie in one folder; the host then builds one of them by name, and that file `#include`s
its siblings in order (intel/compute-samples: `add_kernels(vme_hme_lib "a.cl" "b.cl" ...)`,
`vme_hme.cl` including them). A file so included is read after what its includer reads
before it; an `#include` of a file the list brings in from another folder resolves to that
file, though the workspace holds others of the same name.

Each case: files, and the reports expected (file, code) with severity error or warning,
everything else silent. The labels were checked with clang-19 on the program as the host
builds it (tests/projects/build_lists/verify.py: the listed files copied into one folder,
the includer compiled there). HELDOUT was written with TUNE and is not looked at while
the code is written; it is scored once, apart.
"""

from __future__ import annotations

COPY_FUNCTION = """function(add_kernels target)
    foreach(kernel ${ARGN})
        target_sources(${target} PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/${kernel}")
        execute_process(COMMAND ${CMAKE_COMMAND} -E create_symlink "${CMAKE_CURRENT_SOURCE_DIR}/${kernel}" "${CMAKE_CURRENT_BINARY_DIR}/${kernel}")
    endforeach()
endfunction()
function(install_kernels target)
    foreach(kernel ${ARGN})
        install(FILES "${kernel}" DESTINATION ".")
    endforeach()
endfunction()
"""

COST = "ulong cost_of(short2 v) { return (ulong)(v.x + v.y); }\n"
STREAM = "int stream_out(int a, int b) { return a * b; }\n"
PART = ("kernel void tier0(global ulong *o, global int *p) {\n"
        "    o[0] = cost_of((short2)(1, 2));\n"
        "    p[0] = stream_out(p[1], p[2]);\n}\n")
# the same helper in another application: the name alone does not say which source it is
OTHER = "ulong cost_of(short2 v) { return 7; }\nkernel void other(global ulong *o) { o[0] = cost_of((short2)(0, 0)); }\n"

# name -> (files, expected reports)
TUNE: dict[str, tuple[dict[str, str], list[tuple[str, str]]]] = {
    "function-copies-includer-builds": ({
        "cmake/functions.cmake": COPY_FUNCTION,
        "apps/hme/CMakeLists.txt": 'add_kernels(hme_lib\n    "stream.cl"\n    "cost.cl"\n    "tier0.cl"\n    "hme.cl"\n)\n',
        "apps/hme/stream.cl": STREAM, "apps/hme/cost.cl": COST, "apps/hme/tier0.cl": PART,
        "apps/hme/hme.cl": '#include "stream.cl"\n#include "cost.cl"\n#include "tier0.cl"\n',
        "apps/search/search.cl": OTHER,
        "apps/hme/src/hme.cpp": 'auto program = build_program(context, "hme.cl");\n',
    }, []),
    "list-brings-a-file-from-another-folder": ({
        "cmake/functions.cmake": COPY_FUNCTION,
        "apps/hme/stream.cl": STREAM, "apps/hme/cost.cl": COST,
        "apps/intra/CMakeLists.txt": ('install_kernels(intra\n    "intra.cl"\n    "tier0.cl"\n'
                                      '    "../hme/stream.cl"\n    "../hme/cost.cl"\n)\n'),
        "apps/intra/tier0.cl": PART,
        "apps/intra/intra.cl": '#include "stream.cl"\n#include "cost.cl"\n#include "tier0.cl"\n',
        # another stream.cl elsewhere, with its own stream_out: the list says which one is meant
        "apps/other/stream.cl": "int stream_in(int a) { return a; }\nint stream_out(int a, int b) { return a + b; }\n",
        "apps/other/cost.cl": COST,
        "apps/other/o.cl": '#include "stream.cl"\n#include "cost.cl"\nkernel void o(global int *a) { a[0] = stream_in(a[1]); }\n',
        "apps/search/search.cl": OTHER,
    }, []),
    "fragment-nobody-includes-stays-reported": ({
        "apps/hme/tier0.cl": PART, "apps/hme/stream.cl": STREAM,
        "apps/search/search.cl": OTHER, "apps/more/more.cl": OTHER.replace("other", "more"),
    }, [("tier0.cl", "CL011")]),
    "two-includers-one-fragment": ({
        "cmake/functions.cmake": COPY_FUNCTION,
        "apps/hme/stream.cl": STREAM, "apps/hme/cost.cl": COST, "apps/hme/tier0.cl": PART,
        "apps/hme/hme.cl": '#include "stream.cl"\n#include "cost.cl"\n#include "tier0.cl"\n',
        "apps/intra/CMakeLists.txt": 'install_kernels(intra "intra.cl" "../hme/stream.cl" "../hme/cost.cl" "../hme/tier0.cl")\n',
        "apps/intra/intra.cl": '#include "stream.cl"\n#include "cost.cl"\n#include "tier0.cl"\n'
                               'kernel void intra(global int *a) { a[0] = stream_out(a[1], 2); }\n',
        "apps/search/search.cl": OTHER,
    }, []),
}

HELDOUT: dict[str, tuple[dict[str, str], list[tuple[str, str]]]] = {
    "macro-creates-links": ({
        "CMakeLists.txt": ("macro(copy_cl_files TGT)\n  foreach(f IN LISTS ARGN)\n"
                           "    file(CREATE_LINK ${CMAKE_CURRENT_SOURCE_DIR}/${f} ${CMAKE_BINARY_DIR}/cl/${f} SYMBOLIC)\n"
                           "  endforeach()\nendmacro()\n"),
        "k/CMakeLists.txt": "copy_cl_files(${PROJECT_NAME} defs.cl body.cl main.cl)\n",
        "k/defs.cl": "#define WIDTH 16\nfloat scale(float x) { return x * WIDTH; }\n",
        "k/body.cl": "kernel void body(global float *a) { a[0] = scale(a[1]) + WIDTH; }\n",
        "k/main.cl": '#include "defs.cl"\n#include "body.cl"\n',
        "alt/defs.cl": "#define WIDTH 8\nfloat scale(float x) { return x; }\n",
    }, []),
    "file-copy-across-folders": ({
        "src/CMakeLists.txt": ("file(COPY main.cl ../shared/math.cl\n"
                               "     DESTINATION ${CMAKE_BINARY_DIR}/kernels)\n"),
        "shared/math.cl": "float sq(float x) { return x * x; }\n",
        "src/main.cl": '#include "math.cl"\nkernel void m(global float *a) { a[0] = sq(a[1]); }\n',
        "other/math.cl": "float cube(float x) { return x * x * x; }\n",
        "other/use.cl": '#include "math.cl"\nkernel void u(global float *a) { a[0] = cube(a[1]); }\n',
    }, []),
}
