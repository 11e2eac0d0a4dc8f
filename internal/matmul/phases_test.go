package matmul

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestPhasesOrder runs a schedule of phases on 1 to 4 parts and checks
// that every task runs exactly once and that no task of a phase starts
// before every task of the phase before it has finished.
func TestPhasesOrder(t *testing.T) {
	sizes := []int{3, 1, 7, 2, 5}
	for _, parts := range []int{1, 2, 3, 4} {
		s := getPhases(len(sizes))
		runs := make([][]atomic.Int32, len(sizes))
		for i, n := range sizes {
			runs[i] = make([]atomic.Int32, n)
		}
		var finished [5]atomic.Int32 // tasks of each phase finished
		var early atomic.Int32       // tasks started before the phase before was done
		Goroutines(parts).Run(parts, taskFunc(func(int) {
			for i, n := range sizes {
				ok := s.run(i, n, func(task int) {
					if i > 0 && int(finished[i-1].Load()) != sizes[i-1] {
						early.Add(1)
					}
					runs[i][task].Add(1)
					time.Sleep(50 * time.Microsecond)
					finished[i].Add(1)
				})
				assert.True(t, ok)
			}
		}))
		s.put()
		assert.Zero(t, early.Load(), "%d parts: tasks started early", parts)
		for i := range runs {
			for task := range runs[i] {
				assert.Equal(t, int32(1), runs[i][task].Load(), "%d parts: phase %d task %d", parts, i, task)
			}
		}
	}
}

// TestPhasesLatePart checks that a part that starts after the others have
// done every phase runs nothing and does not wait.
func TestPhasesLatePart(t *testing.T) {
	s := getPhases(2)
	defer s.put()
	var ran atomic.Int32
	for range 2 {
		assert.True(t, s.run(0, 3, func(int) { ran.Add(1) }))
		assert.True(t, s.run(1, 2, func(int) { ran.Add(1) }))
	}
	assert.Equal(t, int32(5), ran.Load(), "the second part found every task taken")
}

// TestPhasesPanic checks that a task that panics fails the schedule: the
// panic reaches its part's caller, and a part waiting for the phase to
// end stops waiting and reports the failure instead of hanging.
func TestPhasesPanic(t *testing.T) {
	s := getPhases(2)
	defer s.put()
	started := make(chan struct{})
	var wg sync.WaitGroup
	var recovered any
	wg.Go(func() {
		defer func() { recovered = recover() }()
		s.run(0, 2, func(task int) {
			close(started)
			time.Sleep(5 * time.Millisecond) // the other part is waiting by now
			panic("task failed")
		})
	})
	<-started
	var second atomic.Int32
	ok := s.run(0, 2, func(int) { second.Add(1) })
	wg.Wait()
	assert.False(t, ok, "a failed phase reports false")
	assert.Equal(t, "task failed", recovered)
	assert.Equal(t, int32(1), second.Load(), "the second part ran the other task")
	assert.False(t, s.run(1, 1, func(int) {}), "later phases report the failure too")
}
