package bench

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/interop/npy"
	"github.com/tensorplay/tensorplay/tensor"
)

// OutOfCore returns the outofcore suite (tpbench -suite outofcore, never
// part of "all"): a reduction over a memory-mapped .npy file of 8 GiB
// (TPBENCH_OUTOFCORE_GIB sets another size; TPBENCH_OUTOFCORE_DIR the
// directory, by default the system's temporary one), against the file's
// sequential read speed measured in the same run: the hand loop reads the
// file once with plain 4 MiB reads and sums it. The file is written once
// at setup and removed after the row.
//
// The page cache: the file is flushed when written, and every run of
// either side first drops its pages from the cache (posix_fadvise
// POSIX_FADV_DONTNEED, which discards clean cached pages of the file), so
// both sides read it from the disk, whatever the machine's memory. Where
// the disk has less room than the size and 1 GiB besides, the row uses the
// largest whole number of GiB that fits, and its shape says so.
func OutOfCore() []Workload {
	return []Workload{{
		Name: "ooc/sum", Description: "sum(x*x) over a mapped .npy f64; hand: plain sequential reads",
		Bound: MemoryBound, Setup: oocSumCase, Suite: "outofcore", Fixed: true,
	}}
}

// oocSumCase writes the file and returns the case over it.
func oocSumCase(p Params) (*Case, error) {
	gib := 8
	if s := os.Getenv("TPBENCH_OUTOFCORE_GIB"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			return nil, fmt.Errorf("TPBENCH_OUTOFCORE_GIB=%q: want a whole number of GiB, at least 1", s)
		}
		gib = v
	}
	dir := os.Getenv("TPBENCH_OUTOFCORE_DIR")
	if dir == "" {
		dir = os.TempDir()
	}
	shape := fmt.Sprintf("%d GiB", gib)
	if free, err := freeBytes(dir); err == nil && free < int64(gib+1)<<30 {
		fits := int(free>>30) - 1
		if fits < 1 {
			return nil, fmt.Errorf("%s has %d MiB free: the outofcore suite needs 2 GiB or more", dir, free>>20)
		}
		gib, shape = fits, fmt.Sprintf("%d GiB (all the disk allows, of %d)", fits, gib)
	}
	const cols = 1 << 10
	rows := gib << 30 / 8 / cols
	path := filepath.Join(dir, fmt.Sprintf("tpbench-outofcore-%d.npy", os.Getpid()))
	w, err := npy.CreateMapped[float64](path, rows, cols)
	if err != nil {
		return nil, err
	}
	x := p.Exec
	// The file's rows are i/rows + j/cols: known values, written in bands
	// by the executor (which releases each band's pages).
	fill := func() error {
		i, err := tensor.Arange[float64](0, float64(rows), 1)
		if err != nil {
			return err
		}
		if i, err = i.Reshape(rows, 1); err != nil {
			return err
		}
		j, err := tensor.Arange[float64](0, cols, 1)
		if err != nil {
			return err
		}
		e := expr.Of(i).MulScalar(1 / float64(rows)).Add(expr.Of(j).MulScalar(1.0 / cols))
		return exec.EvalToWith(x, w.Tensor(), e)
	}
	if err := errors.Join(fill(), w.Close()); err != nil {
		os.Remove(path)
		return nil, err
	}
	m, err := npy.OpenMapped[float64](path, npy.ReadOnly)
	if err != nil {
		os.Remove(path)
		return nil, err
	}
	var got, want float64
	c := &Case{
		Shape:    fmt.Sprintf("%s, %dx%d", shape, rows, cols),
		Bytes:    int64(rows) * cols * 8,
		Flops:    2 * int64(rows) * cols,
		MaxReps:  3,
		NoWarmup: true,
		Cleanup:  func() { m.Close(); os.Remove(path) },
	}
	c.Tensorplay = func() error {
		if err := dropCache(path); err != nil {
			return err
		}
		a := expr.Of(m.Tensor())
		s, err := exec.EvalWith(x, a.Mul(a).Sum())
		if err != nil {
			return err
		}
		got, err = s.Item()
		return err
	}
	c.HandLoop = func() error {
		if err := dropCache(path); err != nil {
			return err
		}
		var err error
		want, err = sumSquaresFile(path)
		return err
	}
	c.Check = func() error {
		if math.Abs(got-want) <= 1e-9*math.Abs(want) {
			return nil
		}
		return &MismatchError{Got: got, Want: want, Len: 1}
	}
	return c, nil
}

// sumSquaresFile reads the .npy file at path from start to end with plain
// 4 MiB reads, in order, and sums the squares of its float64 data.
func sumSquaresFile(path string) (float64, error) {
	h, err := npy.LoadHeader(path)
	if err != nil {
		return 0, err
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	n, _ := h.Shape.Numel()
	dataOff := fi.Size() - int64(n)*8
	if _, err := f.Seek(dataOff, io.SeekStart); err != nil {
		return 0, err
	}
	buf := make([]byte, 4<<20)
	var s float64
	for {
		k, err := io.ReadFull(f, buf)
		for i := 0; i+8 <= k; i += 8 {
			v := math.Float64frombits(binary.LittleEndian.Uint64(buf[i:]))
			s += v * v
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return s, nil
		}
		if err != nil {
			return 0, err
		}
	}
}
