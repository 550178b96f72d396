package transcript

import (
	"errors"
	"hash/fnv"
	"os"
	"syscall"

	"jig/status"
)

// FilePos is where an incremental reader of an agent's JSONL file (as
// claude/transcript's and codex/rollout's) stands: the file's identity, how far it has
// read, and a hash of the bytes just before that, so a file replaced or
// rewritten before the cursor is noticed. A hash, never the bytes: a cursor
// holds no values. The readers save it in their cursors as it is.
type FilePos struct {
	Dev      uint64 `json:"dev"`
	Ino      uint64 `json:"ino"`
	Offset   int64  `json:"offset"`
	TailHash uint64 `json:"tailHash"` // of the TailLen bytes before Offset
	TailLen  int    `json:"tailLen"`
}

// posTail is how many bytes before a FilePos's offset must not change.
const posTail = 64

// OpenFollowed opens a file a FilePos follows: without blocking (a fifo
// planted there cannot hang a hook) and only when it is a regular file;
// its size and identity.
func OpenFollowed(path string) (f *os.File, size int64, dev, ino uint64, err error) {
	f, fi, err := status.OpenFile(path, status.FollowLinks, status.AnySize)
	if errors.Is(err, status.ErrNotRegular) {
		return nil, 0, 0, 0, status.FileError(path, err)
	}
	if err != nil {
		return nil, 0, 0, 0, err
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		dev, ino = uint64(st.Dev), uint64(st.Ino)
	}
	return f, fi.Size(), dev, ino, nil
}

// Same reports whether f, of that identity and size, is still the file
// read up to p.Offset: not shorter and the bytes before it unchanged.
func (p FilePos) Same(f *os.File, dev, ino uint64, size int64) bool {
	if dev != p.Dev || ino != p.Ino || size < p.Offset {
		return false
	}
	got := make([]byte, p.TailLen)
	_, err := f.ReadAt(got, p.Offset-int64(len(got)))
	return err == nil && hashOf(got) == p.TailHash
}

// HashTail hashes the bytes of f before p.Offset, after a read moved it.
func (p *FilePos) HashTail(f *os.File) error {
	p.TailLen = int(min(p.Offset, posTail))
	tail := make([]byte, p.TailLen)
	if _, err := f.ReadAt(tail, p.Offset-int64(p.TailLen)); err != nil {
		return err
	}
	p.TailHash = hashOf(tail)
	return nil
}

// Valid reports whether a FilePos from a saved cursor is one HashTail can
// have made.
func (p FilePos) Valid() bool {
	return p.Offset >= 0 && p.TailLen >= 0 && p.TailLen <= posTail && int64(p.TailLen) <= p.Offset &&
		(p.Offset == 0 || p.TailLen > 0)
}

// hashOf is FNV-1a of b: enough to notice a file rewritten before the
// cursor, and nothing of its content kept.
func hashOf(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}
