package configfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tailscale/hujson"

	"jig/status"
)

// DuplicateKeyError is a JSON object with a key twice. The program that
// reads the file takes one of them (JavaScript's JSON.parse the last), jig
// would edit another, and an uninstall could not give the bytes back: the
// file is refused whole.
type DuplicateKeyError struct {
	Path string // where the object is: "hooks", "hooks.PreToolUse[0]", "" for the top
	Key  string
}

func (e *DuplicateKeyError) Error() string {
	where := "at the top"
	if e.Path != "" {
		where = "in " + e.Path
	}
	return fmt.Sprintf("the key %q is there twice %s (the agent reads only one of them): keep one and run again", e.Key, where)
}

func (e *DuplicateKeyError) Is(target error) bool { return target == status.ErrBadInput }

// NotJSONError is a file that is no plain JSON: a comment, a trailing
// comma, or worse, at Line.
type NotJSONError struct {
	Line int
	Why  string
}

func (e *NotJSONError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Why) }

func (e *NotJSONError) Is(target error) bool { return target == status.ErrBadInput }

// CheckJSON refuses what jig must not edit in a JSON file read by a
// program that takes plain JSON only (Claude Code, Codex): anything but
// plain JSON, with the line where it stops being so and, when that is a
// comment, what a comment does to the agent (why); and a key twice in any
// object.
func CheckJSON(data []byte, why string) error {
	if err := plain(data, why); err != nil {
		return err
	}
	return duplicateKeys(data)
}

// CheckJWCC refuses a key twice in a JSON file whose agent takes comments
// and trailing commas (Gemini CLI): they are kept, and only the keys are
// checked. Text that is not even that is the caller's own parse's to refuse.
func CheckJWCC(data []byte) error {
	std, err := hujson.Standardize(bytes.Clone(data))
	if err != nil {
		return nil
	}
	return duplicateKeys(std)
}

func plain(data []byte, why string) error {
	var v any
	err := json.Unmarshal(data, &v)
	var syn *json.SyntaxError
	if !errors.As(err, &syn) {
		return nil // valid, or a type error the caller's own parse reports
	}
	at := int(syn.Offset) - 1
	if at < 0 {
		at = 0
	}
	line := 1 + bytes.Count(data[:min(at, len(data))], []byte("\n"))
	rest := data[min(at, len(data)):]
	switch {
	case bytes.HasPrefix(rest, []byte("//")) || bytes.HasPrefix(rest, []byte("/*")):
		return &NotJSONError{Line: line, Why: "a comment, and " + why}
	case trailingComma(data[:min(at+1, len(data))]):
		return &NotJSONError{Line: line, Why: "a trailing comma, and " + why}
	}
	return &NotJSONError{Line: line, Why: "not JSON: " + syn.Error()}
}

// trailingComma says whether the text before a closing bracket ends in a
// comma (spaces aside).
func trailingComma(upTo []byte) bool {
	if len(upTo) == 0 || (upTo[len(upTo)-1] != '}' && upTo[len(upTo)-1] != ']') {
		return false
	}
	t := bytes.TrimRight(upTo[:len(upTo)-1], " \t\r\n")
	return len(t) > 0 && t[len(t)-1] == ','
}

// duplicateKeys walks valid JSON's tokens for an object holding a key twice.
func duplicateKeys(data []byte) error {
	type container struct {
		path    string
		keys    map[string]bool // an object's keys so far; nil for a list
		wantKey bool            // an object's next token is a key
		key     string          // an object's key of the value now read
		next    int             // a list's next element index
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var stack []*container
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil // the end, or what the caller's own parse refuses
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			continue
		}
		var path string
		if n := len(stack); n > 0 {
			c := stack[n-1]
			switch {
			case c.keys != nil && c.wantKey:
				k := tok.(string)
				if c.keys[k] {
					return &DuplicateKeyError{Path: c.path, Key: k}
				}
				c.keys[k], c.key, c.wantKey = true, k, false
				continue
			case c.keys != nil:
				path, c.wantKey = join(c.path, c.key), true
			default:
				path = c.path + "[" + strconv.Itoa(c.next) + "]"
				c.next++
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &container{path: path, keys: map[string]bool{}, wantKey: true})
		case json.Delim('['):
			stack = append(stack, &container{path: path})
		}
	}
}

func join(path, key string) string {
	switch {
	case strings.ContainsAny(key, ".[]\"") || key == "":
		return path + "[" + strconv.Quote(key) + "]"
	case path == "":
		return key
	}
	return path + "." + key
}
