package transcript

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/renameio/v2"
)

// forkVersion is the format of every file Fork writes: Pi's current one
// (CURRENT_SESSION_VERSION is 3 in 0.73.1 and in 1.6.0). Both versions open
// it as it is; an older format would make Pi migrate and rewrite the new
// file on first open, and v1 entry ids would change under the user.
const forkVersion = 3

// ErrSymlinkDir is returned when a symlink stands where the fork's folder
// or file goes: jig follows none there.
var ErrSymlinkDir = errors.New("a symlink stands where the new session goes")

// Forked is the file Fork wrote.
type Forked struct {
	Path    string `json:"path"`
	ID      string `json:"id"`
	Parent  string `json:"parentSession"`
	Entries int    `json:"entries"`
}

// SessionDirName is Pi's folder name for a cwd's sessions: one leading
// separator dropped, every '/', '\' and ':' made '-', between "--" and "--".
func SessionDirName(cwd string) string {
	cwd = strings.TrimPrefix(strings.TrimPrefix(cwd, "/"), `\`)
	return "--" + strings.NewReplacer("/", "-", `\`, "-", ":", "-").Replace(cwd) + "--"
}

// Fork writes a new session file into dir the way Pi's fork writes one: a
// new session id, a v3 header whose parentSession is the source's path,
// and the entries of the branch ending at entry at (none when empty). The
// file appears in one step (temp file, rename); nothing is left behind on
// failure, and the source is only read. cwd is the new header's cwd.
func Fork(src, at string, empty bool, dir, cwd string, now time.Time) (*Forked, error) {
	t, r, err := buildTree(src)
	if err != nil {
		return nil, err
	}
	var on []bool
	if at != "" {
		if on, err = t.branchOf(at); err != nil {
			return nil, err
		}
	}
	if empty {
		on = nil
	}
	abs, err := filepath.Abs(src)
	if err != nil {
		return nil, err
	}
	if err := forkDir(dir); err != nil {
		return nil, err
	}
	id := newSessionID(now)
	ts := now.UTC().Format("2006-01-02T15:04:05.000Z")
	path := filepath.Join(dir, strings.NewReplacer(":", "-", ".", "-").Replace(ts)+"_"+id+".jsonl")
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: already there", path)
	}
	pf, err := renameio.NewPendingFile(path, renameio.WithTempDir(dir), renameio.WithPermissions(0o600), renameio.IgnoreUmask())
	if err != nil {
		return nil, err
	}
	defer pf.Cleanup()
	w := bufio.NewWriterSize(pf, 256<<10)
	head, _ := json.Marshal(struct {
		Type          string `json:"type"`
		Version       int    `json:"version"`
		ID            string `json:"id"`
		Timestamp     string `json:"timestamp"`
		CWD           string `json:"cwd"`
		ParentSession string `json:"parentSession"`
	}{"session", forkVersion, id, ts, cwd, abs})
	w.Write(append(head, '\n'))
	out := &Forked{Path: path, ID: id, Parent: abs}
	if on != nil {
		conv := &converter{version: r.header.Version}
		_, err := readBranch(src, "", on, func(l *line, b []byte, ord int) error {
			line, err := conv.line(l, b, ord)
			if err != nil {
				return err
			}
			out.Entries++
			w.Write(line)
			return w.WriteByte('\n')
		})
		if err != nil {
			return nil, err
		}
	}
	if err := w.Flush(); err != nil {
		return nil, err
	}
	if err := pf.CloseAtomicallyReplace(); err != nil {
		return nil, err
	}
	return out, nil
}

// forkDir makes sure dir is a real folder, creating it (0700) when missing.
func forkDir(dir string) error {
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
		fi, err = os.Lstat(dir)
	}
	switch {
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%w: %s", ErrSymlinkDir, dir)
	case !fi.IsDir():
		return fmt.Errorf("%s: not a directory", dir)
	}
	return nil
}

// newSessionID is a UUIDv7, as Pi's createSessionId makes.
func newSessionID(now time.Time) string {
	var b [16]byte
	rand.Read(b[6:])
	var ms [8]byte
	binary.BigEndian.PutUint64(ms[:], uint64(now.UnixMilli()))
	copy(b[:6], ms[2:])
	b[6] = 0x70 | b[6]&0x0f
	b[8] = 0x80 | b[8]&0x3f
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// converter brings an older file's entries to v3 as Pi's migrations do
// (migrateV1ToV2, migrateV2ToV3); v3 lines are copied as they are.
type converter struct {
	version int
	prev    string // v1: the id of the entry before
}

func (c *converter) line(l *line, b []byte, ord int) ([]byte, error) {
	if c.version >= 3 {
		return b, nil
	}
	role := l.hasMsg && l.message.role == "hookMessage"
	if c.version == 2 && !role {
		return b, nil
	}
	obj, err := orderedObject(b)
	if err != nil {
		return nil, err
	}
	if role {
		for i := range obj {
			if obj[i].key == "message" {
				msg, err := orderedObject(obj[i].val)
				if err != nil {
					return nil, err
				}
				for j := range msg {
					if msg[j].key == "role" {
						msg[j].val = []byte(`"custom"`)
					}
				}
				obj[i].val = msg.encode()
			}
		}
	}
	if c.version < 2 {
		id := v1ID(ord)
		parent := []byte("null")
		if c.prev != "" {
			parent, _ = json.Marshal(c.prev)
		}
		c.prev = id
		idJSON, _ := json.Marshal(id)
		out := object{}
		for _, kv := range obj {
			switch kv.key {
			case "type":
				out = append(object{kv, {"id", idJSON}, {"parentId", parent}}, out...)
			case "id", "parentId":
			case "firstKeptEntryIndex":
				// Pi keeps it only as an id of an entry before (not the header)
				var n float64
				if json.Unmarshal(kv.val, &n) == nil && n >= 1 && n < float64(ord) && n == float64(int(n)) {
					ref, _ := json.Marshal(v1ID(int(n)))
					out = append(out, keyVal{"firstKeptEntryId", ref})
				}
			default:
				out = append(out, kv)
			}
		}
		obj = out
	}
	return obj.encode(), nil
}

type keyVal struct {
	key string
	val json.RawMessage
}

// object is a JSON object with its keys in their order: Pi writes "type"
// first, and readers (jig's session_info scan) rely on it.
type object []keyVal

func orderedObject(b []byte) (object, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("entry is not a JSON object")
	}
	var obj object
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		obj = append(obj, keyVal{tok.(string), v})
	}
	return obj, nil
}

func (o object) encode() []byte {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, kv := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, _ := json.Marshal(kv.key)
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(kv.val)
	}
	buf.WriteByte('}')
	return buf.Bytes()
}
