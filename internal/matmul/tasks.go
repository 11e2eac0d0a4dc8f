package matmul

import (
	"reflect"
	"sync"

	"github.com/tensorplay/tensorplay/internal/stash"
)

// parallel runs t's parts 0..n-1 on r. The task runs from a copy of t in
// a kept *T (taskStash), so the call allocates nothing once one is kept (a
// closure handed to another goroutine would be allocated by every call);
// the copy is cleared before it goes back, so the stash keeps no operand
// alive.
func parallel[T any, P interface {
	*T
	Task
}](r Runner, n int, t T) {
	pl := taskStash[T]()
	p := pl.Get()
	if p == nil {
		p = new(T)
	}
	*p = t
	r.Run(n, P(p))
	var zero T
	*p = zero
	pl.Put(p)
}

// taskStashes holds a *stash.Stash[T] for each task type T.
var taskStashes sync.Map // reflect.Type -> *stash.Stash[T]

// taskStash returns the stash of T's task values.
func taskStash[T any]() *stash.Stash[T] {
	typ := reflect.TypeFor[T]()
	if pl, ok := taskStashes.Load(typ); ok {
		return pl.(*stash.Stash[T])
	}
	pl, _ := taskStashes.LoadOrStore(typ, new(stash.Stash[T]))
	return pl.(*stash.Stash[T])
}
