package transcript

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Hand-written transcripts, one feature each, with the expected values
// worked out by hand in the comments. Context estimates are Pi's
// ceil(chars/4) per message.

// fixtureV3Branch: a v3 tree where the user went back (/tree) and branched;
// every entry type of 0.x appears once, plus one type Pi does not have.
const fixtureV3Branch = `{"type":"session","version":3,"id":"s-a","timestamp":"2026-01-10T10:00:00.000Z","cwd":"/w/proj","parentSession":"/w/sessions/parent.jsonl"}
{"type":"model_change","id":"a1","parentId":null,"timestamp":"2026-01-10T10:00:00.100Z","provider":"anthropic","modelId":"claude-a"}
{"type":"thinking_level_change","id":"a2","parentId":"a1","timestamp":"2026-01-10T10:00:00.200Z","thinkingLevel":"low"}
{"type":"message","id":"a3","parentId":"a2","timestamp":"2026-01-10T10:00:01.000Z","message":{"role":"user","content":"hello","timestamp":1768039201000}}
{"type":"message","id":"a4","parentId":"a3","timestamp":"2026-01-10T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"api":"openai-responses","provider":"openai","model":"gpt-x","usage":{"input":100,"output":10,"cacheRead":0,"cacheWrite":0,"totalTokens":110,"cost":{"input":0.4,"output":0.1,"cacheRead":0,"cacheWrite":0,"total":0.5}},"stopReason":"stop","timestamp":1768039202000}}
{"type":"thinking_level_change","id":"a5","parentId":"a4","timestamp":"2026-01-10T10:00:03.000Z","thinkingLevel":"high"}
{"type":"message","id":"a6","parentId":"a5","timestamp":"2026-01-10T10:00:04.000Z","message":{"role":"user","content":"abandoned branch, never counted","timestamp":1768039204000}}
{"type":"branch_summary","id":"a7","parentId":"a4","timestamp":"2026-01-10T10:00:05.000Z","fromId":"a6","summary":"12345678","usage":{"input":1,"output":2,"cacheRead":0,"cacheWrite":0,"cost":{"total":0.25}}}
{"type":"message","id":"a8","parentId":"a7","timestamp":"2026-01-10T10:00:06.000Z","message":{"role":"user","content":[{"type":"text","text":"abcdefghi"},{"type":"image","data":"AAAA","mimeType":"image/png"}],"timestamp":1768039206000}}
{"type":"label","id":"a9","parentId":"a8","timestamp":"2026-01-10T10:00:07.000Z","targetId":"a4","label":"here"}
{"type":"session_info","id":"a10","parentId":"a9","timestamp":"2026-01-10T10:00:08.000Z","name":"  My session  "}
{"type":"custom","id":"a11","parentId":"a10","timestamp":"2026-01-10T10:00:09.000Z","customType":"jig","data":{"x":1}}
{"type":"future_kind","id":"a12","parentId":"a11","timestamp":"2026-01-10T10:00:10.000Z","whatever":[1,{"a":null}],"message":{"role":"user","content":"not a message entry"}}
`

func TestFixtureV3Branch(t *testing.T) {
	d := readString(t, fixtureV3Branch)
	eq(t, "leaf", d.Leaf, "a12")
	eq(t, "entries", d.Entries, 12)
	eq(t, "thinking", d.Thinking, "low") // "high" sits on the abandoned branch
	eq(t, "model", d.Model.Provider+"/"+d.Model.ID, "openai/gpt-x")
	eq(t, "name", d.Name, "My session")
	eq(t, "parent", d.Header.ParentSession, "/w/sessions/parent.jsonl")
	// 110 from a4, then the branch summary (8 chars: 2) and the user text
	// (9 chars: 3; a user's image is not counted)
	eq(t, "context", *d.ContextTokens, int64(115))
	eq(t, "usage", d.Usage.Input+d.Usage.Output, int64(113)) // a4, and the 1.x branch summary's own call
	eq(t, "cost", *d.Usage.Cost, 0.75)
	eq(t, "skipped", d.Skipped, 0)
}

// fixture1x: Pi 1.x additions — a system message, a usage entry, a
// toolResult with its own usage, a context_edit — where the latest model_change names the model, not the
// assistant's physical model; a call without a price makes the cost null.
const fixture1x = `{"type":"session","version":3,"id":"s-b","timestamp":"2026-11-20T08:00:00.000Z","cwd":"/w/p1"}
{"type":"model_change","id":"b1","parentId":null,"timestamp":"2026-11-20T08:00:00.100Z","provider":"anthropic","modelId":"virtual-x"}
{"type":"thinking_level_change","id":"b2","parentId":"b1","timestamp":"2026-11-20T08:00:00.200Z","thinkingLevel":"medium"}
{"type":"message","id":"b3","parentId":"b2","timestamp":"2026-11-20T08:00:01.000Z","message":{"role":"system","content":"you are pi","sections":{"a":"b"},"timestamp":1795680001000}}
{"type":"message","id":"b4","parentId":"b3","timestamp":"2026-11-20T08:00:02.000Z","message":{"role":"user","content":[{"type":"text","text":"go"}],"timestamp":1795680002000}}
{"type":"message","id":"b5","parentId":"b4","timestamp":"2026-11-20T08:00:03.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"write","arguments":{"path":"out/new.txt","content":"x"}}],"provider":"anthropic","model":"claude-physical","responseModel":"claude-physical-2","usage":{"input":10,"output":5,"cacheRead":100,"cacheWrite":0,"totalTokens":115,"cost":{"total":0.01}},"stopReason":"toolUse","timestamp":1795680002500}}
{"type":"message","id":"b6","parentId":"b5","timestamp":"2026-11-20T08:00:04.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"write","content":[{"type":"text","text":"Successfully wrote"}],"isError":false,"usage":{"input":7,"output":0,"cacheRead":0,"cacheWrite":0,"cost":{"total":0}},"timestamp":1795680004000}}
{"type":"usage","id":"b7","parentId":"b6","timestamp":"2026-11-20T08:00:05.000Z","kind":"cache_warm","provider":"anthropic","model":"claude-physical","usage":{"input":1000,"output":0,"cacheRead":0,"cacheWrite":50,"totalTokens":1050,"cost":{"total":0.02}}}
{"type":"context_edit","id":"b8","parentId":"b7","timestamp":"2026-11-20T08:00:06.000Z","targetId":"b6","replacement":null}
{"type":"message","id":"b9","parentId":"b8","timestamp":"2026-11-20T08:00:07.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c2","name":"bash","arguments":{"command":"ls"}}],"provider":"anthropic","model":"claude-physical","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":0},"stopReason":"toolUse","timestamp":1795680006500}}
`

func TestFixture1x(t *testing.T) {
	d := readString(t, fixture1x)
	eq(t, "model", d.Model.Provider+"/"+d.Model.ID, "anthropic/virtual-x")
	eq(t, "thinking", d.Thinking, "medium")
	eq(t, "input", d.Usage.Input, int64(1018)) // 10 + 7 (toolResult) + 1000 (usage entry) + 1
	eq(t, "output", d.Usage.Output, int64(6))
	eq(t, "cacheRead", d.Usage.CacheRead, int64(100))
	eq(t, "cacheWrite", d.Usage.CacheWrite, int64(50))
	if d.Usage.Cost != nil {
		t.Errorf("cost %v, want null: b9 had no price", *d.Usage.Cost)
	}
	eq(t, "context", *d.ContextTokens, int64(2)) // b9: totalTokens 0, so 1+1
	eq(t, "outputs", len(d.Outputs), 1)
	eq(t, "output", d.Outputs[0].Path+" "+d.Outputs[0].Action, "/w/p1/out/new.txt created")
	eq(t, "output at", d.Outputs[0].At, at("2026-11-20T08:00:04Z"))
	eq(t, "recent", calls(d), "bash run pending|write write ok")
	eq(t, "recent at", d.Recent[0].At, at("2026-11-20T08:00:07Z"))
}

// fixtureV2 builds up in steps: a v2 file (hookMessage role), both legacy
// edit shapes, tool_use blocks, a compaction, then replies after it.
var fixtureV2 = []string{
	`{"type":"session","version":2,"id":"s-c","timestamp":"2026-01-03T09:00:00.000Z","cwd":"/w/c"}`,
	`{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-03T09:00:01.000Z","message":{"role":"user","content":"` + strings.Repeat("x", 40) + `","timestamp":1767430801000}}`,
	`{"type":"message","id":"m2","parentId":"m1","timestamp":"2026-01-03T09:00:02.000Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"r1","name":"read","input":{"path":"a.txt","offset":3}}],"provider":"anthropic","model":"claude-c","usage":{"input":900,"output":100,"cacheRead":0,"cacheWrite":0,"totalTokens":1000,"cost":{"total":0.1}},"stopReason":"toolUse","timestamp":1767430801500}}`,
	`{"type":"message","id":"m3","parentId":"m2","timestamp":"2026-01-03T09:00:03.000Z","message":{"role":"toolResult","toolCallId":"r1","toolName":"read","content":[{"type":"text","text":"12345678"}],"isError":false,"timestamp":1767430803000}}`,
	`{"type":"message","id":"m4","parentId":"m3","timestamp":"2026-01-03T09:00:04.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"w1","name":"write","arguments":{"path":"a.txt","content":"new"}}],"provider":"anthropic","model":"claude-c","usage":{"input":1000,"output":20,"cacheRead":0,"cacheWrite":0,"cost":{"total":0.1}},"stopReason":"toolUse","timestamp":1767430803500}}`,
	`{"type":"message","id":"m5","parentId":"m4","timestamp":"2026-01-03T09:00:05.000Z","message":{"role":"toolResult","toolCallId":"w1","toolName":"write","content":[{"type":"text","text":"ok"}],"isError":false,"timestamp":1767430805000}}`,
	`{"type":"message","id":"m6","parentId":"m5","timestamp":"2026-01-03T09:00:06.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"e1","name":"edit","arguments":{"path":"/abs/b.txt","oldText":"a","newText":"b"}}],"provider":"anthropic","model":"claude-c","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":1100,"cost":{"total":0.1}},"stopReason":"toolUse","timestamp":1767430805500}}`,
	`{"type":"message","id":"m7","parentId":"m6","timestamp":"2026-01-03T09:00:07.000Z","message":{"role":"toolResult","toolCallId":"e1","toolName":"edit","content":[{"type":"text","text":"no match"}],"isError":true,"timestamp":1767430807000}}`,
	`{"type":"message","id":"m8","parentId":"m7","timestamp":"2026-01-03T09:00:08.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"e2","name":"edit","arguments":{"path":"@b.txt","edits":[{"oldText":"a","newText":"b"},{"oldText":"c","newText":"d"}]}}],"provider":"anthropic","model":"claude-c","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":1200,"cost":{"total":0.1}},"stopReason":"toolUse","timestamp":1767430807500}}`,
	`{"type":"message","id":"m9","parentId":"m8","timestamp":"2026-01-03T09:00:09.000Z","message":{"role":"toolResult","toolCallId":"e2","toolName":"edit","content":[{"type":"text","text":"done"}],"isError":false,"timestamp":1767430809000}}`,
	`{"type":"message","id":"m10","parentId":"m9","timestamp":"2026-01-03T09:00:10.000Z","message":{"role":"hookMessage","customType":"h","content":"hook!!!!","display":true,"timestamp":1767430810000}}`,
	`{"type":"custom_message","id":"m11","parentId":"m10","timestamp":"2026-01-03T09:00:11.000Z","customType":"x","content":[{"type":"text","text":"1234"},{"type":"image","data":"AAAA","mimeType":"image/png"}],"display":false}`,
	`{"type":"message","id":"m12","parentId":"m11","timestamp":"2026-01-03T09:00:12.000Z","message":{"role":"bashExecution","command":"ls","output":"ab","exitCode":0,"cancelled":false,"truncated":false,"timestamp":1767430812000}}`,
	// step 1 ends here: context = 1200 (m8) + 1 (m9) + 2 (m10) + 1201 (m11: 4 + 4800 chars) + 1 (m12)
	`{"type":"compaction","id":"m13","parentId":"m12","timestamp":"2026-01-03T09:00:13.000Z","summary":"sum","firstKeptEntryId":"m8","tokensBefore":2405,"details":{"readFiles":[],"modifiedFiles":[]}}`,
	`{"type":"message","id":"m14","parentId":"m13","timestamp":"2026-01-03T09:00:14.000Z","message":{"role":"assistant","content":[],"provider":"anthropic","model":"claude-c","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"total":0}},"stopReason":"aborted","errorMessage":"Request was aborted","timestamp":1767430814000}}`,
	// step 2 ends here: compacted and no reply since: unknown
	`{"type":"message","id":"m15","parentId":"m14","timestamp":"2026-01-03T09:00:15.000Z","message":{"role":"assistant","content":[{"type":"text","text":"back"}],"provider":"anthropic","model":"claude-c","usage":{"input":400,"output":100,"cacheRead":0,"cacheWrite":0,"totalTokens":500,"cost":{"total":0.2}},"stopReason":"stop","timestamp":1767430814500}}`,
	`{"type":"message","id":"m16","parentId":"m15","timestamp":"2026-01-03T09:00:16.000Z","message":{"role":"user","content":"abcd","timestamp":1767430816000}}`,
}

func TestFixtureV2Steps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	r := NewReader(path)
	write := func(lines []string) {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(strings.Join(lines, "\n") + "\n")
		f.Close()
		if err := r.Update(); err != nil {
			t.Fatal(err)
		}
	}
	write(fixtureV2[:13])
	d := r.Derive(nil)
	eq(t, "context before compaction", *d.ContextTokens, int64(2405))
	write(fixtureV2[13:15])
	d = r.Derive(nil)
	if d.ContextTokens != nil {
		t.Errorf("context %d after a compaction with no reply since, want null", *d.ContextTokens)
	}
	write(fixtureV2[15:])
	d = r.Derive(nil)
	eq(t, "context after the reply", *d.ContextTokens, int64(501))
	eq(t, "cost", *d.Usage.Cost, 0.6000000000000001)
	eq(t, "model", d.Model.ID, "claude-c")
	eq(t, "thinking", d.Thinking, "off")
	eq(t, "recent", calls(d), "edit multi-edit ok|edit edit error|write write ok|read read-part ok")
	// a.txt was read before the write, so it existed: changed; an edit never creates
	eq(t, "outputs", outs(d), "/w/c/b.txt changed|/w/c/a.txt changed")
}

// fixtureV1 is the oldest format: no ids (jig numbers them in reading order,
// as Pi's migration does), the model only in the header, a bad line.
const fixtureV1 = `{"type":"session","id":"s-d","timestamp":"2025-11-01T00:00:00.000Z","cwd":"/w/d","provider":"anthropic","modelId":"m-head","thinkingLevel":"high"}
{"type":"message","timestamp":"2025-11-01T00:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"hi"}],"timestamp":1761955201000}}
{"type":"message","timestamp":"2025-11-01T00:00:01.500Z","message":{"role":"user"}}{"type":"message"}
{"type":"message","timestamp":"2025-11-01T00:00:02.000Z","message":{"role":"user","content":"again","timestamp":1761955202000}}
{"type":"compaction","timestamp":"2025-11-01T00:00:03.000Z","summary":"s","firstKeptEntryIndex":2,"tokensBefore":10}
`

func TestFixtureV1(t *testing.T) {
	d, r := readStringR(t, fixtureV1)
	eq(t, "leaf", d.Leaf, "00000003") // header 0, two messages, the compaction
	eq(t, "entries", d.Entries, 3)
	eq(t, "skipped", d.Skipped, 1)
	eq(t, "bad line", r.BadLines()[0].Line, 3)
	eq(t, "model", d.Model.ID, "m-head")
	eq(t, "thinking", d.Thinking, "off") // Pi ignores the v1 header's level
	eq(t, "version", d.Header.Version, 1)
	if d.ContextTokens != nil {
		t.Errorf("context %d, want null after the compaction", *d.ContextTokens)
	}
}

func readString(t *testing.T, content string) *Derived {
	t.Helper()
	d, _ := readStringR(t, content)
	return d
}

func readStringR(t *testing.T, content string) (*Derived, *Reader) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	r := NewReader(path)
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	return r.Derive(nil), r
}

func eq[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s: got %v, want %v", what, got, want)
	}
}

func at(s string) time.Time {
	v, _ := time.Parse(time.RFC3339, s)
	return v
}

func calls(d *Derived) string {
	var s []string
	for _, c := range d.Recent {
		s = append(s, c.Tool+" "+c.Action+" "+c.Outcome)
	}
	return strings.Join(s, "|")
}

func outs(d *Derived) string {
	var s []string
	for _, o := range d.Outputs {
		s = append(s, o.Path+" "+o.Action)
	}
	return strings.Join(s, "|")
}
