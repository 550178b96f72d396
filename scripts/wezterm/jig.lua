-- jig for WezTerm: the agent of the focused pane in the right status, and
-- optionally each tab's agent in its title. Put this file next to
-- wezterm.lua (~/.config/wezterm/jig.lua) and add, before `return config`:
--
--   require('jig').setup { bin = '/absolute/path/to/jig' }
--
-- (`jig install wezterm` prints that line with jig's path and, with --write,
-- puts this file in place; as a WezTerm plugin, see apply_to_config.)
-- Options: bin, interval (seconds between runs of jig per pane, default 2),
-- max_width (cells, default 40), right_status (default true), rate_limits
-- (default false: the rate limits the agent reports in the right status),
-- tab_title (default false; true: the tab's agent as its title; 'glyph':
-- its state's glyph before the tab's own title, ◐ waits for you, ● busy,
-- ○ idle), retry (seconds, default 60), handlers (default true; false to
-- place jig's text from handlers of your own: status_text, refresh_tabs,
-- title_text).
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
  rate_limits = false,
  tab_title = false,
  retry = 60, -- seconds without running jig after it could not be started
  now = clock, -- a test may replace it
}

-- WezTerm's run_child_process raises when it cannot start the program (jig
-- missing, moved, not executable), and a raising update-status handler
-- stops WezTerm from running the user's later ones: so the call is wrapped,
-- the failure logged once, and jig not tried again for M.retry seconds.
local down_until, warned = nil, false

-- cache[preset][pane id] = { at = seconds, value = items or text }
local cache = { wezterm = {}, plain = {}, glyph = {} }

local function run(pane_id, preset)
  local none = preset == 'wezterm' and {} or ''
  if down_until and M.now() < down_until then
    return none
  end
  local argv = { M.bin, 'session', 'for-terminal', tostring(pane_id),
    '--preset', preset, '--max-width', tostring(M.max_width) }
  if preset == 'wezterm' and M.rate_limits then
    table.insert(argv, '--rate-limits')
  end
  local started, ok, out = pcall(wezterm.run_child_process, argv)
  if not started then
    down_until = M.now() + M.retry
    if not warned then
      warned = true
      wezterm.log_warn('jig: cannot run ' .. tostring(M.bin) .. ' (' .. tostring(ok) ..
        '); the status shows nothing, and jig is tried again every ' .. M.retry .. ' s')
    end
    return none
  end
  down_until, warned = nil, false
  if not ok or not out or out == '' then
    return none
  end
  if preset ~= 'wezterm' then
    return (out:gsub('%s+$', ''))
  end
  local parsed, items = pcall(wezterm.json_parse, out)
  if parsed and type(items) == 'table' then
    return items
  end
  return {}
end

-- segment returns the pane's segment in a preset ('wezterm': a list of
-- wezterm.format items; 'plain', 'glyph': text), running jig when the cached one is
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

-- status_text is the focused pane's segment as a formatted string, for
-- a set_right_status of the user's own (WezTerm keeps only the last one
-- set, so jig's text is a piece the user's handler places).
function M.status_text(pane)
  return wezterm.format(M.segment(pane:pane_id(), 'wezterm'))
end

-- title_preset is what a tab title shows: the plain segment, or the glyph.
local function title_preset()
  return M.tab_title == 'glyph' and 'glyph' or 'plain'
end

-- refresh_tabs runs jig (at most once per interval) for each tab's active
-- pane, so title_text has something to show.
function M.refresh_tabs(window)
  for _, tab in ipairs(window:mux_window():tabs()) do
    M.segment(tab:active_pane():pane_id(), title_preset())
  end
end

-- title_text is the plain segment of the tab's active pane (with tab_title
-- = 'glyph', its glyph before the pane's title), or nil when it runs no
-- agent; it never runs jig, so a format-tab-title handler may call it.
function M.title_text(tab)
  local text = M.cached(tab.active_pane.pane_id, title_preset())
  if not text or text == '' then
    return nil
  end
  if title_preset() == 'glyph' then
    return text .. ' ' .. tab.active_pane.title
  end
  return text
end

function M.update_status(window, pane)
  if M.right_status then
    window:set_right_status(M.status_text(pane))
  end
  if M.tab_title then
    M.refresh_tabs(window)
  end
end

-- format_tab_title shows "<n>: <segment>" for a tab whose active pane runs
-- an agent, else its usual title.
function M.format_tab_title(tab, tabs, panes, config, hover, max_width)
  local text = M.title_text(tab) or tab.active_pane.title
  return ' ' .. (tab.tab_index + 1) .. ': ' .. text .. ' '
end

-- setup registers jig's handlers. WezTerm calls only the first
-- format-tab-title handler, and keeps the last right status set: with
-- handlers = false jig registers none, and the user's own handlers place
-- M.status_text(pane), M.refresh_tabs(window) and M.title_text(tab).
function M.setup(opts)
  for k, v in pairs(opts or {}) do
    M[k] = v
  end
  if M.handlers == false then
    return M
  end
  wezterm.on('update-status', M.update_status)
  if M.tab_title then
    wezterm.on('format-tab-title', M.format_tab_title)
  end
  return M
end

-- apply_to_config is the WezTerm plugin form:
--   local jig = wezterm.plugin.require 'https://github.com/OWNER/jig'
--   jig.apply_to_config(config, { bin = '/usr/local/bin/jig', tab_title = true })
-- jig changes nothing in config; it registers its handlers as setup does.
function M.apply_to_config(config, opts)
  M.setup(opts)
  return config
end

return M
