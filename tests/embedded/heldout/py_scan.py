# kernels: 2
# expect: CL010 prevv
import numpy as np
import pyopencl as cl
from pyopencl.scan import GenericScanKernel

ctx = cl.create_some_context()
knl = GenericScanKernel(
    ctx, np.int32,
    arguments="__global int *ary, __global int *out",
    input_expr="ary[i]",
    scan_expr="a+b", neutral="0",
    output_statement="out[i] = item;")
bad = GenericScanKernel(
    ctx, np.int32,
    arguments="__global int *ary",
    input_expr="ary[i]",
    scan_expr="a+b", neutral="0",
    output_statement="ary[i] = prevv;")
