package board

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAListingOverTheCapSaysSo: a host that prints more than a session list
// holds is down for that reason, not for ssh's exit status 141.
func TestAListingOverTheCapSaysSo(t *testing.T) {
	was := maxListing
	maxListing = 1 << 20
	t.Cleanup(func() { maxListing = was })
	script := filepath.Join(t.TempDir(), "ssh")
	os.WriteFile(script, []byte("#!/bin/sh\nyes '[{\"session\":\"s\"}]'\n"), 0o755)
	_, err := SSH{Command: script}.Remote(context.Background(), "devbox")
	if err == nil || !strings.Contains(err.Error(), "more than 1 MiB, more than a session list holds") {
		t.Errorf("err %v", err)
	}
}

// TestOnlyARefusedCommandLineIsAskedAgain: a host that fails otherwise
// (jig there missing, its state dir unsafe) is down for its own reason,
// asked once; one whose jig refuses the command line is asked plainly.
func TestOnlyARefusedCommandLineIsAskedAgain(t *testing.T) {
	dir := t.TempDir()
	script, log := filepath.Join(dir, "ssh"), filepath.Join(dir, "asked")
	for code, want := range map[int]int{127: 1, 3: 1, 2: 2} {
		os.Remove(log)
		os.WriteFile(script, []byte(fmt.Sprintf("#!/bin/sh\necho \"$3\" >> %s\necho 'jig: no' >&2\nexit %d\n", log, code)), 0o755)
		rows, plain, err := SSH{Command: script}.remote(context.Background(), "devbox", true)
		data, _ := os.ReadFile(log)
		if n := strings.Count(string(data), "\n"); n != want || rows != nil || err == nil || err.Error() != "jig: no" || plain != (code == 2) {
			t.Errorf("exit %d: asked %d times (%q), rows %v, plain %v, err %v", code, n, data, rows, plain, err)
		}
	}
}
