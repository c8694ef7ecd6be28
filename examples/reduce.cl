// A work-group sum reduction, with the classic bug: work-items past the end
// return before the barrier that the others then wait at.
kernel void reduce_sum(global const float *in, global float *out, local float *tile, uint n)
{
    uint gid = get_global_id(0);
    uint lid = get_local_id(0);
    if (gid >= n)
        return;

    tile[lid] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);

    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            tile[lid] += tile[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = tile[0];
}
