package pi_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"jig/internal/scriptedmodel"
	"jig/pi/transcript"
	"jig/status"
)

// TestPiTreeForkEndToEnd makes a session with two branches with the real
// Pi (its own tree navigation, from an extension command), checks that
// `jig pi tree` lists both leaves with Pi's totals, forks at an entry of
// the branch Pi is not on, and has Pi continue the fork: the model's first
// request holds that branch up to the entry and nothing after. Meanwhile
// `jig session watch --json` prints one line per change.
func TestPiTreeForkEndToEnd(t *testing.T) {
	for _, v := range piVersions {
		t.Run("pi-"+v, func(t *testing.T) {
			t.Parallel()
			testTreeFork(t, v)
		})
	}
}

// reply is a text answer with its own usage, so each branch sums apart.
func reply(text string, prompt, completion, cached int) scriptedmodel.Reply {
	return scriptedmodel.Reply{Text: text, Usage: scriptedmodel.Usage{Prompt: prompt, Completion: completion, Cached: cached}}
}

func testTreeFork(t *testing.T, version string) {
	w := newWorld(t, version)
	brancher := filepath.Join(w.home, "brancher.ts")
	if err := os.WriteFile(brancher, []byte(`export default function (pi: any) {
	pi.registerCommand("jig-branch", { description: "go to an entry",
		handler: async (args: string, ctx: any) => {
			const r = await ctx.navigateTree(args.trim(), { summarize: false });
			ctx.ui.notify("branched " + (r.cancelled ? "cancelled" : "to " + args.trim()), "info");
		} });
}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	p := w.startPiArgs([]string{"-e", brancher})
	id := p.sessionID()
	w.waitStatus(id, "the session", func(s *status.Status) bool { return true })

	watch := w.startWatch(id)

	w.model.Queue(reply("answer one", 1000, 10, 0))
	p.prompt("first question")
	w.model.Queue(reply("answer two", 2000, 20, 1000))
	p.prompt("second question")
	file, _ := p.call(map[string]any{"type": "get_state"})["sessionFile"].(string)
	ids := entryIDs(t, file)
	a1, u2, a2 := ids["answer one"], ids["second question"], ids["answer two"]
	if a1 == "" || u2 == "" || a2 == "" {
		t.Fatalf("entries %v: want both questions and answers", ids)
	}
	// back to the first answer with Pi's own tree navigation, then a new branch
	p.send(map[string]any{"type": "prompt", "message": "/jig-branch " + a1}) // the notice may come before the response
	note := p.waitEvent("the branch notice", func(ev map[string]any) bool {
		return ev["type"] == "extension_ui_request" && ev["method"] == "notify"
	})
	if msg, _ := note["message"].(string); msg != "branched to "+a1 {
		t.Fatalf("navigation: %q", msg)
	}
	w.model.Queue(reply("answer three", 4000, 40, 0))
	p.prompt("third question")
	a3 := entryIDs(t, file)["answer three"]

	// Pi's own view: 0.73.1 sums the branch it is on, 1.6.0 the whole
	// file and (get_tree) lists the leaves.
	stats := p.call(map[string]any{"type": "get_session_stats"})
	var piTree map[string]any
	if !strings.HasPrefix(version, "0.") {
		piTree = p.call(map[string]any{"type": "get_tree"})
	}
	// idle now: watch says nothing more until something changes
	w.waitStatus(id, "idle", func(s *status.Status) bool { return s.State == status.Idle })
	time.Sleep(300 * time.Millisecond) // the bridge's last write after agent_end
	before := len(watch.linesNow())
	time.Sleep(2 * time.Second)
	if n := len(watch.linesNow()); n != before {
		t.Errorf("watch printed %d lines while the session was idle, want none", n-before)
	}
	p.quit()
	watch.wait(t)

	out, err := exec.Command(w.jig, "pi", "tree", file, "--json").Output()
	if err != nil {
		t.Fatalf("jig pi tree: %v", err)
	}
	var tree transcript.Tree
	if err := json.Unmarshal(out, &tree); err != nil {
		t.Fatal(err)
	}
	leaves := map[string]transcript.Leaf{}
	for _, l := range tree.Leaves {
		leaves[l.ID] = l
	}
	left, right := leaves[a2], leaves[a3]
	if len(leaves) != 2 || left.ID == "" || right.ID == "" || left.Active || !right.Active || tree.Active != a3 {
		t.Fatalf("tree leaves %+v (active %s), want %s and the active %s", tree.Leaves, tree.Active, a2, a3)
	}
	if left.From != a1 || right.From != a1 || left.Prompt != "second question" || right.Prompt != "third question" {
		t.Errorf("leaves %+v / %+v: want both off %s with their prompts", left, right, a1)
	}
	// input = prompt − cached (Pi's mapping)
	if left.Usage.Input != 1000+1000 || left.Usage.Output != 30 || left.Usage.CacheRead != 1000 ||
		right.Usage.Input != 1000+4000 || right.Usage.Output != 50 || right.Usage.CacheRead != 0 {
		t.Errorf("branch usage %+v / %+v", left.Usage, right.Usage)
	}
	tokens, _ := stats["tokens"].(map[string]any)
	cost, _ := stats["cost"].(float64)
	want := right.Usage // 0.73.1: the branch it is on
	if piTree != nil {
		want = tree.Usage // 1.6.0: the whole file
	}
	if tokens["input"] != float64(want.Input) || tokens["output"] != float64(want.Output) ||
		tokens["cacheRead"] != float64(want.CacheRead) || want.Cost == nil || cost < *want.Cost-1e-9 || cost > *want.Cost+1e-9 {
		t.Errorf("pi %s get_session_stats %v (cost %v), jig's %+v", version, tokens, cost, want)
	}
	if piTree != nil {
		var piLeaves []string
		var walk func(nodes []any)
		walk = func(nodes []any) {
			for _, n := range nodes {
				node, _ := n.(map[string]any)
				kids, _ := node["children"].([]any)
				if len(kids) == 0 {
					entry, _ := node["entry"].(map[string]any)
					piLeaves = append(piLeaves, fmt.Sprint(entry["id"]))
				}
				walk(kids)
			}
		}
		nodes, _ := piTree["tree"].([]any)
		walk(nodes)
		if strings.Join(piLeaves, " ") != a2+" "+a3 || piTree["leafId"] != a3 {
			t.Errorf("pi get_tree leaves %v, leaf %v; jig's %s %s", piLeaves, piTree["leafId"], a2, a3)
		}
	}

	// Fork at the second question, on the branch Pi left.
	orig, _ := os.ReadFile(file)
	fork := exec.Command(w.jig, "pi", "fork", id, "--at", u2, "--json")
	fork.Env = w.env()
	out, err = fork.Output()
	if err != nil {
		t.Fatalf("jig pi fork: %v", err)
	}
	var forked transcript.Forked
	if err := json.Unmarshal(out, &forked); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(file); string(after) != string(orig) {
		t.Error("the source changed")
	}
	if filepath.Dir(filepath.Dir(forked.Path)) != filepath.Join(w.agent, "sessions") {
		t.Errorf("fork at %s, want Pi's sessions folder for the cwd", forked.Path)
	}
	q := w.startPiArgs([]string{"--session", forked.Path})
	if got := q.sessionID(); got != forked.ID {
		t.Errorf("pi opened session %s, want the fork's %s", got, forked.ID)
	}
	first := len(w.model.Requests())
	w.model.Queue(reply("forked answer", 500, 5, 0))
	q.prompt("continue from the fork")
	q.quit()
	body := w.model.Requests()[first].Body
	if got, want := chatTexts(t, body), "user:first question|assistant:answer one|user:second question|user:continue from the fork"; got != want {
		t.Errorf("the model's first request in the fork holds\n%s\nwant\n%s", got, want)
	}
	h, err := transcript.ReadHeader(forked.Path)
	if err != nil || h.ParentSession != file || h.ID != forked.ID {
		t.Errorf("fork header %+v, %v; want parentSession %s", h, err, file)
	}
	if p := entryParent(t, forked.Path, "continue from the fork"); p != u2 {
		t.Errorf("Pi continued the fork from %q, want %s", p, u2)
	}
}

// entryIDs maps each message's first text to its entry id.
func entryIDs(t *testing.T, file string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, e := range readEntries(t, file) {
		if text := e.text(); text != "" {
			out[text] = e.ID
		}
	}
	return out
}

func entryParent(t *testing.T, file, text string) string {
	t.Helper()
	for _, e := range readEntries(t, file) {
		if e.text() == text {
			return e.ParentID
		}
	}
	return ""
}

type rawEntry struct {
	ID       string `json:"id"`
	ParentID string `json:"parentId"`
	Message  struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

func (e rawEntry) text() string {
	var s string
	if json.Unmarshal(e.Message.Content, &s) == nil {
		return s
	}
	var blocks []struct{ Type, Text string }
	json.Unmarshal(e.Message.Content, &blocks)
	for _, b := range blocks {
		if b.Type == "text" {
			return b.Text
		}
	}
	return ""
}

func readEntries(t *testing.T, file string) []rawEntry {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []rawEntry
	for _, ln := range strings.Split(string(data), "\n") {
		var e rawEntry
		if json.Unmarshal([]byte(ln), &e) == nil && e.ID != "" {
			out = append(out, e)
		}
	}
	return out
}

// chatTexts is a chat-completions body's user and assistant messages as
// role:text, joined by '|'.
func chatTexts(t *testing.T, body []byte) string {
	t.Helper()
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range req.Messages {
		if m.Role != "user" && m.Role != "assistant" {
			continue
		}
		e := rawEntry{}
		e.Message.Content = m.Content
		out = append(out, m.Role+":"+e.text())
	}
	return strings.Join(out, "|")
}

// watcher is a running `jig session watch --json`.
type watcher struct {
	cmd   *exec.Cmd
	lines chan struct{}
	done  chan struct{}
	got   []string
	mu    chan struct{}
}

func (w *world) startWatch(session string) *watcher {
	w.t.Helper()
	cmd := exec.Command(w.jig, "session", "watch", session, "--json")
	cmd.Env = w.env()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		w.t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	wt := &watcher{cmd: cmd, done: make(chan struct{}), mu: make(chan struct{}, 1)}
	w.t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGKILL)
		<-wt.done
	})
	first := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 8<<20)
		for sc.Scan() {
			wt.mu <- struct{}{}
			wt.got = append(wt.got, sc.Text())
			if len(wt.got) == 1 {
				close(first)
			}
			<-wt.mu
		}
		cmd.Wait()
		if stderr.Len() > 0 {
			w.t.Errorf("jig session watch said: %s", stderr.String())
		}
		close(wt.done)
	}()
	select {
	case <-first:
	case <-time.After(waitLimit):
		w.t.Fatal("jig session watch printed nothing")
	}
	return wt
}

func (wt *watcher) linesNow() []string {
	wt.mu <- struct{}{}
	defer func() { <-wt.mu }()
	return append([]string(nil), wt.got...)
}

// wait checks the run's lines once the session ended: each a whole status,
// each different from the one before (one line per change), busy and idle
// among them, and exit 0.
func (wt *watcher) wait(t *testing.T) {
	t.Helper()
	select {
	case <-wt.done:
	case <-time.After(waitLimit):
		t.Fatal("jig session watch did not end with the session")
	}
	if code := wt.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("jig session watch exit %d after the session ended, want 0", code)
	}
	lines := wt.linesNow()
	states := map[string]int{}
	for i, l := range lines {
		s, err := status.Decode([]byte(l))
		if err != nil || strings.Contains(l, "\n") {
			t.Errorf("watch line %d is not one status: %v: %s", i, err, l)
			continue
		}
		states[s.State]++
		if i > 0 && l == lines[i-1] {
			t.Errorf("watch line %d repeats the one before", i)
		}
	}
	if states[status.Busy] == 0 || states[status.Idle] == 0 {
		t.Errorf("watch lines show states %v, want busy and idle", states)
	}
}
