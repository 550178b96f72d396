// Command record re-makes the transcripts in pi/transcript/testdata/recorded:
// it runs the real Pi (each version .ci/provision installs) in RPC mode
// against the scripted model on 127.0.0.1, with prompts, replies and files
// written here, copies the session file Pi wrote, and has the independent
// count (testdata/count.py) write what the tests expect of it.
//
// Run it from the repository root after `bash .ci/provision`:
//
//	go run ./internal/record            # every fixture
//	go run ./internal/record -only long # just the long one
//
// pi/transcript/testdata/README.md says what each fixture holds.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"jig/internal/pitest"
	"jig/internal/scriptedmodel"
)

// longSize is how big the long fixture grows: the size of the real
// transcripts the speed tests used to read.
const longSize = 1536 << 10

func main() {
	out := flag.String("out", "pi/transcript/testdata", "the testdata folder to write into")
	only := flag.String("only", "", "record one fixture: 0.73.1, 1.6.0 or long")
	flag.Parse()
	if _, err := os.Stat(filepath.Join(*out, "count.py")); err != nil {
		fail(fmt.Errorf("%s has no count.py: run from the repository root or give -out", *out))
	}
	fixtures := []struct{ name, version string }{
		{"0.73.1", "0.73.1"}, {"1.6.0", "1.6.0"}, {"long", "1.6.0"},
	}
	for _, f := range fixtures {
		if *only != "" && *only != f.name {
			continue
		}
		file := "pi-" + f.name + ".jsonl"
		if f.name == "long" {
			file = "pi-1.6.0-long.jsonl.gz"
		}
		if err := record(f.version, f.name == "long", filepath.Join(*out, "recorded", file), *out); err != nil {
			fail(fmt.Errorf("pi %s (%s): %w", f.version, f.name, err))
		}
		fmt.Println("recorded", file)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "record:", err)
	os.Exit(1)
}

// record runs one session and writes its transcript to dest (gzipped when
// dest ends in .gz) and the count's expectations beside the others.
func record(version string, long bool, dest, testdata string) error {
	node, ok := pitest.NodePath()
	if !ok {
		return errors.New(node + " does not run: run .ci/provision")
	}
	piBin := filepath.Join(pitest.Cache(), "pi-"+version, "node_modules", ".bin", "pi")
	root, err := os.MkdirTemp("", "jig-record-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(root)
	s, err := start(root, piBin, pitest.NodeBinDir())
	if err != nil {
		return err
	}
	defer s.stop()
	if err := s.script(long); err != nil {
		return fmt.Errorf("%w\n%s", err, s.tail())
	}
	s.stop()
	files, _ := filepath.Glob(filepath.Join(root, "agent", "sessions", "*", "*.jsonl"))
	if len(files) != 1 {
		return fmt.Errorf("pi wrote %d session files, want 1\n%s", len(files), s.tail())
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return err
	}
	if strings.HasSuffix(dest, ".gz") {
		var b bytes.Buffer
		z, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		z.Write(data)
		z.Close()
		err = os.WriteFile(dest, b.Bytes(), 0o644)
	} else {
		err = os.WriteFile(dest, data, 0o644)
	}
	if err != nil {
		return err
	}
	return expect(testdata, dest)
}

// expect runs the independent count on a fixture and keeps its answer in
// testdata/expected/NAME.json.
func expect(testdata, fixture string) error {
	name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(fixture), ".gz"), ".jsonl")
	out, err := exec.Command("python3", filepath.Join(testdata, "count.py"), fixture).Output()
	if err != nil {
		return fmt.Errorf("count.py %s: %w", fixture, err)
	}
	return os.WriteFile(filepath.Join(testdata, "expected", name+".json"), out, 0o644)
}

// session is one running Pi and the scripted model it talks to.
type session struct {
	work   string
	model  *scriptedmodel.Server
	cmd    *exec.Cmd
	stdin  interface{ Write([]byte) (int, error) }
	events chan map[string]any
	exited chan struct{}
	once   sync.Once

	mu      sync.Mutex
	log     []string
	replies []scriptedmodel.Reply // the script's next answers, in order
	summary string                // the answer to a request the script has none for (a compaction's)
	nreq    int
	rng     *rand.Rand
}

func start(root, piBin, nodeBin string) (*session, error) {
	agent, work, home := filepath.Join(root, "agent"), filepath.Join(root, "project"), filepath.Join(root, "home")
	for _, d := range []string{agent, work, home, filepath.Join(work, "plan")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	m, err := scriptedmodel.Start()
	if err != nil {
		return nil, err
	}
	models := map[string]any{"providers": map[string]any{"scripted": map[string]any{
		"baseUrl": m.URL, "api": "openai-completions", "apiKey": "scripted-key",
		"models": []any{
			map[string]any{"id": "mock-model", "name": "Mock Model", "contextWindow": 200000, "maxTokens": 8192,
				"reasoning": false, "input": []string{"text"},
				"cost": map[string]any{"input": 3, "output": 15, "cacheRead": 0.3, "cacheWrite": 3.75}},
			map[string]any{"id": "mock-reasoner", "name": "Mock Reasoner", "contextWindow": 200000, "maxTokens": 8192,
				"reasoning": true, "input": []string{"text"},
				"cost": map[string]any{"input": 1, "output": 5, "cacheRead": 0.1, "cacheWrite": 1.25}},
		}}}}
	// Compaction keeps only the last few hundred tokens, so even the short
	// session has something to summarise (Pi 1.x refuses otherwise).
	settings := map[string]any{"retry": map[string]any{"maxRetries": 0, "provider": map[string]any{"maxRetries": 0}},
		"compaction": map[string]any{"enabled": false, "keepRecentTokens": 400}}
	for name, v := range map[string]any{"models.json": models, "settings.json": settings} {
		data, _ := json.Marshal(v)
		if err := os.WriteFile(filepath.Join(agent, name), data, 0o600); err != nil {
			return nil, err
		}
	}
	seed := map[string]string{
		"notes.md":       "# Garden notes\n\n- tomatos by the south fence\n- beans climb the trellis\n- mulch the beds in May\n",
		"plan/old.md":    "Last year's plan, kept for reference.\n",
		"plan/spring.md": "", // written by the model
	}
	for name, text := range seed {
		if text == "" {
			continue
		}
		if err := os.WriteFile(filepath.Join(work, name), []byte(text), 0o600); err != nil {
			return nil, err
		}
	}
	s := &session{work: work, model: m, events: make(chan map[string]any, 4096), exited: make(chan struct{}),
		rng: rand.New(rand.NewPCG(7, 11))}
	s.cmd = exec.Command(piBin, "--provider", "scripted", "--model", "mock-model", "--offline",
		"--no-extensions", "--no-skills", "--no-prompt-templates", "--no-themes", "--no-context-files", "--mode", "rpc")
	s.cmd.Dir = work
	s.cmd.Env = []string{"PATH=" + nodeBin + ":/usr/local/bin:/usr/bin:/bin", "HOME=" + home,
		"PI_CODING_AGENT_DIR=" + agent, "PI_OFFLINE=1", "PI_SKIP_VERSION_CHECK=1", "TERM=dumb"}
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := s.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	s.stdin = stdin
	s.cmd.Stderr = writerFunc(func(b []byte) { s.note("stderr: " + string(b)) })
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			line := sc.Text()
			if strings.Contains(line, `"message_update"`) || strings.Contains(line, `"tool_execution_update"`) {
				continue
			}
			s.note(line)
			var ev map[string]any
			if json.Unmarshal([]byte(line), &ev) == nil {
				s.events <- ev
			}
		}
		s.cmd.Wait()
		close(s.exited)
	}()
	go s.answer()
	return s, nil
}

type writerFunc func([]byte)

func (f writerFunc) Write(b []byte) (int, error) { f(b); return len(b), nil }

func (s *session) note(line string) {
	if len(line) > 400 {
		line = line[:400] + "…"
	}
	s.mu.Lock()
	s.log = append(s.log, line)
	if len(s.log) > 60 {
		s.log = s.log[len(s.log)-60:]
	}
	s.mu.Unlock()
}

func (s *session) tail() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return "pi's last output:\n" + strings.Join(s.log, "\n")
}

// stop closes Pi's input, as a user quitting does, and waits for it; a Pi
// that does not go is killed.
func (s *session) stop() {
	s.once.Do(func() {
		if c, ok := s.stdin.(interface{ Close() error }); ok {
			c.Close()
		}
		select {
		case <-s.exited:
		case <-time.After(30 * time.Second):
			syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
			<-s.exited
		}
		s.model.Close()
	})
}

// answer gives each model request the script's next reply, with usage
// made from the request's size: prompt tokens about a quarter of its bytes,
// the previous prompt read from cache.
func (s *session) answer() {
	prevPrompt := 0
	for n := 1; s.model.WaitRequests(n, s.exited); n++ {
		req := s.model.Requests()[n-1]
		s.mu.Lock()
		var r scriptedmodel.Reply
		if len(s.replies) > 0 {
			r, s.replies = s.replies[0], s.replies[1:]
		} else {
			r = scriptedmodel.Reply{Text: s.summary}
		}
		s.nreq = n
		s.mu.Unlock()
		prompt := len(req.Body) / 4
		out := (len(r.Text) + len(r.Reasoning)) / 4
		for _, c := range r.ToolCalls {
			out += (len(c.Name) + len(c.Args)) / 4
		}
		r.Usage = scriptedmodel.Usage{Prompt: prompt, Completion: out + 3, Cached: min(prevPrompt, prompt) / 128 * 128}
		prevPrompt = prompt
		s.model.Queue(r)
	}
}

// send writes one RPC command and waits for its response.
func (s *session) send(cmd map[string]any) error {
	id := fmt.Sprintf("r%d", time.Now().UnixNano())
	cmd["id"] = id
	data, _ := json.Marshal(cmd)
	if _, err := s.stdin.Write(append(data, '\n')); err != nil {
		return err
	}
	ev, err := s.wait(func(ev map[string]any) bool { return ev["type"] == "response" && ev["id"] == id })
	if err != nil {
		return fmt.Errorf("%v: %w", cmd["type"], err)
	}
	if ev["success"] != true {
		return fmt.Errorf("%v failed: %v", cmd["type"], ev["error"])
	}
	return nil
}

func (s *session) wait(match func(map[string]any) bool) (map[string]any, error) {
	deadline := time.After(2 * time.Minute)
	for {
		select {
		case ev := <-s.events:
			if match(ev) {
				return ev, nil
			}
		case <-s.exited:
			return nil, errors.New("pi exited")
		case <-deadline:
			return nil, errors.New("no answer in 2 minutes")
		}
	}
}

// prompt sends one user prompt with the replies its turn gets, and waits
// until the agent has used them all and ended its run.
func (s *session) prompt(text string, replies ...scriptedmodel.Reply) error {
	s.mu.Lock()
	s.replies = append(s.replies, replies...)
	before := s.nreq
	s.mu.Unlock()
	if err := s.send(map[string]any{"type": "prompt", "message": text}); err != nil {
		return err
	}
	if _, err := s.wait(func(ev map[string]any) bool { return ev["type"] == "agent_end" }); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if left, asked := len(s.replies), s.nreq-before; left != 0 || asked != len(replies) {
		return fmt.Errorf("prompt %.40q: pi asked %d times for %d replies", text, asked, len(replies))
	}
	return nil
}

func (s *session) compact(summary string) error {
	s.mu.Lock()
	s.summary = summary
	s.mu.Unlock()
	return s.send(map[string]any{"type": "compact"})
}

func call(id, name string, args map[string]any) scriptedmodel.ToolCall {
	data, _ := json.Marshal(args)
	return scriptedmodel.ToolCall{ID: id, Name: name, Args: string(data)}
}

func calls(c ...scriptedmodel.ToolCall) scriptedmodel.Reply {
	return scriptedmodel.Reply{ToolCalls: c}
}

// script is the session: every kind of tool call, a session name, a model
// and thinking change, a compaction; with long, then day after day of long
// entries until the file is longSize.
func (s *session) script(long bool) error {
	steps := []func() error{
		func() error { return s.send(map[string]any{"type": "set_auto_compaction", "enabled": false}) },
		func() error {
			return s.prompt("Tidy the garden notes and start a plan for spring and summer.",
				calls(call("call_a1", "read", map[string]any{"path": "notes.md"})),
				calls(call("call_a2", "edit", map[string]any{"path": "notes.md",
					"edits": []any{map[string]any{"oldText": "tomatos", "newText": "tomatoes"}}})),
				calls(call("call_a3", "write", map[string]any{"path": "plan/spring.md", "content": "# Spring\n\nSow peas and radishes in March.\nPlant potatoes at Easter.\n"}),
					call("call_a4", "write", map[string]any{"path": "plan/summer.md", "content": "# Summer\n\nWater the tomatoes every evening.\n"})),
				calls(call("call_a5", "bash", map[string]any{"command": "ls plan && wc -l notes.md"})),
				scriptedmodel.Reply{Text: "The notes are tidy and the spring and summer plans are started."})
		},
		func() error { return s.send(map[string]any{"type": "set_session_name", "name": "Garden planning"}) },
		func() error {
			return s.send(map[string]any{"type": "set_model", "provider": "scripted", "modelId": "mock-reasoner"})
		},
		func() error { return s.send(map[string]any{"type": "set_thinking_level", "level": "high"}) },
		func() error {
			return s.prompt("Check the plans against the notes and fix what is wrong.",
				scriptedmodel.Reply{Reasoning: "The spring plan should mention seedlings; read it first.",
					ToolCalls: []scriptedmodel.ToolCall{call("call_b1", "read", map[string]any{"path": "plan/spring.md", "offset": 2, "limit": 5})}},
				scriptedmodel.Reply{Reasoning: "Replace the line about potatoes.",
					ToolCalls: []scriptedmodel.ToolCall{call("call_b2", "edit", map[string]any{"path": "plan/spring.md", "oldText": "Plant onions at Easter.", "newText": "Plant onions in April."})}},
				calls(call("call_b3", "bash", map[string]any{"command": "grep -c seedlings plan/spring.md plan/summer.md; exit 3"})),
				calls(call("call_b4", "edit", map[string]any{"path": "plan/spring.md", "oldText": "Sow peas", "newText": "Sow seedlings of peas"})),
				calls(call("call_b5", "write", map[string]any{"path": "notes.md", "content": "# Garden notes\n\n- tomatoes by the south fence\n- beans climb the trellis\n- mulch the beds in May\n- seedlings go out after the last frost\n"})),
				scriptedmodel.Reply{Reasoning: "Both plans now agree with the notes.", Text: "Fixed: the spring plan names the seedlings, and the notes say when they go out."})
		},
		func() error {
			return s.compact("The user keeps garden notes in notes.md and seasonal plans in plan/. Spring and summer plans exist; the notes were corrected.")
		},
		func() error { return s.send(map[string]any{"type": "set_thinking_level", "level": "low"}) },
		func() error {
			return s.prompt("Add an autumn plan and show me its first lines.",
				calls(call("call_c1", "write", map[string]any{"path": "plan/autumn.md", "content": "# Autumn\n\nLift the potatoes.\nSow green manure on the empty beds.\n"}),
					call("call_c2", "read", map[string]any{"path": "plan/summer.md"})),
				calls(call("call_c3", "bash", map[string]any{"command": "head -n 3 plan/autumn.md"})),
				scriptedmodel.Reply{Reasoning: "Short answer.", Text: "The autumn plan is in plan/autumn.md."})
		},
		func() error {
			return s.send(map[string]any{"type": "set_model", "provider": "scripted", "modelId": "mock-model"})
		},
		func() error {
			return s.prompt("Clear out last year's plan and write an index.",
				calls(call("call_d1", "read", map[string]any{"path": "plan/old.md"})),
				calls(call("call_d2", "bash", map[string]any{"command": "rm -f plan/old.md && ls plan"})),
				calls(call("call_d3", "write", map[string]any{"path": "plan/README.md", "content": "Plans: spring.md, summer.md, autumn.md.\n"})),
				scriptedmodel.Reply{Text: "Last year's plan is gone; plan/README.md lists the three seasons."})
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	if !long {
		return nil
	}
	return s.days()
}

// days appends a journal day per prompt: a long entry written, read back,
// and a long answer; every 25 days a compaction, every 40 a model switch,
// every 30 a thinking change. It stops when the session file is longSize.
func (s *session) days() error {
	levels := []string{"medium", "high", "minimal", "low"}
	models := []string{"mock-reasoner", "mock-model"}
	for day := 1; ; day++ {
		path := fmt.Sprintf("journal/day-%03d.md", day)
		entry := s.prose(2000)
		answer := scriptedmodel.Reply{Text: s.prose(3000)}
		if day%2 == 0 {
			answer.Reasoning = s.prose(600)
		}
		err := s.prompt(fmt.Sprintf("Day %d: write today's journal entry, then read it back to me.", day),
			calls(call(fmt.Sprintf("call_w%03d", day), "write", map[string]any{"path": path, "content": entry})),
			calls(call(fmt.Sprintf("call_r%03d", day), "read", map[string]any{"path": path})),
			answer)
		if err != nil {
			return err
		}
		switch {
		case day%25 == 0:
			err = s.compact(fmt.Sprintf("Journal days 1 to %d are written in journal/. %s", day, s.prose(400)))
		case day%40 == 0:
			err = s.send(map[string]any{"type": "set_model", "provider": "scripted", "modelId": models[day/40%2]})
		case day%30 == 0:
			err = s.send(map[string]any{"type": "set_thinking_level", "level": levels[day/30%len(levels)]})
		}
		if err != nil {
			return err
		}
		files, _ := filepath.Glob(filepath.Join(filepath.Dir(s.work), "agent", "sessions", "*", "*.jsonl"))
		if len(files) == 1 {
			if fi, err := os.Stat(files[0]); err == nil && fi.Size() >= longSize {
				return nil
			}
		}
	}
}

// words are the long entries' vocabulary: the project's own, about the
// garden the session plans.
var words = strings.Fields(`the a and of in on by with after before under over beds rows seedlings peas beans
tomatoes potatoes onions garlic leeks carrots radishes lettuce squash marrows mulch compost water frost sun rain
wind fence trellis shed path barrow spade fork hoe netting slugs snails birds bees soil roots leaves flowers
fruit harvest sow plant thin weed prune stake tie lift store dry cure turn feed morning evening week today
yesterday early late warm cold wet dry bright grey quiet busy careful slow quick tidy`)

// prose is about n bytes of sentences from words.
func (s *session) prose(n int) string {
	var b strings.Builder
	for b.Len() < n {
		k := 6 + s.rng.IntN(10)
		for i := 0; i < k; i++ {
			w := words[s.rng.IntN(len(words))]
			if i == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			} else {
				b.WriteByte(' ')
			}
			b.WriteString(w)
		}
		b.WriteString(". ")
		if s.rng.IntN(6) == 0 {
			b.WriteString("\n\n")
		}
	}
	return strings.TrimSpace(b.String())
}
