-- cllint for Neovim: the OpenCL C language server client, device commands, code lenses and
-- the project's tree-sitter grammar. Works on Neovim 0.7.2 (Debian bookworm) through 0.11+.
--
--   require('cllint').setup({ settings = { device = 'gpu', ignore = { 'CL5' } } })
local M = {}


local sep = package.config:sub(1, 1)

-- editors/nvim (this plugin) and grammar/ (the repository's tree-sitter grammar).
local plugin_root = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h:h:h')
M.plugin_root = plugin_root
M.grammar_dir = vim.fn.fnamemodify(plugin_root .. '/../../grammar', ':p'):gsub('[/\\]$', '')

M.defaults = {
  cmd = { 'cllint', 'server' },
  -- OpenCL buffers; Python (settings.embeddedPython, default on) and C/C++ (settings.embeddedCpp)
  -- are added for the kernels in their strings, see M.filetypes()
  filetypes = { 'opencl' },
  root_markers = { '.cllint.toml', 'pyproject.toml', '.git' },
  -- the server's "cllint" configuration section: std, target, features, includePaths, defines,
  -- select, ignore, device, buildOnSave, runOnSave, embeddedPython, embeddedCpp (unset keys fall
  -- back to .cllint.toml)
  settings = {},
  codelens = true,
  commands = true,
  -- register grammar/ with nvim-treesitter, copy grammar/queries, start highlighting
  treesitter = true,
  on_attach = nil,
  capabilities = nil,
}

M.config = vim.deepcopy(M.defaults)

local ns = vim.api.nvim_create_namespace('cllint_results')
local has = function(feature) return vim.fn.has(feature) == 1 end

-- Client API differences across versions -------------------------------------------------

local function request(client, method, params, handler, bufnr)
  if has('nvim-0.11') then return client:request(method, params, handler, bufnr) end
  return client.request(method, params, handler, bufnr)
end

local function notify(client, method, params)
  if has('nvim-0.11') then return client:notify(method, params) end
  return client.notify(method, params)
end

--- cllint clients attached to a buffer (all cllint clients when bufnr is nil).
function M.clients(bufnr)
  local out = {}
  local all
  if vim.lsp.get_clients then
    all = vim.lsp.get_clients({ bufnr = bufnr })
  elseif bufnr then
    all = vim.tbl_values(vim.lsp.buf_get_clients(bufnr))
  else
    all = vim.lsp.get_active_clients()
  end
  for _, c in ipairs(all) do
    if c.name == 'cllint' then table.insert(out, c) end
  end
  return out
end

local function client_for(bufnr)
  local c = M.clients(bufnr)[1] or M.clients()[1]
  if not c then
    vim.notify('cllint: no language server attached (is `cllint` on PATH?)', vim.log.levels.ERROR)
  end
  return c
end

local function find_root(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local dir = name ~= '' and vim.fn.fnamemodify(name, ':p:h') or vim.fn.getcwd()
  for _, marker in ipairs(M.config.root_markers) do
    local hit = vim.fn.findfile(marker, dir .. ';')
    if hit == '' then hit = vim.fn.finddir(marker, dir .. ';') end
    if hit ~= '' then return vim.fn.fnamemodify(hit, ':p:h'):gsub('[/\\]%.git$', '') end
  end
  return dir
end

-- Results ---------------------------------------------------------------------------------

local function num(x)
  if type(x) ~= 'number' then return '-' end
  if x == math.floor(x) and math.abs(x) < 1e15 then return string.format('%d', x) end
  return string.format('%.6g', x)
end

local function ms(x)
  if x >= 100 then return string.format('%.0f ms', x) end
  if x >= 1 then return string.format('%.2f ms', x) end
  return string.format('%.1f µs', x * 1000)
end

local function list(t, sepr)
  local out = {}
  for _, v in ipairs(t or {}) do table.insert(out, type(v) == 'number' and num(v) or tostring(v)) end
  return table.concat(out, sepr or ', ')
end

--- Lines describing a run or build result (the JSON the server's commands return).
function M.format_result(r)
  if type(r) ~= 'table' then return { vim.inspect(r) } end
  if r.result ~= nil and type(r.result) == 'table' then r = r.result end
  if type(r.error) == 'string' then
    return { '✗ ' .. r.error .. ((r.hint and r.hint ~= '') and ('  = help: ' .. r.hint) or '') }
  end
  local lines = {}
  local dev = type(r.device) == 'table' and (r.device.name or '?') or tostring(r.device or '?')
  if r.kernel then
    table.insert(lines, string.format('%s %s on %s', r.ok and '✓' or '✗', r.kernel, dev))
    table.insert(lines, string.format('  global %s  local %s', list(r.global_size, '×'),
      type(r.local_size) == 'table' and list(r.local_size, '×') or 'auto'))
    if type(r.timing) == 'table' then
      table.insert(lines, string.format('  time median %s (min %s, max %s, %d runs)', ms(r.timing.median_ms),
        ms(r.timing.min_ms), ms(r.timing.max_ms), r.timing.iterations or 0))
    end
    for _, b in ipairs(r.outputs or {}) do
      local first = {}
      for i = 1, math.min(8, #(b.first or {})) do first[i] = num(b.first[i]) end
      table.insert(lines, string.format('  %s: %s[%s] = [%s%s]  min %s max %s mean %s%s', b.name, b.dtype, num(b.count),
        table.concat(first, ', '), (b.count or 0) > #first and ', …' or '', num(b.min), num(b.max), num(b.mean),
        ((b.nan or 0) + (b.inf or 0) > 0) and string.format('  NaN×%d Inf×%d', b.nan or 0, b.inf or 0) or ''))
    end
  else
    table.insert(lines, string.format('%s on %s%s', r.ok and '✓ built' or '✗ build failed', dev,
      r.seconds and string.format(' in %.2f s', r.seconds) or ''))
  end
  for _, d in ipairs(r.diagnostics or {}) do
    if type(d) == 'string' then table.insert(lines, '  ' .. d)
    else table.insert(lines, string.format('  %s %s', d.code or '', d.message or '')) end
  end
  if type(r.log) == 'string' and r.log:match('%S') then
    table.insert(lines, '  log:')
    for _, l in ipairs(vim.split(r.log:gsub('%s+$', ''), '\n')) do table.insert(lines, '    ' .. l) end
  end
  return lines
end

local function results_buffer()
  local name = 'cllint://results'
  local buf = vim.fn.bufnr(name)
  if buf == -1 then
    buf = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_name(buf, name)
    vim.api.nvim_buf_set_option(buf, 'bufhidden', 'hide')
  end
  if vim.fn.bufwinnr(buf) == -1 then
    local cur = vim.api.nvim_get_current_win()
    vim.cmd('botright 10split')
    vim.api.nvim_win_set_buf(0, buf)
    vim.api.nvim_set_current_win(cur)
  end
  return buf
end

local function show_lines(lines)
  local buf = results_buffer()
  local n = vim.api.nvim_buf_line_count(buf)
  local empty = n == 1 and vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1] == ''
  vim.api.nvim_buf_set_lines(buf, empty and 0 or n, -1, false, vim.list_extend(vim.deepcopy(lines), { '' }))
  local win = vim.fn.bufwinid(buf)
  if win ~= -1 then vim.api.nvim_win_set_cursor(win, { vim.api.nvim_buf_line_count(buf), 0 }) end
end

--- 0-based line of `kernel NAME(` in a buffer, or nil.
function M.kernel_line(bufnr, name)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  local seen_kernel = false
  for i, l in ipairs(lines) do
    local code = l:gsub('//.*$', '')
    if code:match('%f[%w_]__kernel%f[^%w_]') or code:match('%f[%w_]kernel%f[^%w_]') then seen_kernel = true end
    if seen_kernel and code:match('%f[%w_]' .. vim.pesc(name) .. '%s*%(') then return i - 1 end
    if code:match('[;{}]') then seen_kernel = false end
  end
  return nil
end

--- Kernel names defined in a buffer.
function M.kernels(bufnr)
  local text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n')
  text = text:gsub('/%*.-%*/', ' '):gsub('//[^\n]*', '')
  local names = {}
  for decl in text:gmatch('[^;{}]+') do
    if decl:match('%f[%w_]__kernel%f[^%w_]') or decl:match('%f[%w_]kernel%f[^%w_]') then
      local name = decl:match('([%a_][%w_]*)%s*%(')
      -- the declarator's name is the identifier before the first '(' that is not __attribute__
      for id in decl:gmatch('([%a_][%w_]*)%s*%(') do
        if id ~= '__attribute__' and id ~= 'reqd_work_group_size' and id ~= 'work_group_size_hint'
          and id ~= 'vec_type_hint' then name = id; break end
      end
      if name and not vim.tbl_contains(names, name) then table.insert(names, name) end
    end
  end
  return names
end

local function decorate(bufnr, r)
  if type(r) ~= 'table' or not r.kernel or not vim.api.nvim_buf_is_valid(bufnr) then return end
  local line = M.kernel_line(bufnr, r.kernel)
  if not line then return end
  vim.api.nvim_buf_clear_namespace(bufnr, ns, line, line + 1)
  local text = M.format_result(r)[1]
  if type(r.timing) == 'table' then text = text .. '  ' .. ms(r.timing.median_ms) end
  vim.api.nvim_buf_set_extmark(bufnr, ns, line, 0, {
    virt_text = { { '  ' .. text, r.ok and 'Comment' or 'DiagnosticError' } },
    virt_text_pos = 'eol',
  })
end

--- workspace/executeCommand on the cllint client; shows what comes back.
function M.execute(command, arguments, bufnr, on_result)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local client = client_for(bufnr)
  if not client then return end
  request(client, 'workspace/executeCommand', { command = command, arguments = arguments }, function(err, result)
    if err then
      vim.notify(string.format('cllint: %s failed: %s', command, err.message or vim.inspect(err)), vim.log.levels.ERROR)
      return
    end
    if on_result then return on_result(result) end
    if result ~= nil and result ~= vim.NIL then
      show_lines(M.format_result(result))
      decorate(bufnr, type(result) == 'table' and (result.result or result) or nil)
    end
  end, bufnr)
end

-- Run history (.cllint/runs.jsonl) ----------------------------------------------------------

--- The virtual text for a run the server recorded (notification cllint/runRecorded): the lens's
--- title without its '▶ Run · ', and what changed in the outputs.
function M.run_text(n)
  if type(n) ~= 'table' then return nil end
  if not n.ok then return '✗ ' .. tostring(n.error or 'failed') end
  local text = tostring(n.title or ''):gsub('^▶ Run · ', '')
  if type(n.output_changed) == 'string' then
    text = text:gsub(' · ≠ [%w_]+', '') .. '  ⚠ ' .. n.output_changed
  end
  return text
end

--- Shows a recorded run at its kernel's line in every buffer of that file.
function M.on_run_recorded(_, params)
  if type(params) ~= 'table' or type(params.uri) ~= 'string' then return end
  local bufnr = vim.fn.bufnr(vim.uri_to_fname(params.uri))
  if bufnr == -1 or not vim.api.nvim_buf_is_loaded(bufnr) then return end
  local line = M.kernel_line(bufnr, params.kernel or '')
  if not line then return end
  vim.api.nvim_buf_clear_namespace(bufnr, ns, line, line + 1)
  local bad = not params.ok or params.output_changed ~= nil and params.output_changed ~= vim.NIL
  vim.api.nvim_buf_set_extmark(bufnr, ns, line, 0, {
    virt_text = { { '  ' .. M.run_text(params), bad and 'DiagnosticWarn' or (params.slower and 'DiagnosticInfo' or 'Comment') } },
    virt_text_pos = 'eol',
  })
end

--- :CllintRuns [kernel]: the history of this file's runs, as `cllint runs FILE` prints it.
function M.runs(kernel, bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local args = { vim.uri_from_bufnr(bufnr) }
  if kernel and kernel ~= '' then table.insert(args, kernel) end
  M.execute('cllint.listRuns', args, bufnr, function(result)
    if type(result) ~= 'table' then return end
    if type(result.error) == 'string' then return show_lines(M.format_result(result)) end
    local lines = vim.deepcopy(result.lines or {})
    if #lines == 0 then lines = { 'no runs of this file yet (:CllintRun, or runOnSave)' } end
    for _, w in ipairs(result.warnings or {}) do table.insert(lines, 'warning: ' .. w) end
    show_lines(lines)
  end)
end

-- Commands ---------------------------------------------------------------------------------

function M.run(kernel, bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(bufnr)
  local function go(name)
    if not name then return end
    if vim.bo[bufnr].modified then vim.api.nvim_buf_call(bufnr, function() vim.cmd('silent write') end) end
    vim.notify('cllint: running ' .. name .. '…')
    M.execute('cllint.runKernel', { uri, name }, bufnr)
  end
  if kernel and kernel ~= '' then return go(kernel) end
  local names = M.kernels(bufnr)
  if #names == 0 then return vim.notify('cllint: no kernel in this buffer', vim.log.levels.WARN) end
  if #names == 1 then return go(names[1]) end
  vim.ui.select(names, { prompt = 'Kernel to run' }, go)
end

function M.build(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  if vim.bo[bufnr].modified then vim.api.nvim_buf_call(bufnr, function() vim.cmd('silent write') end) end
  -- the contract's name, else the one an older server advertises
  local command = 'cllint.buildOnDevice'
  local client = M.clients(bufnr)[1]
  local provider = client and (client.server_capabilities or {}).executeCommandProvider
  local available = type(provider) == 'table' and provider.commands or nil
  if available and not vim.tbl_contains(available, command) and vim.tbl_contains(available, 'cllint.build') then
    command = 'cllint.build'
  end
  M.execute(command, { vim.uri_from_bufnr(bufnr) }, bufnr)
end

local function decode_devices(result)
  if type(result) == 'string' then
    local ok, v = pcall(vim.fn.json_decode, result)
    result = ok and v or {}
  end
  if type(result) == 'table' and result.devices then result = result.devices end
  if type(result) == 'table' and result.result then result = result.result end
  return type(result) == 'table' and result or {}
end

--- Sets the device selector in every cllint client's settings and tells the servers.
function M.set_device(selector)
  M.config.settings.device = (selector ~= nil and selector ~= '') and selector or nil
  for _, client in ipairs(M.clients()) do
    client.config.settings = client.config.settings or {}
    client.config.settings.cllint = vim.tbl_extend('force', client.config.settings.cllint or {}, {})
    client.config.settings.cllint.device = M.config.settings.device
    notify(client, 'workspace/didChangeConfiguration', { settings = client.config.settings })
  end
  vim.notify('cllint: device ' .. (M.config.settings.device or 'default'))
end

function M.device(selector)
  if selector and selector ~= '' then return M.set_device(selector) end
  M.execute('cllint.listDevices', {}, nil, function(result)
    local devices = decode_devices(result)
    local items = { { label = 'default', selector = '' } }
    for _, d in ipairs(devices) do
      table.insert(items, { label = string.format('%d: %s (%s, %s)', d.index, d.name, d.type, d.platform), selector = tostring(d.index) })
    end
    table.insert(items, { label = 'oclgrind (simulator with memory and barrier checks)', selector = 'oclgrind' })
    vim.ui.select(items, { prompt = 'OpenCL device', format_item = function(i) return i.label end }, function(item)
      if item then M.set_device(item.selector) end
    end)
  end)
end

function M.devices()
  M.execute('cllint.listDevices', {}, nil, function(result)
    local lines = {}
    for _, d in ipairs(decode_devices(result)) do
      table.insert(lines, string.format('%d  %-5s %s (%s) %s', d.index, d.type or '', d.name or '', d.platform or '', d.opencl_c_version or ''))
    end
    if #lines == 0 then lines = { 'no OpenCL devices found' } end
    show_lines(lines)
  end)
end

-- Code lenses call cllint.runKernel; run it through the client so that results are shown.
local function register_lens_commands()
  vim.lsp.commands = vim.lsp.commands or {}
  vim.lsp.commands['cllint.runKernel'] = function(command, ctx)
    local args = command.arguments or {}
    local bufnr = ctx and ctx.bufnr or vim.api.nvim_get_current_buf()
    M.execute('cllint.runKernel', args, bufnr)
  end
  vim.lsp.commands['cllint.buildOnDevice'] = function(command, ctx)
    M.execute('cllint.buildOnDevice', command.arguments or {}, ctx and ctx.bufnr)
  end
end

local function create_commands()
  local cmd = vim.api.nvim_create_user_command
  cmd('CllintRun', function(a) M.run(a.args) end, { nargs = '?', desc = 'cllint: run a kernel on the selected device',
    complete = function() return M.kernels(vim.api.nvim_get_current_buf()) end })
  cmd('CllintBuild', function() M.build() end, { desc = "cllint: compile with the device's OpenCL compiler" })
  cmd('CllintDevice', function(a) M.device(a.args) end, { nargs = '?',
    desc = 'cllint: choose the device (index, name substring, cpu, gpu, oclgrind)',
    complete = function() return { 'cpu', 'gpu', 'oclgrind' } end })
  cmd('CllintDevices', function() M.devices() end, { desc = 'cllint: list OpenCL devices' })
  cmd('CllintRuns', function(a) M.runs(a.args) end, { nargs = '?',
    desc = 'cllint: the runs of this file kept in .cllint/runs.jsonl (sparkline, changes, CL920/CL921)',
    complete = function() return M.kernels(vim.api.nvim_get_current_buf()) end })
  cmd('CllintRestart', function() M.restart() end, { desc = 'cllint: restart the language server' })
  cmd('CllintClearResults', function()
    vim.api.nvim_buf_clear_namespace(0, ns, 0, -1)
  end, { desc = 'cllint: clear run results shown in the buffer' })
end

function M.restart()
  local bufs = {}
  for _, client in ipairs(M.clients()) do
    for b in pairs(client.attached_buffers or {}) do bufs[b] = true end
    client.stop()
  end
  vim.defer_fn(function()
    for b in pairs(bufs) do
      if vim.api.nvim_buf_is_valid(b) then vim.api.nvim_exec_autocmds('FileType', { buffer = b }) end
    end
  end, 500)
end

-- Code lenses ------------------------------------------------------------------------------

local function enable_codelens(client, bufnr)
  if not M.config.codelens then return end
  local caps = client.server_capabilities or client.resolved_capabilities or {}
  if not (caps.codeLensProvider or caps.code_lens) then return end
  if vim.lsp.codelens.enable and has('nvim-0.12') then
    return vim.lsp.codelens.enable(true, { bufnr = bufnr })
  end
  local group = vim.api.nvim_create_augroup('cllint_codelens_' .. bufnr, { clear = true })
  local refresh = function() pcall(vim.lsp.codelens.refresh, { bufnr = bufnr }) end
  vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'BufWritePost', 'CursorHold' },
    { group = group, buffer = bufnr, callback = refresh })
  refresh()
end

local function on_attach(client, bufnr)
  enable_codelens(client, bufnr)
  if M.config.on_attach then M.config.on_attach(client, bufnr) end
end

local function on_init(client)
  -- Push the settings once; the server may also ask via workspace/configuration.
  notify(client, 'workspace/didChangeConfiguration', { settings = client.config.settings })
  return true
end

-- Tree-sitter ------------------------------------------------------------------------------

--- Where the copied queries and a locally built parser live (added to 'runtimepath').
M.ts_dir = vim.fn.stdpath('data') .. sep .. 'cllint-treesitter'

local function read(path)
  local f = io.open(path, 'rb')
  if not f then return nil end
  local s = f:read('*a')
  f:close()
  return s
end

--- Copies grammar/queries/*.scm to <ts_dir>/queries/opencl/ (no symlinks) and puts ts_dir on 'runtimepath'.
function M.install_queries()
  local src = M.grammar_dir .. sep .. 'queries'
  local dst = M.ts_dir .. sep .. 'queries' .. sep .. 'opencl'
  local files = vim.fn.glob(src .. sep .. '*.scm', false, true)
  if #files == 0 then return false end
  vim.fn.mkdir(dst, 'p')
  for _, file in ipairs(files) do
    local text = read(file)
    local target = dst .. sep .. vim.fn.fnamemodify(file, ':t')
    if text and read(target) ~= text then
      local f = assert(io.open(target, 'wb'))
      f:write(text)
      f:close()
    end
  end
  if not vim.tbl_contains(vim.api.nvim_list_runtime_paths(), M.ts_dir) then
    vim.opt.runtimepath:prepend(M.ts_dir)
  end
  return true
end

--- Compiles grammar/src into <ts_dir>/parser/opencl.so with a C compiler (no nvim-treesitter needed).
function M.build_parser()
  local out = M.ts_dir .. sep .. 'parser'
  vim.fn.mkdir(out, 'p')
  local cc = vim.env.CC or 'cc'
  local src = M.grammar_dir .. sep .. 'src'
  local cmd = { cc, '-shared', '-fPIC', '-O2', '-I', src, src .. sep .. 'parser.c', src .. sep .. 'scanner.c',
    '-o', out .. sep .. 'opencl.so' }
  local output = vim.fn.system(cmd)
  if vim.v.shell_error ~= 0 then
    vim.notify('cllint: building the parser failed:\n' .. output, vim.log.levels.ERROR)
    return false
  end
  M.install_queries()
  if not vim.tbl_contains(vim.api.nvim_list_runtime_paths(), M.ts_dir) then vim.opt.runtimepath:prepend(M.ts_dir) end
  vim.notify('cllint: built ' .. out .. sep .. 'opencl.so')
  return true
end

local function register_nvim_treesitter()
  local ok, parsers = pcall(require, 'nvim-treesitter.parsers')
  if not ok then return end
  local info = { url = M.grammar_dir, path = M.grammar_dir, files = { 'src/parser.c', 'src/scanner.c' },
    generate_requires_npm = false, requires_generate_from_grammar = false }
  if type(parsers.get_parser_configs) == 'function' then
    -- nvim-treesitter master: ':TSInstall opencl' compiles this checkout's grammar
    parsers.get_parser_configs().opencl = { install_info = info, filetype = 'opencl', maintainers = { 'cllint' } }
  else
    -- nvim-treesitter main: parsers are a table refreshed on the TSUpdate event
    vim.api.nvim_create_autocmd('User', { pattern = 'TSUpdate', callback = function()
      require('nvim-treesitter.parsers').opencl = { install_info = info, tier = 3 }
    end })
  end
end

local function parser_available()
  if vim.treesitter.language and vim.treesitter.language.add then
    return pcall(vim.treesitter.language.add, 'opencl')
  end
  return pcall(vim.treesitter.require_language, 'opencl', nil, true)
end

local function start_highlight(bufnr)
  if vim.treesitter.highlighter.active[bufnr] then return end
  if not parser_available() then return end
  if vim.treesitter.start then
    pcall(vim.treesitter.start, bufnr, 'opencl')
  else
    local ok, parser = pcall(vim.treesitter.get_parser, bufnr, 'opencl')
    if ok and parser then pcall(vim.treesitter.highlighter.new, parser) end
  end
end

function M.setup_treesitter()
  register_nvim_treesitter()
  M.install_queries()
  if vim.fn.isdirectory(M.ts_dir .. sep .. 'parser') == 1
    and not vim.tbl_contains(vim.api.nvim_list_runtime_paths(), M.ts_dir) then
    vim.opt.runtimepath:prepend(M.ts_dir)
  end
  if vim.treesitter.language and vim.treesitter.language.register then
    pcall(vim.treesitter.language.register, 'opencl', 'opencl')
  end
  local group = vim.api.nvim_create_augroup('cllint_treesitter', { clear = true })
  vim.api.nvim_create_autocmd('FileType', { group = group, pattern = 'opencl',
    callback = function(a) start_highlight(a.buf) end })
  vim.api.nvim_create_user_command('CllintBuildParser', function() M.build_parser() end,
    { desc = 'cllint: compile the OpenCL tree-sitter parser from this checkout' })
end

-- Host buffers ------------------------------------------------------------------------------

-- Suffixes the server reads as host code (analysis/embedded/languages.py; `.h` stays OpenCL C).
local HOST_SUFFIXES = {
  python = { py = true, pyw = true },
  c = { c = true },
  cpp = { cc = true, cpp = true, cxx = true, ['c++'] = true, hpp = true, hh = true, hxx = true },
}

--- The filetypes cllint attaches to: `filetypes`, plus python unless settings.embeddedPython is
--- false, plus c and cpp when settings.embeddedCpp is true (the server reads the same keys).
function M.filetypes()
  local out = vim.deepcopy(M.config.filetypes)
  local s = M.config.settings or {}
  local extra = {}
  if s.embeddedPython ~= false then table.insert(extra, 'python') end
  if s.embeddedCpp == true then vim.list_extend(extra, { 'c', 'cpp' }) end
  for _, ft in ipairs(extra) do
    if not vim.tbl_contains(out, ft) then table.insert(out, ft) end
  end
  return out
end

--- Whether cllint may attach: a host filetype only for a file whose suffix the server reads as
--- host code; anything else there (a script without `.py`, a `.h` header) it would read as OpenCL C.
function M.attachable(bufnr)
  local suffixes = HOST_SUFFIXES[vim.bo[bufnr].filetype]
  if suffixes == nil or vim.tbl_contains(M.config.filetypes, vim.bo[bufnr].filetype) then return true end
  local ext = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':e'):lower()
  return vim.bo[bufnr].buftype == '' and suffixes[ext] == true
end

-- Starting the client ----------------------------------------------------------------------

local function client_config()
  local capabilities = M.config.capabilities or vim.lsp.protocol.make_client_capabilities()
  return {
    name = 'cllint',
    cmd = M.config.cmd,
    filetypes = M.filetypes(),
    settings = { cllint = M.config.settings },
    capabilities = capabilities,
    on_attach = on_attach,
    on_init = on_init,
  }
end

local function start_fallback(bufnr)
  if not M.attachable(bufnr) then return nil end
  local cfg = client_config()
  cfg.root_dir = find_root(bufnr)
  cfg.workspace_folders = { { uri = vim.uri_from_fname(cfg.root_dir), name = cfg.root_dir } }
  if vim.lsp.start then
    return vim.lsp.start(cfg, { bufnr = bufnr })
  end
  -- Neovim 0.7: one client per root directory
  M._by_root = M._by_root or {}
  local id = M._by_root[cfg.root_dir]
  if not id or not vim.lsp.get_client_by_id(id) then
    id = vim.lsp.start_client(cfg)
    M._by_root[cfg.root_dir] = id
  end
  if id then vim.lsp.buf_attach_client(bufnr, id) end
  return id
end

--- Which way the client was started: 'vim.lsp.config', 'lspconfig' or 'fallback'.
M.mode = nil

function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), opts or {})
  if vim.fn.executable(M.config.cmd[1]) == 0 then
    vim.schedule(function()
      vim.notify(string.format("cllint: '%s' is not executable; install it with 'pip install cllint' "
        .. "or set cmd in require('cllint').setup()", M.config.cmd[1]), vim.log.levels.WARN)
    end)
  end
  register_lens_commands()
  vim.lsp.handlers['cllint/runRecorded'] = M.on_run_recorded
  if M.config.commands then create_commands() end
  if M.config.treesitter then M.setup_treesitter() end

  local cfg = client_config()
  local has_lspconfig, lspconfig = pcall(require, 'lspconfig')
  if vim.lsp.config and vim.lsp.enable and has('nvim-0.11') then
    cfg.root_markers = M.config.root_markers
    -- not calling on_dir keeps the client off the buffer
    cfg.root_dir = function(bufnr, on_dir)
      if M.attachable(bufnr) then on_dir(find_root(bufnr)) end
    end
    vim.lsp.config('cllint', cfg)
    vim.lsp.enable('cllint')
    M.mode = 'vim.lsp.config'
  elseif has_lspconfig then
    local configs = require('lspconfig.configs')
    if not configs.cllint then
      configs.cllint = { default_config = {
        cmd = cfg.cmd, filetypes = cfg.filetypes,
        root_dir = function(fname, bufnr)
          if bufnr and not M.attachable(bufnr) then return nil end
          return lspconfig.util.root_pattern(unpack(M.config.root_markers))(fname)
        end,
        single_file_support = true, settings = cfg.settings,
      } }
    end
    lspconfig.cllint.setup({ cmd = cfg.cmd, settings = cfg.settings, capabilities = cfg.capabilities,
      on_attach = on_attach, on_init = on_init })
    M.mode = 'lspconfig'
  else
    local group = vim.api.nvim_create_augroup('cllint_lsp', { clear = true })
    vim.api.nvim_create_autocmd('FileType', { group = group, pattern = cfg.filetypes,
      callback = function(a) start_fallback(a.buf) end })
    M.mode = 'fallback'
    -- buffers already open when setup() runs
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(b) and vim.tbl_contains(cfg.filetypes, vim.bo[b].filetype) then
        start_fallback(b)
      end
    end
  end

  return M
end

return M
