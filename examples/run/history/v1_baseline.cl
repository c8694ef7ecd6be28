// Version 1 of the kernel that examples/run/history/run.sh saves three times (the baseline).
// cllint-run: iterations=20 a=range:float b=fill(2) c=zeros:float:show
__kernel void work(__global const float *a, __global const float *b, __global float *c)
{
    size_t i = get_global_id(0);
    size_t mask = get_global_size(0) - 1;  /* the global size is a power of two */
    float acc = 0.0f;
    for (int r = 0; r < 100; r++)
        acc += b[(i + r) & mask] * 0.0f;  /* +0: the loop's work changes no output */
    c[i] = a[i] + b[i] + acc;
}
