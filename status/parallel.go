package status

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// inParallel runs work(i) for every i in [0, n) on up to GOMAXPROCS
// goroutines, and returns when all are done. The passes over every session
// (gc, list) spend their time in system calls, which one core alone only
// waits on.
func inParallel(n int, work func(i int)) {
	inParallelWith(n, func() func(i int) { return work })
}

// inParallelWith is inParallel with a work function of each goroutine's
// own, made by newWork on it: for work that keeps state (a buffer, a
// cache) from one i to the next.
func inParallelWith(n int, newWork func() func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		if n > 0 {
			work := newWork()
			for i := range n {
				work(i)
			}
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work := newWork()
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				work(i)
			}
		}()
	}
	wg.Wait()
}
