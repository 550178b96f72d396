package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jig/exit"
	"jig/hot"
)

// cleanEnv is an env over buffers, a terminal on stdout, with vars set.
func cleanEnv(vars map[string]string) (*env, *strings.Builder, *strings.Builder) {
	var out, errb strings.Builder
	return &env{Env: &hot.Env{
		Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv:    func(k string) string { return vars[k] },
		Now:       time.Now,
		Hostname:  os.Hostname,
		StdoutTTY: true,
	}}, &out, &errb
}

// An error line echoes what it was given: cleaned, it stays one line and
// drives no terminal.
func TestErrorLineCleaned(t *testing.T) {
	home := t.TempDir()
	e, out, errb := cleanEnv(map[string]string{"HOME": home})
	code := run([]string{"jig", "pi", "show", "nope\x1b]0;pwned\x07\u202e\nx"}, e)
	want := "jig: pi show: nope?]0;pwned??x: no such file or session in " + home + "/.pi/agent/sessions\n"
	if code != exit.None || errb.String() != want || out.Len() != 0 {
		t.Errorf("exit %d, stderr %q, stdout %q; want exit 1, stderr %q", code, errb, out, want)
	}
}

// pi show's warnings name the file and the line: cleaned too.
func TestWarningCleaned(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s\x1b[2J\u202e.jsonl")
	data := `{"type":"session","version":3,"id":"s1","timestamp":"2026-03-02T09:00:00.000Z","cwd":"/w"}` + "\n" + "[]\n"
	if err := os.WriteFile(file, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	e, _, errb := cleanEnv(nil)
	if code := run([]string{"jig", "pi", "show", file}, e); code != exit.OK {
		t.Fatalf("exit %d: %s", code, errb)
	}
	want := "jig: pi show: warning: " + filepath.Dir(file) + "/s?[2J.jsonl:2: skipped: "
	if !strings.HasPrefix(errb.String(), want) || strings.Count(errb.String(), "\n") != 1 {
		t.Errorf("stderr %q, want it to start %q", errb, want)
	}
}

// The terminal ids come from the environment; on a terminal they are cleaned.
func TestTerminalCleaned(t *testing.T) {
	e, out, errb := cleanEnv(map[string]string{"HC_TERMINAL_ID": "t7\x1b[2J\u202e"})
	if code := run([]string{"jig", "terminal"}, e); code != exit.OK {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if out.String() != "t7?[2J\tHC_TERMINAL_ID\n" {
		t.Errorf("stdout %q", out)
	}
}
