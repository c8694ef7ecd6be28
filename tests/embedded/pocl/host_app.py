"""A real pyopencl host, built and run on PoCL by tests/embedded/test_pyopencl_pocl.py.
`python host_app.py ok` prints the source pyopencl built; `count`, `many` and `name` make the calls
cllint reports as CL601 and CL602, so that pyopencl's own error confirms each report."""

import json
import sys

import numpy as np
import pyopencl as cl
from pyopencl.elementwise import ElementwiseKernel

SRC = ("__kernel void axpy(__global float *y, __global const float *x, float a)\n"
       "{\n"
       "    size_t i = get_global_id(0);\n"
       "\ty[i] += a * x[i];  /* \"tab\" above */\n"
       "}\n")


def pocl_context() -> cl.Context:
    for platform in cl.get_platforms():
        if "Portable" in platform.name:
            return cl.Context(platform.get_devices(device_type=cl.device_type.CPU)[:1])
    raise SystemExit("no PoCL platform")


ctx = pocl_context()
queue = cl.CommandQueue(ctx)
prg = cl.Program(ctx, SRC).build()
y = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=np.ones(16, np.float32))
x = cl.Buffer(ctx, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR, hostbuf=np.arange(16, dtype=np.float32))
twice = ElementwiseKernel(ctx, "float *v", "v[i] = 2 * v[i] + (float)n")
mode = sys.argv[1]
if mode == "ok":
    prg.axpy(queue, (16,), None, y, x, np.float32(2))
    out = np.empty(16, np.float32)
    cl.enqueue_copy(queue, out, y)
    source = prg.get_info(cl.program_info.SOURCE)
    elwise = twice.get_kernel(False)[0].program.get_info(cl.program_info.SOURCE) \
        if hasattr(twice, "get_kernel") else ""
    print(json.dumps({"source": source, "out": out.tolist(), "elementwise": elwise}))
elif mode == "count":
    prg.axpy(queue, (16,), None, y, x)
    queue.finish()
elif mode == "many":
    prg.axpy(queue, (16,), None, y, x, np.float32(2), y, x, y, x, y)
elif mode == "name":
    prg.axpyy(queue, (16,), None, y, x, np.float32(2))
