# kernels: 1
# expect: CL110 x
from pyopencl import Program as P, create_some_context

ctx = create_some_context()
prg = P(ctx, "__kernel void k(__global int *o) { __global int x; o[0] = 1; }").build()
