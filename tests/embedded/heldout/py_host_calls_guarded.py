# kernels: 3
# expect: CL601 )
import pyopencl as cl


def first(ctx, queue, buf):
    # a name bound twice is not checked: which program it holds is a guess
    prg = cl.Program(ctx, "__kernel void k(__global int *o) { o[0] = 1; }").build()
    prg.k(queue, (1,), None)
    prg = cl.Program(ctx, "__kernel void k(__global int *o, int v) { o[0] = v; }").build()
    prg.k(queue, (1,), None, buf)


def second(ctx, queue, buf):
    p2 = cl.Program(ctx, """
#ifdef WITH_EXTRA
__kernel void extra(__global int *o) { o[0] = 2; }
#endif
__kernel void k2(__global int *o, int v) { o[0] = v; }
""").build(options=["-DWITH_EXTRA"])
    p2.extra(queue, (1,), None, buf)
    knl = p2.k2
    knl(queue, (1,), None, buf)
