-- Drives scripts/wezterm/jig.lua, loaded as a WezTerm plugin would load it
-- (plugin/init.lua, apply_to_config), with a jig that cannot be started
-- and a user's own update-status handler registered after jig's: no error
-- reaches WezTerm, so the user's handler still runs each second; the
-- failure is logged once, and jig is not tried again for `retry` seconds.
-- Then jig.lua with handlers = false: the user's own handler places
-- jig's right status and tab title. JIG names a working jig.
local here = arg[0]:match('^(.*)/') or '.'
package.path = here .. '/?.lua;' .. package.path
local wezterm = require 'wezterm'
local jig = dofile(here .. '/../../../plugin/init.lua')

local clock = 1000
local config = {}
print('apply_to_config returns config: ' .. tostring(jig.apply_to_config(config,
  { bin = '/nonexistent/jig', now = function() return clock end }) == config))
local mine = 0
wezterm.on('update-status', function() mine = mine + 1 end)

local function pane(id)
  return { pane_id = function() return id end }
end
local window = {}
function window:set_right_status(s) self.right = s end
for _ = 1, 5 do
  local err = wezterm.emit('update-status', window, pane(7))
  if err then print(err) end
  clock = clock + 1
end
print('errors: none; user handler ran ' .. mine .. ' times; right status [' .. window.right .. ']')
print('tries: ' .. wezterm.runs .. ', warnings: ' .. #wezterm.warnings)
print('warning: ' .. wezterm.warnings[1])
clock = clock + 60
wezterm.emit('update-status', window, pane(7))
print('tries after the retry time: ' .. wezterm.runs .. ', warnings: ' .. #wezterm.warnings)

-- The user's own handlers place jig's pieces.
wezterm.handlers = {}
jig.setup { bin = os.getenv('JIG'), handlers = false, tab_title = false }
print('handlers registered: ' .. tostring(next(wezterm.handlers) ~= nil))
clock = clock + 100
wezterm.on('update-status', function(w, p)
  jig.refresh_tabs(w)
  w:set_right_status('mine | ' .. jig.status_text(p))
end)
function window:mux_window()
  return { tabs = function() return { { active_pane = function() return pane(7) end } } end }
end
wezterm.emit('update-status', window, pane(7))
print('right status: ' .. window.right)
print('tab title: ' .. tostring(jig.title_text({ active_pane = { pane_id = 7 } })))
print('no agent: ' .. tostring(jig.title_text({ active_pane = { pane_id = 9 } })))
