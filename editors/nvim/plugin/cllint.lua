-- Loaded automatically from the runtimepath. The client starts only when setup() is called
-- (require('cllint').setup({...})), so that users choose lspconfig, vim.lsp.config or neither.
if vim.g.loaded_cllint then
  return
end
vim.g.loaded_cllint = true
