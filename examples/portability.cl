// Uses double precision without checking that the device supports it.
kernel void scale(global double *data, double factor)
{
    size_t i = get_global_id(0);
    data[i] *= factor;
}

#ifdef cl_khr_fp64
kernel void scale_guarded(global double *data, double factor)
{
    data[get_global_id(0)] *= factor;
}
#endif
