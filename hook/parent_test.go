package hook

import (
	"os"
	"testing"
)

func TestParent(t *testing.T) {
	// the parent (go test's parent is no shell), or the one above a shell
	if got := Parent(); got != os.Getppid() && got != parentOf(os.Getppid()) {
		t.Errorf("Parent() = %d, parent %d", got, os.Getppid())
	}
	if got := parentOf(os.Getpid()); got != os.Getppid() {
		t.Errorf("parentOf(self) = %d, want %d", got, os.Getppid())
	}
}
