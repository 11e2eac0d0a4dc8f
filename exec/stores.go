package exec

import "slices"

// store is how a region writes one output, decided for each in planStores
// alone.
type store uint8

const (
	// storeDirect: the producing kernel writes the output's storage itself
	// (its slot is pointed there for the piece).
	storeDirect store = iota
	// storeDirectStream: as storeDirect, the kernel storing around the
	// caches (non-temporal stores, see streamBytes).
	storeDirectStream
	// storeCopied: copied from its source slot after the kernels, one
	// contiguous run per piece.
	storeCopied
	// storeCopiedStream: as storeCopied, with the streaming copy (a region
	// without kernels: x.T made contiguous).
	storeCopiedStream
	// storeScattered: written element by element by the output's strides
	// (a strided or transposed destination), or filled from a constant.
	storeScattered
)

var storeNames = [...]string{"direct", "direct, streaming stores", "copied", "copied, streaming stores", "scattered"}

func (s store) String() string { return storeNames[s] }

func (s store) direct() bool { return s == storeDirect || s == storeDirectStream }

// storeInputs is what planStores needs beyond the region: per output, the
// input slots that are exactly it, and per slot its kernel and the last
// kernel that reads it (after fusion).
type storeInputs struct {
	exact              [][]int
	producer, lastRead []int
}

// kernelWrites reports whether output oi's kernel can write it directly:
// its source is computed, a vector, no earlier output's, and nothing reads
// an input that is exactly the output after the kernel wrote it (a later
// kernel, or an earlier output's store, which comes after every kernel).
func (g *region) kernelWrites(oi int, si *storeInputs, taken map[int]bool) bool {
	o := g.outputs[oi]
	if o.src < len(g.inputs) || g.scalar[o.src] || taken[o.src] || oi >= 64 || g.kinds[oi] != accDirect {
		return false
	}
	srcs := make([]int, oi)
	for k := range srcs {
		srcs[k] = g.outputs[k].src
	}
	for _, s := range si.exact[oi] {
		if si.lastRead[s] > si.producer[o.src] || slices.Contains(srcs, s) {
			return false
		}
	}
	return true
}

// planStores sets every output's store: direct where its kernel can write
// it (kernelWrites), else copied where its runs are contiguous in it and
// scattered where not; then, for outputs of streamBytes or more together,
// the streaming forms (see streamsOutput).
func (g *region) planStores(si *storeInputs) {
	taken := map[int]bool{}
	for oi := range g.outputs {
		o := &g.outputs[oi]
		switch {
		case g.kernelWrites(oi, si, taken):
			o.store = storeDirect
			taken[o.src] = true
		case g.kinds[oi] == accDirect && !g.scalar[o.src]:
			o.store = storeCopied
		default:
			o.store = storeScattered
		}
	}
	bytes := 0
	for _, o := range g.outputs {
		bytes += g.numel * g.slotDT[o.src].Size()
	}
	if bytes < streamBytes || g.sweep != nil {
		return // a swept region writes its shadows, in cache
	}
	for oi := range g.outputs {
		if !g.streamsOutput(oi, si) {
			continue
		}
		o := &g.outputs[oi]
		g.streams = true
		if o.store == storeDirect {
			o.store = storeDirectStream
			g.instrs[si.producer[o.src]].stream = true
		} else {
			o.store = storeCopiedStream
		}
	}
}

// streamsOutput reports whether output oi, of a region whose outputs are large,
// stores around the caches: when its kernel writes it directly (or a
// region without kernels copies it), in whole cache lines, and nothing
// reads it back. An output updated in place (exact) is read anyway; one
// copied from scratch, or scattered, pays the copy; one a later kernel
// reads would be read back from memory (docs/executor.md has the numbers).
func (g *region) streamsOutput(oi int, si *storeInputs) bool {
	o := g.outputs[oi]
	if len(si.exact[oi]) > 0 || !g.wholeLines(oi, g.slotDT[o.src].Size()) {
		return false
	}
	switch o.store {
	case storeDirect:
		return si.lastRead[o.src] <= si.producer[o.src] && g.vectorized(g.instrs[si.producer[o.src]])
	case storeCopied:
		return len(g.instrs) == 0 && g.streamsCopy(o.src)
	}
	return false
}

// wholeLines reports whether output oi is written in runs that are whole
// cache lines or long (streamRow bytes): always when a block is one run;
// for a tile computed a row at a time, pieces that long or starting and
// ending on cache lines.
func (g *region) wholeLines(oi, size int) bool {
	if !g.tp.rowwise {
		return true
	}
	st := g.lay.strides[oi]
	stR := st[len(st)-2]
	return g.tp.piece*size >= streamRow ||
		stR*size%64 == 0 && g.offsets[oi]*size%64 == 0 && g.tp.c*size%64 == 0 && g.tp.piece*size%64 == 0
}

// lengthenable reports whether g reads and writes only in place (one AVX2
// kernel writing the one output directly, in runs of one row, from inputs
// that are direct or constant), so that its blocks can be long and its
// slots need no buffers (the "bufferless rows" of tileTable).
func (g *region) lengthenable(x *Executor, si *storeInputs) bool {
	if x.block > 0 || g.blocks == 0 || g.sweep != nil || g.tp.rowwise || g.tp.r != 1 || len(g.instrs) != 1 || len(g.outputs) != 1 ||
		!g.kernelWrites(0, si, nil) || !g.vectorized(g.instrs[0]) {
		return false
	}
	for _, k := range g.kinds {
		if k != accDirect && !k.constant() {
			return false
		}
	}
	return true
}
