" OpenCL C: Vim and Neovim map *.cl to Lisp by default. This autocmd runs after the
" default detection (ftdetect/ is sourced last), so it wins on every version, 0.7 included.
autocmd BufRead,BufNewFile *.cl,*.clh,*.ocl,*.opencl if &filetype !=# 'opencl' | set filetype=opencl | endif
