# kernels: 2
# expect: CL010 wrong
import pyopencl as cl


def build(ctx, n, dtype):
    src = f"""
__kernel void blur(__global {dtype} *x)
{{
    int i = get_global_id(0);
    if (i < {n}) x[i] = x[i] * 0.5f;
}}
"""
    raw = r"""
__kernel void esc(__global int *o)
{
    o[0] = wrong; // a \n in a raw string stays two characters
}
"""
    return cl.Program(ctx, src).build(), cl.Program(ctx, raw).build()
