package status

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"sort"
)

// List is the heads of the state dir's sessions, newest first: the live
// ones, or with all every one (ended ones wait for gc). A file that cannot
// be read is skipped and given to warn (nil: skipped quietly). What the
// order needs is read of each file, whatever it holds.
func (d *Dir) List(all bool, live Liveness, warn func(error)) ([]*Head, error) {
	live = live.Memo()
	var heads []*Head
	err := d.EachHead(true, func(h *Head, err error) error {
		switch {
		case err != nil && warn != nil:
			warn(err)
		case err == nil && (all || live.Alive(h.Status())):
			heads = append(heads, h)
		}
		return nil
	})
	sort.Slice(heads, func(i, j int) bool {
		if a, b := heads[i].UpdatedAt, heads[j].UpdatedAt; !a.Equal(b) {
			return a.After(b)
		}
		return heads[i].Name < heads[j].Name // the folder's order is no order
	})
	return heads, err
}

// WriteArray writes the files of heads as one JSON array, each as written
// (or as shape makes it of those bytes, when given), one at a time: its
// bytes are passed through, never decoded whole. A file gone since the
// listing is left out; one that cannot be read is too, and given to warn.
func (d *Dir) WriteArray(out io.Writer, heads []*Head, warn func(error), shape func(data []byte) []byte) error {
	w := bufio.NewWriterSize(out, 64<<10)
	w.WriteString("[")
	n := 0
	var buf []byte // one file's bytes at a time, the buffer reused
	for _, h := range heads {
		data, err := d.ReadRaw(h.Name, buf)
		buf = data
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			warn(err)
			continue
		}
		if shape != nil {
			data = shape(data)
		}
		if n > 0 {
			w.WriteString(",")
		}
		w.WriteString("\n")
		w.Write(bytes.TrimRight(data, "\n"))
		n++
	}
	if n > 0 {
		w.WriteString("\n")
	}
	w.WriteString("]\n")
	return w.Flush()
}

// ReadHeads reads the status of each head for a table: without outputs,
// recent calls or context detail, which a table shows none of. A file gone
// or spoilt since the listing is left out.
func (d *Dir) ReadHeads(heads []*Head) []*Status {
	var list []*Status
	for _, h := range heads {
		data, err := d.ReadRaw(h.Name, nil)
		if err != nil {
			continue
		}
		s, err := Decode(data)
		if err != nil {
			continue
		}
		s.Outputs, s.Recent, s.ContextDetail = nil, nil, nil
		list = append(list, s)
	}
	return list
}

// LiveIDs are the ids of the live sessions and of their terminals (each
// once), for completion; none when the state dir cannot be read.
func (d *Dir) LiveIDs(live Liveness) (sessions, terminals []string) {
	live = live.Memo()
	seen := map[string]bool{}
	d.EachHead(false, func(h *Head, err error) error {
		if err != nil || !live.Alive(h.Status()) {
			return nil
		}
		sessions = append(sessions, h.Session)
		for _, t := range h.Terminals {
			if !seen[t.ID] {
				seen[t.ID] = true
				terminals = append(terminals, t.ID)
			}
		}
		return nil
	})
	return sessions, terminals
}
