-- A working set-up from a checkout, with no other plugins:
--   nvim --headless -u editors/nvim/minimal_init.lua kernel.cl      (or without --headless)
-- Needs `cllint` on PATH (or CLLINT_CMD="path/to/cllint server"). Nothing under ~/.config is read.
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')

vim.opt.runtimepath = { here, vim.env.VIMRUNTIME, here .. '/after' }
vim.opt.packpath = {}
vim.opt.swapfile = false
vim.opt.shadafile = 'NONE'
vim.opt.updatetime = 300
vim.opt.signcolumn = 'yes'
vim.opt.termguicolors = true

-- ftdetect/ is only sourced by ':filetype on' after runtimepath is set
vim.cmd('filetype off')
vim.cmd('filetype plugin indent on')
vim.cmd('syntax on')

local cmd = { 'cllint', 'server' }
if vim.env.CLLINT_CMD and vim.env.CLLINT_CMD ~= '' then
  cmd = vim.split(vim.env.CLLINT_CMD, ' ', { trimempty = true })
end

require('cllint').setup({
  cmd = cmd,
  on_attach = function(_, bufnr)
    local map = function(lhs, rhs, desc) vim.keymap.set('n', lhs, rhs, { buffer = bufnr, desc = desc }) end
    map('K', vim.lsp.buf.hover, 'hover')
    map('gd', vim.lsp.buf.definition, 'definition')
    map('<leader>ca', vim.lsp.buf.code_action, 'code action')
    map('<leader>cl', vim.lsp.codelens.run, 'run code lens')
    map('<leader>cr', '<cmd>CllintRun<cr>', 'run kernel')
    map(']d', vim.diagnostic.goto_next, 'next diagnostic')
    map('[d', vim.diagnostic.goto_prev, 'previous diagnostic')
  end,
})
