package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jig/internal/fixtures"
)

// twoBranches is a v3 session: a root chain, a compaction, then two
// branches off entry a2 (the first ends at b3, the second, active, at c3
// and holds a branch summary and a label).
var twoBranches = strings.Join([]string{
	`{"type":"session","version":3,"id":"s-tree","timestamp":"2026-03-02T09:00:00.000Z","cwd":"/w/proj"}`,
	`{"type":"model_change","id":"a0","parentId":null,"timestamp":"2026-03-02T09:00:00.100Z","provider":"p","modelId":"m"}`,
	`{"type":"message","id":"a1","parentId":"a0","timestamp":"2026-03-02T09:00:01.000Z","message":{"role":"user","content":"first\nquestion about\tthings","timestamp":1}}`,
	`{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-03-02T09:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"provider":"p","model":"m","usage":{"input":100,"output":10,"cacheRead":0,"cacheWrite":0,"totalTokens":110,"cost":{"total":0.01}},"stopReason":"stop"}}`,
	`{"type":"compaction","id":"k1","parentId":"a2","timestamp":"2026-03-02T09:00:02.500Z","summary":"s","firstKeptEntryId":"a2","tokensBefore":110}`,
	`{"type":"message","id":"b1","parentId":"k1","timestamp":"2026-03-02T09:00:03.000Z","message":{"role":"user","content":[{"type":"text","text":"left branch prompt"}],"timestamp":2}}`,
	`{"type":"message","id":"b2","parentId":"b1","timestamp":"2026-03-02T09:00:04.000Z","message":{"role":"assistant","content":[{"type":"text","text":"left"}],"provider":"p","model":"m","usage":{"input":200,"output":20,"cacheRead":5,"cacheWrite":1,"totalTokens":226,"cost":{"total":0.02}},"stopReason":"stop"}}`,
	`{"type":"session_info","id":"b3","parentId":"b2","timestamp":"2026-03-02T09:00:04.500Z","name":"Left"}`,
	`{"type":"branch_summary","id":"c0","parentId":"k1","timestamp":"2026-03-02T09:00:05.000Z","fromId":"b3","summary":"went left"}`,
	`{"type":"message","id":"c1","parentId":"c0","timestamp":"2026-03-02T09:00:06.000Z","message":{"role":"user","content":"right branch prompt with many words that go on and on past the cut","timestamp":3}}`,
	`{"type":"message","id":"c2","parentId":"c1","timestamp":"2026-03-02T09:00:07.000Z","message":{"role":"assistant","content":[{"type":"text","text":"right"}],"provider":"p","model":"m","usage":{"input":300,"output":30,"cacheRead":0,"cacheWrite":0,"totalTokens":330,"cost":{"total":0.03}},"stopReason":"stop"}}`,
	`{"type":"label","id":"c3","parentId":"c2","timestamp":"2026-03-02T09:00:08.000Z","targetId":"c1","label":"checkpoint"}`,
}, "\n") + "\n"

func writeTemp(t *testing.T, name, data string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTreeTwoBranches(t *testing.T) {
	path := writeTemp(t, "s.jsonl", twoBranches)
	tr, err := ReadTree(path, 30)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Active != "c3" || tr.Entries != 11 || len(tr.Leaves) != 2 {
		t.Fatalf("active %q, entries %d, leaves %+v", tr.Active, tr.Entries, tr.Leaves)
	}
	left, right := tr.Leaves[0], tr.Leaves[1]
	if left.ID != "b3" || left.Active || left.From != "k1" || left.Depth != 7 || left.Name != "Left" ||
		left.Prompt != "left branch prompt" || left.Label != "" {
		t.Errorf("left leaf %+v", left)
	}
	if left.Usage.Input != 300 || left.Usage.Output != 30 || left.Usage.CacheRead != 5 || left.Usage.CacheWrite != 1 ||
		left.Usage.Cost == nil || *left.Usage.Cost < 0.03-1e-12 || *left.Usage.Cost > 0.03+1e-12 {
		t.Errorf("left usage %+v", left.Usage)
	}
	if right.ID != "c3" || !right.Active || right.From != "k1" || right.Depth != 8 || right.Name != "" ||
		right.Label != "checkpoint" || right.LabelOn != "c1" || right.Prompt != "right branch prompt with many…" {
		t.Errorf("right leaf %+v", right)
	}
	if right.Usage.Input != 400 || right.Usage.Output != 40 {
		t.Errorf("right usage %+v", right.Usage)
	}
	if got := summaryIDs(right.Summaries); got != "compaction:k1 branch_summary:c0" {
		t.Errorf("right summaries %s", got)
	}
	if got := summaryIDs(left.Summaries); got != "compaction:k1" {
		t.Errorf("left summaries %s", got)
	}
	if want := time.Date(2026, 3, 2, 9, 0, 8, 0, time.UTC); !right.At.Equal(want) {
		t.Errorf("right at %v, want %v", right.At, want)
	}
	if tr.Usage.Input != 600 {
		t.Errorf("file usage %+v, want all branches", tr.Usage)
	}
}

func summaryIDs(s []Summary) string {
	var out []string
	for _, x := range s {
		out = append(out, x.Type+":"+x.ID)
	}
	return strings.Join(out, " ")
}

func TestDeriveBranch(t *testing.T) {
	path := writeTemp(t, "s.jsonl", twoBranches)
	d, _, err := DeriveBranch(path, "b2", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.Leaf != "b2" || d.Entries != 6 || d.Usage.Input != 300 || d.ContextTokens == nil || *d.ContextTokens != 226 {
		t.Errorf("branch b2: leaf %s, entries %d, usage %+v, context %v", d.Leaf, d.Entries, d.Usage, d.ContextTokens)
	}
	_, _, err = DeriveBranch(path, "nope", "", nil)
	var no *ErrNoEntry
	if !errors.As(err, &no) || no.ID != "nope" {
		t.Errorf("unknown entry: %v", err)
	}
}

// TestTreeUsageAgrees checks the tree's per-entry usage against the
// reader's file totals on the real transcripts (and so its choice of
// entries), and each leaf's branch sum against a plain decode of the file.
func TestTreeUsageAgrees(t *testing.T) {
	var files []string
	for _, f := range fixtures.All(t) {
		if f.Name != "oversized-line" { // one 34 MB line: plainBranchInput reads lines whole
			files = append(files, f.Path)
		}
	}
	files = append(files, writeTemp(t, "s.jsonl", twoBranches))
	for _, f := range files {
		tb, r, err := buildTree(f)
		if err != nil {
			t.Fatal(err)
		}
		var own usageTotals
		for _, n := range tb.nodes {
			u := n.usage
			if p := n.parent; p >= 0 {
				pu := tb.nodes[p].usage
				u.Input, u.Output, u.Cost, u.Unpriced = u.Input-pu.Input, u.Output-pu.Output, u.Cost-pu.Cost, u.Unpriced-pu.Unpriced
			}
			own.Input += u.Input
			own.Output += u.Output
			own.Unpriced += u.Unpriced
		}
		if own.Input != r.totals.Input || own.Output != r.totals.Output || own.Unpriced != r.totals.Unpriced {
			t.Errorf("%s: entries' usage %+v, reader's totals %+v", filepath.Base(f), own, r.totals)
		}
		tr, err := tb.tree(r, 40)
		if err != nil {
			t.Fatal(err)
		}
		want := plainBranchInput(t, f)
		for _, lf := range tr.Leaves {
			if lf.Usage.Input != want[lf.ID] {
				t.Errorf("%s: leaf %s input %d, plain decode %d", filepath.Base(f), lf.ID, lf.Usage.Input, want[lf.ID])
			}
		}
	}
}

// plainBranchInput sums assistant input tokens root to each entry with
// encoding/json (v1 files: one chain of jig's v1 ids).
func plainBranchInput(t *testing.T, path string) map[string]int64 {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := map[string]int64{}
	v1, prev, ord := false, "", 0
	for i, ln := range bytes.Split(data, []byte("\n")) {
		var e struct {
			Type, ID string
			ParentID *string `json:"parentId"`
			Version  int
			Message  *struct {
				Role  string
				Usage struct{ Input int64 }
			}
			Usage *struct{ Input int64 }
		}
		if len(bytes.TrimSpace(ln)) == 0 || json.Unmarshal(ln, &e) != nil {
			continue
		}
		if i == 0 || e.Type == "session" {
			v1 = e.Version < 2
			ord++
			continue
		}
		id, parent := e.ID, ""
		if e.ParentID != nil {
			parent = *e.ParentID
		}
		if v1 {
			id, parent = v1ID(ord), prev
		}
		ord++
		prev = id
		own := int64(0)
		if e.Message != nil && (e.Message.Role == "assistant" || e.Message.Role == "toolResult") {
			own = e.Message.Usage.Input
		} else if e.Usage != nil && (e.Type == "usage" || e.Type == "compaction" || e.Type == "branch_summary") {
			own = e.Usage.Input
		}
		sum[id] = sum[parent] + own
	}
	return sum
}

func TestForkV3(t *testing.T) {
	src := writeTemp(t, "src.jsonl", twoBranches)
	dir := filepath.Join(t.TempDir(), "sessions", SessionDirName("/w/proj"))
	now := time.Date(2026, 3, 3, 10, 0, 0, 123e6, time.UTC)
	f, err := Fork(src, "b2", false, dir, "/w/proj", now)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(filepath.Dir(f.Path)) != "--w-proj--" || !strings.HasPrefix(filepath.Base(f.Path), "2026-03-03T10-00-00-123Z_"+f.ID) {
		t.Errorf("path %s", f.Path)
	}
	if len(f.ID) != 36 || f.ID[14] != '7' {
		t.Errorf("id %q, want a UUIDv7", f.ID)
	}
	data, _ := os.ReadFile(f.Path)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	srcLines := strings.Split(strings.TrimSpace(twoBranches), "\n")
	if len(lines) != 7 || f.Entries != 6 {
		t.Fatalf("fork has %d lines (%d entries):\n%s", len(lines), f.Entries, data)
	}
	for i, want := range srcLines[1:7] {
		if lines[i+1] != want {
			t.Errorf("line %d = %s, want the source's %s", i+2, lines[i+1], want)
		}
	}
	h, err := ReadHeader(f.Path)
	if err != nil || h.ID != f.ID || h.Version != 3 || h.ParentSession != src || h.CWD != "/w/proj" {
		t.Errorf("header %+v, %v", h, err)
	}
	if fi, _ := os.Stat(f.Path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
	// empty: the header only
	e, err := Fork(src, "", true, dir, "/w/proj", now)
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(e.Path); bytes.Count(data, []byte("\n")) != 1 || e.Entries != 0 {
		t.Errorf("empty fork:\n%s", data)
	}
	if after, _ := os.ReadFile(src); string(after) != twoBranches {
		t.Error("the source changed")
	}
}

func TestForkRefuses(t *testing.T) {
	src := writeTemp(t, "src.jsonl", twoBranches)
	root := t.TempDir()
	now := time.Now()
	if _, err := Fork(src, "zz", false, filepath.Join(root, "a"), "/w", now); !errors.As(err, new(*ErrNoEntry)) {
		t.Errorf("unknown entry: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "a")); err == nil {
		t.Error("an unknown entry created the folder")
	}
	os.Mkdir(filepath.Join(root, "real"), 0o700)
	os.Symlink(filepath.Join(root, "real"), filepath.Join(root, "link"))
	if _, err := Fork(src, "b2", false, filepath.Join(root, "link"), "/w", now); !errors.Is(err, ErrSymlinkDir) {
		t.Errorf("symlinked folder: %v", err)
	}
	if m, _ := filepath.Glob(filepath.Join(root, "real", "*")); len(m) != 0 {
		t.Errorf("written through the symlink: %v", m)
	}
	notSession := writeTemp(t, "n.jsonl", "{\"type\":\"message\"}\n")
	if _, err := Fork(notSession, "b2", false, filepath.Join(root, "b"), "/w", now); !errors.Is(err, ErrNotSession) {
		t.Errorf("not a session: %v", err)
	}
}

// A v1 source becomes v3 as Pi's migration makes it: ids in reading
// order (jig's v1 ids, the ones jig pi tree shows), parents chained,
// firstKeptEntryIndex an id, hookMessage a custom message.
func TestForkV1(t *testing.T) {
	v1 := strings.Join([]string{
		`{"type":"session","id":"old","timestamp":"2025-11-20T09:00:00.000Z","cwd":"/w/old","provider":"p","modelId":"m"}`,
		`{"type":"message","timestamp":"2025-11-20T09:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}`,
		`not json`,
		`{"type":"message","timestamp":"2025-11-20T09:00:02.000Z","message":{"role":"hookMessage","customType":"x","content":"h","display":true,"timestamp":2}}`,
		`{"type":"compaction","timestamp":"2025-11-20T09:00:03.000Z","summary":"s","firstKeptEntryIndex":2,"tokensBefore":5}`,
		`{"type":"message","timestamp":"2025-11-20T09:00:04.000Z","message":{"role":"user","content":"after","timestamp":3}}`,
	}, "\n") + "\n"
	src := writeTemp(t, "v1.jsonl", v1)
	f, err := Fork(src, v1ID(3), false, t.TempDir(), "/w/old", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(f.Path)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	want := []string{
		`{"type":"message","id":"00000001","parentId":null,"timestamp":"2025-11-20T09:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}`,
		`{"type":"message","id":"00000002","parentId":"00000001","timestamp":"2025-11-20T09:00:02.000Z","message":{"role":"custom","customType":"x","content":"h","display":true,"timestamp":2}}`,
		`{"type":"compaction","id":"00000003","parentId":"00000002","timestamp":"2025-11-20T09:00:03.000Z","summary":"s","firstKeptEntryId":"00000002","tokensBefore":5}`,
	}
	if len(lines) != 4 || strings.Join(lines[1:], "\n") != strings.Join(want, "\n") {
		t.Errorf("fork of v1:\n%s\nwant:\n%s", strings.Join(lines[1:], "\n"), strings.Join(want, "\n"))
	}
	tr, err := ReadTree(f.Path, 20)
	if err != nil || tr.Header.Version != 3 || tr.Active != "00000003" || len(tr.Leaves) != 1 {
		t.Errorf("the fork read back: %+v, %v", tr, err)
	}
}
