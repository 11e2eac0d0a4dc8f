package exec

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// blockTasks is a tasker whose tasks wait until release is closed.
type blockTasks struct{ release chan struct{} }

func (b blockTasks) RunTask(int) { <-b.release }

// TestPoolDoesNotWaitForLateWorkers keeps the one worker of a pool of two
// inside a task of another job, and checks that jobs started meanwhile,
// more of them than the channel holds, run every task on the caller and
// return without waiting for the worker; once released, the worker drops
// the jobs it was offered late and takes the next one's tasks.
func TestPoolDoesNotWaitForLateWorkers(t *testing.T) {
	p := newPool(2)
	defer p.close()
	var workerIn sync.Once
	inTask := make(chan struct{})
	var onWorker atomic.Int64
	taskHook = func(worker bool) {
		if worker {
			onWorker.Add(1)
			workerIn.Do(func() { close(inTask) })
		}
	}
	defer func() { taskHook = nil }()

	release := make(chan struct{})
	first := make(chan struct{})
	go func() {
		defer close(first)
		p.parallel(2, blockTasks{release}) // one task on the caller, one on the worker
	}()
	select {
	case <-inTask:
	case <-time.After(10 * time.Second):
		close(release)
		t.Fatal("the worker never took a task")
	}

	var ran [4][3]atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range ran {
			p.parallel(3, funcTasks(func(k int) { ran[i][k].Add(1) }))
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		close(release)
		t.Fatal("a job waited for the busy worker")
	}
	for i := range ran {
		for k := range ran[i] {
			assert.Equal(t, int64(1), ran[i][k].Load(), "job %d task %d", i, k)
		}
	}
	assert.Equal(t, int64(1), onWorker.Load(), "the busy worker ran a task of a later job")

	close(release)
	<-first
	// The worker is free again: a job waits in its first task on the
	// caller until the worker has taken the other.
	var got atomic.Int64
	tookOne := make(chan struct{})
	var once sync.Once
	taskHook = func(worker bool) {
		if worker {
			once.Do(func() { close(tookOne) })
			return
		}
		select {
		case <-tookOne:
		case <-time.After(10 * time.Second):
		}
	}
	p.parallel(2, funcTasks(func(int) { got.Add(1) }))
	require.Equal(t, int64(2), got.Load())
	select {
	case <-tookOne:
	default:
		t.Error("the worker took no task after it was released")
	}
}

// TestPoolSpinnersCapped runs jobs on a pool of more workers than
// GOMAXPROCS and checks, while the workers that took its tasks are looking
// for the next job, that no more of them spin than the pool allows
// (GOMAXPROCS-1), the rest blocking on the channel; and that the tasks of
// every job still all run, once each.
func TestPoolSpinnersCapped(t *testing.T) {
	p := newPool(8)
	defer p.close()
	require.Equal(t, int32(runtime.GOMAXPROCS(0)-1), p.spinners)
	for round := range 50 {
		var ran [8]atomic.Int64
		p.parallel(8, funcTasks(func(k int) {
			ran[k].Add(1)
			time.Sleep(50 * time.Microsecond) // let every worker take a task
		}))
		assert.LessOrEqual(t, p.spinning.Load(), int32(runtime.GOMAXPROCS(0)-1), "round %d", round)
		for k := range ran {
			assert.Equal(t, int64(1), ran[k].Load(), "round %d task %d", round, k)
		}
	}
}

// TestPoolWaitBlocksAfterSpin checks the caller's wait past its spin: a
// task that outlasts callerSpin on a worker is still waited for, and the
// job's done signal is consumed, so that the recycled job does not find a
// stale one (the next job returning before its tasks end would fail the
// counts).
func TestPoolWaitBlocksAfterSpin(t *testing.T) {
	p := newPool(2)
	defer p.close()
	for round := range 3 {
		var finished atomic.Int64
		p.parallel(2, funcTasks(func(int) {
			time.Sleep(2 * callerSpin)
			finished.Add(1)
		}))
		require.Equal(t, int64(2), finished.Load(), "round %d", round)
		p.parallel(2, funcTasks(func(int) { finished.Add(1) }))
		require.Equal(t, int64(4), finished.Load(), "round %d", round)
	}
}

// funcTasks is a tasker whose task i is f(i).
type funcTasks func(i int)

func (f funcTasks) RunTask(i int) { f(i) }
