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

// draws makes one of every kind of call on g, in a fixed sequence, and
// returns their values.
func draws(t *testing.T, g *random.Generator) []any {
	t.Helper()
	u, err := random.Uniform[float64](g, -1, 2, 3, 40_000)
	require.NoError(t, err)
	u32, err := random.Uniform[float32](g, 0, 1, 50_001)
	require.NoError(t, err)
	n, err := random.Normal[float64](g, 1, 2, 70_000)
	require.NoError(t, err)
	i, err := random.Integers[int8](g, -5, 5, 33_333)
	require.NoError(t, err)
	b, err := random.Bernoulli(g, 0.3, 20_000)
	require.NoError(t, err)
	p, err := random.Permutation(g, 1000)
	require.NoError(t, err)
	from := tensor.Must(tensor.Arange[int64](0, 10, 1))
	c, err := random.Choice(g, from, 100, random.Probabilities([]float64{0.1, 0, 0.2, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}))
	require.NoError(t, err)
	return []any{u.Values(), u32.Values(), n.Values(), i.Values(), b.Values(), p.Values(), c.Values()}
}

// TestSameValuesForAnyWorkers checks that a seed and a call sequence give
// the same tensors on 1, 2 and 8 workers, and another seed other ones.
func TestSameValuesForAnyWorkers(t *testing.T) {
	want := draws(t, random.New(42, random.Workers(1)))
	for _, w := range []int{2, 8} {
		t.Run(fmt.Sprint("workers=", w), func(t *testing.T) {
			assert.Equal(t, want, draws(t, random.New(42, random.Workers(w))))
		})
	}
	other := draws(t, random.New(43))
	for k := range want {
		assert.NotEqual(t, want[k], other[k], "draw %d with another seed", k)
	}
}

// TestCallsDiffer checks that successive calls draw new values.
func TestCallsDiffer(t *testing.T) {
	g := random.New(1)
	a := tensor.Must(random.Uniform[float64](g, 0, 1, 100)).Values()
	b := tensor.Must(random.Uniform[float64](g, 0, 1, 100)).Values()
	assert.NotEqual(t, a, b)
}

// TestRanges checks that every value lies where its function says.
func TestRanges(t *testing.T) {
	g := random.New(7)
	for _, v := range tensor.Must(random.Uniform[float32](g, 1, 1.0000001, 10_000)).Values() {
		require.True(t, v >= 1 && v < 1.0000001, "%v", v)
	}
	seen := map[uint8]bool{}
	for _, v := range tensor.Must(random.Integers[uint8](g, 250, 255, 10_000)).Values() {
		require.True(t, v >= 250 && v < 255, "%v", v)
		seen[v] = true
	}
	assert.Len(t, seen, 5)
	for _, v := range tensor.Must(random.Integers[int64](g, math.MinInt64, math.MaxInt64, 1000)).Values() {
		require.Less(t, v, int64(math.MaxInt64))
	}
	p := tensor.Must(random.Permutation(g, 500)).Values()
	sorted := slices.Clone(p)
	slices.Sort(sorted)
	for i, v := range sorted {
		require.Equal(t, int64(i), v)
	}
	assert.NotEqual(t, sorted, p)
	from := tensor.Must(tensor.Arange[int32](0, 20, 1))
	c := tensor.Must(random.Choice(g, from, 20, random.WithoutReplacement())).Values()
	slices.Sort(c)
	assert.Equal(t, from.Values(), c, "without replacement: every slice once")
	zero := tensor.Must(random.Bernoulli(g, 0, 100)).Values()
	assert.NotContains(t, zero, true)
	one := tensor.Must(random.Bernoulli(g, 1, 100)).Values()
	assert.NotContains(t, one, false)
}

// TestChoiceSlicesAndShuffle checks Choice of rows and Shuffle in place of
// a strided view.
func TestChoiceSlicesAndShuffle(t *testing.T) {
	g := random.New(3)
	m := tensor.Must(tensor.Arange[float64](0, 12, 1))
	m = tensor.Must(m.Reshape(4, 3))
	rows := tensor.Must(random.Choice(g, m, 6))
	require.Equal(t, tensor.Shape{6, 3}, rows.Shape())
	v := rows.Values()
	for i := range 6 {
		r := v[i*3 : i*3+3]
		assert.Equal(t, r[0]+1, r[1])
		assert.Equal(t, r[0]+2, r[2])
		assert.Equal(t, 0.0, math.Mod(r[0], 3))
	}
	// Shuffle the columns of m through its transpose.
	mt := tensor.Must(m.Permute(1, 0))
	require.NoError(t, random.Shuffle(g, mt))
	got := m.Values()
	for r := range 4 {
		row := slices.Clone(got[r*3 : r*3+3])
		slices.Sort(row)
		assert.Equal(t, []float64{float64(3 * r), float64(3*r + 1), float64(3*r + 2)}, row)
	}
	// Every row was permuted the same way.
	for r := 1; r < 4; r++ {
		for c := range 3 {
			assert.Equal(t, got[c]+float64(3*r), got[r*3+c])
		}
	}
}

// TestErrors checks the typed errors and their texts.
func TestErrors(t *testing.T) {
	g := random.New(1)
	var argErr *tensor.ArgError
	_, err := random.Uniform[float64](g, 1, 1, 3)
	require.ErrorAs(t, err, &argErr)
	assert.EqualError(t, err, "Uniform: the bounds must be finite with lo < hi, got [1, 1)")
	_, err = random.Uniform[float32](g, -math.MaxFloat32, math.MaxFloat32, 3)
	assert.ErrorAs(t, err, &argErr)
	_, err = random.Normal[float64](g, 0, -1, 3)
	assert.ErrorAs(t, err, &argErr)
	_, err = random.Integers[int32](g, 5, 5, 3)
	assert.EqualError(t, err, "Integers: hi (5) must exceed lo (5)")
	_, err = random.Bernoulli(g, 1.5, 3)
	assert.ErrorAs(t, err, &argErr)
	_, err = random.Permutation(g, -1)
	assert.ErrorAs(t, err, &argErr)
	from := tensor.Must(tensor.Arange[float64](0, 3, 1))
	_, err = random.Choice(g, from, 4, random.WithoutReplacement())
	assert.EqualError(t, err, "Choice: cannot take a larger sample (4) than the population (3) without replacement")
	_, err = random.Choice(g, from, 1, random.Probabilities([]float64{0.5, 0.5}))
	assert.EqualError(t, err, "Choice: 2 probabilities for 3 slices")
	_, err = random.Choice(g, from, 1, random.Probabilities([]float64{0.5, 0.6, -0.1}))
	assert.ErrorAs(t, err, &argErr)
	_, err = random.Choice(g, from, 1, random.Probabilities([]float64{0.5, 0.4, 0}))
	assert.EqualError(t, err, "Choice: probabilities sum to 0.9, not 1")
	_, err = random.Choice(g, from, 2, random.WithoutReplacement(), random.Probabilities([]float64{1, 0, 0}))
	assert.ErrorAs(t, err, &argErr)
	_, err = random.Choice[float64](g, nil, 1)
	assert.ErrorAs(t, err, &argErr)
	assert.ErrorAs(t, random.Shuffle[float64](g, nil), &argErr)
	_, err = random.Normal[float64](g, 0, 1, -2)
	assert.Error(t, err)
	_, err = random.Uniform[float64](g, 0, 1, math.MaxInt64, 4)
	assert.Error(t, err, "an overflowing shape")
}

// A seeded generator gives the same numbers on every run and any number
// of workers.
func ExampleNew() {
	g := random.New(2026)
	x, _ := random.Integers[int64](g, 0, 10, 8)
	fmt.Println(x.Values())
	y, _ := random.Integers[int64](random.New(2026, random.Workers(8)), 0, 10, 8)
	fmt.Println(slices.Equal(x.Values(), y.Values()))
	// Output:
	// [2 2 9 0 5 3 2 6]
	// true
}
