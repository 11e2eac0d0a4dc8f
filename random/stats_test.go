package random_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/random"
	"github.com/tensorplay/tensorplay/tensor"
)

// The statistical tests draw at fixed seeds, on 1, 2 and 8 workers (the
// same values, see TestSameValuesForAnyWorkers), and reject at
// significance 0.001: the Kolmogorov–Smirnov statistic against
// 1.95/sqrt(n), chi-square against its 0.999 quantile.

// ksStatistic is sup |F_n(x) - cdf(x)| of the sample.
func ksStatistic(sample []float64, cdf func(float64) float64) float64 {
	s := slices.Clone(sample)
	slices.Sort(s)
	n := float64(len(s))
	d := 0.0
	for i, x := range s {
		f := cdf(x)
		d = max(d, math.Abs(float64(i+1)/n-f), math.Abs(f-float64(i)/n))
	}
	return d
}

// chiSquare is the statistic of observed counts against expected ones.
func chiSquare(observed []int, expected []float64) float64 {
	x := 0.0
	for i, o := range observed {
		if expected[i] > 0 {
			d := float64(o) - expected[i]
			x += d * d / expected[i]
		}
	}
	return x
}

// chi2Critical999 is the 0.999 quantile of chi-square with df degrees of
// freedom (Wilson–Hilferty; within 1% for df >= 3).
func chi2Critical999(df int) float64 {
	const z = 3.090232 // the 0.999 quantile of the standard normal
	k := float64(df)
	c := 1 - 2/(9*k) + z*math.Sqrt(2/(9*k))
	return k * c * c * c
}

func TestKolmogorovSmirnov(t *testing.T) {
	const n = 200_000
	crit := 1.95 / math.Sqrt(n)
	for _, w := range []int{1, 2, 8} {
		g := random.New(20261201, random.Workers(w))
		t.Run(fmt.Sprint("workers=", w), func(t *testing.T) {
			u := tensor.Must(random.Uniform[float64](g, -2, 3, n)).Values()
			assert.Less(t, ksStatistic(u, func(x float64) float64 { return (x + 2) / 5 }), crit, "uniform float64")
			u32 := tensor.Must(random.Uniform[float32](g, 0, 1, n)).Values()
			f := make([]float64, n)
			for i, v := range u32 {
				f[i] = float64(v)
			}
			assert.Less(t, ksStatistic(f, func(x float64) float64 { return x }), crit, "uniform float32")
			z := tensor.Must(random.Normal[float64](g, 1, 2, n)).Values()
			normal := func(x float64) float64 { return 0.5 * math.Erfc(-(x-1)/2/math.Sqrt2) }
			assert.Less(t, ksStatistic(z, normal), crit, "normal float64")
			z32 := tensor.Must(random.Normal[float32](g, 1, 2, n)).Values()
			for i, v := range z32 {
				f[i] = float64(v)
			}
			assert.Less(t, ksStatistic(f, normal), crit, "normal float32")
			// The test can fail: a shifted distribution is rejected.
			assert.Greater(t, ksStatistic(z, func(x float64) float64 { return normal(x - 0.05) }), crit)
		})
	}
}

func TestChiSquare(t *testing.T) {
	const n = 100_000
	for _, w := range []int{1, 2, 8} {
		g := random.New(777, random.Workers(w))
		t.Run(fmt.Sprint("workers=", w), func(t *testing.T) {
			ints := tensor.Must(random.Integers[int16](g, -7, 13, n)).Values()
			counts := make([]int, 20)
			for _, v := range ints {
				counts[v+7]++
			}
			even := make([]float64, 20)
			for i := range even {
				even[i] = n / 20.0
			}
			assert.Less(t, chiSquare(counts, even), chi2Critical999(19), "integers")

			p := []float64{0.05, 0.3, 0, 0.15, 0.2, 0.1, 0.2}
			from := tensor.Must(tensor.Arange[int64](0, 7, 1))
			got := tensor.Must(random.Choice(g, from, n, random.Probabilities(p))).Values()
			counts = make([]int, 7)
			for _, v := range got {
				counts[v]++
			}
			require.Zero(t, counts[2], "a slice of probability 0 is never drawn")
			want := make([]float64, 7)
			for i := range p {
				want[i] = p[i] * n
			}
			assert.Less(t, chiSquare(counts, want), chi2Critical999(5), "choice with probabilities")

			// Without replacement: the first of 2 draws follows p, the
			// second p given the first; over many draws of 2 from 7, the
			// count of each slice in first place follows p.
			firsts := make([]int, 7)
			const trials = 10_000
			for range trials {
				d := tensor.Must(random.Choice(g, from, 2, random.WithoutReplacement(), random.Probabilities(p))).Values()
				require.NotEqual(t, d[0], d[1])
				firsts[d[0]]++
			}
			for i := range p {
				want[i] = p[i] * trials
			}
			assert.Less(t, chiSquare(firsts, want), chi2Critical999(5), "first draws without replacement")

			hits := 0
			for _, b := range tensor.Must(random.Bernoulli(g, 0.3, n)).Values() {
				if b {
					hits++
				}
			}
			assert.Less(t, chiSquare([]int{hits, n - hits}, []float64{0.3 * n, 0.7 * n}), 10.83, "bernoulli (1 df)")

			// The test can fail: uneven expectations are rejected.
			skew := slices.Clone(even)
			skew[0], skew[1] = even[0]*1.1, even[1]*0.9
			assert.Greater(t, chiSquare(countsOf(ints), skew), chi2Critical999(19))
		})
	}
}

func countsOf(ints []int16) []int {
	c := make([]int, 20)
	for _, v := range ints {
		c[v+7]++
	}
	return c
}
