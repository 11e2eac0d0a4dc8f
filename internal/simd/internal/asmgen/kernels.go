package main

// This file is the kernel table: element types, ops and which kernels
// share a loop.

import (
	"log"
	"slices"
	"strings"
)

// elem describes one element type's instructions.
type elem struct {
	goType string // float64
	suffix string // 64, in function names
	size   int    // bytes per element
	lanes  int    // elements per YMM register
	packed string // PD or PS, the packed moves' suffix
	single string // SD or SS, the single-element moves' suffix (4 and 8 bytes)
	bcast  string // the scalar broadcast: VBROADCASTSD, VBROADCASTSS, VPBROADCASTW or B
	shift  string // Q, D, W or B: the lane-wide integer instructions' suffix
	width  int    // lane width in bits
	// integer: add, sub and mul are VPADD, VPSUB and VPMULL (wrapping, as
	// Go's integer arithmetic). Vectors are loaded and stored with the
	// float moves (bits are bits), single elements of 4 and 8 bytes too;
	// those of 1 and 2 bytes with VPINSR and VPEXTR (see tailLoad), which
	// leave packed and single unused.
	integer bool
}

var elems = []elem{
	{"float64", "64", 8, 4, "PD", "SD", "VBROADCASTSD", "Q", 64, false},
	{"float32", "32", 4, 8, "PS", "SS", "VBROADCASTSS", "D", 32, false},
}

// intElems have add and sub loops, and mul for the 16- and 32-bit ones
// (AVX2 has no 8- or 64-bit multiply), in the binary forms only; the
// unsigned ones run their signed twins' (signedTwin). The 8- and 16-bit
// ones move single elements with VPINSR/VPEXTR (see tailLoad).
var intElems = []elem{
	{"int64", "I64", 8, 4, "PD", "SD", "VBROADCASTSD", "Q", 64, true},
	{"uint64", "U64", 8, 4, "PD", "SD", "VBROADCASTSD", "Q", 64, true},
	{"int32", "I32", 4, 8, "PS", "SS", "VBROADCASTSS", "D", 32, true},
	{"uint32", "U32", 4, 8, "PS", "SS", "VBROADCASTSS", "D", 32, true},
	{"int16", "I16", 2, 16, "PS", "SS", "VPBROADCASTW", "W", 16, true},
	{"uint16", "U16", 2, 16, "PS", "SS", "VPBROADCASTW", "W", 16, true},
	{"int8", "I8", 1, 32, "PS", "SS", "VPBROADCASTB", "B", 8, true},
	{"uint8", "U8", 1, 32, "PS", "SS", "VPBROADCASTB", "B", 8, true},
}

// node is an expression: a leaf operand (arg >= 0) or an op over kids.
type node struct {
	op   string // add, sub, mul, div, neg, abs, sqrt, square, copy, relu, sign; "" for a leaf
	arg  int    // the operand's position after d, for a leaf
	kids []*node
}

func leaf(i int) *node                { return &node{arg: i} }
func bin(op string, l, r *node) *node { return &node{op: op, arg: -1, kids: []*node{l, r}} }
func un(op string, x *node) *node     { return &node{op: op, arg: -1, kids: []*node{x}} }

// kernel is one generated function: d[i] = body over the operands, where
// scalar[k] says operand k is a scalar rather than a slice.
type kernel struct {
	name   string
	scalar []bool
	body   *node
	// runs, when set, names the kernel of the same list whose loop this
	// one runs: this one's body with a commutative op's operands exchanged.
	// With swap the two are called with their operands x and y exchanged
	// (addSV is addVS with the vector and the scalar swapped); without it,
	// with the same ones (fuseAddMulR, z + x*y, is fuseAddMulL, x*y + z).
	runs string
	swap bool
}

// commutes reports whether op(a, b) is op(b, a) bit for bit: IEEE add and
// mul round the same exact result whichever operand comes first, and
// integer add and mul wrap the same one. (Only the payload of a NaN from
// two NaN operands may differ, which the package does not promise.)
func commutes(op string) bool { return op == "add" || op == "mul" }

// binKernels lists the three forms of the binary op op: d = x op y with
// both operands vectors, with y a scalar, and with x a scalar; the last
// runs the second's loop with its operands swapped where op commutes.
func binKernels(op string) []kernel {
	sv := kernel{name: op + "SV", scalar: []bool{true, false}, body: bin(op, leaf(0), leaf(1))}
	if commutes(op) {
		sv.runs, sv.swap = op+"VS", true
	}
	return []kernel{
		{name: op + "VV", scalar: []bool{false, false}, body: bin(op, leaf(0), leaf(1))},
		{name: op + "VS", scalar: []bool{false, true}, body: bin(op, leaf(0), leaf(1))},
		sv,
	}
}

var binOps = []string{"add", "sub", "mul", "div"}
var innerOps = []string{"add", "sub", "mul"}
var unOps = []string{"neg", "abs", "sqrt", "square", "copy", "relu", "sign"}

// kernels lists every function, in the order of the generated files.
func kernels() []kernel {
	var ks []kernel
	for _, op := range binOps {
		ks = append(ks, binKernels(op)...)
	}
	for _, outer := range binOps {
		for _, inner := range innerOps {
			for _, s := range []bool{false, true} {
				sfx := ""
				if s {
					sfx = "S"
				}
				in := bin(inner, leaf(0), leaf(1))
				name := "fuse" + title(outer) + title(inner)
				l := kernel{name: name + "L" + sfx, scalar: []bool{false, s, false}, body: bin(outer, in, leaf(2))}
				r := kernel{name: name + "R" + sfx, scalar: []bool{false, s, false}, body: bin(outer, leaf(2), in)}
				if commutes(outer) {
					r.runs = l.name
				}
				ks = append(ks, l, r)
			}
		}
	}
	for _, op := range unOps {
		ks = append(ks, kernel{name: op, scalar: []bool{false}, body: un(op, leaf(0))})
	}
	return ks
}

// intOps lists the integer binary ops of e.
func intOps(e elem) []string {
	if e.size == 2 || e.size == 4 {
		return []string{"add", "sub", "mul"}
	}
	return []string{"add", "sub"}
}

// intKernels lists the loops of an integer element type.
func intKernels(e elem) []kernel {
	var ks []kernel
	for _, op := range intOps(e) {
		ks = append(ks, binKernels(op)...)
	}
	return ks
}

// signedTwin returns the signed type of e's size, for an unsigned e: its
// loops are e's, bit for bit (its elem differs only in the Go type and the
// name suffix).
func signedTwin(e elem) (elem, bool) {
	if !strings.HasPrefix(e.goType, "uint") {
		return elem{}, false
	}
	for _, s := range intElems {
		if s.goType == e.goType[1:] {
			return s, true
		}
	}
	log.Fatalf("asmgen: no signed twin of %s", e.goType)
	return elem{}, false
}

// twinOf returns the kernel and element type whose loop k of e runs (ks is
// k's list): k and e themselves when own, else the kernel k.runs names if
// set, for e's signed twin if e is unsigned.
func twinOf(ks []kernel, k kernel, e elem) (loop kernel, le elem, own bool) {
	loop, le, own = k, e, true
	if s, ok := signedTwin(e); ok {
		le, own = s, false
	}
	if k.runs != "" {
		i := slices.IndexFunc(ks, func(t kernel) bool { return t.name == k.runs })
		if i < 0 || ks[i].runs != "" {
			log.Fatalf("asmgen: %s runs %q, which is not a kernel with a loop of its own", k.name, k.runs)
		}
		loop, own = ks[i], false
	}
	return loop, le, own
}
