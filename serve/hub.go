package serve

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"jig/board"
	"jig/status"
	"jig/transcript"
)

// How the hub learns of changes: this machine's files by their inotify
// events (status.WatchAll), a remote host by asking it again after each
// answer, as `jig board` does. Changes that come together go out as one
// event after coalesce.
var (
	hostRepeat = 2 * time.Second
	coalesce   = 15 * time.Millisecond
	heartbeat  = 30 * time.Second // a comment on the stream, so proxies keep it open
)

// hub holds every row in memory and tells each connected page what
// changed: the rows themselves, the rows gone, and the new order.
type hub struct {
	b       *board.Board
	ready   chan struct{}
	kick    chan struct{}
	mu      sync.Mutex
	local   map[string]board.Row   // this machine's, by session id
	remote  map[string][]board.Row // by host
	changed map[string]bool        // keys changed since the last event
	gone    map[string]bool
	clients map[chan []byte]bool
	doc     []byte // the board's rows as the page reads them, nil once a row changed
}

func newHub(b *board.Board) *hub {
	return &hub{b: b, ready: make(chan struct{}), kick: make(chan struct{}, 1), local: map[string]board.Row{},
		remote: map[string][]board.Row{}, changed: map[string]bool{}, gone: map[string]bool{}, clients: map[chan []byte]bool{}}
}

// rowKey names a row across hosts.
func rowKey(r board.Row) string { return r.Host + " " + r.Session }

// run fills the hub and keeps it filled until ctx ends.
func (h *hub) run(ctx context.Context) {
	if h.b.Dir != nil {
		rows, _, _ := h.b.LocalRows()
		h.mu.Lock()
		for _, r := range rows {
			h.local[r.Session] = r
		}
		h.mu.Unlock()
		go h.watchLocal(ctx)
	}
	for _, host := range h.b.Hosts {
		go h.pollHost(ctx, host)
	}
	close(h.ready)
	h.broadcast(ctx)
}

// watchLocal follows this machine's status files.
func (h *hub) watchLocal(ctx context.Context) {
	repos := transcript.NewRepoFinder() // WatchAll calls back from one goroutine
	seen := func(s *status.Status, _ bool) error {
		r, err := board.LocalRow(s.Raw(), h.b.Host, repos)
		if err != nil {
			return nil
		}
		h.mu.Lock()
		h.local[r.Session] = r
		h.changed[rowKey(r)] = true
		h.mu.Unlock()
		h.poke()
		return nil
	}
	ended := func(session string) error {
		h.mu.Lock()
		if r, ok := h.local[session]; ok {
			delete(h.local, session)
			h.gone[rowKey(r)] = true
		}
		h.mu.Unlock()
		h.poke()
		return nil
	}
	for ctx.Err() == nil {
		if h.b.Dir.WatchAll(ctx, h.b.Live, seen, ended) == nil {
			return
		}
		select { // an unreadable state dir: try again, as a person would
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

// pollHost asks host for its rows again and again, one question at a time.
func (h *hub) pollHost(ctx context.Context, host string) {
	for {
		rows := h.b.HostRows(ctx, host)
		h.mu.Lock()
		old := h.remote[host]
		h.remote[host] = rows
		keep := map[string]bool{}
		for _, r := range rows {
			k := rowKey(r)
			keep[k] = true
			if i := slices.IndexFunc(old, func(o board.Row) bool { return rowKey(o) == k }); i < 0 || !sameRow(old[i], r) {
				h.changed[k] = true
			}
		}
		for _, o := range old {
			if k := rowKey(o); !keep[k] {
				h.gone[k] = true
			}
		}
		h.mu.Unlock()
		h.poke()
		select {
		case <-ctx.Done():
			return
		case <-time.After(hostRepeat):
		}
	}
}

func sameRow(a, b board.Row) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func (h *hub) poke() {
	h.mu.Lock()
	h.doc = nil
	h.mu.Unlock()
	select {
	case h.kick <- struct{}{}:
	default:
	}
}

// document is every row in the board's order, and the order, as JSON:
// encoded once for every page that asks until a row changes.
func (h *hub) document() ([]byte, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.doc != nil {
		return h.doc, nil
	}
	rows := h.sorted()
	order := make([]string, len(rows))
	for i, row := range rows {
		order[i] = rowKey(row)
	}
	data, err := cleanJSON(map[string]any{"rows": rows, "order": order, "host": h.b.Host})
	if err != nil {
		return nil, err
	}
	h.doc = append(data, '\n')
	return h.doc, nil
}

func (h *hub) sorted() []board.Row {
	out := make([]board.Row, 0, len(h.local))
	for _, r := range h.local {
		out = append(out, r)
	}
	for _, host := range h.b.Hosts {
		out = append(out, h.remote[host]...)
	}
	board.Sort(out)
	return out
}

// row is the row of session id on host.
func (h *hub) row(host, id string) (board.Row, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r, ok := h.local[id]; ok && r.Host == host {
		return r, true
	}
	for _, r := range h.remote[host] {
		if r.Session == id && r.Err == "" {
			return r, true
		}
	}
	return board.Row{}, false
}

// change is one event: the rows that changed, the keys gone, the order.
type change struct {
	Rows  []board.Row `json:"rows"`
	Gone  []string    `json:"gone"`
	Order []string    `json:"order"`
}

// broadcast sends each change to every page, coalescing what comes close
// together.
func (h *hub) broadcast(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-h.kick:
		}
		time.Sleep(coalesce)
		h.mu.Lock()
		all := h.sorted()
		c := change{Rows: []board.Row{}, Gone: []string{}, Order: make([]string, 0, len(all))}
		for _, r := range all {
			k := rowKey(r)
			c.Order = append(c.Order, k)
			if h.changed[k] {
				c.Rows = append(c.Rows, r)
			}
		}
		for k := range h.gone {
			if !slices.Contains(c.Order, k) {
				c.Gone = append(c.Gone, k)
			}
		}
		clear(h.changed)
		clear(h.gone)
		clients := make([]chan []byte, 0, len(h.clients))
		for ch := range h.clients {
			clients = append(clients, ch)
		}
		h.mu.Unlock()
		data, err := cleanJSON(c)
		if err != nil {
			continue
		}
		for _, ch := range clients {
			select {
			case ch <- data:
			default: // a page that does not keep up reconnects and reads the board again
				h.drop(ch)
			}
		}
	}
}

func (h *hub) join() chan []byte {
	ch := make(chan []byte, 64)
	h.mu.Lock()
	h.clients[ch] = true
	h.mu.Unlock()
	return ch
}

func (h *hub) drop(ch chan []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.clients[ch] {
		delete(h.clients, ch)
		close(ch)
	}
}
