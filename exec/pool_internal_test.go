package exec

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// blockTasks is a tasker whose tasks wait until release is closed.
type blockTasks struct{ release chan struct{} }

func (b blockTasks) runTask(int) { <-b.release }

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
