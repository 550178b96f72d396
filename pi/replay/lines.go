package replay

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"jig/pi/transcript"
)

// Recorded is a session the project recorded itself: Pi 1.6.0 in its
// end-to-end test (pi/e2e_test.go, JIG_DEMO_OUT) against the scripted model
// of internal/scriptedmodel. It reads, writes and edits files in its
// project, runs bash, has bash and a skill switched off by request, then
// changes model.
//
//go:embed session.jsonl
var Recorded []byte

// models is what the live agent knows and its transcript does not: the
// display name and context window of each model, as the end-to-end test's
// models.json gave them to Pi.
var models = map[string]struct {
	name   string
	window int64
}{
	"mock-model":    {"Mock Model", 64000},
	"mock-reasoner": {"Mock Reasoner", 128000},
}

// The transcript's times: each entry's ISO timestamp and a message's unix
// milliseconds.
var (
	isoTime = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"timestamp":"([0-9T:.Z-]+)"`) })
	msTime  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"timestamp":([0-9]{13})\b`) })
)

// Lines is the recorded transcript made to have happened in project,
// starting at now: the header's cwd (and every mention of it) becomes
// project, and every time moves by the same amount.
func Lines(project string, now time.Time) (*transcript.Header, [][]byte, error) {
	lines := bytes.Split(bytes.TrimSpace(Recorded), []byte("\n"))
	var header transcript.Header
	if err := json.Unmarshal(lines[0], &header); err != nil || header.CWD == "" || header.ID == "" {
		return nil, nil, fmt.Errorf("no session header: %v", err)
	}
	start, err := time.Parse(time.RFC3339Nano, header.Timestamp)
	if err != nil {
		return nil, nil, err
	}
	shift := now.Sub(start).Truncate(time.Millisecond)
	oldCWD, _ := json.Marshal(header.CWD)
	newCWD, _ := json.Marshal(project)
	oldCWD, newCWD = bytes.Trim(oldCWD, `"`), bytes.Trim(newCWD, `"`)
	for i, l := range lines {
		lines[i] = shiftTimes(bytes.ReplaceAll(l, oldCWD, newCWD), shift)
	}
	header.CWD, header.Timestamp = project, start.Add(shift).UTC().Format(time.RFC3339Nano)
	return &header, lines, nil
}

// shiftTimes moves every time in a transcript line by shift.
func shiftTimes(l []byte, shift time.Duration) []byte {
	iso, ms := isoTime(), msTime()
	l = iso.ReplaceAllFunc(l, func(m []byte) []byte {
		t, err := time.Parse(time.RFC3339Nano, string(iso.FindSubmatch(m)[1]))
		if err != nil {
			return m
		}
		return []byte(`"timestamp":"` + t.Add(shift).UTC().Format("2006-01-02T15:04:05.000Z") + `"`)
	})
	return ms.ReplaceAllFunc(l, func(m []byte) []byte {
		n, _ := strconv.ParseInt(string(ms.FindSubmatch(m)[1]), 10, 64)
		return []byte(`"timestamp":` + strconv.FormatInt(n+shift.Milliseconds(), 10))
	})
}

// makeProject is the folder the session worked in, as it was before: a git
// work tree (so its outputs have a repo) holding the notes Pi reads first.
func makeProject(project string) error {
	if err := os.MkdirAll(filepath.Join(project, ".git"), 0o700); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(project, "notes.txt"), []byte("first line alpha-old-text\n"), 0o600)
}

// appendLine adds one line to the transcript, as Pi does after each entry.
func appendLine(file string, line []byte) error {
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	_, err = f.Write(append(line[:len(line):len(line)], '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// describe names an entry in a few words, never with an argument value.
func (en *entry) describe() string {
	switch en.Type {
	case "model_change":
		return "model " + en.ModelID
	case "thinking_level_change":
		return "thinking " + en.Thinking
	case "custom":
		return "switches (request)"
	case "message":
		m := en.Message
		switch m.Role {
		case "assistant":
			var parts []toolCall
			json.Unmarshal(m.Content, &parts)
			var calls []string
			for _, p := range parts {
				if p.Type == "toolCall" {
					calls = append(calls, p.Name)
				}
			}
			if len(calls) > 0 {
				return "assistant calls " + strings.Join(calls, ", ")
			}
			return "assistant replies"
		case "toolResult":
			if m.IsError {
				return m.ToolName + " fails"
			}
			return m.ToolName + " done"
		case "system":
			return "system prompt"
		case "user":
			return "user prompt"
		}
	}
	return en.Type
}
