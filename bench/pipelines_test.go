package bench

import (
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestPipelinesMatchReference runs every small pipeline once per worker
// count and requires its check against the Go reference to pass, then
// spoils one output element and requires the check to fail.
func TestPipelinesMatchReference(t *testing.T) {
	for _, workers := range []int{1, 3} {
		x := exec.New(exec.Workers(workers))
		for _, w := range Pipelines() {
			if !strings.HasSuffix(w.Name, "/s") {
				continue
			}
			t.Run(w.Name, func(t *testing.T) {
				c, err := w.Setup(Params{Workers: workers, Exec: x, Seed: 1})
				require.NoError(t, err)
				require.NoError(t, c.Tensorplay())
				require.NoError(t, c.Check(), "workers %d", workers)
				assert.Positive(t, c.Bytes)
				assert.Positive(t, c.Flops)

				require.NotNil(t, c.Peer)
				outs := c.Peer.Outputs()
				require.NotEmpty(t, outs)
				switch o := outs[0].(type) {
				case *tensor.Tensor[float32]:
					o.Data()[0] += 0.5
				case *tensor.Tensor[float64]:
					o.Data()[0] += 0.5
				default:
					t.Fatalf("output of type %T", o)
				}
				var mm *MismatchError
				assert.ErrorAs(t, c.Check(), &mm, "a wrong output is caught")
			})
		}
	}
}

func TestSuites(t *testing.T) {
	count := map[string]int{}
	seen := map[string]bool{}
	for _, w := range All() {
		assert.False(t, seen[w.Name], "duplicate %s", w.Name)
		seen[w.Name] = true
		count[w.Suite]++
		assert.Equal(t, w.Suite != "", w.Fixed, "%s: the suites with sizes of their own", w.Name)
	}
	assert.Equal(t, map[string]int{"": 24, "pipelines": 18, "matmul": 21, "conv": 2}, count)
	for _, w := range OutOfCore() {
		assert.Equal(t, "outofcore", w.Suite, w.Name)
		assert.True(t, w.Fixed, w.Name)
	}
	suites, err := parseSuites("pipelines, matmul")
	require.NoError(t, err)
	assert.Equal(t, []string{"pipelines", "matmul"}, suites)
	suites, err = parseSuites("all")
	require.NoError(t, err)
	assert.Equal(t, Suites, suites)
	assert.NotContains(t, suites, "outofcore", "8 GiB on disk only when named")
	suites, err = parseSuites("outofcore")
	require.NoError(t, err)
	assert.Equal(t, []string{"outofcore"}, suites)
	_, err = parseSuites("fast")
	assert.EqualError(t, err, `"fast": want standard, pipelines, matmul, conv, outofcore or all`)
	assert.True(t, inSuites(Workload{}, []string{"standard"}), "a workload of your own is standard")
}

func TestFixedWorkloadsRunOnce(t *testing.T) {
	rep, err := Run(Options{Sizes: []int{10, 20}, Reps: 1, NoProbe: true},
		Workload{Name: "fixed", Fixed: true, Setup: peerWorkload("x", false).Setup},
		peerWorkload("sized", false))
	require.NoError(t, err)
	var names []string
	for _, r := range rep.Rows {
		names = append(names, r.Name)
	}
	assert.Equal(t, []string{"fixed", "sized", "sized"}, names)
}

// TestPipelineStepsAllocateNothing is the pipelines issue's allocation bar:
// a step of every pipeline, small and large, built once as the docs teach
// and run again into its preallocated outputs, allocates nothing: the
// views of its tensors, the tasks of its products and row loops, its
// region states, staging and scratch are all kept by its plan. Before the
// plans kept them, every step of most pipelines allocated 2 to 18 times.
//
// The steps run on two workers but one P (GOMAXPROCS 1, as
// testing.AllocsPerRun does), and the count is the fewest allocations of
// four windows of 10 steps: the Go runtime itself allocates now and then
// (a goroutine that blocks may find no free sudog on its P; tpbench's
// allocs column, on two Ps, shows 0 to 0.8 a step), while an allocation
// of the step's own is in every window.
func TestPipelineStepsAllocateNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items")
	}
	const warm, windows, steps = 10, 4, 10
	x := exec.New(exec.Workers(2))
	defer x.Close()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, w := range Pipelines() {
		t.Run(w.Name, func(t *testing.T) {
			c, err := w.Setup(Params{Workers: 2, Exec: x, Seed: 1})
			require.NoError(t, err)
			runtime.GC()     // now, rather than emptying sync.Pools while counting
			for range warm { // the first plans the step; all fill the plan's pools
				require.NoError(t, c.Tensorplay())
			}
			fewest := uint64(math.MaxUint64)
			for range windows {
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				for range steps {
					_ = c.Tensorplay()
				}
				runtime.ReadMemStats(&after)
				fewest = min(fewest, after.Mallocs-before.Mallocs)
			}
			assert.Zero(t, fewest, "allocations in the quietest window of %d steps", steps)
		})
	}
}
