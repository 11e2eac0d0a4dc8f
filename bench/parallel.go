package bench

import "sync"

// parallelFor splits [0, n) into one contiguous range per goroutine, with
// every boundary a multiple of align, and calls fn(lo, hi) for each range,
// the last on the calling goroutine. It is how the hand-written loops use as
// many goroutines as the executor has workers: one goroutine per worker per
// run, the way a Go programmer would write it without a pool.
func parallelFor(workers, n, align int, fn func(lo, hi int)) {
	if workers < 1 {
		workers = 1
	}
	if align < 1 {
		align = 1
	}
	chunk := (n + workers - 1) / workers
	chunk = (chunk + align - 1) / align * align
	if workers == 1 || chunk >= n {
		fn(0, n)
		return
	}
	var wg sync.WaitGroup
	lo := 0
	for ; lo+chunk < n; lo += chunk {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			fn(lo, hi)
		}(lo, lo+chunk)
	}
	fn(lo, n)
	wg.Wait()
}

// cacheLine is the number of float64s in a 64-byte cache line; the hand loops
// cut their ranges on line boundaries so two goroutines never write one line.
const cacheLine = 8
