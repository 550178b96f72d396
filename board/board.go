package board

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"jig/cmdline"
	"jig/render"
	"jig/status"
	"jig/ticket"
)

// Board gathers the rows of this machine and of the remote hosts. A host
// is asked in its own goroutine and never holds up the others: a host that
// has not answered within HostTimeout shows as one row saying so.
type Board struct {
	Dir   *status.Dir // this machine's state dir; nil: no local rows
	Live  status.Liveness
	Host  string // this machine's name
	Hosts []string
	SSH   SSH

	plain sync.Map // the hosts whose jig is older than the slim listing
}

// New is the board of dir's sessions on this machine (host) and of the
// hosts named, else of those configured() names, each asked over ssh. A
// host ssh would read as something else, or a timeout that gives no host
// any time, is a usage error (the flags' words: --host, --host-timeout).
func New(dir *status.Dir, live status.Liveness, host string, hosts []string, configured func() []string, ssh SSH) (*Board, error) {
	if ssh.Timeout <= 0 {
		return nil, cmdline.Usagef("--host-timeout %s: want a time above 0", ssh.Timeout)
	}
	for _, h := range hosts {
		if err := ticket.CheckHost(h); err != nil {
			return nil, cmdline.Usagef("--host %v", err)
		}
	}
	if len(hosts) == 0 {
		hosts = configured()
	}
	return &Board{Dir: dir, Live: live, Host: host, Hosts: hosts, SSH: ssh}, nil
}

// Gather is every row, local first in no order (Sort orders them), with a
// placeholder row for each host that gave none.
func (b *Board) Gather(ctx context.Context) ([]Row, error) {
	remote := make([][]Row, len(b.Hosts))
	var wg sync.WaitGroup
	for i, h := range b.Hosts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			remote[i] = b.HostRows(ctx, h)
		}()
	}
	local, _, err := b.LocalRows()
	wg.Wait()
	for _, rows := range remote {
		local = append(local, rows...)
	}
	Sort(local)
	return local, err
}

// Print gathers the rows once and prints them: as JSON through out (so
// --jq filters them), or as a table width cells wide (0: no limit).
func (b *Board) Print(ctx context.Context, w io.Writer, out *render.Printer, asJSON bool, width int, now time.Time) error {
	rows, err := b.Gather(ctx)
	if err != nil {
		return err
	}
	if asJSON {
		if rows == nil {
			rows = []Row{} // [], not null
		}
		data, err := json.Marshal(rows)
		if err != nil {
			return err
		}
		return out.Doc(w, data)
	}
	for _, line := range Lines(rows, width, now) {
		fmt.Fprintln(w, line)
	}
	return nil
}

// LocalRows is this machine's live sessions, and their heads.
func (b *Board) LocalRows() ([]Row, []*status.Head, error) {
	if b.Dir == nil {
		return nil, nil, nil
	}
	return Local(b.Dir, b.Live.Memo(), b.Host)
}

// HostRows is one remote host's rows, or its placeholder row.
func (b *Board) HostRows(ctx context.Context, host string) []Row {
	_, old := b.plain.Load(host)
	rows, plain, err := b.SSH.remote(ctx, host, !old)
	if plain && !old {
		b.plain.Store(host, true) // asked plainly from now on
	}
	if err != nil {
		return []Row{Down(host, err)}
	}
	return rows
}

// Find is the row of session id, else of the one session whose id starts
// with it.
func Find(rows []Row, id string) (Row, error) {
	var found []Row
	for _, r := range rows {
		if r.Err != "" {
			continue
		}
		if r.Session == id {
			return r, nil
		}
		if strings.HasPrefix(r.Session, id) {
			found = append(found, r)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return Row{}, fmt.Errorf("%s: no live session has that id", id)
	}
	return Row{}, fmt.Errorf("%s: %d sessions start with it; give more of the id", id, len(found))
}
