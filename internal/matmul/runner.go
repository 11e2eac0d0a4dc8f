package matmul

import "sync"

// A Runner runs the parallel parts of a product: the bands of a packed
// GEMM, the products of a batch. The executor passes its worker pool; Gemm
// uses Goroutines.
//
// How a product is cut into parts depends on Workers alone, and each part
// sums its elements in an order that does not depend on which goroutine
// runs it, so results are the same for any Runner with the same Workers
// and, because the order of every sum is fixed by the blocking alone, for
// any Workers too.
type Runner interface {
	// Workers is the number of parts a product is cut into at most.
	Workers() int
	// Run calls t.RunTask(i) for every i in [0, n) and returns when all
	// calls have returned. The calls may run concurrently, on any
	// goroutines, the caller's among them. A panic in a task may be
	// propagated to the caller of Run once the others have returned.
	Run(n int, t Task)
}

// A Task is the work of one parallel call, cut into parts: RunTask(i)
// does part i. The package's tasks are structs of the call's arguments,
// taken from pools (see parallel), so that a product allocates nothing.
type Task interface {
	RunTask(i int)
}

// Goroutines returns a Runner that runs part 0 of a task on the calling
// goroutine and each other part on a goroutine of its own, cutting
// products into up to workers parts (at least 1).
func Goroutines(workers int) Runner { return goroutines(max(1, workers)) }

type goroutines int

func (g goroutines) Workers() int { return int(g) }

func (g goroutines) Run(n int, t Task) {
	var wg sync.WaitGroup
	for i := 1; i < n; i++ {
		wg.Go(func() { t.RunTask(i) })
	}
	if n > 0 {
		t.RunTask(0)
	}
	wg.Wait()
}

// serial is the Runner of one part on the calling goroutine.
var serial Runner = goroutines(1)

// An Epilogue finishes a block of a product's dst once the block's values
// are final: it is called with the block's offset in dst.Data and its rows
// and columns, at dst's strides. Every element of dst is in exactly one
// block; calls for different blocks may run concurrently. The executor
// uses it to apply a matmul's elementwise consumers (x@W + b, then relu)
// while the block is in cache.
type Epilogue func(offset, rows, cols int)
