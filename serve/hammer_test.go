package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"jig/board"
)

// TestHammerPagesConvergeOnTheBoard: writers change 30 sessions as fast as
// they can while pages follow the event stream and others read the board;
// once the writes stop, every page's rows (its first board read, then each
// event applied) are the last status of every session, in the board's
// order. Under -race this is the hub's concurrency check.
func TestHammerPagesConvergeOnTheBoard(t *testing.T) {
	f := newFixture(t, false)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f.srv.allowed = allowedHosts(ln.Addr().String())
	hs := httptest.NewUnstartedServer(f.srv.Handler())
	hs.Listener.Close()
	hs.Listener = ln
	hs.Start()
	defer hs.Close()
	get := func(ctx context.Context, path string) (*http.Response, error) {
		req, _ := http.NewRequestWithContext(ctx, "GET", hs.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+testToken)
		return http.DefaultClient.Do(req)
	}
	const sessions, writes, pages = 30, 20, 6
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	type view struct {
		mu    sync.Mutex
		rows  map[string]board.Row
		order []string
	}
	views := make([]*view, pages)
	var ready sync.WaitGroup
	for i := range views {
		v := &view{rows: map[string]board.Row{}}
		views[i] = v
		ready.Add(1)
		go func() {
			resp, err := get(ctx, "/api/events")
			if err != nil {
				ready.Done()
				return
			}
			defer resp.Body.Close()
			lines := bufio.NewReader(resp.Body)
			lines.ReadString('\n') // retry:, then the board as a page reads it on open
			var doc struct {
				Rows  []board.Row `json:"rows"`
				Order []string    `json:"order"`
			}
			if b, err := get(ctx, "/api/board"); err == nil {
				json.NewDecoder(b.Body).Decode(&doc)
				b.Body.Close()
			}
			v.mu.Lock()
			for _, r := range doc.Rows {
				v.rows[rowKey(r)] = r
			}
			v.order = doc.Order
			v.mu.Unlock()
			ready.Done()
			for {
				l, err := lines.ReadString('\n')
				if err != nil {
					return
				}
				data, ok := strings.CutPrefix(l, "data: ")
				if !ok {
					continue
				}
				var c change
				if err := json.Unmarshal([]byte(data), &c); err != nil {
					t.Errorf("event %q: %v", data, err)
					return
				}
				v.mu.Lock()
				for _, r := range c.Rows {
					v.rows[rowKey(r)] = r
				}
				for _, k := range c.Gone {
					delete(v.rows, k)
				}
				v.order = c.Order
				v.mu.Unlock()
			}
		}()
	}
	ready.Wait()

	var wg sync.WaitGroup
	for s := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range writes {
				if err := write(f.dir, fmt.Sprintf("h%02d", s), fmt.Sprintf("model %d", n)); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	for range 3 { // readers of the board meanwhile
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if r, err := get(ctx, "/api/board"); err == nil {
					r.Body.Close()
				}
			}
		}()
	}
	wg.Wait()

	want := map[string]string{"h s1": hostile}
	for s := range sessions {
		want[fmt.Sprintf("h h%02d", s)] = fmt.Sprintf("model %d", writes-1)
	}
	deadline := time.Now().Add(20 * time.Second) // a bound on the wait, not a speed
	for i, v := range views {
		for {
			v.mu.Lock()
			ok := len(v.rows) == len(want) && len(v.order) == len(want)
			for k, model := range want {
				if v.rows[k].Model != model {
					ok = false
				}
			}
			got := len(v.rows)
			v.mu.Unlock()
			if ok {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("page %d holds %d rows, not the %d last statuses", i, got, len(want))
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	var doc struct {
		Order []string `json:"order"`
	}
	b, err := get(ctx, "/api/board")
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(b.Body).Decode(&doc)
	b.Body.Close()
	for i, v := range views {
		v.mu.Lock()
		if strings.Join(v.order, ",") != strings.Join(doc.Order, ",") {
			t.Errorf("page %d's order is not the board's", i)
		}
		v.mu.Unlock()
	}
}
