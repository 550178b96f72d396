// Package serve is `jig serve`: the board and each session in a browser,
// live, steerable, safe by default. It is a reader, like the board and the
// panel: it reads the status files (and the agents' transcripts through
// the readers it is given), watches them with inotify and writes only what
// `jig request` writes. The agents' writers open no port; this one does,
// on loopback unless told otherwise, and every route wants its token.
package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"jig/board"
	"jig/cmdline"
	"jig/serve/conversation"
	"jig/status"
)

// DefaultAddr is where jig serve listens unless told otherwise.
const DefaultAddr = "127.0.0.1:7420"

// Reader reads one agent's transcripts (conversation.Reader).
type Reader = conversation.Reader

// Options is what a server shows and may do.
type Options struct {
	Board    *board.Board // this machine's state dir, liveness and host name, and the remote hosts
	ReadOnly bool         // no request, focus or fork: every POST is refused
	// Conversations reads each agent's transcripts, by the status file's
	// agent id. A reader that is also a conversation.Tree gives branches
	// and forks.
	Conversations map[string]Reader
	Token         string    // the secret every request must carry (see LoadToken)
	Log           io.Writer // one line per refused token
	Now           func() time.Time
	// AnswerWait bounds how long a request waits for the session's answer
	// before the page is told it was sent and no answer came yet.
	AnswerWait time.Duration
}

// Server is one jig serve.
type Server struct {
	opt     Options
	hub     *hub
	allowed map[string]bool // the Host headers this server answers
	csrfKey []byte
	failed  chan struct{} // one refused token answered at a time, slowly
	trees   *trees
	// cookie is the token's cookie name, by port: a browser sends a
	// host's cookies to all its ports, and two servers of two state dirs
	// must not take each other's.
	cookie string
}

// Loopback says whether the address's host is a loopback address (or
// localhost): jig serve takes any other only when given explicitly.
func Loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Listen opens the address; the server is made for the address it got (a
// port of 0 is the kernel's choice).
func Listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, status.Mark(status.ErrBadInput, fmt.Errorf("--addr %s: %w", addr, err))
	}
	return ln, nil
}

// New is a server for listener address addr (host:port as browsers will
// write it in the Host header).
func New(opt Options, addr string) (*Server, error) {
	if len(opt.Token) < 32 {
		return nil, errors.New("a token of at least 32 characters is needed")
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	if opt.AnswerWait == 0 {
		opt.AnswerWait = 10 * time.Second
	}
	_, port, _ := net.SplitHostPort(addr)
	s := &Server{opt: opt, allowed: allowedHosts(addr), csrfKey: randomKey(), failed: make(chan struct{}, 1), trees: newTrees(),
		cookie: "jig_serve_" + port}
	s.hub = newHub(opt.Board)
	return s, nil
}

// allowedHosts is addr, and for a loopback address its other loopback
// names on the same port: what a browser that opened the printed address
// (or typed localhost) sends. A name a rebinding DNS points here is none.
func allowedHosts(addr string) map[string]bool {
	out := map[string]bool{strings.ToLower(addr): true}
	if _, port, err := net.SplitHostPort(addr); err == nil && Loopback(addr) {
		for _, h := range []string{"127.0.0.1", "localhost", "[::1]"} {
			out[h+":"+port] = true
		}
	}
	return out
}

// URL is the address to open, carrying the token once.
func URL(addr, token string) string {
	return "http://" + addr + "/?token=" + token
}

// Serve answers on ln until ctx ends; the hub starts watching the state dir
// first, so the first page has every row.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go s.hub.run(ctx)
	srv := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		MaxHeaderBytes:    16 << 10,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	go func() {
		<-ctx.Done()
		shut, done := context.WithTimeout(context.Background(), time.Second)
		defer done()
		srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// CheckAddr refuses an address a browser cannot name in its Host header:
// no port, or a wildcard host (0.0.0.0, ::), which would also answer on
// every interface.
func CheckAddr(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if port == "" {
		return errors.New("want HOST:PORT")
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		return errors.New("give the address browsers will open, not a wildcard")
	}
	return nil
}

// Run is jig serve: the token from the state dir, the address opened, one
// line with the address to open (and a warning on Log when it is not
// loopback), then answers until ctx ends or a signal to stop.
func Run(ctx context.Context, addr string, out io.Writer, opt Options) error {
	if err := CheckAddr(addr); err != nil {
		return cmdline.Usagef("--addr %s: %v", addr, err)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	tok, err := LoadToken(opt.Board.Dir)
	if err != nil {
		return err
	}
	opt.Token = tok
	ln, err := Listen(addr)
	if err != nil {
		return err
	}
	s, err := New(opt, ln.Addr().String())
	if err != nil {
		ln.Close()
		return err
	}
	if !Loopback(addr) {
		fmt.Fprintf(opt.Log, "jig: serve: warning: %s is not loopback: the page and its token travel as plain HTTP; see docs/serve.md for ssh -L\n", addr)
	}
	fmt.Fprintln(out, URL(ln.Addr().String(), tok))
	return s.Serve(ctx, ln)
}
