-- Run inside `nvim --headless -u editors/nvim/minimal_init.lua FILE.cl -c "luafile tests/editors/nvim_e2e.lua"`.
-- Waits for cllint's diagnostics, applies the first code action at the first one, and writes
-- a JSON report to $CLLINT_E2E_OUT: {diagnostics, actions, applied, text, lenses, mode, error}.
local out_path = assert(vim.env.CLLINT_E2E_OUT, 'CLLINT_E2E_OUT not set')
local timeout = tonumber(vim.env.CLLINT_E2E_TIMEOUT or '30000')
local report = { mode = require('cllint').mode, filetype = vim.bo.filetype }

local function write_report()
  local f = assert(io.open(out_path, 'w'))
  f:write(vim.fn.json_encode(report))
  f:close()
end

local function fail(msg)
  report.error = msg
  write_report()
  vim.cmd('qa!')
end

local function main()
  local bufnr = vim.api.nvim_get_current_buf()
  local cllint = require('cllint')
  if not vim.wait(timeout, function() return #cllint.clients(bufnr) > 0 end, 50) then
    return fail('no cllint client attached to the buffer')
  end
  local client = cllint.clients(bufnr)[1]
  if not vim.wait(timeout, function() return client.initialized ~= false and not client.is_stopped() end, 50) then
    return fail('the cllint client did not initialise')
  end
  local original = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n')

  -- Pushed diagnostics arrive by themselves; a pull-only server is asked via textDocument/diagnostic.
  local function cllint_diags()
    local out = {}
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
      if code ~= nil and tostring(code):match('^CL') then d.code = code; table.insert(out, d) end
    end
    return out
  end
  local got = vim.wait(timeout, function() return #cllint_diags() > 0 end, 100)
  if not got then
    local caps = client.server_capabilities or {}
    if caps.diagnosticProvider then
      local res = vim.lsp.buf_request_sync(bufnr, 'textDocument/diagnostic',
        { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }, timeout)
      for _, r in pairs(res or {}) do
        if r.result and r.result.items then
          vim.lsp.diagnostic.on_publish_diagnostics(nil, { uri = vim.uri_from_bufnr(bufnr), diagnostics = r.result.items },
            { client_id = client.id, method = 'textDocument/publishDiagnostics' }, {})
        end
      end
    end
  end
  local diags = cllint_diags()
  report.diagnostics = {}
  for _, d in ipairs(diags) do
    table.insert(report.diagnostics, { code = tostring(d.code), message = d.message, lnum = d.lnum, col = d.col,
      end_lnum = d.end_lnum, end_col = d.end_col, severity = d.severity })
  end
  if #diags == 0 then return fail('no cllint diagnostics within ' .. timeout .. ' ms') end

  -- Code actions at the first diagnostic.
  local d = diags[1]
  local range = { start = { line = d.lnum, character = d.col },
    ['end'] = { line = d.end_lnum or d.lnum, character = d.end_col or d.col } }
  local lsp_diag = { range = range, message = d.message, code = d.code, severity = d.severity, source = d.source }
  local lsp_data = d.user_data and d.user_data.lsp
  if type(lsp_data) == 'table' then lsp_diag = vim.tbl_extend('force', lsp_diag, lsp_data, { range = range }) end
  local res = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) }, range = range,
    context = { diagnostics = { lsp_diag }, only = nil },
  }, timeout) or {}
  local actions = {}
  for _, r in pairs(res) do
    for _, a in ipairs(r.result or {}) do table.insert(actions, a) end
  end
  report.actions = {}
  for _, a in ipairs(actions) do table.insert(report.actions, { title = a.title, kind = a.kind, isPreferred = a.isPreferred }) end
  if #actions == 0 then return fail('no code action at the diagnostic') end

  -- the server's preferred fix when it marks one, else the first action
  local action = actions[1]
  for _, a in ipairs(actions) do if a.isPreferred then action = a; break end end
  if not action.edit and not action.command and client.server_capabilities.codeActionProvider
    and type(client.server_capabilities.codeActionProvider) == 'table'
    and client.server_capabilities.codeActionProvider.resolveProvider then
    local resolved = vim.lsp.buf_request_sync(bufnr, 'codeAction/resolve', action, timeout) or {}
    for _, r in pairs(resolved) do if r.result then action = r.result end end
  end
  if action.edit then
    vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding or 'utf-16')
  end
  local command = type(action.command) == 'table' and action.command or (type(action.command) == 'string' and action or nil)
  if command then
    vim.lsp.buf_request_sync(bufnr, 'workspace/executeCommand',
      { command = command.command, arguments = command.arguments }, timeout)
  end
  report.applied = action.title
  vim.wait(timeout, function()
    return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n') ~= original
  end, 50)
  report.text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n') .. '\n'

  -- Code lenses (recorded, not required by the test).
  local lens_res = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeLens',
    { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }, 5000) or {}
  report.lenses = {}
  for _, r in pairs(lens_res) do
    for _, l in ipairs(r.result or {}) do
      table.insert(report.lenses, { title = l.command and l.command.title, command = l.command and l.command.command })
    end
  end
  write_report()
  vim.cmd('qa!')
end

local ok, err = pcall(main)
if not ok then fail('test script error: ' .. tostring(err)) end
