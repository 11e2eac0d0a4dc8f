package expr

import "github.com/tensorplay/tensorplay/dtype"

// Op is the closed set of operations a Node can perform. Ops differ by rows
// of one table (opTable), not by types.
type Op uint8

// The ops. Leaves first, then elementwise unary, binary and ternary ops,
// then shape ops, reductions and matmul.
const (
	OpInvalid Op = iota

	OpTensor      // a tensor leaf (any strided view)
	OpScalar      // a constant, held as a 0-d tensor
	OpPlaceholder // a leaf whose tensor is bound at evaluation

	OpNeg
	OpAbs
	OpExp
	OpLog
	OpLog1p
	OpExpm1
	OpSqrt
	OpSquare
	OpSin
	OpCos
	OpTan
	OpTanh
	OpSigmoid
	OpRelu
	OpFloor
	OpCeil
	OpRound
	OpSign
	OpConj
	OpNot
	OpReal
	OpImag
	OpCAbs
	OpCast

	// NumPy's elementwise math (issue 22), same dtype in and out.
	OpArcsin
	OpArccos
	OpArctan
	OpSinh
	OpCosh
	OpArcsinh
	OpArccosh
	OpArctanh
	OpLog2
	OpLog10
	OpExp2
	OpTrunc
	OpReciprocal
	OpRsqrt
	OpErf
	OpErfc
	OpLgamma
	OpDigamma
	OpGelu
	OpGeluTanh
	OpSilu
	OpSoftplus
	OpBitNot
	// Predicates: any dtype in, bool out.
	OpIsNaN
	OpIsInf
	OpIsFinite
	OpSignbit
	OpLogicalNot

	OpAdd
	OpSub
	OpMul
	OpDiv
	OpDivTrunc
	OpDivFloor
	OpPow
	OpMaximum
	OpMinimum
	OpAnd
	OpOr
	OpEq
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
	OpBroadcastAdd // add under broadcast_add's strict contract (spec 004)

	// NumPy's elementwise binary math (issue 22), same dtype in and out.
	OpMod // remainder: the divisor's sign (Python's %)
	OpFmod
	OpArctan2
	OpHypot
	OpCopysign
	OpFmax
	OpFmin
	OpLogAddExp
	OpLogAddExp2
	OpXor
	OpBitAnd
	OpBitOr
	OpBitXor
	OpShl
	OpShr

	OpWhere

	OpReshape
	OpPermute
	OpExpand
	OpSlice
	OpEmbed    // the adjoint of slice: zeros with the operand placed at start::step
	OpAssemble // compose (issue 23): a value built from boxes of its operands (concatenate, stack, roll, pad, repeat)
	// Views (issue 23): a strided view by a tensor.ViewMap (flip, diagonal,
	// Idx, slices with negative steps) and its adjoint.
	OpView
	OpViewEmbed // zeros with the operand written through a view of them

	OpSum
	OpMean
	OpProd
	OpMax
	OpMin
	OpArgMax
	OpArgMin
	OpAny
	OpAll
	OpLogSumExp // one-pass reductions (reduce2): log(sum(exp(x))), online max and rescaled sum
	OpSumSqDev  // one-pass reductions (reduce2): sum of |x - mean|², var's numerator (Welford)

	OpMatMul

	OpExternal // a computation defined outside the table (see External)

	// Convolution and pooling (issue 26): windows over the spatial axes of
	// [N, C, spatial...] operands, and their gradients (conv.go, pool.go).
	OpConv
	OpConvInputGrad
	OpConvWeightGrad
	OpMaxPool
	OpAvgPool
	OpAdaptiveAvgPool
	OpAdaptiveMaxPool
	OpPoolGrad
	// Scans along one axis (issue 22, scans).
	OpCumSum
	OpCumProd
	OpCumMax
	OpCumMin
	OpLogCumSumExp
	OpNanCumSum
	OpNanCumProd
	// Softmax along one axis: a line op run by the scan step, each line
	// normalized on its own (issue 22).
	OpSoftmax
	// Indexing with index tensors (issue 23, gather): reads and writes
	// through an int64 index (see index.go), and a gradient barrier.
	OpGather
	OpScatter
	OpScatterAdd
	OpStopGradient

	opCount
)

// NumOps is the number of Op values, OpInvalid included: every op is below
// it, so tables keyed by Op can be arrays of this length.
const NumOps = int(opCount)

// Class groups ops by how they are shaped and executed.
type Class uint8

// The classes.
const (
	ClassLeaf     Class = iota
	ClassUnary          // elementwise, one operand
	ClassBinary         // elementwise, two operands, broadcasting
	ClassTernary        // elementwise, three operands, broadcasting (where)
	ClassShape          // a view: reshape, permute, expand, slice
	ClassReduce         // a reduction over axes
	ClassMatMul         // matrix product
	ClassExternal       // a function of evaluated operands (see External)
	ClassWindow         // convolution, pooling and their gradients (issue 26)
	ClassScan           // a running sum, product, max, ... along one axis (scan.go)
	ClassIndex          // read or written through an index tensor (gather, scatter)
)

// kinds is a bit set of dtype kinds an op accepts for its (first data) operand.
type kinds uint8

const (
	kBool kinds = 1 << iota
	kUint
	kInt
	kFloat
	kComplex

	kInteger = kUint | kInt
	kReal    = kInteger | kFloat
	kNumeric = kReal | kComplex
	kAll     = kNumeric | kBool
	kInexact = kFloat | kComplex
)

func kindBit(d dtype.DType) kinds {
	switch d.Kind() {
	case dtype.KindBool:
		return kBool
	case dtype.KindUnsigned:
		return kUint
	case dtype.KindSigned:
		return kInt
	case dtype.KindFloat:
		return kFloat
	case dtype.KindComplex:
		return kComplex
	}
	return 0
}

// result says what dtype an op produces from its operand dtype.
type result uint8

const (
	sameDType result = iota // the operand's dtype
	boolDType               // bool (comparisons)
	realDType               // the real component type of a complex operand
	attrDType               // fixed by the node (cast, argmax)
)

type opInfo struct {
	name   string
	class  Class
	accept kinds
	result result
	// identity reports that the op returns its operand unchanged for
	// operands of kind ident (floor of an integer, conj of a real).
	ident kinds
}

// opTable is the one table of ops: name, class, accepted dtypes, result dtype.
// The executor's kernels and the autograd rules key on the same Op values.
var opTable = [opCount]opInfo{
	OpInvalid:     {name: "invalid"},
	OpTensor:      {name: "tensor", class: ClassLeaf, accept: kAll},
	OpScalar:      {name: "scalar", class: ClassLeaf, accept: kAll},
	OpPlaceholder: {name: "placeholder", class: ClassLeaf, accept: kAll},

	OpNeg:     {name: "neg", class: ClassUnary, accept: kNumeric},
	OpAbs:     {name: "abs", class: ClassUnary, accept: kReal},
	OpExp:     {name: "exp", class: ClassUnary, accept: kInexact},
	OpLog:     {name: "log", class: ClassUnary, accept: kInexact},
	OpLog1p:   {name: "log1p", class: ClassUnary, accept: kFloat},
	OpExpm1:   {name: "expm1", class: ClassUnary, accept: kFloat},
	OpSqrt:    {name: "sqrt", class: ClassUnary, accept: kInexact},
	OpSquare:  {name: "square", class: ClassUnary, accept: kNumeric},
	OpSin:     {name: "sin", class: ClassUnary, accept: kInexact},
	OpCos:     {name: "cos", class: ClassUnary, accept: kInexact},
	OpTan:     {name: "tan", class: ClassUnary, accept: kInexact},
	OpTanh:    {name: "tanh", class: ClassUnary, accept: kInexact},
	OpSigmoid: {name: "sigmoid", class: ClassUnary, accept: kFloat},
	OpRelu:    {name: "relu", class: ClassUnary, accept: kReal},
	OpFloor:   {name: "floor", class: ClassUnary, accept: kReal, ident: kInteger},
	OpCeil:    {name: "ceil", class: ClassUnary, accept: kReal, ident: kInteger},
	OpRound:   {name: "round", class: ClassUnary, accept: kReal, ident: kInteger},
	OpSign:    {name: "sign", class: ClassUnary, accept: kNumeric},
	OpConj:    {name: "conj", class: ClassUnary, accept: kNumeric, ident: kReal},
	OpNot:     {name: "not", class: ClassUnary, accept: kBool},
	OpReal:    {name: "real", class: ClassUnary, accept: kComplex, result: realDType},
	OpImag:    {name: "imag", class: ClassUnary, accept: kComplex, result: realDType},
	OpCAbs:    {name: "cabs", class: ClassUnary, accept: kComplex, result: realDType},
	OpCast:    {name: "cast", class: ClassUnary, accept: kAll, result: attrDType},

	OpArcsin:     {name: "arcsin", class: ClassUnary, accept: kInexact},
	OpArccos:     {name: "arccos", class: ClassUnary, accept: kInexact},
	OpArctan:     {name: "arctan", class: ClassUnary, accept: kInexact},
	OpSinh:       {name: "sinh", class: ClassUnary, accept: kInexact},
	OpCosh:       {name: "cosh", class: ClassUnary, accept: kInexact},
	OpArcsinh:    {name: "arcsinh", class: ClassUnary, accept: kInexact},
	OpArccosh:    {name: "arccosh", class: ClassUnary, accept: kInexact},
	OpArctanh:    {name: "arctanh", class: ClassUnary, accept: kInexact},
	OpLog2:       {name: "log2", class: ClassUnary, accept: kInexact},
	OpLog10:      {name: "log10", class: ClassUnary, accept: kInexact},
	OpExp2:       {name: "exp2", class: ClassUnary, accept: kInexact},
	OpTrunc:      {name: "trunc", class: ClassUnary, accept: kReal, ident: kInteger},
	OpReciprocal: {name: "reciprocal", class: ClassUnary, accept: kNumeric},
	OpRsqrt:      {name: "rsqrt", class: ClassUnary, accept: kFloat},
	OpErf:        {name: "erf", class: ClassUnary, accept: kFloat},
	OpErfc:       {name: "erfc", class: ClassUnary, accept: kFloat},
	OpLgamma:     {name: "lgamma", class: ClassUnary, accept: kFloat},
	OpDigamma:    {name: "digamma", class: ClassUnary, accept: kFloat},
	OpGelu:       {name: "gelu", class: ClassUnary, accept: kFloat},
	OpGeluTanh:   {name: "gelu_tanh", class: ClassUnary, accept: kFloat},
	OpSilu:       {name: "silu", class: ClassUnary, accept: kFloat},
	OpSoftplus:   {name: "softplus", class: ClassUnary, accept: kFloat},
	OpBitNot:     {name: "bitwise_not", class: ClassUnary, accept: kInteger | kBool},
	OpIsNaN:      {name: "isnan", class: ClassUnary, accept: kAll, result: boolDType},
	OpIsInf:      {name: "isinf", class: ClassUnary, accept: kAll, result: boolDType},
	OpIsFinite:   {name: "isfinite", class: ClassUnary, accept: kAll, result: boolDType},
	OpSignbit:    {name: "signbit", class: ClassUnary, accept: kReal, result: boolDType},
	OpLogicalNot: {name: "logical_not", class: ClassUnary, accept: kAll, result: boolDType},

	OpAdd:      {name: "add", class: ClassBinary, accept: kNumeric},
	OpSub:      {name: "sub", class: ClassBinary, accept: kNumeric},
	OpMul:      {name: "mul", class: ClassBinary, accept: kNumeric},
	OpDiv:      {name: "div", class: ClassBinary, accept: kInexact},
	OpDivTrunc: {name: "div_trunc", class: ClassBinary, accept: kReal},
	OpDivFloor: {name: "div_floor", class: ClassBinary, accept: kReal},
	OpPow:      {name: "pow", class: ClassBinary, accept: kNumeric},
	OpMaximum:  {name: "maximum", class: ClassBinary, accept: kReal},
	OpMinimum:  {name: "minimum", class: ClassBinary, accept: kReal},
	OpAnd:      {name: "and", class: ClassBinary, accept: kBool},
	OpOr:       {name: "or", class: ClassBinary, accept: kBool},
	OpEq:       {name: "eq", class: ClassBinary, accept: kAll, result: boolDType},
	OpNe:       {name: "ne", class: ClassBinary, accept: kAll, result: boolDType},
	OpLt:       {name: "lt", class: ClassBinary, accept: kReal, result: boolDType},
	OpLe:       {name: "le", class: ClassBinary, accept: kReal, result: boolDType},
	OpGt:       {name: "gt", class: ClassBinary, accept: kReal, result: boolDType},
	OpGe:       {name: "ge", class: ClassBinary, accept: kReal, result: boolDType},

	OpBroadcastAdd: {name: "broadcast_add", class: ClassBinary, accept: kNumeric},

	OpMod:        {name: "remainder", class: ClassBinary, accept: kReal},
	OpFmod:       {name: "fmod", class: ClassBinary, accept: kReal},
	OpArctan2:    {name: "arctan2", class: ClassBinary, accept: kFloat},
	OpHypot:      {name: "hypot", class: ClassBinary, accept: kFloat},
	OpCopysign:   {name: "copysign", class: ClassBinary, accept: kFloat},
	OpFmax:       {name: "fmax", class: ClassBinary, accept: kReal},
	OpFmin:       {name: "fmin", class: ClassBinary, accept: kReal},
	OpLogAddExp:  {name: "logaddexp", class: ClassBinary, accept: kFloat},
	OpLogAddExp2: {name: "logaddexp2", class: ClassBinary, accept: kFloat},
	OpXor:        {name: "xor", class: ClassBinary, accept: kBool},
	OpBitAnd:     {name: "bitwise_and", class: ClassBinary, accept: kInteger | kBool},
	OpBitOr:      {name: "bitwise_or", class: ClassBinary, accept: kInteger | kBool},
	OpBitXor:     {name: "bitwise_xor", class: ClassBinary, accept: kInteger | kBool},
	OpShl:        {name: "left_shift", class: ClassBinary, accept: kInteger},
	OpShr:        {name: "right_shift", class: ClassBinary, accept: kInteger},

	OpWhere: {name: "where", class: ClassTernary, accept: kAll},

	OpReshape: {name: "reshape", class: ClassShape, accept: kAll},
	OpPermute: {name: "permute", class: ClassShape, accept: kAll},
	OpExpand:  {name: "expand", class: ClassShape, accept: kAll},
	OpSlice:   {name: "slice", class: ClassShape, accept: kAll},
	OpEmbed:   {name: "embed", class: ClassShape, accept: kAll},

	OpAssemble:  {name: "assemble", class: ClassShape, accept: kAll},
	OpView:      {name: "view", class: ClassShape, accept: kAll},
	OpViewEmbed: {name: "view_embed", class: ClassShape, accept: kAll},

	OpSum:    {name: "sum", class: ClassReduce, accept: kNumeric},
	OpMean:   {name: "mean", class: ClassReduce, accept: kInexact},
	OpProd:   {name: "prod", class: ClassReduce, accept: kNumeric},
	OpMax:    {name: "max", class: ClassReduce, accept: kReal},
	OpMin:    {name: "min", class: ClassReduce, accept: kReal},
	OpArgMax: {name: "argmax", class: ClassReduce, accept: kReal, result: attrDType},
	OpArgMin: {name: "argmin", class: ClassReduce, accept: kReal, result: attrDType},
	OpAny:    {name: "any", class: ClassReduce, accept: kBool},
	OpAll:    {name: "all", class: ClassReduce, accept: kBool},

	OpLogSumExp: {name: "logsumexp", class: ClassReduce, accept: kFloat},
	OpSumSqDev:  {name: "sumsqdev", class: ClassReduce, accept: kFloat},

	OpMatMul: {name: "matmul", class: ClassMatMul, accept: kNumeric},

	OpExternal:        {name: "external", class: ClassExternal, accept: kAll, result: attrDType},
	OpConv:            {name: "conv", class: ClassWindow, accept: kFloat},
	OpConvInputGrad:   {name: "conv_input_grad", class: ClassWindow, accept: kFloat},
	OpConvWeightGrad:  {name: "conv_weight_grad", class: ClassWindow, accept: kFloat},
	OpMaxPool:         {name: "max_pool", class: ClassWindow, accept: kFloat},
	OpAvgPool:         {name: "avg_pool", class: ClassWindow, accept: kFloat},
	OpAdaptiveAvgPool: {name: "adaptive_avg_pool", class: ClassWindow, accept: kFloat},
	OpAdaptiveMaxPool: {name: "adaptive_max_pool", class: ClassWindow, accept: kFloat},
	OpPoolGrad:        {name: "pool_grad", class: ClassWindow, accept: kFloat},
	// A scan's accepted kinds are those of its result (CumSumAs converts
	// its operand as it reads it).
	OpCumSum:       {name: "cumsum", class: ClassScan, accept: kNumeric, result: attrDType},
	OpCumProd:      {name: "cumprod", class: ClassScan, accept: kNumeric, result: attrDType},
	OpCumMax:       {name: "cummax", class: ClassScan, accept: kReal, result: attrDType},
	OpCumMin:       {name: "cummin", class: ClassScan, accept: kReal, result: attrDType},
	OpLogCumSumExp: {name: "logcumsumexp", class: ClassScan, accept: kFloat, result: attrDType},
	OpNanCumSum:    {name: "nancumsum", class: ClassScan, accept: kInexact, result: attrDType},
	OpNanCumProd:   {name: "nancumprod", class: ClassScan, accept: kInexact, result: attrDType},
	OpSoftmax:      {name: "softmax", class: ClassScan, accept: kFloat, result: attrDType},

	OpGather:       {name: "gather", class: ClassIndex, accept: kAll},
	OpScatter:      {name: "scatter", class: ClassIndex, accept: kAll},
	OpScatterAdd:   {name: "scatter_add", class: ClassIndex, accept: kNumeric},
	OpStopGradient: {name: "stop_gradient", class: ClassShape, accept: kAll},
}

// String returns the op's name as printed in graphs ("add", "div_floor").
func (o Op) String() string {
	if o < opCount {
		return opTable[o].name
	}
	return "invalid"
}

// KernelOp returns the op whose kernel computes o: OpAdd for
// OpBroadcastAdd (its strict contract is a shape rule; the values are an
// add's), o itself otherwise.
func (o Op) KernelOp() Op {
	if o == OpBroadcastAdd {
		return OpAdd
	}
	return o
}

// Class returns the op's class.
func (o Op) Class() Class {
	if o < opCount {
		return opTable[o].class
	}
	return ClassLeaf
}

// Elementwise reports whether the op is computed element by element
// (unary, binary or ternary), so the executor may fuse it.
func (o Op) Elementwise() bool {
	c := o.Class()
	return c == ClassUnary || c == ClassBinary || c == ClassTernary
}

// IsIdentityFor reports whether o returns its operand unchanged for d
// (floor of an integer, conj of a real number).
func (o Op) IsIdentityFor(d dtype.DType) bool {
	return o < opCount && opTable[o].ident&kindBit(d) != 0
}

// realOf returns the component dtype of a complex dtype.
func realOf(d dtype.DType) dtype.DType {
	switch d {
	case dtype.Complex64:
		return dtype.Float32
	case dtype.Complex128:
		return dtype.Float64
	}
	return d
}
