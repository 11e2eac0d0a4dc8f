package matmul

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tensorplay/tensorplay/internal/stash"
)

// phases schedules the steps of one parallel product inside a single
// Runner.Run call: the product is a fixed sequence of phases (pack a
// block of b, then multiply it), each a number of tasks, and every part
// runs the whole sequence, taking the tasks of the current phase from a
// shared counter and then waiting until every task of the phase is done
// before it moves on. One Run call per product, rather than one per
// phase, wakes each worker once: a worker that has returned to the pool
// between two phases has to be woken again, which on a shared 2-vCPU
// machine takes tens of microseconds, longer than a phase of a 128³
// product.
//
// No part waits for a part that has not started: a task is only waited for
// once a running part has taken it, so a worker that joins late (or never)
// leaves its share to the parts already running, and one that joins in the
// middle skips the phases already done. A part that panics marks the
// schedule failed, so that the others stop waiting and return.
type phases struct {
	ph     []phase
	failed atomic.Bool
	mu     sync.Mutex
	wake   sync.Cond // on mu: a phase is done or a part failed
}

// phase is one phase's counters: tasks taken and tasks done, each on a
// cache line of its own.
type phase struct {
	taken atomic.Int64
	_     [56]byte
	done  atomic.Int64
	_     [56]byte
}

// kept holds schedules between products.
var kept stash.Stash[phases]

// phaseSpin is how long a part that has run out of tasks spins for the
// others to finish theirs before it blocks: a phase's parts usually end
// within a few microseconds of one another, and a part that spins catches
// the next phase at once, where one that blocked would have to be woken;
// but a part descheduled by the OS (a loaded machine) can hold its task
// for milliseconds, and spinning then only takes the CPU from it.
const phaseSpin = 30 * time.Microsecond

// getPhases returns a schedule of n phases, every counter zero.
func getPhases(n int) *phases {
	s := kept.Get()
	if s == nil {
		s = new(phases)
		s.wake.L = &s.mu
	}
	if cap(s.ph) < n {
		s.ph = make([]phase, n)
	}
	s.ph = s.ph[:n]
	for i := range s.ph {
		s.ph[i].taken.Store(0)
		s.ph[i].done.Store(0)
	}
	s.failed.Store(false)
	return s
}

// put keeps s for another product, once no part uses it.
func (s *phases) put() { kept.Put(s) }

// run takes tasks of phase i (of tasks tasks) and calls f with each until
// none are left, then waits until the other parts have finished the tasks
// they took. It reports false when a part has failed (panicked), and the
// caller's part should return.
func (s *phases) run(i, tasks int, f func(t int)) bool {
	p := &s.ph[i]
	for {
		t := int(p.taken.Add(1) - 1)
		if t >= tasks {
			break
		}
		s.call(f, t)
		if p.done.Add(1) == int64(tasks) {
			s.mu.Lock()
			s.wake.Broadcast()
			s.mu.Unlock()
		}
	}
	if p.done.Load() < int64(tasks) {
		for start := time.Now(); time.Since(start) < phaseSpin; {
			if p.done.Load() == int64(tasks) || s.failed.Load() {
				return !s.failed.Load()
			}
			runtime.Gosched()
		}
		s.mu.Lock()
		for p.done.Load() < int64(tasks) && !s.failed.Load() {
			s.wake.Wait()
		}
		s.mu.Unlock()
	}
	return !s.failed.Load()
}

// call calls f(t), marking s failed if it panics (and panicking on).
func (s *phases) call(f func(t int), t int) {
	ok := false
	defer func() {
		if !ok {
			s.mu.Lock()
			s.failed.Store(true)
			s.wake.Broadcast()
			s.mu.Unlock()
		}
	}()
	f(t)
	ok = true
}
