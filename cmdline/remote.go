package cmdline

import (
	"encoding/hex"
	"errors"
	"strings"
)

// RemoteArgs is the flag of the one form in which jig takes its arguments
// as data: `jig --args-hex HEX`, HEX the arguments' bytes, each ended by a
// NUL. A command line sent over ssh is run by the remote user's login
// shell, and no quoting is read alike by sh, bash, zsh and fish; hex
// digits are.
const RemoteArgs = "--args-hex"

// plainChars are the characters every shell takes literally in a word.
const plainChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:,+@"

// RemoteCommand is the command line that runs jig with args on another
// machine, whatever its login shell: the words as they are when each is
// plain (what an older jig there understands too), else the hex form.
func RemoteCommand(args ...string) string {
	plain := true
	for _, a := range args {
		plain = plain && a != "" && strings.Trim(a, plainChars) == ""
	}
	if plain {
		return strings.Join(append([]string{"jig"}, args...), " ")
	}
	var b []byte
	for _, a := range args {
		b = append(append(b, a...), 0)
	}
	return "jig " + RemoteArgs + " " + hex.EncodeToString(b)
}

// FromRemote is the command line args as jig is to read it: the arguments
// the hex form holds, or args as they are.
func FromRemote(args []string) ([]string, error) {
	if len(args) < 2 || args[1] != RemoteArgs {
		return args, nil
	}
	if len(args) != 3 {
		return nil, errors.New(RemoteArgs + ": want one argument, the hex of the arguments")
	}
	b, err := hex.DecodeString(args[2])
	if err != nil || len(b) > 0 && b[len(b)-1] != 0 {
		return nil, errors.New(RemoteArgs + ": not hex of NUL-ended arguments")
	}
	out := []string{args[0]}
	for len(b) > 0 {
		i := strings.IndexByte(string(b), 0)
		out, b = append(out, string(b[:i])), b[i+1:]
	}
	return out, nil
}
