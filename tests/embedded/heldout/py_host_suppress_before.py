# kernels: 2
# expect: CL602 scael
# expect: CL010 nope
import pyopencl as cl

prg = cl.Program(ctx, "__kernel void k(__global int *o) { o[0] = 1; }").build()
# cllint: ignore[CL601]
prg.k(queue, (1,), None)
s = "# cllint: ignore[CL602]"; prg.scael(queue, (1,), None, b)
other = cl.Program(ctx, """
__kernel void j(__global int *o) { o[0] = nope; }
""").build()  # cllint: ignore[CL010]
