-- A stand-in for WezTerm's `wezterm` module under plain Lua 5.4, with only
-- what jig.lua uses, for tests: event handlers are recorded in order and
-- emitted as WezTerm does (every update-status handler in turn, stopping at
-- one that raises; only the first format-tab-title), child processes
-- really run (through io.popen) and are counted, and one that cannot be
-- started raises, as WezTerm's run_child_process does (spawn-funcs);
-- log_warn records, format renders its items as readable tags ({fg:Teal},
-- {reset}) instead of escape codes, json_parse is a small JSON reader and
-- strftime_utc a clock.
local M = { handlers = {}, runs = 0, warnings = {} }

function M.on(event, fn)
  M.handlers[event] = M.handlers[event] or {}
  table.insert(M.handlers[event], fn)
end

-- emit runs an event's handlers in order; an error stops the rest, and
-- comes back as WezTerm would log it.
function M.emit(event, ...)
  for _, fn in ipairs(M.handlers[event] or {}) do
    local ok, err = pcall(fn, ...)
    if not ok then
      return 'error: ' .. tostring(err)
    end
  end
end

function M.log_warn(msg)
  table.insert(M.warnings, msg)
end

function M.run_child_process(args)
  M.runs = M.runs + 1
  local words = {}
  for i, a in ipairs(args) do
    words[i] = "'" .. a:gsub("'", "'\\''") .. "'"
  end
  local p = assert(io.popen(table.concat(words, ' ') .. ' 2>/dev/null'))
  local out = p:read('a')
  local ok, _, code = p:close()
  if code == 126 or code == 127 then -- the shell could not start it
    error('Failed to spawn ' .. args[1] .. ': No such file or directory (os error 2)', 0)
  end
  return ok == true, out, ''
end

-- strftime_utc knows only what jig.lua asks: '%s%.3f', seconds since the
-- epoch with milliseconds (here always .000).
function M.strftime_utc(format)
  assert(format == '%s%.3f', 'the stand-in does not know this format')
  return os.time() .. '.000'
end

function M.format(items)
  local out = {}
  for _, item in ipairs(items) do
    if item == 'ResetAttributes' then
      out[#out + 1] = '{reset}'
    elseif type(item) == 'table' and item.Text then
      out[#out + 1] = item.Text
    elseif type(item) == 'table' and item.Foreground and item.Foreground.AnsiColor then
      out[#out + 1] = '{fg:' .. item.Foreground.AnsiColor .. '}'
    else
      error('the stand-in does not know this FormatItem')
    end
  end
  return table.concat(out)
end

-- json_parse reads objects, arrays, strings (with \uXXXX), numbers, true,
-- false and null (as nil); it raises an error on anything else.
function M.json_parse(s)
  local pos = 1
  local value
  local function ws()
    pos = s:find('[^ \t\r\n]', pos) or #s + 1
  end
  local function str()
    local out = {}
    pos = pos + 1
    while true do
      local c = s:sub(pos, pos)
      if c == '' then error('unterminated string') end
      if c == '"' then pos = pos + 1; return table.concat(out) end
      if c == '\\' then
        local e = s:sub(pos + 1, pos + 1)
        local simple = { ['"'] = '"', ['\\'] = '\\', ['/'] = '/', b = '\b', f = '\f', n = '\n', r = '\r', t = '\t' }
        if simple[e] then
          out[#out + 1] = simple[e]; pos = pos + 2
        elseif e == 'u' then
          out[#out + 1] = utf8.char(tonumber(s:sub(pos + 2, pos + 5), 16)); pos = pos + 6
        else
          error('bad escape')
        end
      else
        out[#out + 1] = c; pos = pos + 1
      end
    end
  end
  function value()
    ws()
    local c = s:sub(pos, pos)
    if c == '{' then
      local t = {}
      pos = pos + 1; ws()
      if s:sub(pos, pos) == '}' then pos = pos + 1; return t end
      while true do
        ws()
        if s:sub(pos, pos) ~= '"' then error('want a key at ' .. pos) end
        local k = str(); ws()
        if s:sub(pos, pos) ~= ':' then error('want : at ' .. pos) end
        pos = pos + 1
        t[k] = value(); ws()
        local d = s:sub(pos, pos); pos = pos + 1
        if d == '}' then return t end
        if d ~= ',' then error('want , or } at ' .. pos) end
      end
    elseif c == '[' then
      local t = {}
      pos = pos + 1; ws()
      if s:sub(pos, pos) == ']' then pos = pos + 1; return t end
      while true do
        t[#t + 1] = value(); ws()
        local d = s:sub(pos, pos); pos = pos + 1
        if d == ']' then return t end
        if d ~= ',' then error('want , or ] at ' .. pos) end
      end
    elseif c == '"' then
      return str()
    end
    for word, v in pairs({ ['true'] = true, ['false'] = false, null = M }) do
      if s:sub(pos, pos + #word - 1) == word then
        pos = pos + #word
        if v == M then return nil end
        return v
      end
    end
    local num = s:match('^-?%d+%.?%d*[eE]?[-+]?%d*', pos)
    if num and num ~= '' then
      pos = pos + #num
      return tonumber(num)
    end
    error('not JSON at ' .. pos)
  end
  local v = value()
  ws()
  if pos <= #s then error('trailing text at ' .. pos) end
  return v
end

return M
