// Clean: every work-item that reaches the store is in range.
kernel void saxpy(float a, global const float *x, global float *y, uint n)
{
    uint i = get_global_id(0);
    if (i < n)
        y[i] = a * x[i] + y[i];
}
