package pi_test

import (
	"os"
	"path/filepath"
	"testing"

	"jig/internal/scriptedmodel"
	"jig/status"
)

// The real Pi (both versions) with a stand-in for jig-core that asks the
// person about every bash call and holds it until the test answers: the
// status file says attention permission for bash while the call waits, and
// null once it is answered and done. Then a run that ends on the
// provider's error (Pi set to retry none) waits as attention error, idle,
// until the next prompt starts.
func TestPiAttention(t *testing.T) {
	for _, v := range piVersions {
		t.Run("pi-"+v, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, v)
			answer := filepath.Join(filepath.Dir(w.decider), "answered")
			if err := os.WriteFile(w.decider, []byte(`import { existsSync } from "node:fs";
export default function (pi: any) {
	pi.on("tool_call", async (e: any) => {
		if (e.toolName !== "bash") return;
		pi.events.emit("jig:decision", { toolCallId: e.toolCallId, decision: "ask" });
		while (!existsSync(process.env.JIG_E2E_ANSWER!)) await new Promise((r) => setTimeout(r, 20));
		pi.events.emit("jig:decision", { toolCallId: e.toolCallId, decision: "ask", answer: "allow once" });
	});
}
`), 0o600); err != nil {
				t.Fatal(err)
			}
			p := w.startPi("JIG_E2E_ANSWER=" + answer)
			id := p.sessionID()
			w.waitStatus(id, "the session at start", func(s *status.Status) bool { return s.Model != nil })

			w.model.Queue(toolCall("call_ls", "bash", map[string]any{"command": "ls"}), text("listed"))
			p.call(map[string]any{"type": "prompt", "message": "list the files"})
			_, waiting := w.waitStatus(id, "attention permission for bash", func(s *status.Status) bool { return s.Attention != nil })
			if a := waiting.Attention; a.Kind != status.AttentionPermission || a.Tool != "bash" || a.Since.IsZero() || waiting.State != status.Busy {
				t.Errorf("while the call waits: attention %+v, state %s; want permission for bash, busy", a, waiting.State)
			}
			if err := os.WriteFile(answer, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			p.waitEvent("agent_end", func(ev map[string]any) bool { return ev["type"] == "agent_end" })
			_, done := w.waitStatus(id, "idle, nothing waiting", func(s *status.Status) bool {
				return s.State == status.Idle && len(s.Recent) == 1 && s.Recent[0].Outcome == status.OK
			})
			if done.Attention != nil || done.Recent[0].Decision != "ask" || done.Recent[0].Answer != "allow once" {
				t.Errorf("after the answer: attention %+v, recent %+v", done.Attention, done.Recent[0])
			}

			w.model.Queue(scriptedmodel.Reply{Fail: 500})
			p.prompt("fail now")
			_, failed := w.waitStatus(id, "attention error", func(s *status.Status) bool { return s.Attention != nil })
			if a := failed.Attention; a.Kind != status.AttentionError || a.Tool != "" || failed.State != status.Idle {
				t.Errorf("after the failed run: attention %+v, state %s; want error, idle", a, failed.State)
			}
			w.model.Queue(text("fine again"))
			p.prompt("try again")
			w.waitStatus(id, "no attention after a good run", func(s *status.Status) bool { return s.Attention == nil && s.State == status.Idle })
			p.quit()
		})
	}
}
