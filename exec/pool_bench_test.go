package exec

import "testing"

// BenchmarkPoolParallel is one pool job of two tasks of about 2 µs each
// on a pool of two workers: the cost of handing a task to the other
// worker, against the same work run on the caller alone.
func BenchmarkPoolParallel(b *testing.B) {
	spin := func(i int) {
		s := 0
		for j := range 2000 {
			s += j ^ i
		}
		sink = s
	}
	b.Run("pool", func(b *testing.B) {
		p := newPool(2)
		defer p.close()
		for b.Loop() {
			p.parallel(2, funcTasks(spin))
		}
	})
	b.Run("caller", func(b *testing.B) {
		for b.Loop() {
			spin(0)
			spin(1)
		}
	})
}

var sink int
