; Scopes
[
  (translation_unit)
  (function_definition)
  (compound_statement)
  (for_statement)
  (block_literal)
] @local.scope

; Definitions
(parameter_declaration declarator: (identifier) @local.definition)
(parameter_declaration declarator: (pointer_declarator declarator: (identifier) @local.definition))
(parameter_declaration declarator: (array_declarator declarator: (identifier) @local.definition))
(declaration declarator: (identifier) @local.definition)
(declaration declarator: (init_declarator declarator: (identifier) @local.definition))
(declaration declarator: (pointer_declarator declarator: (identifier) @local.definition))
(declaration declarator: (array_declarator declarator: (identifier) @local.definition))
(declaration declarator: (init_declarator declarator: (pointer_declarator declarator: (identifier) @local.definition)))
(function_declarator declarator: (identifier) @local.definition)
(preproc_def name: (identifier) @local.definition)
(preproc_function_def name: (identifier) @local.definition)
(type_definition declarator: (type_identifier) @local.definition)

; References
(identifier) @local.reference
