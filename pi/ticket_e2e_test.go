package pi_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"jig/status"
)

// The Jig half of the status file with the real Pi: a configuration, a
// ticket folder, a git work tree on a branch naming the ticket; a note
// written by hand shows without any Pi event; /context groups a second
// extension's tool under its name and counts Jig's own messages apart; a
// tool switched off while a run goes leaves the run's next model request.
func TestPiTicketEndToEnd(t *testing.T) {
	for _, v := range piVersions {
		t.Run("pi-"+v, func(t *testing.T) {
			t.Parallel()
			testTicket(t, v)
		})
	}
}

// shelfExtension is a second extension: a tool of its own, a command that
// adds a Jig custom message, and one that names the ticket on the bus.
const shelfExtension = `export default function (pi: any) {
	pi.registerTool({ name: "shelf", label: "Shelf", description: "Puts a book on the shelf.",
		parameters: { type: "object", properties: {} },
		async execute() { return { content: [{ type: "text", text: "shelved" }], details: {} }; } });
	pi.registerCommand("jig-note", { description: "a Jig message", handler: async () => {
		pi.sendMessage({ customType: "jig-note", content: "Jig remembers: the checkout is fragile. ".repeat(40), display: true });
	} });
	pi.registerCommand("name-ticket", { description: "jig:ticket", handler: async (args: string) => {
		pi.events.emit("jig:ticket", { key: args.trim() });
	} });
}
`

func testTicket(t *testing.T, version string) {
	w := newWorld(t, version)
	root := filepath.Dir(w.work)
	memory := filepath.Join(root, "memory")
	folder := filepath.Join(memory, "SHOP-142")
	config := filepath.Join(root, "jig-config.json")
	files := map[string]string{
		config: `{"memory":{"dir":"memory"},"workflow":{"dir":"workflows"},"jira":{"site":"https://acme.example"}}`,
		filepath.Join(root, "workflows", "feature.json"):      `{"stages":["plan","build","review","ship"]}`,
		filepath.Join(folder, "ticket.json"):                  `{"title":"Fix the checkout"}`,
		filepath.Join(folder, "workflow.json"):                `{"name":"feature","current":"build","since":"2026-05-01T10:00:00Z","prs":[]}`,
		filepath.Join(folder, "notes.md"):                     "notes\n",
		filepath.Join(folder, "evidence", "screen.png"):       "png",
		filepath.Join(folder, "evidence", "tool-bash-c1.txt"): "saved by Jig",
		filepath.Join(folder, "history", "2026-04.md"):        "old",
		filepath.Join(w.work, ".git", "HEAD"):                 "ref: refs/heads/feature/SHOP-142-checkout\n",
		filepath.Join(root, "shelf.ts"):                       shelfExtension,
	}
	for p, c := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	p := w.startPiArgs([]string{"-e", filepath.Join(root, "shelf.ts")}, "JIG_CONFIG="+config)
	id := p.sessionID()

	// Ticket, workflow (stages from its definition) and the folder's user-facing files.
	_, s := w.waitStatus(id, "the ticket", func(s *status.Status) bool { return s.Ticket != nil && s.Workflow != nil })
	if *s.Ticket != (status.Ticket{Key: "SHOP-142", Title: "Fix the checkout", URL: "https://acme.example/browse/SHOP-142", From: "branch"}) {
		t.Errorf("ticket %+v", s.Ticket)
	}
	if wf := s.Workflow; wf.Name != "feature" || strings.Join(wf.Stages, ",") != "plan,build,review,ship" || wf.Current != "build" || wf.Since != "2026-05-01T10:00:00Z" {
		t.Errorf("workflow %+v", wf)
	}
	if got := outputNames(s, folder); got != "evidence/screen.png notes.md" {
		t.Errorf("outputs from the ticket folder: %s, want evidence/screen.png and notes.md only", got)
	}

	// A note written by hand shows within 10 s and a poll, with no Pi event.
	plan := filepath.Join(folder, "plan.md")
	if err := os.WriteFile(plan, []byte("plan\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	w.waitStatus(id, "the new note", func(s *status.Status) bool { return strings.Contains(outputNames(s, folder), "plan.md") })
	if took := time.Since(start); took > 10*time.Second+2*time.Second+time.Second {
		t.Errorf("the new note took %v to show, want at most 10 s and a poll", took)
	}

	// Another extension names the ticket on the bus: it wins; taken back, the branch answers again.
	p.call(map[string]any{"type": "prompt", "message": "/name-ticket OPS-9"})
	w.waitStatus(id, "the ticket of the jig:ticket event", func(s *status.Status) bool {
		return s.Ticket != nil && s.Ticket.Key == "OPS-9" && s.Ticket.URL == "https://acme.example/browse/OPS-9" && s.Workflow == nil
	})
	p.call(map[string]any{"type": "prompt", "message": "/name-ticket"})
	w.waitStatus(id, "the branch's ticket again", func(s *status.Status) bool { return s.Ticket != nil && s.Ticket.Key == "SHOP-142" })

	// /context: the second extension's tool under its name, Jig's message a part of its own,
	// a tool inactive by default apart from one switched off.
	p.call(map[string]any{"type": "prompt", "message": "/jig-note"})
	w.model.Queue(text("noted"))
	p.prompt("look at the note")
	w.waitStatus(id, "jig's messages counted", func(s *status.Status) bool {
		if s.ContextDetail == nil {
			return false
		}
		for _, part := range s.ContextDetail.Parts {
			if part.Name == "jigMessages" && part.Tokens > 200 {
				return true
			}
		}
		return false
	})
	msg := w.contextNotice(p)
	for _, want := range []string{"\n  shelf ", "\n    shelf ", "\n  builtin ", "jigMessages"} {
		if !strings.Contains(msg, want) {
			t.Errorf("/context lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "(off)") || !strings.Contains(msg, "(inactive)") {
		t.Errorf("/context: tools inactive by default must not read as off:\n%s", msg)
	}

	// bash switched off while a run goes: the run's next model request no longer offers it,
	// and a call to it is refused.
	n := len(w.model.Requests())
	w.model.Queue(toolCall("call_mid_read", "read", map[string]any{"path": "AGENTS.md"}))
	p.call(map[string]any{"type": "prompt", "message": "a long run"})
	if !w.model.WaitRequests(n+2, p.exited) {
		t.Fatal("pi never asked the model a second time in the run")
	}
	if !offers(w.model.Requests()[n+1].Tools, "bash") {
		t.Fatalf("bash not offered before the switch: %v", w.model.Requests()[n+1].Tools)
	}
	w.request(id, "tool", "bash", "off")
	_, answered := w.waitStatus(id, "the answer", func(s *status.Status) bool { return s.LastRequest != nil })
	if !answered.LastRequest.OK {
		t.Errorf("mid-run switch: answer %+v", answered.LastRequest)
	}
	w.model.Queue(toolCall("call_mid_bash", "bash", map[string]any{"command": "echo still-here"}))
	if !w.model.WaitRequests(n+3, p.exited) {
		t.Fatal("pi never asked the model a third time in the run")
	}
	third := w.model.Requests()[n+2]
	if offers(third.Tools, "bash") {
		t.Errorf("pi %s: the run's next model request after bash off still offered %v", version, third.Tools)
	}
	if strings.Contains(string(third.Body), "still-here\\n") {
		t.Errorf("pi %s ran bash after it was switched off:\n%.2000s", version, third.Body)
	}
	w.model.Queue(text("done"))
	p.waitEvent("agent_end", func(ev map[string]any) bool { return ev["type"] == "agent_end" })
	w.waitStatus(id, "the refused bash call", func(s *status.Status) bool {
		return len(s.Recent) > 0 && s.Recent[0].Tool == "bash" && s.Recent[0].Outcome == status.Error
	})
	p.quit()
}

// outputNames are the outputs inside folder, relative and sorted.
func outputNames(s *status.Status, folder string) string {
	var names []string
	for _, o := range s.Outputs {
		if rel, err := filepath.Rel(folder, o.Path); err == nil && !strings.HasPrefix(rel, "..") {
			names = append(names, rel)
		}
	}
	slices.Sort(names)
	return strings.Join(names, " ")
}

func offers(tools []string, name string) bool { return slices.Contains(tools, name) }

// contextNotice runs /context and returns what it showed.
func (w *world) contextNotice(p *piProc) string {
	w.t.Helper()
	p.send(map[string]any{"type": "prompt", "message": "/context"})
	ev := p.waitEvent("the /context notice", func(ev map[string]any) bool {
		return ev["type"] == "extension_ui_request" && ev["method"] == "notify"
	})
	msg, _ := ev["message"].(string)
	return msg
}
