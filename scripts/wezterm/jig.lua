-- jig for WezTerm: the agent of the focused pane in the right status, and
-- optionally each tab's agent in its title. Put this file next to
-- wezterm.lua (~/.config/wezterm/jig.lua) and add, before `return config`:
--
--   require('jig').setup { bin = '/absolute/path/to/jig' }
--
-- (`jig install wezterm` prints that line with jig's path and, with --write,
-- puts this file in place.) Options: bin, interval (seconds between runs of
-- jig per pane, default 2), max_width (cells, default 40), right_status
-- (default true), tab_title (default false).
--
-- WezTerm calls update-status every second; jig runs at most once per pane
-- per interval, and only there: format-tab-title must not block, so it only
-- reads what update-status cached. Under a multiplexing domain (unix, SSH)
-- the pane id Lua sees may differ from WEZTERM_PANE inside the pane.
local wezterm = require 'wezterm'

-- clock is the time in seconds with milliseconds: os.time() counts whole
-- seconds, which would let "every 2 s" come after a little over 1.
local function clock()
  local ok, t = pcall(wezterm.strftime_utc, '%s%.3f')
  return ok and tonumber(t) or os.time()
end

local M = {
  bin = 'jig',
  interval = 2,
  max_width = 40,
  right_status = true,
  tab_title = false,
  now = clock, -- a test may replace it
}

-- cache[preset][pane id] = { at = seconds, value = items or text }
local cache = { wezterm = {}, plain = {} }

local function run(pane_id, preset)
  local ok, out = wezterm.run_child_process {
    M.bin, 'session', 'for-terminal', tostring(pane_id),
    '--preset', preset, '--max-width', tostring(M.max_width),
  }
  if not ok or not out or out == '' then
    return preset == 'wezterm' and {} or ''
  end
  if preset == 'plain' then
    return (out:gsub('%s+$', ''))
  end
  local parsed, items = pcall(wezterm.json_parse, out)
  if parsed and type(items) == 'table' then
    return items
  end
  return {}
end

-- segment returns the pane's segment in a preset ('wezterm': a list of
-- wezterm.format items; 'plain': text), running jig when the cached one is
-- older than M.interval. Entries of panes not asked for a minute are dropped.
function M.segment(pane_id, preset)
  local t = M.now()
  local byPane = cache[preset]
  local hit = byPane[pane_id]
  if hit and t - hit.at < M.interval then
    return hit.value
  end
  for id, entry in pairs(byPane) do
    if t - entry.at > 60 then
      byPane[id] = nil
    end
  end
  local value = run(pane_id, preset)
  byPane[pane_id] = { at = t, value = value }
  return value
end

-- cached returns what segment last found for the pane, without running jig.
function M.cached(pane_id, preset)
  local hit = cache[preset][pane_id]
  return hit and hit.value
end

function M.update_status(window, pane)
  if M.right_status then
    window:set_right_status(wezterm.format(M.segment(pane:pane_id(), 'wezterm')))
  end
  if M.tab_title then
    for _, tab in ipairs(window:mux_window():tabs()) do
      M.segment(tab:active_pane():pane_id(), 'plain')
    end
  end
end

-- format_tab_title shows "<n>: <segment>" for a tab whose active pane runs
-- an agent, else its usual title.
function M.format_tab_title(tab, tabs, panes, config, hover, max_width)
  local pane = tab.active_pane
  local text = M.cached(pane.pane_id, 'plain')
  if text and text ~= '' then
    return ' ' .. (tab.tab_index + 1) .. ': ' .. text .. ' '
  end
  return ' ' .. (tab.tab_index + 1) .. ': ' .. pane.title .. ' '
end

function M.setup(opts)
  for k, v in pairs(opts or {}) do
    M[k] = v
  end
  wezterm.on('update-status', M.update_status)
  if M.tab_title then
    wezterm.on('format-tab-title', M.format_tab_title)
  end
  return M
end

return M
