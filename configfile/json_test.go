package configfile

import (
	"errors"
	"testing"

	"jig/status"
)

func TestCheckJSON(t *testing.T) {
	const why = "the agent ignores the file"
	for _, c := range []struct {
		name, data string
		dup        *DuplicateKeyError
		line       int
	}{
		{name: "plain", data: `{"a": 1, "hooks": {"X": [{"hooks": []}]}}`},
		{name: "empty object", data: `{}`},
		{name: "same key in two objects", data: `{"a": {"k": 1}, "b": {"k": 2}}`},
		{name: "top", data: "{\"hooks\": {},\n \"hooks\": {}}", dup: &DuplicateKeyError{Key: "hooks"}},
		{name: "nested", data: `{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [], "matcher": "Bash"}]}}`,
			dup: &DuplicateKeyError{Path: "hooks.PreToolUse[0]", Key: "matcher"}},
		{name: "after a closed object", data: `{"a": {"x": 1}, "b": 2, "a": 3}`, dup: &DuplicateKeyError{Key: "a"}},
		{name: "odd key", data: `{"a.b": {"k": 1, "k": 2}}`, dup: &DuplicateKeyError{Path: `["a.b"]`, Key: "k"}},
		{name: "line comment", data: "{\n  // mine\n  \"a\": 1\n}", line: 2},
		{name: "block comment", data: "{\n\n  /* mine */ \"a\": 1\n}", line: 3},
		{name: "trailing comma", data: "{\n  \"a\": 1,\n}", line: 3},
		{name: "garbage", data: "{\"a\": nope}", line: 1},
	} {
		err := CheckJSON([]byte(c.data), why)
		var dup *DuplicateKeyError
		var bad *NotJSONError
		switch {
		case c.dup != nil:
			if !errors.As(err, &dup) || *dup != *c.dup {
				t.Errorf("%s: %v, want %+v", c.name, err, c.dup)
			}
		case c.line != 0:
			if !errors.As(err, &bad) || bad.Line != c.line {
				t.Errorf("%s: %v, want a refusal at line %d", c.name, err, c.line)
			}
		case err != nil:
			t.Errorf("%s: %v, want it taken", c.name, err)
		}
		if err != nil && !errors.Is(err, status.ErrBadInput) {
			t.Errorf("%s: %v is not bad input", c.name, err)
		}
	}
}

func TestCheckJWCCKeepsCommentsRefusesDuplicates(t *testing.T) {
	if err := CheckJWCC([]byte("{\n  // mine\n  \"a\": 1,\n}")); err != nil {
		t.Errorf("a comment and a trailing comma: %v", err)
	}
	var dup *DuplicateKeyError
	if err := CheckJWCC([]byte("{\n  /* x */ \"hooks\": {},\n  \"hooks\": {},\n}")); !errors.As(err, &dup) || dup.Key != "hooks" {
		t.Errorf("a key twice among comments: %v", err)
	}
}

func FuzzCheckJSON(f *testing.F) {
	f.Add([]byte(`{"a": {"b": [1, {"c": 2, "c": 3}]}}`))
	f.Add([]byte("{\n// x\n}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		CheckJSON(data, "why") // neither may panic
		CheckJWCC(data)
	})
}
