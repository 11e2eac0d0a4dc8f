package npy_test

import (
	"bytes"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/tensorplay/tensorplay/interop/npy"
	"github.com/tensorplay/tensorplay/tensor"
)

func Example() {
	x, _ := tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)

	var buf bytes.Buffer // any io.Writer: a file, a network connection
	if err := npy.Write(&buf, x); err != nil {
		log.Fatal(err)
	}
	y, err := npy.Read[float32](&buf)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(y.Shape(), y.Values())
	// Output: [2, 3] [1 2 3 4 5 6]
}

func ExampleSave() {
	dir, _ := os.MkdirTemp("", "npy")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "x.npy")

	x, _ := tensor.FromSlice([]int64{10, 20, 30}, 3)
	if err := npy.Save(path, x); err != nil { // np.save(path, x)
		log.Fatal(err)
	}
	y, err := npy.Load[int64](path) // np.load(path)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(y.Values())
	// Output: [10 20 30]
}

func ExampleLoad_fortranOrder() {
	// NumPy wrote this file from np.asfortranarray(...): the tensor is a
	// column-major view of the data as stored.
	x, err := npy.Load[float64](filepath.Join("testdata", "float64_f.npy"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(x.Shape(), x.Strides(), x.Values())
	// Output: [2, 3] [1 2] [0 1.5 -2.25 0.125 1024 +Inf]
}

func ExampleLoad_dtypeMismatch() {
	_, err := npy.Load[float32](filepath.Join("testdata", "float64.npy"))
	var e *npy.DTypeError
	if errors.As(err, &e) {
		fmt.Println(e.File, e.Want)
		fmt.Println(err)
	}
	// Output:
	// float64 float32
	// npy: file holds float64, cannot read it into a Tensor[float32] of float32 (ReadConvert converts)
}

func ExampleReadConvert() {
	x, _ := tensor.FromSlice([]int16{-2, 0, 7}, 3)
	var buf bytes.Buffer
	_ = npy.Write(&buf, x)

	y, err := npy.ReadConvert[float64](&buf) // np.load(f).astype(np.float64)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(y.DType(), y.Values())
	// Output: float64 [-2 0 7]
}

func ExampleReadAny() {
	x, _ := tensor.FromSlice([]complex64{1 + 2i}, 1)
	var buf bytes.Buffer
	_ = npy.Write(&buf, x)

	a, err := npy.ReadAny(&buf)
	if err != nil {
		log.Fatal(err)
	}
	switch t := a.(type) {
	case *tensor.Tensor[float64]:
		fmt.Println("float64", t.Values())
	case *tensor.Tensor[complex64]:
		fmt.Println("complex64", t.Values())
	}
	// Output: complex64 [(1+2i)]
}

func ExampleLoadNPZ() {
	// testdata/arrays.npz is np.savez(path, a=..., b=..., c=...).
	arrays, err := npy.LoadNPZ(filepath.Join("testdata", "arrays.npz"))
	if err != nil {
		log.Fatal(err)
	}
	for _, name := range []string{"a", "b", "c"} {
		fmt.Println(name, arrays[name].DType(), arrays[name].Shape())
	}
	// Output:
	// a int32 [2, 3]
	// b float64 []
	// c complex64 [0]
}

func ExampleOpenNPZ() {
	a, err := npy.OpenNPZ(filepath.Join("testdata", "arrays_z.npz"))
	if err != nil {
		log.Fatal(err)
	}
	defer a.Close()
	x, err := npy.ReadNPZ[int32](a, "a")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(a.Names(), x.Values()[:4])
	// Output: [a b c] [0 1 -1 42]
}

func ExampleSaveNPZ() {
	dir, _ := os.MkdirTemp("", "npz")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "model.npz")

	w, _ := tensor.FromSlice([]float32{0.5, -0.5}, 1, 2)
	b, _ := tensor.FromSlice([]float32{0.1}, 1)
	err := npy.SaveNPZ(path, map[string]tensor.Any{"w": w, "b": b}) // np.savez(path, w=w, b=b)
	if err != nil {
		log.Fatal(err)
	}
	arrays, _ := npy.LoadNPZ(path)
	fmt.Println(arrays["w"].Shape(), arrays["b"].Shape())
	// Output: [1, 2] [1]
}

func ExampleNPZWriter() {
	var buf bytes.Buffer
	w := npy.NewNPZWriter(&buf)
	w.Compressed = true // as np.savez_compressed
	x, _ := tensor.FromSlice([]uint8{1, 2, 3}, 3)
	if err := w.Add("x", x); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	a, _ := npy.NewNPZ(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	y, _ := npy.ReadNPZ[uint8](a, "x")
	fmt.Println(a.Names(), y.Values())
	// Output: [x] [1 2 3]
}

func ExampleLoadHeader() {
	// Learn a file's dtype and shape without reading its data.
	h, err := npy.LoadHeader(filepath.Join("testdata", "int16_be.npy"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(h.DType, h.Shape, h.Fortran, h.ByteOrder)
	// Output: int16 [2, 3] false BigEndian
}
