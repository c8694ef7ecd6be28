kernel void fill(global int *out, int value)
{
    out[get_global_id(0)] = value
}
