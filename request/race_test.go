package request

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

// Writers merge while takers claim, all at once, each through its own file
// descriptors (flock contends between them as between processes). Every
// request sent must be taken exactly once, alone or merged into another, with
// its switch inside.
func TestRaceWritersAndTakers(t *testing.T) {
	const writers, perWriter, takers = 6, 30, 3
	dir := newDir(t)

	type sent struct{ id, tool string }
	sentCh := make(chan sent, writers*perWriter)
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < perWriter; i++ {
				r := New(now)
				tool := fmt.Sprintf("w%d-%d", w, i)
				r.Tools[tool] = true
				if _, err := Send(dir, "s", r); err != nil {
					t.Errorf("Send: %v", err)
					return
				}
				sentCh <- sent{r.ID, tool}
			}
		}()
	}

	var writing atomic.Bool
	writing.Store(true)
	takenCh := make(chan *Request, writers*perWriter)
	var tg sync.WaitGroup
	for k := 0; k < takers; k++ {
		tg.Add(1)
		go func() {
			defer tg.Done()
			for {
				stillWriting := writing.Load() // read before the take, so a last file is not missed
				r, ans, err := Take(dir, "s", now)
				if err != nil || ans != nil {
					t.Errorf("Take = %v, %v", ans, err)
					return
				}
				if r != nil {
					takenCh <- r
					continue
				}
				if !stillWriting {
					return
				}
			}
		}()
	}
	wg.Wait()
	writing.Store(false)
	tg.Wait()
	close(sentCh)
	close(takenCh)

	holder := map[string]*Request{} // request id -> the taken request that carried it
	for r := range takenCh {
		for _, id := range append([]string{r.ID}, r.Covers...) {
			if prev := holder[id]; prev != nil {
				t.Fatalf("request %s taken twice (in %s and %s)", id, prev.ID, r.ID)
			}
			holder[id] = r
		}
	}
	n := 0
	for s := range sentCh {
		n++
		r := holder[s.id]
		if r == nil {
			t.Fatalf("request %s was lost", s.id)
		}
		if !r.Tools[s.tool] {
			t.Fatalf("request %s was taken (in %s) without its switch %s", s.id, r.ID, s.tool)
		}
		delete(holder, s.id)
	}
	if n != writers*perWriter {
		t.Fatalf("%d requests sent, want %d", n, writers*perWriter)
	}
	if len(holder) != 0 {
		t.Fatalf("taken ids nobody sent: %v", holder)
	}
	assertOnlyLock(t, dir)
}
