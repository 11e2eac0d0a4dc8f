// Package stash keeps a few values for reuse, as sync.Pool does, but
// without losing them: a garbage collection empties a sync.Pool (after a
// second one, its victim cache too), and a value put on one P cannot be
// taken from another P's private slot, so a step repeated by two workers
// kept missing its pools and allocating. A Stash holds up to Slots values
// in atomic pointers that any goroutine can take; it never drops a value
// unless Slots are already kept, and it keeps its values alive as long as
// it is itself reachable, so what goes into one must reference no user
// tensor.
package stash

import "sync/atomic"

// Slots is the number of values a Stash keeps: as many as the tasks of one
// step that run at once on a machine of 64 cores (one per worker). Get
// and Put look at the slots in order, and the values kept sit in the first
// ones, so a stash that keeps few costs few loads.
const Slots = 64

// A Stash keeps up to Slots *T for reuse. Its zero value is empty and ready.
type Stash[T any] struct {
	slots [Slots]atomic.Pointer[T]
}

// Get takes a kept value, or returns nil when there is none.
func (s *Stash[T]) Get() *T {
	for i := range s.slots {
		if s.slots[i].Load() != nil {
			if p := s.slots[i].Swap(nil); p != nil {
				return p
			}
		}
	}
	return nil
}

// Put keeps p for a later Get, unless Slots values are kept already (then
// p is left to the garbage collector).
func (s *Stash[T]) Put(p *T) {
	for i := range s.slots {
		if s.slots[i].CompareAndSwap(nil, p) {
			return
		}
	}
}
