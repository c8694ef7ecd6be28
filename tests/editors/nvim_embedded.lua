-- Run inside `nvim --headless -u editors/nvim/minimal_init.lua -c "luafile tests/editors/nvim_embedded.lua"`.
-- Host buffers: sets cllint up with $CLLINT_E2E_SETTINGS (JSON), attaches a stand-in for the
-- user's Python server ($CLLINT_E2E_STANDIN) to Python buffers, opens $CLLINT_E2E_FILES
-- (':'-separated; the last must get a cllint diagnostic) and writes, per file, its filetype,
-- the clients attached, cllint's diagnostics and cllint's hover at line 1 column 8.
local out_path = assert(vim.env.CLLINT_E2E_OUT, 'CLLINT_E2E_OUT not set')
local timeout = tonumber(vim.env.CLLINT_E2E_TIMEOUT or '30000')
local cllint = require('cllint')
local report = { files = {} }

local function finish(msg)
  report.error = msg
  local f = assert(io.open(out_path, 'w'))
  f:write(vim.fn.json_encode(report))
  f:close()
  vim.cmd('qa!')
end

local function cllint_diags(bufnr)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    if code ~= nil and tostring(code):match('^CL') then
      table.insert(out, { code = tostring(code), lnum = d.lnum, col = d.col, end_col = d.end_col })
    end
  end
  return out
end

local function main()
  local settings = vim.env.CLLINT_E2E_SETTINGS and vim.fn.json_decode(vim.env.CLLINT_E2E_SETTINGS) or {}
  cllint.setup({ cmd = cllint.config.cmd, settings = settings })
  if vim.env.CLLINT_E2E_STANDIN then
    local standin = vim.lsp.start_client({ name = 'standin', cmd = vim.split(vim.env.CLLINT_E2E_STANDIN, ' ') })
    vim.api.nvim_create_autocmd('FileType', { pattern = 'python',
      callback = function(a) vim.lsp.buf_attach_client(a.buf, standin) end })
  end
  local files = vim.split(vim.env.CLLINT_E2E_FILES, ':')
  local bufs = {}
  for _, file in ipairs(files) do
    vim.cmd('edit ' .. vim.fn.fnameescape(file))
    bufs[file] = vim.api.nvim_get_current_buf()
  end
  local last = bufs[files[#files]]
  if not vim.wait(timeout, function() return #cllint_diags(last) > 0 end, 100) then
    report.files[files[#files]] = { filetype = vim.bo[last].filetype, clients = {} }
    return finish('no cllint diagnostics in ' .. files[#files] .. ' within ' .. timeout .. ' ms')
  end
  vim.wait(1000, function() return false end, 100)  -- time for a wrong attach or report elsewhere
  for file, bufnr in pairs(bufs) do
    local names = {}
    for _, c in pairs(vim.lsp.buf_get_clients(bufnr)) do table.insert(names, c.name) end
    table.sort(names)
    local hover = vim.NIL
    for _, c in ipairs(cllint.clients(bufnr)) do
      local res = c.request_sync('textDocument/hover',
        { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = 1, character = 8 } }, 5000, bufnr)
      hover = res and res.result or vim.NIL
    end
    report.files[vim.fn.fnamemodify(file, ':t')] = { filetype = vim.bo[bufnr].filetype, clients = names,
      diagnostics = cllint_diags(bufnr), hover = hover }
  end
  finish(nil)
end

local ok, err = pcall(main)
if not ok then finish('test script error: ' .. tostring(err)) end
