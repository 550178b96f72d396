package codex

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"jig/settingsjson"
)

// HookTimeout bounds one hook run (seconds); jig's takes milliseconds.
// SessionEnd's is Codex's most for that event (it clamps a longer one).
const (
	HookTimeout       = 10
	SessionEndTimeout = 3
)

// specs are the events jig's hook is installed for, with the snake_case
// label Codex names each by in a trust entry's key.
var specs = []hookSpec{
	{"SessionStart", "session_start", HookTimeout},
	{"UserPromptSubmit", "user_prompt_submit", HookTimeout},
	{"PreToolUse", "pre_tool_use", HookTimeout},
	{"PostToolUse", "post_tool_use", HookTimeout},
	{"PermissionRequest", "permission_request", HookTimeout},
	{"Stop", "stop", HookTimeout},
	{"PreCompact", "pre_compact", HookTimeout},
	{"PostCompact", "post_compact", HookTimeout},
	{"SessionEnd", "session_end", SessionEndTimeout},
}

// Events are the events jig's hook is installed for.
func Events() []string {
	out := make([]string, len(specs))
	for i, sp := range specs {
		out[i] = sp.Event
	}
	return out
}

// Command is the command line of `jig codex hook` as hooks.json holds it:
// bin is the jig to run, quoted for the shell when it needs to be.
func Command(bin string) string { return settingsjson.Command(bin, "codex", "hook") }

// isJigHook reports whether a command line runs `jig codex hook`: a
// program named jig (any path, quoted or not) with those arguments.
func isJigHook(cmd string) bool {
	args, ok := settingsjson.JigArgs(cmd)
	return ok && strings.Join(args, " ") == "codex hook"
}

// trustHash is the hash Codex records for a hook it trusts: "sha256:" and
// the SHA-256 of the compact JSON, keys sorted, of the normalized group
// (codex-rs hooks/src/engine/discovery.rs, command_hook_hash). jig's groups
// have no matcher and no status message.
func trustHash(label, cmd string, timeout int) string {
	identity := `{"event_name":` + jsonString(label) + `,"hooks":[{"async":false,"command":` + jsonString(cmd) +
		`,"timeout":` + strconv.Itoa(timeout) + `,"type":"command"}]}`
	sum := sha256.Sum256([]byte(identity))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// jsonString is s as serde_json writes it: only '"', '\\' and control
// characters escaped (Go's encoder also escapes <, >, & and U+2028).
func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// trustKey is a hook's key in hooks.state: the file, the event's label,
// the group's index in the event's list, the hook's in the group.
func trustKey(hooksFile, label string, group int) string {
	return fmt.Sprintf("%s:%s:%d:0", hooksFile, label, group)
}

type trustEntry struct{ Key, Hash string }

// tomlString is s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
