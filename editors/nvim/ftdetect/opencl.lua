-- Neovim 0.8+: filetype.lua detection (the .vim autocmd next to this covers 0.7).
if vim.filetype and vim.filetype.add then
  vim.filetype.add({ extension = { cl = 'opencl', clh = 'opencl', ocl = 'opencl' } })
end
