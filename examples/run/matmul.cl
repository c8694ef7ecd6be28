// Tiled matrix multiply C = A * B for square n x n float matrices.
// Each work-group computes a TILE x TILE block of C, staging tiles of A and B in local memory.
#define TILE 16

// cllint-run: global=512,512 local=16,16 iterations=5
// cllint-run: A=rand(-1,1):float:262144:seed=1:hide B=rand(-1,1):float:262144:seed=2:hide
// cllint-run: C=zeros:float:262144:show n=512

__kernel void matmul(__global const float *A, __global const float *B, __global float *C, int n)
{
    __local float As[TILE][TILE];
    __local float Bs[TILE][TILE];
    const int row = get_global_id(1), col = get_global_id(0);
    const int ty = get_local_id(1), tx = get_local_id(0);
    float acc = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        As[ty][tx] = A[row * n + t + tx];
        Bs[ty][tx] = B[(t + ty) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * n + col] = acc;
}

// Sum of a vector: each work-group reduces its slice in local memory, one partial sum per group.
// cllint-run: global=1048576 local=256 x=rand:float:1048576:seed=3:hide partial=zeros:float:4096 scratch=local:float:256
__kernel void reduce_sum(__global const float *x, __global float *partial, __local float *scratch)
{
    const size_t lid = get_local_id(0);
    scratch[lid] = x[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}
