# kernels: 2
# expect: CL603 3
# expect: CL010 {0}
# expect: CL010 wrong
import numpy as np
import pyopencl as cl


def build(ctx, queue, buf, dtype):
    src = "__kernel void k%s(__global %s *o, %s v) { o[0] = v + %d; }" % ("_i", "int", "int", 4)
    prg = cl.Program(ctx, src).build()
    prg.k_i(queue, (1,), None, buf, 3)
    prg.k_i(queue, (1,), None, buf, np.int32(3))
    p2 = cl.Program(ctx, "__kernel void g(__global float *o) {{ o[0] = {0}; o[1] = wrong; }}".format("y")).build()
    p2.g(queue, (1,), None, buf)
    return p2
