-- jig as a WezTerm plugin: wezterm.plugin.require loads a repository's
-- plugin/init.lua, and this one returns scripts/wezterm/jig.lua, found next
-- to it in the same checkout:
--   local jig = wezterm.plugin.require 'https://github.com/OWNER/jig'
--   jig.apply_to_config(config, { bin = '/usr/local/bin/jig' })
local here = debug.getinfo(1, 'S').source:match('^@(.*)[/\\]plugin[/\\]init%.lua$') or '.'
return dofile(here .. '/scripts/wezterm/jig.lua')
