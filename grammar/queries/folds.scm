[
  (compound_statement)
  (field_declaration_list)
  (enumerator_list)
  (initializer_list)
  (preproc_if)
  (preproc_ifdef)
  (preproc_else)
  (preproc_elif)
  (preproc_skipped)
  (comment)
] @fold
