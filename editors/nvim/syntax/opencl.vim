" Regex highlighting for OpenCL C when tree-sitter is not set up: C plus OpenCL words.
if exists('b:current_syntax')
  finish
endif
runtime! syntax/c.vim
unlet! b:current_syntax

syn keyword openclKernel __kernel kernel
syn keyword openclAddressSpace __global global __local local __constant constant __private private __generic generic
syn keyword openclAccess __read_only read_only __write_only write_only __read_write read_write
syn keyword openclType bool uchar ushort uint ulong half quad size_t ptrdiff_t intptr_t uintptr_t
syn keyword openclType image1d_t image1d_array_t image1d_buffer_t image2d_t image2d_array_t image2d_depth_t
syn keyword openclType image2d_array_depth_t image3d_t sampler_t event_t clk_event_t ndrange_t queue_t reserve_id_t
syn keyword openclType cl_mem_fence_flags memory_order memory_scope atomic_int atomic_uint atomic_long atomic_ulong
syn keyword openclType atomic_float atomic_double atomic_flag atomic_size_t atomic_intptr_t atomic_uintptr_t atomic_ptrdiff_t
syn match openclVectorType "\<\(u\=char\|u\=short\|u\=int\|u\=long\|float\|double\|half\|bool\)\(2\|3\|4\|8\|16\)\>"
syn match openclBuiltin "\<\(get_\(global\|local\|group\)_\(id\|size\)\|get_num_groups\|get_work_dim\|get_global_offset\|get_enqueued_local_size\|get_global_linear_id\|get_local_linear_id\|barrier\|work_group_barrier\|mem_fence\|read_mem_fence\|write_mem_fence\|atomic_\w\+\|atom_\w\+\|async_work_group_copy\|async_work_group_strided_copy\|wait_group_events\|prefetch\|vload\w*\|vstore\w*\|convert_\w\+\|as_\w\+\|read_image\w\|write_image\w\|sub_group_\w\+\|work_group_\w\+\|mad\|fma\|native_\w\+\|half_\w\+\|printf\)\>\ze\s*("
syn match openclConstant "\<CLK_[A-Z0-9_]\+\>"
syn match openclConstant "\<__opencl_c_\w\+\>"
syn match openclConstant "\<cl_khr_\w\+\>"
syn match openclFloat "\<\d\+\.\d*\([eE][-+]\=\d\+\)\=[hH]\>"

hi def link openclKernel StorageClass
hi def link openclAddressSpace StorageClass
hi def link openclAccess StorageClass
hi def link openclType Type
hi def link openclVectorType Type
hi def link openclBuiltin Function
hi def link openclConstant Constant
hi def link openclFloat Float

let b:current_syntax = 'opencl'
