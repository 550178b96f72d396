package board

import (
	"context"
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
