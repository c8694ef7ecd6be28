// kernels: 2
// expect: CL010 undeclared_c
// expect: CL105 int
#include <CL/cl.h>

const char *sources[] = {
    "__kernel void first(__global int *o) { o[0] = undeclared_c; }\n",
};

cl_program make(cl_context ctx, cl_int *err) {
    // cllint: opencl
    const char *second = "__kernel int second(__global int *o) { return o[0]; }";
    (void)second;
    return clCreateProgramWithSource(ctx, 1, sources, NULL, err);
}
