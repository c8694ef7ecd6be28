# kernels: 1
# expect: CL603 -1
# expect: CL603 numpy.float32(0.5)
# expect: CL603 True
# expect: CL604 numpy.empty_like(src)
# expect: CL605 (16, 16, 1)
# expect: CL301 double
import numpy
import pyopencl as cl


def run(ctx, queue, out_buf, src, gsize):
    prg = cl.Program(ctx, """
__kernel void blend(__global double *o, double w, int flag, __constant float *lut) { o[0] = w * flag + lut[0]; }
__kernel void grid(__global float *o) { o[get_global_id(1)] = 0; }
""").build()
    prg.blend(queue, (4,), None, out_buf, numpy.float64(0.5), -1, None)
    prg.blend(queue, (4,), None, out_buf, numpy.float32(0.5), numpy.int32(1), None)
    prg.blend(queue, (4,), None, out_buf, numpy.float64(1), True, None)
    prg.blend(queue, (4,), None, numpy.empty_like(src), numpy.float64(1), numpy.int32(0), None)
    prg.grid(queue, (16, 16), (16, 16, 1), out_buf)
    # not reported: the lengths or the values are not in the source
    prg.grid(queue, gsize, (16, 16, 1), out_buf)
    prg.grid(queue, (16, 16), (4, 4), out_buf)
    prg.blend(queue, (4,), None, out_buf, numpy.float64(1), numpy.int32(0), out_buf)
    prg.blend(queue, (4,), None, src, numpy.float64(1), numpy.int32(0), None)
