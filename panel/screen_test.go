//go:build linux || darwin

package panel

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Run draws at the start and at each change it is told of, never on its
// own, and gives the screen back when its context ends.
func TestRunDrawsOnChange(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var draws atomic.Int32
	changed := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Terminal{Out: w}, changed, func(width, height int) []string {
			if width != 80 || height != 24 {
				t.Errorf("size %d×%d, want 80×24 for a pipe", width, height)
			}
			return []string{fmt.Sprintf("draw %d", draws.Add(1)), strings.Repeat("x", 100)}
		}, func(Key) bool { return true })
		w.Close()
	}()
	out := make(chan string, 100)
	go func() {
		br := bufio.NewReader(r)
		for {
			s, err := br.ReadString('J') // each frame ends clearing below
			if err != nil {
				out <- s
				close(out)
				return
			}
			out <- s
		}
	}()
	frame := func(what string) string {
		t.Helper()
		select {
		case f := <-out:
			return f
		case <-time.After(10 * time.Second):
			t.Fatalf("no frame for %s within 10s", what)
		}
		return ""
	}
	if f := frame("the start"); !strings.Contains(f, "draw 1") || !strings.Contains(f, strings.Repeat("x", 79)+"…") {
		t.Fatalf("first frame %q, want draw 1 and a line cut to 80 cells", f)
	}
	select {
	case f := <-out:
		t.Fatalf("a frame %q without a change", f)
	case <-time.After(300 * time.Millisecond):
	}
	changed <- struct{}{}
	if f := frame("a change"); !strings.Contains(f, "draw 2") {
		t.Fatalf("frame %q, want draw 2", f)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	rest := ""
	for s := range out {
		rest += s
	}
	if n := draws.Load(); n != 2 {
		t.Errorf("%d draws, want 2", n)
	}
	if !strings.HasSuffix(rest, leaveScreen) {
		t.Errorf("the end %q, want the screen given back", rest)
	}
}
