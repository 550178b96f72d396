package board

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"jig/cmdline"
	"jig/status"
	"jig/ticket"
	"jig/transcript"
)

// HostTimeout is how long a remote host may take to list its sessions
// before the board shows it as slow and goes on without it.
const HostTimeout = 2 * time.Second

// maxListing bounds what a remote host may print: far more than any real
// listing, far less than the machine.
var maxListing = 64 << 20

// Local is the live sessions of this machine's state dir, and their heads
// (for checking, later, that their processes still run). Each file is read
// once, and read and decoded by a worker a core: decoding is most of a
// refresh's cost. A file that cannot be read is not a row.
func Local(dir *status.Dir, live status.Liveness, host string) ([]Row, []*status.Head, error) {
	var mu sync.Mutex
	var rows []Row
	var heads []*status.Head
	err := dir.EachFile(false, live, func() func(*status.Head, []byte) {
		repos := transcript.NewRepoFinder() // its caches are the worker's own
		branches := map[string]string{}
		return func(h *status.Head, data []byte) {
			r, err := LocalRow(data, host, repos)
			if err != nil {
				return
			}
			r.Branch = branchOf(r.cwd, repos, branches)
			mu.Lock()
			rows, heads = append(rows, r), append(heads, h)
			mu.Unlock()
		}
	})
	if err != nil {
		return nil, nil, err
	}
	return rows, heads, nil
}

// LocalRow is the row of one of this machine's status files; repos names
// the git work trees of its folders (a finder is not safe for concurrent
// use: one per goroutine).
func LocalRow(data []byte, host string, repos *transcript.RepoFinder) (Row, error) {
	r, err := rowOf(data, func(d string) string {
		if r := repos.Repo(d + "/."); r != nil {
			return *r
		}
		return ""
	})
	if err != nil {
		return Row{}, err
	}
	r.Local = true
	if r.Host == "" {
		r.Host = host
	}
	return r, nil
}

// branchOf is the branch checked out in the work tree holding folder d,
// "" when none; branches caches it by work tree for a worker's rows.
func branchOf(d string, repos *transcript.RepoFinder, branches map[string]string) string {
	r := repos.Repo(d + "/.")
	if r == nil {
		return ""
	}
	b, ok := branches[*r]
	if !ok {
		head, _ := ticket.ReadHead(*r)
		b = head.Branch
		branches[*r] = b
	}
	return b
}

// SSH runs jig on other machines: Command is the ssh command as the user
// gave it (${JIG_SSH:-ssh}, a shell word list such as `ssh -F cfg`, as git
// reads GIT_SSH_COMMAND).
type SSH struct {
	Command string
	Timeout time.Duration // 0: HostTimeout
}

// Run runs jig with args on host and returns what it printed. Nothing but
// jig runs there, and its arguments arrive as the same words whatever the
// remote login shell (cmdline.RemoteCommand). A program the ssh command
// leaves behind holding its output does not hold the board: once ssh has
// ended, or the time is up, its output is closed.
func (s SSH) Run(ctx context.Context, host string, args ...string) ([]byte, error) {
	timeout := s.Timeout
	if timeout == 0 {
		timeout = HostTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ssh := s.Command
	if strings.TrimSpace(ssh) == "" {
		ssh = "ssh"
	}
	// `--` ends ssh's options: a host named -oProxyCommand=… is a host.
	cmd := exec.CommandContext(ctx, "sh", "-c", ssh+` -- "$@"`, "jig-ssh", host, cmdline.RemoteCommand(args...))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) } // ssh and the shell around it
	cmd.WaitDelay = outputDelay
	var out, stderr bytes.Buffer
	listing := &limitWriter{w: &out, n: maxListing}
	cmd.Stdout, cmd.Stderr = listing, &limitWriter{w: &stderr, n: 4 << 10}
	err := cmd.Run()
	switch {
	case listing.over:
		return nil, fmt.Errorf("jig there printed more than %d MiB, more than a session list holds", maxListing>>20)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return nil, fmt.Errorf("no answer within %v", timeout)
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil && !errors.Is(err, exec.ErrWaitDelay): // ErrWaitDelay: ssh is done, a leftover held its output
		var exit *exec.ExitError
		usage := errors.As(err, &exit) && exit.ExitCode() == usageExit
		err = remoteError(err, stderr.String())
		if usage {
			err = refused{err}
		}
		if strings.Contains(err.Error(), strings.TrimLeft(cmdline.RemoteArgs, "-")) {
			// words no shell takes literally go hex-encoded, which an older jig cannot read
			err = fmt.Errorf("%w (jig there is too old for this id's characters: update it)", err)
		}
		return nil, err
	}
	return out.Bytes(), nil
}

// usageExit is jig's exit code for a command line it does not take (ssh
// passes the remote program's on).
const usageExit = 2

// errRefused is a command line the jig there did not take (refused).
var errRefused = errors.New("the command line was refused")

// refused is the jig there's complaint about the command line.
type refused struct{ error }

func (r refused) Unwrap() []error { return []error{r.error, errRefused} }

// outputDelay is how long the board reads on after ssh has ended, for
// what is still in the pipe.
const outputDelay = 100 * time.Millisecond

// remoteError is ssh's or the remote jig's last line of complaint.
func remoteError(err error, stderr string) error {
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if last := strings.TrimSpace(lines[len(lines)-1]); last != "" {
		return errors.New(last)
	}
	return err
}

// Remote is the live sessions of host, as its own jig lists them: the slim
// listing, else, from a jig older than --slim, the plain one.
func (s SSH) Remote(ctx context.Context, host string) ([]Row, error) {
	rows, _, err := s.remote(ctx, host, true)
	return rows, err
}

// slimFlag is the flag that asks a host's jig for the slim listing (a test
// asks for one no jig knows, as an older jig knows no --slim).
var slimFlag = "--slim"

// remote is Remote asking for the slim listing when slim. A jig older than
// the flag refuses it as the command line's fault (exit code 2, "flag
// provided but not defined"); the plain listing is asked for then, and
// plain says so.
func (s SSH) remote(ctx context.Context, host string, slim bool) (rows []Row, plain bool, err error) {
	args := []string{"session", "list", "--json"}
	if slim {
		args = append(args, slimFlag)
	}
	data, err := s.Run(ctx, host, args...)
	if slim && errors.Is(err, errRefused) {
		rows, _, err = s.remote(ctx, host, false)
		return rows, true, err
	}
	if err != nil {
		return nil, !slim, err
	}
	var docs []json.RawMessage
	if err := json.Unmarshal(data, &docs); err != nil {
		return nil, !slim, fmt.Errorf("jig there printed no session list: %v", err)
	}
	rows = make([]Row, 0, len(docs))
	for _, d := range docs {
		r, err := rowOf(d, nil) // its folders are not this machine's
		if err != nil {
			continue
		}
		r.Host = host // the name the user reaches it by
		rows = append(rows, r)
	}
	return rows, !slim, nil
}

// Down is the placeholder row of a host that gave no rows.
func Down(host string, err error) Row {
	return Row{Host: host, Err: err.Error()}
}

// limitWriter keeps the first n bytes and fails past them, which ends the
// program writing.
type limitWriter struct {
	w    io.Writer
	n    int
	over bool
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if len(p) > l.n {
		l.w.Write(p[:l.n])
		l.n, l.over = 0, true
		return 0, errors.New("more output than a session list holds")
	}
	l.n -= len(p)
	return l.w.Write(p)
}
