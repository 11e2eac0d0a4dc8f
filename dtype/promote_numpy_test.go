package dtype_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tensorplay/tensorplay/dtype"
)

// TestPromoteNumPy checks the pairs where NumPy 1.24's promote_types and
// Promote differ, and some where they agree.
func TestPromoteNumPy(t *testing.T) {
	cases := []struct{ a, b, want dtype.DType }{
		{dtype.Int32, dtype.Float32, dtype.Float64},
		{dtype.Float32, dtype.Uint32, dtype.Float64},
		{dtype.Int64, dtype.Float32, dtype.Float64},
		{dtype.Uint64, dtype.Complex64, dtype.Complex128},
		{dtype.Int16, dtype.Float32, dtype.Float32},
		{dtype.Uint8, dtype.Complex64, dtype.Complex64},
		{dtype.Int64, dtype.Uint64, dtype.Float64},
		{dtype.Bool, dtype.Float32, dtype.Float32},
		{dtype.Float32, dtype.Float32, dtype.Float32},
		{dtype.Int8, dtype.Uint8, dtype.Int16},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, dtype.PromoteNumPy(c.a, c.b), "%s, %s", c.a, c.b)
		assert.Equal(t, c.want, dtype.PromoteNumPy(c.b, c.a), "%s, %s", c.b, c.a)
	}
}
