package serve

import (
	"context"
	"os"
	"sync"
	"time"

	"jig/serve/conversation"
)

// trees reads a tree conversation's leaves one file at a time and keeps
// the last answer of each file while the file stays as it was: reading
// the tree reads the whole file, and every page that opens asks for it.
type trees struct {
	one  chan struct{} // one read at a time
	mu   sync.Mutex
	last map[string]treeRead
}

type treeRead struct {
	size   int64
	mod    time.Time
	leaves []conversation.Leaf
}

const maxTrees = 32 // files whose leaves are kept

func newTrees() *trees { return &trees{one: make(chan struct{}, 1), last: map[string]treeRead{}} }

// leaves is path's leaves, read again only when its size or time changed;
// it gives up when ctx ends (the page went away) while another read runs.
func (t *trees) leaves(ctx context.Context, tree conversation.Tree, path string) ([]conversation.Leaf, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	r, ok := t.last[path]
	t.mu.Unlock()
	if ok && r.size == fi.Size() && r.mod.Equal(fi.ModTime()) {
		return r.leaves, nil
	}
	select {
	case t.one <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-t.one }()
	leaves, err := tree.Leaves(path)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	if len(t.last) >= maxTrees {
		clear(t.last)
	}
	t.last[path] = treeRead{size: fi.Size(), mod: fi.ModTime(), leaves: leaves}
	t.mu.Unlock()
	return leaves, nil
}
