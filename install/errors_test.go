package install

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"jig/pi"
	"jig/status"
)

// A symlink planted where jig's file goes in a host's folder is refused in
// status's words, but is no unsafe state dir (a command exits 7, not 3); a
// settings file jig refuses to edit is bad input (exit 4).
func TestErrorKinds(t *testing.T) {
	agent := t.TempDir()
	getenv := func(k string) string { return map[string]string{"PI_CODING_AGENT_DIR": agent}[k] }
	ext := filepath.Join(agent, "extensions", pi.ExtensionName)
	os.MkdirAll(filepath.Dir(ext), 0o755)
	os.Symlink(filepath.Join(agent, "elsewhere"), ext)
	_, err := Pi{Getenv: getenv}.Install()
	if err == nil || !strings.Contains(err.Error(), "a symlink stands where a jig file goes") || errors.Is(err, status.ErrSymlink) {
		t.Errorf("a planted symlink: %v, want it refused in words, not as status.ErrSymlink", err)
	}

	project := t.TempDir()
	t.Chdir(project)
	os.MkdirAll(filepath.Join(project, ".claude"), 0o755)
	os.WriteFile(filepath.Join(project, ".claude", "settings.json"), []byte("not json"), 0o600)
	_, _, err = Claude{Getenv: func(string) string { return "" }, Project: true}.Install()
	if bad := (*ConfigError)(nil); !errors.As(err, &bad) || !errors.Is(err, status.ErrBadInput) {
		t.Errorf("settings that are not JSON: %v, want a ConfigError, bad input", err)
	}
}
