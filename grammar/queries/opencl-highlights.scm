; OpenCL C additions on top of tree-sitter-c's highlights (see scripts/gen_highlights.py).

(address_space_qualifier) @keyword.storage
(access_qualifier) @keyword.storage
(kernel_specifier) @keyword.function
(pipe_qualifier) @keyword.storage

(macro_modifier name: (identifier) @function.macro)
(macro_invocation function: (identifier) @function.macro)

(vector_literal type: (type_descriptor) @type)
(block_literal "^" @operator)

(opencl_extension_pragma) @keyword.directive
(opencl_extension_pragma extension: (identifier) @constant.builtin)
(opencl_extension_pragma behavior: (identifier) @constant)
(opencl_fp_contract_pragma) @keyword.directive
(unroll_pragma) @keyword.directive
(preproc_pragma) @keyword.directive

(preproc_conditional) @keyword.directive
(preproc_conditional_text) @keyword.directive
(preproc_skipped) @comment

((call_expression
  function: (identifier) @function.builtin)
  (#match? @function.builtin "^(get_(global|local|group)_(id|size|linear_id)|get_(num_groups|work_dim|global_offset|enqueued_local_size)|barrier|work_group_barrier|mem_fence|read_mem_fence|write_mem_fence|async_work_group_(strided_)?copy|wait_group_events|prefetch|vload[0-9]*|vstore[0-9]*|vload_half[0-9]*|vstore_half[0-9]*|read_image[fiuh]|write_image[fiuh]|get_image_(width|height|depth|dim|channel_order|channel_data_type|array_size)|atomic_[a-z_]+|atom_[a-z]+|work_group_[a-z_]+|sub_group_[a-z_]+|get_sub_group_[a-z_]+|get_max_sub_group_size|get_num_sub_groups|convert_[a-z0-9_]+|as_[a-z0-9]+|to_(global|local|private)|enqueue_kernel|get_default_queue|ndrange_[123]D|printf|shuffle2?|select|vec_step)$"))

((identifier) @constant.builtin
  (#match? @constant.builtin "^(CLK_[A-Z_]+|memory_order_[a-z_]+|memory_scope_[a-z_]+|MAXFLOAT|HUGE_VALF?|INFINITY|NAN|FLT_[A-Z_]+|DBL_[A-Z_]+|HALF_[A-Z_]+|M_[A-Z0-9_]+(_F|_H)?)$"))
