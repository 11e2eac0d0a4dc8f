package vmath

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// laneCase is one lane fold under test: its fold and the scalar k.
type laneCase[T float32 | float64] struct {
	name string
	f    foldKind
	k    T
	zero bool // max: ±0 compare equal (which one a lane keeps is open)
}

func laneCases[T float32 | float64]() []laneCase[T] {
	return []laneCase[T]{{"max", foldMax, 0, true}, {"sum", foldSum, 0, false}, {"sqdev", foldSqDev, 0.75, false}, {"expsum", foldExpSum, 1.5, false},
		{"maxof", foldMaxOf, 0, false}, {"minof", foldMinOf, 0, false}}
}

// checkLanes checks that every fold gives its Go loop's bits whatever mix
// of vector and Go loop computes it: random arguments with a special one
// dropped in at several offsets, every length around the groups of eight
// and lengths around the unrolled loops' 32 and 64, lanes starting from
// random partials.
func checkLanes[T float32 | float64](t *testing.T, goFn, run func(f foldKind, s *[8]T, a []T, k T), special []T, bits func(T) uint64) {
	r := rand.New(rand.NewPCG(7, 8))
	lengths := []int{63, 64, 65, 79, 127, 128, 129, 200}
	for n := range 41 {
		lengths = append(lengths, n)
	}
	for _, c := range laneCases[T]() {
		t.Run(c.name, func(t *testing.T) {
			for _, n := range lengths {
				for _, sp := range []int{-1, 0, n / 2, n - 1} {
					xs := make([]T, n)
					for i := range xs {
						xs[i] = T(4*r.Float64() - 3)
					}
					if sp >= 0 && sp < n {
						xs[sp] = special[r.IntN(len(special))]
					}
					var want, got [8]T
					for l := range want {
						want[l] = T(r.Float64())
					}
					got = want
					goFn(c.f, &want, xs, c.k)
					run(c.f, &got, xs, c.k)
					for l := range want {
						if c.zero && want[l] == 0 && got[l] == 0 || want[l] != want[l] && got[l] != got[l] {
							continue // ±0 in max; NaN payloads are left open
						}
						require.Equal(t, bits(want[l]), bits(got[l]), "%s lane %d of %d elements %v", c.name, l, n, xs)
					}
				}
			}
		})
	}
}

func TestLanes32(t *testing.T) {
	checkLanes(t, lanes32Go, fold32, special32(),
		func(x float32) uint64 { return uint64(math.Float32bits(x)) })
}

func TestLanes64(t *testing.T) {
	checkLanes(t, lanes64Go, fold64, special64(), math.Float64bits)
}

// TestLaneVectorLoops checks that the vector loops, where the CPU has
// them, fold every whole group and stop at the first group off the fast
// path (a NaN for max, an argument of exp beyond its fast path).
func TestLaneVectorLoops(t *testing.T) {
	if !lanesAVX2 {
		t.Skip("no vector loops on this CPU or build")
	}
	xs := make([]float32, 37)
	var s [8]float32
	assert.Equal(t, 32, lanes32Vec(foldMax, &s, xs, 0))
	assert.Equal(t, 32, lanes32Vec(foldSum, &s, xs, 0))
	assert.Equal(t, 32, lanes32Vec(foldExpSum, &s, xs, 0))
	xs[20] = float32(math.NaN())
	assert.Equal(t, 16, lanes32Vec(foldMax, &s, xs, 0))
	xs[20] = -100
	assert.Equal(t, 16, lanes32Vec(foldExpSum, &s, xs, 0))
	assert.Equal(t, 32, lanes32Vec(foldSqDev, &s, xs, 0))
	ys := make([]float64, 21)
	var s64 [8]float64
	assert.Equal(t, 16, lanes64Vec(foldExpSum, &s64, ys, 0))
	ys[11] = math.Inf(-1)
	assert.Equal(t, 8, lanes64Vec(foldExpSum, &s64, ys, 0))
	assert.Equal(t, 16, lanes64Vec(foldMax, &s64, ys, 0))
	ys[3] = math.NaN()
	assert.Equal(t, 0, lanes64Vec(foldMax, &s64, ys, 0))
}

// TestExtremeLanesZeros checks MaxOfLanes and MinOfLanes on signed zeros
// and NaN in the lanes and in the elements, on every path: of +0 and -0
// max keeps +0 and min -0 in either order, and NaN wins.
func TestExtremeLanesZeros(t *testing.T) {
	negZero := float32(math.Copysign(0, -1))
	nan := float32(math.NaN())
	sign := func(x float32) bool { return math.Signbit(float64(x)) }
	for _, n := range []int{8, 16, 19} {
		for _, lane := range []float32{0, negZero} {
			for _, x := range []float32{0, negZero} {
				xs := make([]float32, n)
				for i := range xs {
					xs[i] = x
				}
				var mx, mn [8]float32
				for l := range mx {
					mx[l], mn[l] = lane, lane
				}
				MaxOfLanes(&mx, xs)
				MinOfLanes(&mn, xs)
				for l := range mx {
					assert.Equal(t, sign(lane) && sign(x), sign(mx[l]), "max lane %v x %v", lane, x)
					assert.Equal(t, sign(lane) || sign(x), sign(mn[l]), "min lane %v x %v", lane, x)
				}
			}
		}
		xs := make([]float32, n)
		xs[n-1] = nan
		var mx, mn [8]float32
		mx[1], mn[2] = nan, nan
		MaxOfLanes(&mx, xs)
		MinOfLanes(&mn, xs)
		assert.True(t, mx[1] != mx[1] && mn[2] != mn[2], "a NaN in a lane stays")
		assert.True(t, mx[(n-1)%8] != mx[(n-1)%8] && mn[(n-1)%8] != mn[(n-1)%8], "a NaN element wins")
		assert.Equal(t, float32(0), mx[0]+mn[0])
	}
	if lanesAVX2 {
		var s [8]float32
		xs := make([]float32, 24)
		assert.Equal(t, 24, lanes32Vec(foldMaxOf, &s, xs, 0))
		s[5] = nan
		assert.Equal(t, 0, lanes32Vec(foldMinOf, &s, xs, 0), "a NaN lane leaves the vector loop")
	}
}

// TestLanesNoAlloc checks that a caller's lanes stay on its stack.
func TestLanesNoAlloc(t *testing.T) {
	xs := make([]float32, 100)
	allocs := testing.AllocsPerRun(10, func() {
		var s [8]float32
		ExpSumLanes(&s, xs, 1)
		SumLanes(&s, xs)
		if s[0] < 0 {
			t.Fatal(s)
		}
	})
	assert.Zero(t, allocs)
}

// TestLanesExported checks the exported folds against plain loops over
// math: lanes in order, exp within Exp's accuracy.
func TestLanesExported(t *testing.T) {
	xs := []float64{1, -2, 3.5, 0.25, -1, 2, 7, -3, 0.5, 9}
	var mx, sm, sq, ex [8]float64
	for l := range mx {
		mx[l] = math.Inf(-1)
	}
	MaxLanes(&mx, xs)
	SumLanes(&sm, xs)
	SqDevLanes(&sq, xs, 1)
	ExpSumLanes(&ex, xs, 9)
	assert.Equal(t, [8]float64{1, 9, 3.5, 0.25, -1, 2, 7, -3}, mx)
	assert.Equal(t, [8]float64{1.5, 7, 3.5, 0.25, -1, 2, 7, -3}, sm)
	assert.Equal(t, [8]float64{0.25, 64 + 9, 6.25, 0.5625, 4, 1, 36, 16}, sq)
	for l, want := range []float64{math.Exp(-8) + math.Exp(0.5-9), math.Exp(-11) + 1, math.Exp(-5.5)} {
		assert.InEpsilon(t, want, ex[l], 1e-15, "lane %d", l)
	}
	var f [8]float32
	SumLanes(&f, []float32{1, 2, 3})
	assert.Equal(t, [8]float32{1, 2, 3}, f)
}
