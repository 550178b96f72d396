// Package scripted is what the scripted model servers share: the replies a
// test queues, answered in order, one per request, and the requests the
// agent made, recorded. A request that arrives while no reply is queued
// waits for one, so a test can look at the agent mid-turn; nothing is timed
// unless a test asks.
package scripted

import (
	"context"
	"sync"
	"time"
)

// Script is one server's queue of replies and log of requests.
type Script[Reply, Request any] struct {
	mu      sync.Mutex
	changed *sync.Cond
	replies []Reply
	reqs    []Request
	closed  bool
	taken   int // replies taken so far
}

// New is an empty script.
func New[Reply, Request any]() *Script[Reply, Request] {
	s := &Script[Reply, Request]{}
	s.changed = sync.NewCond(&s.mu)
	return s
}

// Queue adds replies, answered in order, one per request.
func (s *Script[Reply, Request]) Queue(r ...Reply) {
	s.mu.Lock()
	s.replies = append(s.replies, r...)
	s.changed.Broadcast()
	s.mu.Unlock()
}

// Requests returns the requests received so far.
func (s *Script[Reply, Request]) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Close releases every request still waiting for a reply.
func (s *Script[Reply, Request]) Close() {
	s.mu.Lock()
	s.closed = true
	s.changed.Broadcast()
	s.mu.Unlock()
}

// Take records req and waits for the test to queue its reply, or for ctx
// (the agent giving up on the request) or Close. It returns the reply and
// how many replies were taken with it; ok is false when none came.
func (s *Script[Reply, Request]) Take(ctx context.Context, req Request) (r Reply, n int, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, req)
	s.changed.Broadcast()
	stop := context.AfterFunc(ctx, s.wake)
	defer stop()
	for len(s.replies) == 0 && !s.closed && ctx.Err() == nil {
		s.changed.Wait()
	}
	if len(s.replies) == 0 {
		return r, s.taken, false
	}
	r, s.replies = s.replies[0], s.replies[1:]
	s.taken++
	return r, s.taken, true
}

// WaitRequests blocks until n requests have arrived, the script closed,
// done was closed or limit passed (0: no limit), and reports whether they
// arrived.
func (s *Script[Reply, Request]) WaitRequests(n int, done <-chan struct{}, limit time.Duration) bool {
	stop := make(chan struct{})
	defer close(stop)
	var expired <-chan time.Time
	if limit > 0 {
		t := time.NewTimer(limit)
		defer t.Stop()
		expired = t.C
	}
	go func() {
		select {
		case <-done:
		case <-expired:
		case <-stop:
			return
		}
		s.wake()
	}()
	deadline := time.Now().Add(limit)
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.reqs) < n && !s.closed {
		select {
		case <-done:
			return false
		default:
		}
		if limit > 0 && !time.Now().Before(deadline) {
			return false
		}
		s.changed.Wait()
	}
	return len(s.reqs) >= n
}

func (s *Script[Reply, Request]) wake() {
	s.mu.Lock()
	s.changed.Broadcast()
	s.mu.Unlock()
}
