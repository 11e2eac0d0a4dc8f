package exec

import "github.com/tensorplay/tensorplay/expr"

// opCost is what an elementwise op's kernel costs an element, on the one
// scale that planning reads: which ops a shared operand may be recomputed
// with (costCheap, see recomputable) and which regions prefetch their next
// block (costSlow, see aheadPays).
type opCost int

const (
	costOrdinary opCost = iota
	// costCheap: one vector instruction or about that.
	costCheap
	// costSlow: longer over a block than the block's inputs take to
	// arrive from memory: the transcendental functions, pow and the
	// remainders.
	costSlow
)

var opCosts = map[expr.Op]opCost{
	expr.OpNeg: costCheap, expr.OpAbs: costCheap, expr.OpSquare: costCheap, expr.OpRelu: costCheap,
	expr.OpAdd: costCheap, expr.OpSub: costCheap, expr.OpMul: costCheap, expr.OpBroadcastAdd: costCheap,
	expr.OpMaximum: costCheap, expr.OpMinimum: costCheap,

	expr.OpExp: costSlow, expr.OpLog: costSlow, expr.OpLog1p: costSlow, expr.OpExpm1: costSlow,
	expr.OpSin: costSlow, expr.OpCos: costSlow, expr.OpTan: costSlow, expr.OpTanh: costSlow,
	expr.OpSigmoid: costSlow, expr.OpArcsin: costSlow, expr.OpArccos: costSlow, expr.OpArctan: costSlow,
	expr.OpSinh: costSlow, expr.OpCosh: costSlow, expr.OpArcsinh: costSlow, expr.OpArccosh: costSlow,
	expr.OpArctanh: costSlow, expr.OpLog2: costSlow, expr.OpLog10: costSlow, expr.OpExp2: costSlow,
	expr.OpErf: costSlow, expr.OpErfc: costSlow, expr.OpLgamma: costSlow, expr.OpDigamma: costSlow,
	expr.OpGelu: costSlow, expr.OpGeluTanh: costSlow, expr.OpSilu: costSlow, expr.OpSoftplus: costSlow,
	expr.OpPow: costSlow, expr.OpArctan2: costSlow, expr.OpHypot: costSlow, expr.OpLogAddExp: costSlow,
	expr.OpLogAddExp2: costSlow, expr.OpMod: costSlow, expr.OpFmod: costSlow,
}

// costOf is op's cost; an op the table does not name is ordinary.
func costOf(op expr.Op) opCost { return opCosts[op] }
