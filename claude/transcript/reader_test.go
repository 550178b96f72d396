package transcript

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"jig/status"
)

// The lines below have the shapes Claude Code 2.1.328 writes (seen in its
// transcripts against the scripted model), cut to the fields that matter.

const sid = "6d5df00b-a7f0-4f9c-8397-89b978df7afb"

func assistantLine(uuid, msgID, ts string, usage string, content string) string {
	return fmt.Sprintf(`{"parentUuid":null,"isSidechain":false,"message":{"content":[%s],"id":%q,"model":"claude-opus-5-5","role":"assistant","stop_reason":"tool_use","type":"message","usage":%s},"type":"assistant","uuid":%q,"timestamp":%q,"effort":"medium","cwd":"/w","sessionId":%q,"version":"2.1.328"}`,
		content, msgID, usage, uuid, ts, sid)
}

func resultLine(ts, toolID string, isError bool, result string) string {
	return fmt.Sprintf(`{"parentUuid":"x","isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":%q,"type":"tool_result","content":"SECRET-RESULT","is_error":%t}]},"timestamp":%q,"toolUseResult":%s,"cwd":"/w","sessionId":%q}`,
		toolID, isError, ts, result, sid)
}

const u1 = `{"input_tokens":1000,"cache_creation_input_tokens":300,"cache_read_input_tokens":200,"output_tokens":50}`
const u2 = `{"input_tokens":1200,"cache_creation_input_tokens":0,"cache_read_input_tokens":500,"output_tokens":40}`

var fixture = []string{
	`{"type":"queue-operation","operation":"enqueue","timestamp":"2026-11-30T12:20:59.430Z","sessionId":"` + sid + `","content":"SECRET-PROMPT"}`,
	`{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"SECRET-PROMPT"},"uuid":"u0","timestamp":"2026-11-30T12:20:59.472Z","cwd":"/w","sessionId":"` + sid + `"}`,
	`{"parentUuid":"u0","isSidechain":false,"attachment":{"type":"deferred_tools_delta","addedNames":["NotebookEdit","WebFetch","WebSearch"],"removedNames":[]},"type":"attachment","uuid":"a1","timestamp":"2026-11-30T12:20:59.471Z","sessionId":"` + sid + `"}`,
	`{"parentUuid":"a1","isSidechain":false,"attachment":{"type":"skill_listing","content":"- dataviz: charts\n- code-review: reviews","skillCount":2,"isInitial":true,"names":["dataviz","code-review"]},"type":"attachment","uuid":"a2","timestamp":"2026-11-30T12:20:59.471Z","sessionId":"` + sid + `"}`,
	`{"type":"api-request-shape","sessionId":"` + sid + `","shapeHash":"h","timestamp":"2026-11-30T12:20:59.548Z","shape":{"system":[{"type":"text","text":"SECRET-SYSTEM"}],"tools":[{"name":"Bash"},{"name":"Edit"},{"name":"Read"},{"name":"Write"},{"name":"DeferredToolPlaceholder"},{"name":"mcp__files__search"}]}}`,
	// one reply, two entries (a text block and a tool_use block) with the same id and usage
	assistantLine("m1a", "msg_1", "2026-11-30T12:20:59.553Z", u1, `{"text":"I'll write it.","type":"text"}`),
	assistantLine("m1b", "msg_1", "2026-11-30T12:20:59.555Z", u1, `{"id":"toolu_01","input":{"file_path":"/w/notes.txt","content":"SECRET-CONTENT"},"name":"Write","type":"tool_use"}`),
	resultLine("2026-11-30T12:20:59.609Z", "toolu_01", false, `{"type":"create","filePath":"/w/notes.txt","content":"SECRET-CONTENT"}`),
	assistantLine("m2", "msg_2", "2026-11-30T12:20:59.644Z", u2,
		`{"id":"toolu_02","input":{"command":"echo SECRET-CMD","description":"say"},"name":"Bash","type":"tool_use"},`+
			`{"id":"toolu_03","input":{"file_path":"sub/x.go","old_string":"SECRET-OLD","new_string":"SECRET-NEW"},"name":"Edit","type":"tool_use"},`+
			`{"id":"toolu_04","input":{"file_path":"/w/denied.txt","content":"SECRET"},"name":"Write","type":"tool_use"},`+
			`{"id":"toolu_05","input":{"query":"SECRET-Q"},"name":"mcp__files__search","type":"tool_use"},`+
			`{"id":"toolu_06","input":{"file_path":"/w/a.txt","offset":10},"name":"Read","type":"tool_use"}`),
	resultLine("2026-11-30T12:20:59.985Z", "toolu_02", false, `{"stdout":"SECRET-CMD","stderr":""}`),
	resultLine("2026-11-30T12:20:59.986Z", "toolu_03", false, `{"filePath":"/w/sub/x.go","oldString":"SECRET-OLD"}`),
	resultLine("2026-11-30T12:20:59.987Z", "toolu_04", true, `"Error: SECRET denied"`),
	`not json at all`,
}

func write(t *testing.T, path string, lines ...string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, l := range lines {
		if _, err := f.WriteString(l + "\n"); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDerive(t *testing.T) {
	path := filepath.Join(t.TempDir(), sid+".jsonl")
	write(t, path, fixture...)
	r := NewReader(path)
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	d := r.Derive(nil)
	if d.Header.ID != sid || d.Header.CWD != "/w" || d.Entries != 12 || d.Skipped != 1 {
		t.Errorf("header %+v, entries %d, skipped %d", d.Header, d.Entries, d.Skipped)
	}
	if d.Model == nil || *d.Model != (status.Model{Provider: "anthropic", ID: "claude-opus-5-5", Name: "claude-opus-5-5"}) || d.Thinking != "medium" {
		t.Errorf("model %+v thinking %q", d.Model, d.Thinking)
	}
	// msg_1 counted once although two entries carry its usage
	want := status.Usage{Input: 2200, Output: 90, CacheRead: 700, CacheWrite: 300}
	if d.Usage != want {
		t.Errorf("usage %+v, want %+v", d.Usage, want)
	}
	if d.ContextTokens == nil || *d.ContextTokens != 1700 {
		t.Errorf("context tokens %v, want the last reply's input+cache 1700", d.ContextTokens)
	}
	var outs []string
	for _, o := range d.Outputs {
		outs = append(outs, o.Action+" "+o.Path)
	}
	if got := strings.Join(outs, ", "); got != "changed /w/sub/x.go, created /w/notes.txt" {
		t.Errorf("outputs: %s", got)
	}
	var calls []string
	for _, c := range d.Recent {
		calls = append(calls, c.Tool+":"+c.Action+":"+c.Outcome)
	}
	if got := strings.Join(calls, " "); got != "Read:read-part:pending files/search::pending Write:write:error Edit:edit:ok Bash:run:ok Write:write:ok" {
		t.Errorf("recent: %s", got)
	}
	offered, deferred := r.Tools()
	if strings.Join(offered, ",") != "Bash,Edit,Read,Write,mcp__files__search" || strings.Join(deferred, ",") != "NotebookEdit,WebFetch,WebSearch" {
		t.Errorf("tools %v, deferred %v", offered, deferred)
	}
	if strings.Join(r.Skills(), ",") != "dataviz,code-review" {
		t.Errorf("skills %v", r.Skills())
	}
	// no value of any argument, result or prompt in what is derived or saved
	data, _ := json.Marshal(d)
	cur, _ := r.MarshalCursor()
	for _, b := range [][]byte{data, cur} {
		if strings.Contains(string(b), "SECRET") {
			t.Errorf("a value leaked: %s", b)
		}
	}
}

func TestCostIsClaudesWhileCurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	write(t, path, fixture[5:7]...)
	r := NewReader(path)
	r.Update()
	if c := r.Derive(nil).Usage.Cost; c != nil {
		t.Errorf("cost %v before Claude said any", *c)
	}
	write(t, path, `{"type":"cost-state","sessionId":"`+sid+`","totalCostUSD":0.01776,"modelUsage":{"claude-opus-5-5":{"inputTokens":1000}}}`)
	r.Update()
	if c := r.Derive(nil).Usage.Cost; c == nil || *c != 0.01776 {
		t.Errorf("cost %v, want Claude's 0.01776", c)
	}
	write(t, path, assistantLine("m9", "msg_9", "2026-11-30T12:30:00Z", u2, `{"text":"more","type":"text"}`))
	r.Update()
	if c := r.Derive(nil).Usage.Cost; c != nil {
		t.Errorf("cost %v after a reply the cost-state does not cover, want unknown", *c)
	}
}

// TestIncremental reads a file in pieces, through saved cursors, and gets
// what one read of the whole gets; a half-written line waits; a replaced
// file is read again.
func TestIncremental(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	whole := NewReader(filepath.Join(dir, "whole.jsonl"))
	write(t, whole.Path(), fixture...)
	if err := whole.Update(); err != nil {
		t.Fatal(err)
	}
	var cur []byte
	for i, l := range fixture {
		// the line arrives in two writes; the first half is not read
		half := len(l) / 2
		f, _ := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		f.WriteString(l[:half])
		f.Close()
		r := NewReader(path)
		if cur != nil {
			var err error
			if r, err = RestoreReader(path, cur); err != nil {
				t.Fatal(err)
			}
		}
		if err := r.Update(); err != nil {
			t.Fatal(err)
		}
		before := r.Offset()
		write(t, path, l[half:])
		if err := r.Update(); err != nil {
			t.Fatal(err)
		}
		if r.Offset() <= before {
			t.Fatalf("line %d: offset %d did not move past %d", i, r.Offset(), before)
		}
		cur, _ = r.MarshalCursor()
	}
	r, err := RestoreReader(path, cur)
	if err != nil {
		t.Fatal(err)
	}
	r.Update()
	a, _ := json.Marshal(r.Derive(nil))
	b, _ := json.Marshal(whole.Derive(nil))
	if strings.ReplaceAll(string(b), "whole.jsonl", "s.jsonl") != string(a) {
		t.Errorf("pieces:\n%s\nwhole:\n%s", a, b)
	}
	// replaced by a shorter file: read again from the start
	os.Remove(path)
	write(t, path, fixture[5])
	r.Update()
	if d := r.Derive(nil); d.Entries != 1 || d.Usage.Input != 1000 {
		t.Errorf("after replacing: entries %d usage %+v", d.Entries, d.Usage)
	}
	if _, err := RestoreReader(filepath.Join(dir, "other.jsonl"), cur); err == nil {
		t.Error("a cursor restored for another file")
	}
	if _, err := RestoreReader(path, []byte(`{"format":1,"path":"`+path+`"}`)); err == nil {
		t.Error("a Pi cursor restored as a Claude one")
	}
}

// TestCursorStateDecodedLate: a restored cursor's state is decoded only
// when the reader reads on or is asked; one that does not decode then is
// read afresh, whether the file grew or not.
func TestCursorStateDecodedLate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	write(t, path, fixture[:4]...)
	r := NewReader(path)
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	cur, _ := r.MarshalCursor()
	head, _, _ := strings.Cut(string(cur), "\n")
	bad := []byte(head + "\n" + `{"entries":"many"}`)
	want, _ := json.Marshal(r.Derive(nil))
	still, err := RestoreReader(path, bad)
	if err != nil {
		t.Fatal(err)
	}
	if err := still.Update(); err != nil || still.Moved() {
		t.Fatalf("nothing new: %v, moved %v", err, still.Moved())
	}
	if got, _ := json.Marshal(still.Derive(nil)); string(got) != string(want) {
		t.Errorf("a state that does not decode, nothing new:\n%s\nwant\n%s", got, want)
	}
	write(t, path, fixture[4:]...)
	whole := NewReader(path)
	whole.Update()
	want, _ = json.Marshal(whole.Derive(nil))
	grew, _ := RestoreReader(path, bad)
	if err := grew.Update(); err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(grew.Derive(nil)); string(got) != string(want) {
		t.Errorf("a state that does not decode, read on:\n%s\nwant\n%s", got, want)
	}
	if _, err := RestoreReader(path, []byte(head)); err == nil {
		t.Error("a cursor without its state restored")
	}
	// a call's outcome from a state still lazy (its calls alone decoded)
	cur, _ = whole.MarshalCursor()
	for _, id := range []string{"toolu_01", "toolu_02", "toolu_05", "toolu_06", "toolu_none"} {
		lazy, err := RestoreReader(path, cur)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := lazy.Outcome(id), whole.Outcome(id); got != want || !lazy.lazy.Waiting() {
			t.Errorf("outcome of %s from a lazy state: %q, want %q (still lazy: %v)", id, got, want, lazy.lazy.Waiting())
		}
	}
}

func TestLongLineSkipped(t *testing.T) {
	lineLimit = 4096
	defer func() { lineLimit = MaxLine }()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	write(t, path, `{"type":"user","x":"`+strings.Repeat("a", 20000)+`"}`, fixture[5])
	r := NewReader(path)
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	if d := r.Derive(nil); d.Skipped != 1 || d.Usage.Input != 1000 {
		t.Errorf("skipped %d usage %+v", d.Skipped, d.Usage)
	}
}

// The saved cursor keeps offsets, counts and hashes, never the bytes it
// read: the transcript's last line may hold a secret a tool printed.
func TestCursorKeepsNoValues(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	last := `{"type":"queue-operation","operation":"enqueue","sessionId":"` + sid + `","content":"export TOKEN=sk-live-SECRET42"}`
	if err := os.WriteFile(path, []byte(strings.Join(fixture, "\n")+"\n"+last+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := NewReader(path)
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	data, err := r.MarshalCursor()
	if err != nil {
		t.Fatal(err)
	}
	file, _ := os.ReadFile(path)
	tail := base64.StdEncoding.EncodeToString(file[len(file)-64:]) // as a []byte field would hold it
	for _, secret := range []string{"SECRET42", "SECRET-", "sk-live", tail} {
		if strings.Contains(string(data), secret) {
			t.Errorf("the cursor holds %q: %s", secret, data)
		}
	}
	back, err := RestoreReader(path, data)
	if err != nil {
		t.Fatal(err)
	}
	if err := back.Update(); err != nil || back.Offset() != r.Offset() {
		t.Errorf("restored: offset %d, %v; want %d", back.Offset(), err, r.Offset())
	}
}

func subLine(kind, ts, rest string) string {
	return fmt.Sprintf(`{"parentUuid":"p","isSidechain":true,"agentId":"a4a2","type":%q,%s,"timestamp":%q,"cwd":"/w","sessionId":%q}`, kind, rest, ts, sid)
}

func subReply(msgID, ts, usage, content string) string {
	return subLine("assistant", ts, fmt.Sprintf(`"message":{"content":[%s],"id":%q,"model":"claude-haiku-5","role":"assistant","stop_reason":"tool_use","usage":%s}`, content, msgID, usage))
}

func subResult(ts, toolID, result string) string {
	return subLine("user", ts, fmt.Sprintf(`"message":{"role":"user","content":[{"tool_use_id":%q,"type":"tool_result","content":"SECRET-RESULT","is_error":false}]},"toolUseResult":%s`, toolID, result))
}

const u3 = `{"input_tokens":5000,"cache_creation_input_tokens":4,"cache_read_input_tokens":3,"output_tokens":20}`

// A subagent's transcript (<session>/subagents/agent-*.jsonl) is read with
// the session's: its usage counts, its calls show marked as a subagent's,
// its writes are outputs; its model, shapes, listings and compactions say
// nothing of the session's.
func TestSubagents(t *testing.T) {
	path := filepath.Join(t.TempDir(), sid+".jsonl")
	write(t, path, fixture[4:8]...)
	r := NewReader(path)
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	subs := SubagentDir(path)
	if err := os.MkdirAll(subs, 0o700); err != nil {
		t.Fatal(err)
	}
	agent := filepath.Join(subs, "agent-a4a2.jsonl")
	write(t, agent,
		subLine("user", "2026-11-30T12:21:00.000Z", `"message":{"role":"user","content":"SECRET-SUBPROMPT"}`),
		`{"type":"api-request-shape","sessionId":"`+sid+`","agentId":"a4a2","timestamp":"2026-11-30T12:21:00.100Z","shape":{"tools":[{"name":"Read"}]}}`,
		subLine("attachment", "2026-11-30T12:21:00.100Z", `"attachment":{"type":"deferred_tools_delta","addedNames":["Monitor"],"removedNames":[]}`),
		subReply("msg_s1", "2026-11-30T12:21:01.000Z", u3,
			`{"id":"toolu_s1","input":{"command":"echo SECRET-SUBCMD"},"name":"Bash","type":"tool_use"},`+
				`{"id":"toolu_s2","input":{"file_path":"/w/sub.txt","content":"SECRET"},"name":"Write","type":"tool_use"},`+
				`{"id":"toolu_s3","input":{},"name":"TodoWrite","type":"tool_use"}`),
		subResult("2026-11-30T12:21:01.500Z", "toolu_s1", `{"stdout":"SECRET-OUT"}`),
		subResult("2026-11-30T12:21:01.600Z", "toolu_s2", `{"type":"create","filePath":"/w/sub.txt"}`),
		subLine("system", "2026-11-30T12:21:02.000Z", `"subtype":"compact_boundary"`),
	)
	// a file beside them that is not a subagent's transcript is not read
	write(t, filepath.Join(subs, "agent-a4a2.meta.json"), `{"agentType":"general-purpose"}`)
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	d := r.Derive(nil)
	want := status.Usage{Input: 6000, Output: 70, CacheRead: 203, CacheWrite: 304} // msg_1 and the subagent's msg_s1
	if d.Usage != want {
		t.Errorf("usage %+v, want %+v", d.Usage, want)
	}
	if d.Model == nil || d.Model.ID != "claude-opus-5-5" || d.ContextTokens == nil || *d.ContextTokens != 1500 {
		t.Errorf("model %+v context %v: the subagent's reply and compaction are not the session's", d.Model, d.ContextTokens)
	}
	var calls []string
	for _, c := range d.Recent {
		calls = append(calls, c.Tool+":"+c.Action+":"+c.Outcome)
	}
	if got := strings.Join(calls, " "); got != "TodoWrite:subagent:pending Write:subagent:write:ok Bash:subagent:run:ok Write:write:ok" {
		t.Errorf("recent: %s", got)
	}
	if len(d.Outputs) != 2 || d.Outputs[0].Path != "/w/sub.txt" || d.Outputs[0].Action != status.Created {
		t.Errorf("outputs %+v", d.Outputs)
	}
	offered, deferred := r.Tools()
	if len(offered) != 5 || len(deferred) != 0 {
		t.Errorf("offered %v deferred %v: the subagent's are not the session's", offered, deferred)
	}
	if r.Outcome("toolu_s3") != status.Pending {
		t.Errorf("the subagent's call is not known to a hook waiting for it")
	}
	// the cursor carries on in both files, keeps no value, and a restored
	// reader reads on what it did not read
	cur, _ := r.MarshalCursor()
	if strings.Contains(string(cur), "SECRET") {
		t.Errorf("a value leaked: %s", cur)
	}
	if !r.Moved() {
		t.Error("a reader read afresh has not moved")
	}
	if still, _ := RestoreReader(path, cur); still.Update() != nil || still.Moved() {
		t.Error("restored, it moved without reading")
	}
	write(t, agent, subResult("2026-11-30T12:21:03.000Z", "toolu_s3", `{}`))
	back, err := RestoreReader(path, cur)
	if err != nil {
		t.Fatal(err)
	}
	if err := back.Update(); err != nil || !back.Moved() || back.Outcome("toolu_s3") != status.OK {
		t.Errorf("restored: %v, moved %v, outcome %q", err, back.Moved(), back.Outcome("toolu_s3"))
	}
	if u := back.Derive(nil).Usage; u != want {
		t.Errorf("restored: usage %+v, want %+v (the subagent's reply counted once)", u, want)
	}
	// SubagentStop waits for the subagent's last reply
	if back.SubagentEnded("a4a2") {
		t.Error("the subagent ended before its last reply")
	}
	write(t, agent, strings.Replace(subReply("msg_s9", "2026-11-30T12:21:04.000Z", u3, `{"text":"done","type":"text"}`), `"tool_use","usage"`, `"end_turn","usage"`, 1))
	if back.Update(); !back.SubagentEnded("a4a2") || back.SubagentEnded("other") || back.TurnEnded() {
		t.Errorf("after its last reply: ended %v, the session's turn %v", back.SubagentEnded("a4a2"), back.TurnEnded())
	}
}

// Usage follows one rule: every request the session paid for. Claude's
// own totals (a cost-state) count requests no transcript records
// (compaction, titles); replies after them are added, a subagent's reply
// from before them is not counted twice.
func TestUsageIsClaudesTotals(t *testing.T) {
	path := filepath.Join(t.TempDir(), sid+".jsonl")
	write(t, path, fixture[5:7]...) // msg_1: u1
	os.MkdirAll(SubagentDir(path), 0o700)
	agent := filepath.Join(SubagentDir(path), "agent-a4a2.jsonl")
	write(t, agent, subReply("msg_s1", "2026-11-30T12:20:59.600Z", u3, `{"text":"x","type":"text"}`))
	r := NewReader(path)
	r.Update()
	if u := r.Derive(nil).Usage; u.Input != 6000 {
		t.Fatalf("before Claude's totals: %+v", u)
	}
	// Claude's totals: msg_1, msg_s1 and a compaction of 2000 in, 30 out
	write(t, path,
		`{"type":"system","subtype":"stop_hook_summary","timestamp":"2026-11-30T12:21:00.000Z","sessionId":"`+sid+`"}`,
		`{"type":"cost-state","sessionId":"`+sid+`","totalCostUSD":0.05,"modelUsage":{"claude-opus-5-5":{"inputTokens":3000,"outputTokens":80,"cacheReadInputTokens":200,"cacheCreationInputTokens":300},"claude-haiku-5":{"inputTokens":5000,"outputTokens":20,"cacheReadInputTokens":3,"cacheCreationInputTokens":4}}}`)
	r.Update()
	d := r.Derive(nil)
	claudes := status.Usage{Input: 8000, Output: 100, CacheRead: 203, CacheWrite: 304}
	if got := d.Usage; got.Cost == nil || *got.Cost != 0.05 {
		t.Errorf("cost %v", got.Cost)
	}
	d.Usage.Cost = nil
	if d.Usage != claudes {
		t.Errorf("usage %+v, Claude's totals %+v", d.Usage, claudes)
	}
	// read afresh (a lost cursor), the subagent's reply is in Claude's totals
	fresh := NewReader(path)
	fresh.Update()
	if u := fresh.Derive(nil).Usage; u.Input != 8000 || u.Cost == nil {
		t.Errorf("read afresh: %+v", u)
	}
	// a later reply, the session's or a subagent's, is added; the cost is
	// then unknown until Claude says it again
	write(t, path, assistantLine("m9", "msg_9", "2026-11-30T12:30:00Z", u2, `{"text":"more","type":"text"}`))
	write(t, agent, subReply("msg_s2", "2026-11-30T12:30:01Z", u3, `{"text":"y","type":"text"}`))
	r.Update()
	d = r.Derive(nil)
	if d.Usage.Cost != nil || d.Usage.Input != 8000+1200+5000 || d.Usage.Output != 100+40+20 {
		t.Errorf("after more replies: %+v", d.Usage)
	}
	// a cost-state whose figures are not Claude's changes no total
	write(t, path, `{"type":"cost-state","sessionId":"`+sid+`","totalCostUSD":0.07,"modelUsage":{"m":{"inputTokens":-1}}}`)
	r.Update()
	if u := r.Derive(nil).Usage; u.Input != 14200 {
		t.Errorf("a bad cost-state changed the totals: %+v", u)
	}
}

// The model's display name is Claude's (its model attachment), for the
// model the replies name; after a compaction the context is unknown until
// the next reply.
func TestModelNameAndCompaction(t *testing.T) {
	path := filepath.Join(t.TempDir(), sid+".jsonl")
	write(t, path,
		`{"parentUuid":"x","isSidechain":false,"attachment":{"type":"model","identity":{"modelId":"claude-opus-5-5","marketingName":"Opus 5.5","knowledgeCutoff":"June 2026"},"text":"You are powered by the model named Opus 5.5."},"type":"attachment","uuid":"a","timestamp":"2026-11-30T12:20:59.000Z","sessionId":"`+sid+`"}`,
		fixture[5])
	r := NewReader(path)
	r.Update()
	d := r.Derive(nil)
	if d.Model == nil || d.Model.Name != "Opus 5.5" || d.ContextTokens == nil {
		t.Fatalf("model %+v context %v", d.Model, d.ContextTokens)
	}
	write(t, path, `{"parentUuid":null,"isSidechain":false,"type":"system","subtype":"compact_boundary","content":"Conversation compacted","timestamp":"2026-11-30T12:22:00.000Z","compactMetadata":{"trigger":"manual","preTokens":1010,"postTokens":2556},"sessionId":"`+sid+`"}`)
	r.Update()
	if d := r.Derive(nil); d.ContextTokens == nil || *d.ContextTokens != 2556 {
		t.Errorf("context %v after a compaction, want Claude's postTokens 2556", d.ContextTokens)
	}
	// another model's replies: its id until Claude names it
	write(t, path, strings.ReplaceAll(assistantLine("m3", "msg_3", "2026-11-30T12:23:00Z", u2, `{"text":"x","type":"text"}`), "claude-opus-5-5", "claude-sonnet-5"))
	r.Update()
	if d := r.Derive(nil); d.Model.Name != "claude-sonnet-5" || d.ContextTokens == nil || *d.ContextTokens != 1700 {
		t.Errorf("model %+v context %v", d.Model, d.ContextTokens)
	}
}

// Created, then edited, stays created (Pi's rule); Settle settles a call
// until its result is read.
func TestCreatedThenEditedAndSettle(t *testing.T) {
	path := filepath.Join(t.TempDir(), sid+".jsonl")
	write(t, path, fixture[5:8]...) // notes.txt created
	write(t, path,
		assistantLine("m3", "msg_3", "2026-11-30T12:21:00.000Z", u2, `{"id":"toolu_e","input":{"file_path":"/w/notes.txt","old_string":"a","new_string":"b"},"name":"Edit","type":"tool_use"}`))
	r := NewReader(path)
	r.Update()
	r.Settle("toolu_e", status.OK)
	if d := r.Derive(nil); d.Recent[0].Outcome != status.OK {
		t.Errorf("settled: %+v", d.Recent[0])
	}
	write(t, path, resultLine("2026-11-30T12:21:01.000Z", "toolu_e", true, `"Error: no match"`))
	r.Update()
	d := r.Derive(nil)
	if d.Recent[0].Outcome != status.Error {
		t.Errorf("the result has the last word: %+v", d.Recent[0])
	}
	write(t, path,
		assistantLine("m4", "msg_4", "2026-11-30T12:21:02.000Z", u2, `{"id":"toolu_e2","input":{"file_path":"/w/notes.txt","old_string":"a","new_string":"b"},"name":"Edit","type":"tool_use"}`),
		resultLine("2026-11-30T12:21:03.000Z", "toolu_e2", false, `{"filePath":"/w/notes.txt"}`))
	r.Update()
	d = r.Derive(nil)
	if len(d.Outputs) != 1 || d.Outputs[0].Action != status.Created || OutputAction(false, true) != status.Created || OutputAction(false, false) != status.Changed {
		t.Errorf("outputs %+v: created, then edited, is created", d.Outputs)
	}
}
