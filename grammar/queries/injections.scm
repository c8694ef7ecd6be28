; Macro bodies are C code.
((preproc_arg) @injection.content
  (#set! injection.language "opencl"))
