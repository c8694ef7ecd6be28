(struct_specifier name: (type_identifier) @name body:(_)) @definition.class

(declaration type: (union_specifier name: (type_identifier) @name)) @definition.class

(function_declarator declarator: (identifier) @name) @definition.function

(type_definition declarator: (type_identifier) @name) @definition.type

(enum_specifier name: (type_identifier) @name) @definition.type

; OpenCL: kernels are the entry points.
(function_definition
  (kernel_specifier)
  declarator: (function_declarator declarator: (identifier) @name)) @definition.function
