//go:build unix

package status

import (
	"io/fs"
	"os"
	"sync"
	"syscall"
)

// myUID is this process's user, asked of the system once: a hook checks a
// dozen folders and files against it.
var myUID = sync.OnceValue(os.Getuid)

func ownerOf(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
