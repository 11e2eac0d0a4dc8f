package npy_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/tensorplay/tensorplay/interop/npy"
	"github.com/tensorplay/tensorplay/tensor"
)

const benchN = 1 << 20

func benchTensor(b *testing.B) *tensor.Tensor[float64] {
	x, err := tensor.New[float64](benchN)
	if err != nil {
		b.Fatal(err)
	}
	return x
}

func BenchmarkWrite(b *testing.B) {
	x := benchTensor(b)
	b.SetBytes(8 * benchN)
	for b.Loop() {
		if err := npy.Write(io.Discard, x); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRead(b *testing.B) {
	var buf bytes.Buffer
	if err := npy.Write(&buf, benchTensor(b)); err != nil {
		b.Fatal(err)
	}
	raw := buf.Bytes()
	for _, c := range []struct {
		name string
		r    func() io.Reader
	}{
		{"seekable", func() io.Reader { return bytes.NewReader(raw) }},
		{"stream", func() io.Reader { return io.MultiReader(bytes.NewReader(raw)) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(8 * benchN)
			for b.Loop() {
				if _, err := npy.Read[float64](c.r()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
