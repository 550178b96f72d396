package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"
)

// Bounds are what one --jq or --format run may take. A status line's run
// takes a millisecond and a few kilobytes; these are far above that, and
// far below what would stall the machine.
type Bounds struct {
	Time   time.Duration // how long it may run
	Output int           // how many bytes it may print beyond the size of the JSON it reads
	Memory uint64        // how much the heap may grow while it runs
}

// DefaultBounds bound every run unless TimeoutVar says otherwise.
var DefaultBounds = Bounds{Time: time.Second, Output: 16 << 20, Memory: 256 << 20}

// TimeoutVar names the variable that changes Bounds.Time: a Go duration
// such as 5s.
const TimeoutVar = "JIG_RENDER_TIMEOUT"

// BoundsFrom is DefaultBounds with the time $JIG_RENDER_TIMEOUT says, when
// it says one.
func BoundsFrom(getenv func(string) string) (Bounds, error) {
	b := DefaultBounds
	if v := getenv(TimeoutVar); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return b, fmt.Errorf("%s=%q: want a duration such as 5s", TimeoutVar, v)
		}
		b.Time = d
	}
	return b, nil
}

// BoundError is a run stopped past one of its bounds.
type BoundError struct {
	What string // "stopped after 1s; …", "stopped at 16 MiB of output", "stopped at 256 MiB of memory"
}

func (e *BoundError) Error() string { return e.What }

// ErrBounds is the kind of every BoundError: the expression or template
// given is not one jig runs (exit 4).
var ErrBounds = errors.New("past its bounds")

func (e *BoundError) Is(target error) bool { return target == ErrBounds }

// Run is one run within its bounds, a template's or render/jq's: its
// Context ends when it goes past its time or its memory, and it takes what
// the run prints (Write, Bytes), refusing a write past its output.
type Run struct {
	capped
	ctx context.Context
}

// Start starts a run reading a document of size bytes; stop releases it.
func (b Bounds) Start(size int) (r *Run, stop func()) {
	base, cancel := context.WithCancelCause(context.Background())
	ctx, cancelTime := context.WithTimeoutCause(base, b.Time, &BoundError{fmt.Sprintf("stopped after %s; %s=10s gives it longer", b.Time, TimeoutVar)})
	r = &Run{ctx: ctx, capped: capped{max: b.Output + size, full: func() {
		cancel(&BoundError{fmt.Sprintf("stopped at %s of output", mib(uint64(b.Output)))})
	}}}
	go watchHeap(ctx, b.Memory, cancel)
	return r, func() { cancelTime(); cancel(nil) }
}

// Context ends when the run goes past its time or its memory.
func (r *Run) Context() context.Context { return r.ctx }

// Err is the bound the run went past, nil while it is within them.
func (r *Run) Err() error {
	var be *BoundError
	if errors.As(context.Cause(r.ctx), &be) {
		return be
	}
	return nil
}

// watchHeap cancels the run when the heap grows by more than limit, until
// ctx ends. gojq checks the run's context at every step, and the template
// ticks, so growth such as [range(1e9)] stops within a few milliseconds.
func watchHeap(ctx context.Context, limit uint64, cancel context.CancelCauseFunc) {
	base := heapInUse()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if now := heapInUse(); now > base && now-base > limit {
			cancel(&BoundError{fmt.Sprintf("stopped at %s of memory", mib(limit))})
			return
		}
	}
}

// heapInUse is the memory live and not yet collected objects take. It
// stops the world for microseconds, a few times a run; runtime/metrics
// would not, but its package init costs every jig process a tenth of a
// millisecond, runs with --jq or not.
func heapInUse() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// capped is a buffer that takes at most max bytes; a write past them calls
// full and fails, so a template stops at its next write.
type capped struct {
	buf  bytes.Buffer
	max  int
	full func()
}

var errFull = errors.New("output bound reached")

func (c *capped) Write(p []byte) (int, error) {
	if c.buf.Len()+len(p) > c.max {
		c.full()
		return 0, errFull
	}
	return c.buf.Write(p)
}

func (c *capped) WriteString(s string) (int, error) {
	if c.buf.Len()+len(s) > c.max {
		c.full()
		return 0, errFull
	}
	return c.buf.WriteString(s)
}

func (c *capped) Bytes() []byte { return c.buf.Bytes() }

func mib(n uint64) string { return fmt.Sprintf("%d MiB", n>>20) }
