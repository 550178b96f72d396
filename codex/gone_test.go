package codex

import (
	"os"
	"testing"
)

// TestDeletedFileLeavesTheStatus: a file the session created is listed;
// once the session deletes it, the next hook's status lists it no more.
func TestDeletedFileLeavesTheStatus(t *testing.T) {
	w := newHookWorld(t)
	w.hook("UserPromptSubmit")
	if s := w.status(); len(s.Outputs) != 1 || s.Outputs[0].Path != "/work/shop/notes.txt" {
		t.Fatalf("outputs %+v, want notes.txt", s.Outputs)
	}
	f, err := os.OpenFile(w.rollout, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"FileChange","id":"c9","status":"completed","changes":{"/work/shop/notes.txt":{"type":"delete"}}}}}` + "\n")
	f.Close()
	w.hook("PostToolUse", "tool_name", "apply_patch", "tool_use_id", "c9")
	if s := w.status(); len(s.Outputs) != 0 {
		t.Errorf("outputs %+v after the file was deleted", s.Outputs)
	}
}
