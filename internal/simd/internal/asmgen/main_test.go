package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGeneratedFilesAreCurrent fails when the checked-in files differ from
// what the generator writes: run go generate in internal/simd.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	asm, goSrc := generate()
	for name, want := range map[string][]byte{"simd_amd64.s": asm, "simd_amd64.go": goSrc} {
		got, err := os.ReadFile("../../" + name)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), "%s is stale: run go generate in internal/simd", name)
	}
}

// TestRegisterBank: a kernel with a fourth vector operand would spill into
// the mask and scalar registers; the generator refuses it.
func TestRegisterBank(t *testing.T) {
	for _, k := range kernels() {
		assert.NoError(t, checkRegisters(k), k.name)
	}
	four := kernel{name: "four", scalar: []bool{false, false, false, false}, body: bin("add", bin("mul", leaf(0), leaf(1)), bin("mul", leaf(2), leaf(3)))}
	assert.EqualError(t, checkRegisters(four), "asmgen: kernel four reads 4 vector operands; a register bank holds 3")
	scalar := kernel{name: "scalar", scalar: []bool{false, false, true, false}, body: bin("add", bin("mul", leaf(0), leaf(1)), bin("mul", leaf(2), leaf(3)))}
	assert.NoError(t, checkRegisters(scalar), "a scalar operand lives in Y15")
}

// TestStreamingStoresPlacement reads the generated assembly: only the
// Stream functions store non-temporally, and only in their unrolled loops,
// after a peel that aligns d to a cache line (the aligned: label) and
// before the one-vector loop (one:), so that only whole lines bypass the
// cache. Every function has its unrolled loop in both load forms: split
// loads (VINSERTF128) only between split: and one:, chosen by one test of
// splitLoads.
func TestStreamingStoresPlacement(t *testing.T) {
	asm, _ := generate()
	funcs := strings.Split(string(asm), "\nTEXT ·")[1:]
	require.NotEmpty(t, funcs)
	streams := 0
	boolFuncs := string(boolAsm())
	for _, f := range funcs {
		name, _, _ := strings.Cut(f, "(")
		if split, one := strings.Index(f, "\nsplit:"), strings.Index(f, "\none:"); split > 0 && one > split {
			assert.Equal(t, 1, strings.Count(f, "CMPB ·splitLoads(SB)"), "%s: one choice of load form", name)
			assert.Positive(t, strings.Count(f[split:one], "VINSERTF128"), "%s: no split loads", name)
			assert.Equal(t, strings.Count(f, "VINSERTF128"), strings.Count(f[split:one], "VINSERTF128"), "%s: a split load outside the split loop", name)
		} else if !strings.Contains(boolFuncs, "TEXT ·"+name+"(") && name != "Fence" {
			assert.Fail(t, "no split: before one:", name) // only the comparison loops and Fence have none
		}
		nt := strings.Count(f, "VMOVNTP")
		if !strings.Contains(name, "Stream") {
			assert.Zero(t, nt, "%s stores non-temporally", name)
			continue
		}
		streams++
		aligned, one := strings.Index(f, "\naligned:"), strings.Index(f, "\none:")
		require.True(t, aligned > 0 && one > aligned, "%s: no aligned: before one:", name)
		assert.Equal(t, nt, strings.Count(f[aligned:one], "VMOVNTP"), "%s: a non-temporal store outside the unrolled loops", name)
		assert.Contains(t, f[:aligned], "TESTQ $63", "%s: the peel does not align d to a cache line", name)
		assert.Positive(t, nt, "%s never stores non-temporally", name)
	}
	bools := strings.Count(string(boolAsm()), "TEXT ·") // no streaming forms
	assert.Equal(t, (len(funcs)-bools)/2, streams, "one Stream form per loop (plus Fence)")
}

// canon writes n with operand k renamed perm[k] and the operands of every
// commutative op in a fixed order: two kernels with the same canon compute
// the same bits.
func canon(n *node, scalar []bool, perm []int) string {
	if n.op == "" {
		kind := "v"
		if scalar[n.arg] {
			kind = "s"
		}
		return fmt.Sprintf("%s%d", kind, perm[n.arg])
	}
	kids := make([]string, len(n.kids))
	for i, k := range n.kids {
		kids[i] = canon(k, scalar, perm)
	}
	if commutes(n.op) {
		slices.Sort(kids)
	}
	return n.op + "(" + strings.Join(kids, ",") + ")"
}

// TestTwinsComputeTheSame: every kernel without a loop of its own runs one
// that computes its expression, with the arguments its wrapper passes
// (x and y exchanged with swap), up to commutative ops' operand order; and
// the cut is exactly the SV forms of add and mul and the R forms of fused
// pairs under add and mul.
func TestTwinsComputeTheSame(t *testing.T) {
	lists := map[string][]kernel{"float": kernels()}
	for _, e := range intElems {
		lists[e.goType] = intKernels(e)
	}
	for name, ks := range lists {
		for _, k := range ks {
			if k.runs == "" {
				assert.False(t, k.swap, "%s %s", name, k.name)
				continue
			}
			loop, _, own := twinOf(ks, k, elems[0])
			require.False(t, own)
			perm := []int{0, 1, 2}
			if k.swap {
				perm[0], perm[1] = 1, 0 // loop's x is k's y
			}
			assert.Equal(t, canon(k.body, k.scalar, []int{0, 1, 2}), canon(loop.body, loop.scalar, perm), "%s %s runs %s", name, k.name, loop.name)
			fused := strings.HasPrefix(k.name, "fuse")
			assert.True(t, fused && strings.Contains(k.name, "R") && !k.swap || !fused && strings.HasSuffix(k.name, "SV") && k.swap, "%s %s", name, k.name)
			assert.True(t, commutes(k.body.op), "%s %s", name, k.name)
		}
	}
	cut := 0
	for _, k := range kernels() {
		if k.runs != "" {
			cut++
		}
	}
	assert.Equal(t, 2+2*3*2, cut, "addSV, mulSV and the R forms (plain and scalar y) of add∘ and mul∘ pairs")
}

// TestUnsignedLoopsAreTheSigned: an unsigned type's loops would be its
// signed twin's, instruction for instruction, so it has none of its own.
func TestUnsignedLoopsAreTheSigned(t *testing.T) {
	unsigned := 0
	for _, e := range intElems {
		s, ok := signedTwin(e)
		if !ok {
			continue
		}
		unsigned++
		for _, k := range intKernels(e) {
			for _, stream := range []bool{false, true} {
				gu, gs := &gen{e: e, k: k, stream: stream}, &gen{e: s, k: k, stream: stream}
				gu.function()
				gs.function()
				renamed := strings.ReplaceAll(gu.buf.String(), asmName(k, e, stream), asmName(k, s, stream))
				renamed = strings.ReplaceAll(renamed, "[]"+e.goType, "[]"+s.goType)
				renamed = strings.ReplaceAll(renamed, " "+e.goType, " "+s.goType)
				assert.Equal(t, gs.buf.String(), renamed, "%s %s", e.goType, k.name)
			}
		}
	}
	assert.Equal(t, 4, unsigned)
}

// TestNoDuplicateLoops: no two functions of the generated assembly have
// the same instructions (a duplicate would belong in twinOf).
func TestNoDuplicateLoops(t *testing.T) {
	asm, _ := generate()
	seen := map[string]string{}
	funcs := strings.Split(string(asm), "\nTEXT ·")[1:]
	require.NotEmpty(t, funcs)
	for _, f := range funcs {
		name, body, _ := strings.Cut(f, "\n")
		name, _, _ = strings.Cut(name, "(")
		body, _, _ = strings.Cut(body, "\n// func ") // the next function's comment
		if other, dup := seen[body]; dup {
			t.Errorf("%s has the instructions of %s", name, other)
		}
		seen[body] = name
	}
}
