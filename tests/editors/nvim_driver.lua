-- Drives the documented Tapewatch setup (loaded by `nvim -u init.lua`) as a
-- user would, in a headless Neovim 0.7 or later, and writes what it saw to
-- $TW_RESULT as JSON for test_neovim.py. It only observes: the config and
-- the :Tapewatch* commands under test are the ones of docs/editors.md.

local result = { errors = {}, steps = {}, notify = {} }
local started = vim.loop.hrtime()
local function now() return (vim.loop.hrtime() - started) / 1e9 end

local function wait(what, seconds, condition)
  if not vim.wait(seconds * 1000, condition, 50) then
    error(('timed out after %ds waiting for %s'):format(seconds, what), 0)
  end
  table.insert(result.steps, { what = what, at = now() })
end

-- The same lookup as the documented commands, for the driver's own use.
local function client_of(bufnr)
  local clients = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr })
    or vim.lsp.buf_get_clients(bufnr)
  for _, client in pairs(clients) do
    if client.name == 'tapewatch' then return client end
  end
end

-- Observers: wrap the handlers in place, keeping what they do.
local finished, logged, shown, progress = {}, {}, {}, {}
local function observe(method, record)
  local original = vim.lsp.handlers[method]
  vim.lsp.handlers[method] = function(err, params, ctx, config)
    record(params)
    if original then return original(err, params, ctx, config) end
  end
end
observe('tapewatch/runFinished', function(p)
  table.insert(finished, { uri = p.uri, status = p.summary.status, reason = p.summary.reason,
                           findings = p.summary.findings, at = now() })
end)
observe('window/logMessage', function(p) table.insert(logged, p.message) end)
observe('window/showMessage', function(p) table.insert(shown, p.message) end)
observe('$/progress', function(p)
  if type(p.value) == 'table' then table.insert(progress, p.value.kind) end
end)
local notify = vim.notify
vim.notify = function(msg, level, opts)
  table.insert(result.notify, msg)
  return notify(msg, level, opts)
end

local function finished_for(uri)
  local out = {}
  for _, f in ipairs(finished) do if f.uri == uri then table.insert(out, f) end end
  return out
end

local function diagnostics(bufnr, code)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.code == code then table.insert(out, d.lnum + 1) end
  end
  table.sort(out)
  return out
end

local function open(path)
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  wait('tapewatch attached to ' .. vim.fn.fnamemodify(path, ':t'), 30, function() return client_of(bufnr) ~= nil end)
  return bufnr
end

local function main()
  result.version = tostring(vim.version().major) .. '.' .. vim.version().minor .. '.' .. vim.version().patch

  -- 1. Static lints as you type: on open, then moved by an edit above.
  local linted = open(vim.env.TW_LINTED)
  local lint_line = tonumber(vim.env.TW_LINT_LINE)
  wait('the TW301 lint', 30, function() return #diagnostics(linted, 'TW301') > 0 end)
  result.lint_lines = diagnostics(linted, 'TW301')
  vim.api.nvim_buf_set_lines(linted, 0, 0, false, { '# two lines', '# inserted above' })
  wait('the lint to follow the edit', 30, function() return diagnostics(linted, 'TW301')[1] == lint_line + 2 end)
  result.lint_lines_after_edit = diagnostics(linted, 'TW301')
  vim.cmd('silent write')  -- leave no modified buffer behind

  -- 2. A verification run through the documented command.
  local script = open(vim.env.TW_SCRIPT)
  local uri = vim.uri_from_bufnr(script)
  vim.cmd('TapewatchRun')
  wait('the run of copy_overwrite.py', 240, function() return #finished_for(uri) > 0 end)
  result.run = finished_for(uri)[1]
  wait('its diagnostics', 10, function() return #diagnostics(script, 'TW102') > 0 end)
  result.tw102_lines = diagnostics(script, 'TW102')
  result.progress = progress

  -- 3. Related locations of the TW102 through :TapewatchRelated.
  local line = result.tw102_lines[1]
  vim.api.nvim_win_set_cursor(0, { line, 0 })
  vim.cmd('TapewatchRelated')
  result.related = {}
  for _, item in ipairs(vim.fn.getqflist()) do
    table.insert(result.related, { file = vim.fn.fnamemodify(vim.fn.bufname(item.bufnr), ':t'),
                                   line = item.lnum, text = item.text })
  end
  vim.cmd('cclose')

  -- 4. Code actions on that line, as vim.lsp.buf.code_action() offers them;
  -- choosing "Show documentation" opens the page (or names it, on 0.7).
  vim.api.nvim_set_current_buf(script)
  vim.api.nvim_win_set_cursor(0, { line, 4 })
  local chosen
  vim.ui.select = function(items, opts, on_choice)
    result.code_actions = {}
    for i, item in ipairs(items) do
      local title = opts.format_item and (opts.format_item(item)) or tostring(item)
      table.insert(result.code_actions, title)
      if not chosen and title:match('^Show documentation') then chosen = i end
    end
    on_choice(chosen and items[chosen], chosen)
  end
  local before = #shown
  vim.lsp.buf.code_action()
  wait('the code actions', 30, function() return result.code_actions ~= nil end)
  wait('the documentation', 30, function()
    if vim.api.nvim_buf_get_name(0):match('TW102%.md$') then
      result.documentation = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(0), ':t')
      return true
    end
    for i = before + 1, #shown do
      if shown[i]:match('TW102') then result.documentation = shown[i]; return true end
    end
    return false
  end)

  -- 5. The tape graph: the documented command, and the request itself.
  vim.api.nvim_set_current_buf(script)
  vim.cmd('TapewatchGraph')
  wait('the graph buffer', 30, function() return vim.bo.filetype == 'tapewatch' end)
  result.graph_buffer = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  vim.cmd('close')
  local call = vim.fn.has('nvim-0.11') == 1 and function(c, ...) return c:request(...) end
    or function(c, ...) return c.request(...) end
  local graph
  call(client_of(script), 'tapewatch/tapeGraph', { uri = uri }, function(_, g) graph = g end, script)
  wait('the tapeGraph answer', 30, function() return graph ~= nil end)
  result.tapes = {}
  for _, tape in ipairs(graph.tapes or {}) do
    table.insert(result.tapes, { label = tape.label, nodes = #tape.nodes, edges = #tape.edges,
                                 dot = tape.dot ~= nil })
  end

  -- 6. Cancel: a second run replaces the first (whose end must not forget the
  -- second's id), then :TapewatchCancel stops the second.
  local slow = open(vim.env.TW_SLOW)
  local slow_uri = vim.uri_from_bufnr(slow)
  local function started_runs()
    local n = 0
    for _, m in ipairs(logged) do if m:match('slow script started') then n = n + 1 end end
    return n
  end
  vim.cmd('TapewatchRun')
  wait('the slow script to start', 60, function() return started_runs() >= 1 end)
  vim.cmd('TapewatchRun')
  wait('the first slow run to end', 30, function() return #finished_for(slow_uri) >= 1 end)
  wait('the second slow script to start', 60, function() return started_runs() >= 2 end)
  local cancelled_at = now()
  vim.cmd('TapewatchCancel')
  wait('the cancelled run to end', 30, function() return #finished_for(slow_uri) >= 2 end)
  result.slow_runs = finished_for(slow_uri)
  result.cancel_seconds = result.slow_runs[2].at - cancelled_at

  -- 7. The script's output in the LSP log (the documented log level).
  local log = io.open(vim.lsp.get_log_path(), 'r')
  local text = log and log:read('*a') or ''
  if log then log:close() end
  result.output_in_log = text:find('slow script started', 1, true) ~= nil
end

local ok, err = xpcall(main, debug.traceback)
if not ok then table.insert(result.errors, tostring(err)) end
result.finished = finished
local f = assert(io.open(vim.env.TW_RESULT, 'w'))
f:write(vim.json.encode(result))
f:close()
vim.cmd('qa!')
