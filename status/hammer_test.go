package status

import (
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"jig/internal/hammer"
)

// hammerFull runs the hammer tests at the counts bench/reliability records;
// without it they stay short enough for every `go test ./...`.

// TestHammer: one writer rewrites a realistic status file as fast as it can
// while readers read it (100 000 times under -hammer.full). Every read must be byte for byte one
// of the versions written, and parse: a reader sees the old file or the new
// one, never half. Every 10th read decodes the file, every 50th goes
// through ForTerminal and must find the session.
func TestHammer(t *testing.T) {
	d := &Dir{Root: t.TempDir()}
	reads := hammer.Scaled(10_000, 100_000)
	start := time.Now()
	const readers = 4
	var written sync.Map // sha256 of each version written -> true
	write := func(n int) error {
		s := realistic("hammer", os.Getpid(), "t7", n)
		now := time.Now()
		// The bytes Write will put in the file, recorded before it does.
		want := *s
		want.PIDStart = ProcessIdentity(s.PID)
		want.Normalize()
		want.UpdatedAt = now.UTC()
		data, err := Encode(&want)
		if err != nil {
			return err
		}
		written.Store(sha256.Sum256(data), true)
		wrote, err := d.Write(s, now)
		if err == nil && !wrote {
			err = fmt.Errorf("write %d changed nothing", n)
		}
		return err
	}
	if err := write(0); err != nil {
		t.Fatal(err)
	}
	var done atomic.Bool
	var writes atomic.Int64
	writerErr := make(chan error, 1)
	go func() {
		defer close(writerErr)
		for i := 1; !done.Load(); i++ {
			if err := write(i); err != nil {
				writerErr <- err
				return
			}
			writes.Add(1)
		}
	}()
	var torn atomic.Int64
	fail := func(format string, args ...any) {
		if torn.Add(1) <= 5 {
			t.Errorf(format, args...)
		}
	}
	var wg sync.WaitGroup
	for r := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range reads / readers {
				switch {
				case i%50 == 0:
					got, err := d.ForTerminal("t7", Liveness{})
					if err != nil || got == nil || len(got.Outputs) != 100 {
						fail("reader %d, read %d: ForTerminal: %v, found %v", r, i, err, got != nil)
					}
				default:
					data, err := ReadFileNoFollow(d.SessionPath("hammer"))
					if err != nil {
						fail("reader %d, read %d: %v", r, i, err)
						continue
					}
					if _, ok := written.Load(sha256.Sum256(data)); !ok {
						fail("reader %d, read %d: %d bytes that no write wrote", r, i, len(data))
					}
					if i%10 == 0 {
						if s, err := Decode(data); err != nil || s.Session != "hammer" {
							fail("reader %d, read %d: %v", r, i, err)
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	done.Store(true)
	if err := <-writerErr; err != nil {
		t.Fatal(err)
	}
	hammer.Figure(t, hammer.Row{Attack: "torn reads", Load: fmt.Sprintf("%d reads (%d readers) during %d writes", reads, readers, writes.Load()),
		Kept: fmt.Sprintf("%d of %d reads whole", int64(reads)-torn.Load(), reads), Lost: torn.Load()}, start)
	if torn.Load() != 0 {
		t.Errorf("%d torn or unparsable reads", torn.Load())
	}
	if writes.Load() < 2 {
		t.Errorf("only %d writes happened: the readers raced nothing", writes.Load())
	}
}

// realistic is a status of the size the contract allows at most in its
// lists: 50 + 50 outputs, 15 recent calls, a context detail. n changes the
// content so each write is a real one.
func realistic(session string, pid int, term string, n int) *Status {
	at := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	repo := "/home/ana/src/shop"
	s := &Status{Session: session, PID: pid, Host: "", CWD: repo, AgentDir: "/home/ana/.pi/agent",
		Terminal: ptr(term), TerminalFrom: ptr("HC_TERMINAL_ID"),
		Terminals: []TerminalID{{From: "HC_TERMINAL_ID", ID: term}},
		Model:     &Model{Provider: "anthropic", ID: "claude-sonnet-4-5", Name: "Claude Sonnet 4.5"},
		Thinking:  ptr("medium"), State: Busy,
		Context:   Context{Tokens: ptr(int64(80000 + n)), Window: ptr(int64(200000))},
		Usage:     Usage{Input: int64(n), Output: 2000, CacheRead: 600000, CacheWrite: 70000, Cost: ptr(0.87)},
		Tools:     Tools{Active: 7, Total: 9},
		Ticket:    &Ticket{Key: "SHOP-142", Title: "Refunds for split orders"},
		StartedAt: at.Add(-time.Hour),
	}
	for i := range 50 {
		s.Outputs = append(s.Outputs,
			Output{Path: fmt.Sprintf("%s/pkg%02d/file%02d.go", repo, i%7, i), Action: Changed, At: at, Repo: &repo},
			Output{Path: fmt.Sprintf("/home/ana/notes/SHOP-142/note-%02d.md", i), Action: Created, At: at})
	}
	for i := range 15 {
		s.Recent = append(s.Recent, Call{At: at.Add(-time.Duration(i) * time.Second), Tool: "edit", Decision: "allow", Outcome: OK})
	}
	s.ContextDetail = &ContextDetail{Window: ptr(int64(200000)), Tokens: 80000,
		Parts: []ContextPart{{"system", 3000}, {"tools", 5000}, {"messages", 60000}, {"toolResults", 12000}}}
	for i := range 9 {
		s.ContextDetail.Tools = append(s.ContextDetail.Tools, ContextItem{Name: fmt.Sprintf("tool%d", i), Source: "builtin", Tokens: 600})
	}
	return s
}

// TestConcurrentWriters: sessions written at once by many writers, moving
// between terminals, leave an index where each terminal names exactly its
// sessions, and a stamp readers may trust.
func TestConcurrentWriters(t *testing.T) {
	d := &Dir{Root: t.TempDir()}
	const writers, rounds = 8, 20
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				// each writer hops between two terminals, one shared by all
				term := fmt.Sprintf("own%d", w)
				if r%2 == 1 {
					term = "shared"
				}
				s := testStatus(fmt.Sprintf("w%d", w), os.Getpid(), term)
				s.State = []string{Idle, Busy}[r%2]
				if _, err := d.Write(s, time.Now()); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	// rounds is even: every writer ended in the shared terminal.
	shared, err := readNames(d.Path(TerminalsDir, "shared"))
	if err != nil || len(shared) != writers {
		t.Errorf("shared terminal names %v (%v), want %d sessions", shared, err, writers)
	}
	for w := range writers {
		if _, err := os.Lstat(d.Path(TerminalsDir, fmt.Sprintf("own%d", w))); err == nil {
			t.Errorf("own%d still indexed", w)
		}
	}
	if s, _ := d.ForTerminal("shared", Liveness{}); s == nil {
		t.Error("nothing found in the shared terminal")
	}
	if c, err := d.GC(Liveness{}, time.Now()); err != nil || c.Markers != 0 {
		t.Errorf("gc found %d stale markers (%v)", c.Markers, err)
	}
}

// TestHammerGCRacingWriters: writers keep moving sessions between terminals
// while gc runs in a loop. Right after each write, and at the end, each
// session is found in the terminal it moved to, and gc removes none of
// them. (Before the per-session lock, gc removed a marker a writer had just
// made and stamped the index as complete: the session stayed hidden until
// its content next changed, 24 times in 150.)
func TestHammerGCRacingWriters(t *testing.T) {
	d := &Dir{Root: t.TempDir()}
	writers, moves := 6, hammer.Scaled(40, 1000)
	terms := []string{"t1", "t2", "t3"}
	start := time.Now()
	// A session whose process is gone gives gc something to remove.
	if _, err := d.Write(testStatus("ended", deadPID(t), "t1"), start); err != nil {
		t.Fatal(err)
	}
	var hidden, gcs atomic.Int64
	stop := make(chan struct{})
	gcErr := make(chan error, 1)
	var removed []string
	go func() {
		defer close(gcErr)
		for {
			select {
			case <-stop:
				return
			default:
			}
			c, err := d.GC(Liveness{}, time.Now())
			if err != nil {
				gcErr <- err
				return
			}
			removed = append(removed, c.Sessions...)
			gcs.Add(1)
		}
	}()
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			session := fmt.Sprintf("s%d", w)
			for m := range moves {
				term := terms[(w+m)%len(terms)]
				if _, err := d.Write(testStatus(session, os.Getpid(), term), time.Now()); err != nil {
					errs <- err
					return
				}
				if !foundIn(d, session, term) {
					if hidden.Add(1) <= 5 {
						t.Errorf("%s, move %d: not found in %s right after its write", session, m, term)
					}
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	if err := <-gcErr; err != nil {
		t.Fatal(err)
	}
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if _, err := d.GC(Liveness{}, time.Now()); err != nil {
		t.Fatal(err)
	}
	lost := int64(0)
	for w := range writers {
		session := fmt.Sprintf("s%d", w)
		if term := terms[(w+moves-1)%len(terms)]; !foundIn(d, session, term) {
			lost++
			t.Errorf("%s: not found in %s after the race", session, term)
		}
	}
	for _, s := range removed {
		if s != "ended" {
			lost++
			t.Errorf("gc removed the live session %s", s)
		}
	}
	if len(removed) != 1 {
		t.Errorf("gc removed %v, want only the ended session", removed)
	}
	hammer.Figure(t, hammer.Row{Attack: "gc racing writers (in process)", Load: fmt.Sprintf("%d writers x %d moves over %d terminals, %d gc runs", writers, moves, len(terms), gcs.Load()),
		Kept: fmt.Sprintf("%d of %d lookups found the session", int64(writers*(moves+1))-hidden.Load()-lost, writers*(moves+1)), Lost: hidden.Load() + lost}, start)
}

// foundIn reports whether session is among the live sessions a reader finds
// in terminal term.
func foundIn(d *Dir, session, term string) bool {
	found, _ := d.forTerminal(term, Liveness{}, false, nil)
	for _, c := range found {
		if c.s.Session == session {
			return true
		}
	}
	return false
}

// deadPID is the pid of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}
