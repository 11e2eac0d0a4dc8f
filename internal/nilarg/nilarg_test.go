package nilarg_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/internal/nilarg"
	"github.com/tensorplay/tensorplay/tensor"
)

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

type sliceReader []byte

func (s sliceReader) Read(p []byte) (int, error) { return 0, io.EOF }

func TestIs(t *testing.T) {
	cases := []struct {
		name string
		v    any
		want bool
	}{
		{"nil", nil, true},
		{"typed nil pointer", (*bytes.Reader)(nil), true},
		{"typed nil in an interface", io.Reader((*bytes.Buffer)(nil)), true},
		{"nil func", readerFunc(nil), true},
		{"pointer", bytes.NewReader(nil), false},
		{"nil slice type", sliceReader(nil), false},
		{"value", 3, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, nilarg.Is(c.v))
		})
	}
}

func TestCheck(t *testing.T) {
	assert.NoError(t, nilarg.Check("f", "r", bytes.NewReader(nil)))
	err := nilarg.Check("pkg.F", "r", (*bytes.Reader)(nil))
	var ae *tensor.ArgError
	require.ErrorAs(t, err, &ae)
	assert.EqualError(t, err, "pkg.F: r is nil")
}
