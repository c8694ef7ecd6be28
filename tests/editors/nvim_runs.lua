-- Run inside `nvim --headless -u editors/nvim/minimal_init.lua FILE.cl -c "luafile tests/editors/nvim_runs.lua"`.
-- Turns on runOnSave, saves the kernel twice (the second time with another output), and writes
-- a JSON report to $CLLINT_E2E_OUT: {virt_texts, runs_lines, error}.
local out_path = assert(vim.env.CLLINT_E2E_OUT, 'CLLINT_E2E_OUT not set')
local timeout = tonumber(vim.env.CLLINT_E2E_TIMEOUT or '60000')
local report = { virt_texts = {} }

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

local function virt_text(bufnr)
  local ns = vim.api.nvim_create_namespace('cllint_results')
  local marks = vim.api.nvim_buf_get_extmarks(bufnr, ns, 0, -1, { details = true })
  for _, m in ipairs(marks) do
    local chunks = m[4] and m[4].virt_text or {}
    if chunks[1] then return { line = m[2], text = chunks[1][1], hl = chunks[1][2] } end
  end
  return nil
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
  cllint.config.settings.runOnSave = true
  cllint.config.settings.device = 'cpu'
  cllint.config.settings.timeout = 120
  client.config.settings = { cllint = cllint.config.settings }
  client.notify('workspace/didChangeConfiguration', { settings = client.config.settings })
  vim.wait(500)
  report.t0 = vim.loop.now()

  for round = 1, 2 do
    if round == 2 then
      local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
      for i, l in ipairs(lines) do lines[i] = l:gsub('a%[i%] %+ b%[i%]', 'a[i] - b[i]') end
      vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, lines)
    end
    local before = virt_text(bufnr)
    vim.cmd('silent write')
    local got = vim.wait(timeout, function()
      local v = virt_text(bufnr)
      return v ~= nil and (before == nil or v.text ~= before.text)
    end, 100)
    if not got then return fail('no run result shown after save ' .. round) end
    table.insert(report.virt_texts, virt_text(bufnr))
    report['t' .. round] = vim.loop.now()
  end

  vim.cmd('CllintRuns')
  local results = -1
  vim.wait(timeout, function()  -- the list comes back asynchronously, into a buffer made then
    results = vim.fn.bufnr('cllint://results')
    return results ~= -1 and #vim.api.nvim_buf_get_lines(results, 0, -1, false) > 2
  end, 100)
  report.t3 = vim.loop.now()
  report.runs_lines = results ~= -1 and vim.api.nvim_buf_get_lines(results, 0, -1, false) or {}
  write_report()
  vim.cmd('qa!')
end

local ok, err = pcall(main)
if not ok then fail('test script error: ' .. tostring(err)) end
