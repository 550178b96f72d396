-- Drives scripts/wezterm/jig.lua as WezTerm would, with the stand-in module
-- and a clock the test moves: one window whose tabs' active panes are 7 and
-- 8, and pane 9 that runs no agent. JIG names the jig to run.
local here = arg[0]:match('^(.*)/') or '.'
package.path = here .. '/?.lua;' .. here .. '/../?.lua;' .. package.path
local wezterm = require 'wezterm'
local jig = require 'jig'

print('clock: ' .. math.type(jig.now()))
local clock = 1000
jig.setup { bin = os.getenv('JIG'), tab_title = true, now = function() return clock end }

local function pane(id)
  return { pane_id = function() return id end }
end
local window = { right = nil }
function window:set_right_status(s) self.right = s end
function window:mux_window()
  return { tabs = function()
    return {
      { active_pane = function() return pane(7) end },
      { active_pane = function() return pane(8) end },
    }
  end }
end

local function update(w, p) assert(wezterm.emit('update-status', w, p) == nil) end
local title = wezterm.handlers['format-tab-title'][1]

update(window, pane(7))
print('right status, pane 7: ' .. window.right)
print('jig runs: ' .. wezterm.runs) -- pane 7 twice (status, tab) and pane 8
update(window, pane(7))
print('jig runs a second later: ' .. wezterm.runs)
clock = clock + 2
update(window, pane(7))
print('jig runs 2 s later: ' .. wezterm.runs)
update(window, pane(9))
print('right status, pane 9: [' .. window.right .. ']')
print('tab 1: [' .. title({ tab_index = 0, active_pane = { pane_id = 7, title = 'zsh' } }, {}, {}, {}, false, 40) .. ']')
print('tab 2: [' .. title({ tab_index = 1, active_pane = { pane_id = 8, title = 'zsh' } }, {}, {}, {}, false, 40) .. ']')
print('tab 3: [' .. title({ tab_index = 2, active_pane = { pane_id = 9, title = 'vim' } }, {}, {}, {}, false, 40) .. ']')

-- tab_title = 'glyph': the state's glyph before the tab's own title (◐ while
-- the agent waits); rate_limits: the right status asks for them.
clock = clock + 2
jig.tab_title, jig.rate_limits = 'glyph', true
update(window, pane(8))
print('right status, pane 8 with rate limits: ' .. window.right)
print('glyph tab 1: [' .. title({ tab_index = 0, active_pane = { pane_id = 7, title = 'zsh' } }, {}, {}, {}, false, 40) .. ']')
print('glyph tab 2: [' .. title({ tab_index = 1, active_pane = { pane_id = 8, title = 'zsh' } }, {}, {}, {}, false, 40) .. ']')
print('glyph tab 3: [' .. title({ tab_index = 2, active_pane = { pane_id = 9, title = 'vim' } }, {}, {}, {}, false, 40) .. ']')
