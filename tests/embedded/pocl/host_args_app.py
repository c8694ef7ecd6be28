"""A real pyopencl host, run on PoCL by tests/embedded/test_host_args_pocl.py.
`python host_args_app.py quiet` makes the calls cllint leaves alone (they run); each other
mode makes the one call on the line marked with its name, which cllint reports (CL603-CL605),
so that pyopencl's own error confirms each report."""

import sys

import numpy as np
import pyopencl as cl

SRC = """
__kernel void scale(__global float *a, float s) { if (a) a[get_global_id(0)] *= s; }
__kernel void fill(__global int *o, int v, long w) { o[get_global_id(0)] = v + (int)w; }
__kernel void tile(__global float *o, __local float *t)
{
    t[get_local_id(0)] = 1.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    o[get_global_id(0)] = t[0];
}
__kernel void blend(__global float *o, double w, __constant float *lut) { o[0] = lut ? (float)w * lut[0] : (float)w; }
"""


def pocl_context() -> cl.Context:
    for platform in cl.get_platforms():
        if "Portable" in platform.name:
            return cl.Context(platform.get_devices(device_type=cl.device_type.CPU)[:1])
    raise SystemExit("no PoCL platform")


N = 16
ctx = pocl_context()
queue = cl.CommandQueue(ctx)
prg = cl.Program(ctx, SRC).build()
a_buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * N)
i_buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * N)
host = np.arange(N, dtype=np.float32)
mode = sys.argv[1]
if mode == "quiet":
    prg.scale(queue, (N,), None, None, np.float32(2))  # a NULL __global pointer
    prg.scale(queue, (N,), (8,), a_buf, np.float32(2))
    prg.fill(queue, (N,), None, i_buf, np.uint32(1), np.uint64(1))  # the same widths
    prg.tile(queue, (N,), (N,), a_buf, cl.LocalMemory(4 * N))
    prg.blend(queue, (1,), None, a_buf, np.float64(0.5), None)  # a NULL __constant pointer
    queue.finish()
    print("ran")
elif mode == "pyfloat":
    prg.scale(queue, (N,), None, a_buf, 2.0)  # mode: pyfloat
elif mode == "pyint":
    prg.fill(queue, (N,), None, i_buf, N, np.int64(1))  # mode: pyint
elif mode == "width":
    prg.scale(queue, (N,), None, a_buf, np.float64(2))  # mode: width
elif mode == "narrow":
    prg.blend(queue, (1,), None, a_buf, np.float32(0.5), None)  # mode: narrow
elif mode == "nonescalar":
    prg.scale(queue, (N,), None, a_buf, None)  # mode: nonescalar
elif mode == "ndarray":
    prg.scale(queue, (N,), None, host, np.float32(2))  # mode: ndarray
elif mode == "pyintbuffer":
    prg.scale(queue, (N,), None, 0, np.float32(2))  # mode: pyintbuffer
elif mode == "localnone":
    prg.tile(queue, (N,), (N,), a_buf, None)  # mode: localnone
elif mode == "dims":
    prg.scale(queue, (N,), (8, 1), a_buf, np.float32(2))  # mode: dims
elif mode == "fewerdims":
    prg.scale(queue, (N, 1), (8,), a_buf, np.float32(2))  # mode: fewerdims
elif mode == "constarray":
    prg.blend(queue, (1,), None, a_buf, np.float64(0.5), host)  # mode: constarray
queue.finish()
