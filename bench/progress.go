package bench

import (
	"context"
	"fmt"
	"io"
	"runtime/pprof"
	"time"
)

// progress prints a line per finished step once a run has gone on for a
// while, so short runs stay quiet and long ones show they are alive.
type progress struct {
	w     io.Writer
	after time.Duration
	start time.Time
	total int // rows
	done  int
}

func (p *progress) step(what string, isRow bool) {
	if isRow {
		p.done++
	}
	if p.w == nil {
		return
	}
	el := time.Since(p.start)
	if el < p.after {
		return
	}
	fmt.Fprintf(p.w, "tpbench: %3d/%d rows, %5.1fs: %s\n", p.done, p.total, el.Seconds(), what)
}

// sideLabels are the profiler label sets of the runner's goroutine, made
// once so that switching them allocates nothing inside a measurement.
var sideLabels = func() map[string]context.Context {
	m := map[string]context.Context{}
	for _, s := range []string{"setup", "probe", "tensorplay", "handloop"} {
		m[s] = pprof.WithLabels(context.Background(), pprof.Labels("side", s))
	}
	return m
}()

// setSide labels the calling goroutine (and the goroutines it starts, such
// as a hand loop's) with side=name for CPU profiles: -tagignore
// side=handloop|probe|setup leaves tensorplay alone. The executor's pool
// workers keep the label of the run that started them, side=tensorplay.
func setSide(name string) {
	pprof.SetGoroutineLabels(sideLabels[name])
}
