package main

// The rows of NumPy's elementwise math added for issue 22, kept apart from
// the original rows so that each table reads as one list. init appends
// them to unOps and binOps; predOps are the unary ops with a bool result.

var mathUnOps = []unOp{
	{"ArcsinFloat", "OpArcsin", "dtype.Float", "float", "T(math.Asin(float64(x)))"},
	{"ArccosFloat", "OpArccos", "dtype.Float", "float", "T(math.Acos(float64(x)))"},
	{"ArctanFloat", "OpArctan", "dtype.Float", "float", "T(math.Atan(float64(x)))"},
	{"SinhFloat", "OpSinh", "dtype.Float", "float", "T(math.Sinh(float64(x)))"},
	{"CoshFloat", "OpCosh", "dtype.Float", "float", "T(math.Cosh(float64(x)))"},
	{"ArcsinhFloat", "OpArcsinh", "dtype.Float", "float", "T(math.Asinh(float64(x)))"},
	{"ArccoshFloat", "OpArccosh", "dtype.Float", "float", "T(math.Acosh(float64(x)))"},
	{"ArctanhFloat", "OpArctanh", "dtype.Float", "float", "T(math.Atanh(float64(x)))"},
	{"Log2Float", "OpLog2", "dtype.Float", "float", "T(math.Log2(float64(x)))"},
	{"Log10Float", "OpLog10", "dtype.Float", "float", "T(log10Sub(float64(x)))"},
	{"Exp2Float", "OpExp2", "dtype.Float", "float", "T(math.Exp2(float64(x)))"},
	{"TruncFloat", "OpTrunc", "dtype.Float", "float", "T(math.Trunc(float64(x)))"},
	{"ReciprocalFloat", "OpReciprocal", "dtype.Float", "float", "1 / x"},
	{"ReciprocalComplex", "OpReciprocal", "dtype.Complex", "complex", "1 / x"},
	{"ReciprocalInt", "OpReciprocal", "dtype.Integer", "integer", "reciprocalInt(x)"},
	{"RsqrtFloat", "OpRsqrt", "dtype.Float", "float", "T(1 / math.Sqrt(float64(x)))"},
	{"ErfFloat", "OpErf", "dtype.Float", "float", "T(math.Erf(float64(x)))"},
	{"ErfcFloat", "OpErfc", "dtype.Float", "float", "T(math.Erfc(float64(x)))"},
	{"LgammaFloat", "OpLgamma", "dtype.Float", "float", "T(lgamma(float64(x)))"},
	{"DigammaFloat", "OpDigamma", "dtype.Float", "float", "T(digamma(float64(x)))"},
	{"GeluFloat", "OpGelu", "dtype.Float", "float", "T(gelu(float64(x)))"},
	{"GeluTanhFloat", "OpGeluTanh", "dtype.Float", "float", "T(geluTanh(float64(x)))"},
	{"SiluFloat", "OpSilu", "dtype.Float", "float", "T(silu(float64(x)))"},
	{"SoftplusFloat", "OpSoftplus", "dtype.Float", "float", "T(softplus(float64(x)))"},
	{"BitNotInt", "OpBitNot", "dtype.Integer", "integer", "^x"},
	{"BitNotBool", "OpBitNot", "~bool", "bool", "!x"},
	{"SignComplex", "OpSign", "dtype.Complex", "complex", "signComplex(x)"},
	{"ArcsinComplex", "OpArcsin", "dtype.Complex", "complex", "T(cmplx.Asin(complex128(x)))"},
	{"ArccosComplex", "OpArccos", "dtype.Complex", "complex", "T(cmplx.Acos(complex128(x)))"},
	{"ArctanComplex", "OpArctan", "dtype.Complex", "complex", "T(cmplx.Atan(complex128(x)))"},
	{"SinhComplex", "OpSinh", "dtype.Complex", "complex", "T(cmplx.Sinh(complex128(x)))"},
	{"CoshComplex", "OpCosh", "dtype.Complex", "complex", "T(cmplx.Cosh(complex128(x)))"},
	{"ArcsinhComplex", "OpArcsinh", "dtype.Complex", "complex", "T(cmplx.Asinh(complex128(x)))"},
	{"ArccoshComplex", "OpArccosh", "dtype.Complex", "complex", "T(cmplx.Acosh(complex128(x)))"},
	{"ArctanhComplex", "OpArctanh", "dtype.Complex", "complex", "T(cmplx.Atanh(complex128(x)))"},
	{"Log2Complex", "OpLog2", "dtype.Complex", "complex", "T(cmplx.Log(complex128(x)) / math.Ln2)"},
	{"Log10Complex", "OpLog10", "dtype.Complex", "complex", "T(cmplx.Log10(complex128(x)))"},
	{"Exp2Complex", "OpExp2", "dtype.Complex", "complex", "T(cmplx.Pow(2, complex128(x)))"},
}

var mathBinOps = []binOp{
	{"ModInt", "OpMod", "dtype.Integer", "integer", "modInt(x, y)", false},
	{"ModFloat", "OpMod", "dtype.Float", "float", "modFloat(x, y)", false},
	{"FmodInt", "OpFmod", "dtype.Integer", "integer", "fmodInt(x, y)", false},
	{"FmodFloat", "OpFmod", "dtype.Float", "float", "T(math.Mod(float64(x), float64(y)))", false},
	{"Arctan2Float", "OpArctan2", "dtype.Float", "float", "T(math.Atan2(float64(x), float64(y)))", false},
	{"HypotFloat", "OpHypot", "dtype.Float", "float", "T(math.Hypot(float64(x), float64(y)))", false},
	{"CopysignFloat", "OpCopysign", "dtype.Float", "float", "T(math.Copysign(float64(x), float64(y)))", false},
	{"Fmax", "OpFmax", "dtype.Real", "real", "fmaxNum(x, y)", false},
	{"Fmin", "OpFmin", "dtype.Real", "real", "fminNum(x, y)", false},
	{"LogAddExpFloat", "OpLogAddExp", "dtype.Float", "float", "T(logAddExp(float64(x), float64(y)))", false},
	{"LogAddExp2Float", "OpLogAddExp2", "dtype.Float", "float", "T(logAddExp2(float64(x), float64(y)))", false},
	{"XorBool", "OpXor", "~bool", "bool", "x != y", false},
	{"BitAndInt", "OpBitAnd", "dtype.Integer", "integer", "x & y", false},
	{"BitOrInt", "OpBitOr", "dtype.Integer", "integer", "x | y", false},
	{"BitXorInt", "OpBitXor", "dtype.Integer", "integer", "x ^ y", false},
	{"BitAndBool", "OpBitAnd", "~bool", "bool", "x && y", false},
	{"BitOrBool", "OpBitOr", "~bool", "bool", "x || y", false},
	{"BitXorBool", "OpBitXor", "~bool", "bool", "x != y", false},
	{"ShlInt", "OpShl", "dtype.Integer", "integer", "shl(x, y)", false},
	{"ShrInt", "OpShr", "dtype.Integer", "integer", "shr(x, y)", false},
}

// predOps are unary ops from any element type to bool: name, Go op
// constant, constraint, family, expression of x.
var predOps = []unOp{
	{"IsNaNFloat", "OpIsNaN", "dtype.Float", "float", "x != x"},
	{"IsInfFloat", "OpIsInf", "dtype.Float", "float", "math.IsInf(float64(x), 0)"},
	{"IsFiniteFloat", "OpIsFinite", "dtype.Float", "float", "x-x == x-x"},
	{"SignbitFloat", "OpSignbit", "dtype.Float", "float", "math.Signbit(float64(x))"},
	{"LogicalNotFloat", "OpLogicalNot", "dtype.Float", "float", "x == 0"},
	{"IsNaNInt", "OpIsNaN", "dtype.Integer", "integer", "false"},
	{"IsInfInt", "OpIsInf", "dtype.Integer", "integer", "false"},
	{"IsFiniteInt", "OpIsFinite", "dtype.Integer", "integer", "true"},
	{"SignbitInt", "OpSignbit", "dtype.Integer", "integer", "x < 0"},
	{"LogicalNotInt", "OpLogicalNot", "dtype.Integer", "integer", "x == 0"},
	{"IsNaNComplex", "OpIsNaN", "dtype.Complex", "complex", "x != x"},
	{"IsInfComplex", "OpIsInf", "dtype.Complex", "complex", "cmplx.IsInf(complex128(x))"},
	{"IsFiniteComplex", "OpIsFinite", "dtype.Complex", "complex", "x-x == x-x"},
	{"LogicalNotComplex", "OpLogicalNot", "dtype.Complex", "complex", "x == 0"},
	{"IsNaNBool", "OpIsNaN", "~bool", "bool", "false"},
	{"IsInfBool", "OpIsInf", "~bool", "bool", "false"},
	{"IsFiniteBool", "OpIsFinite", "~bool", "bool", "true"},
	{"LogicalNotBool", "OpLogicalNot", "~bool", "bool", "!bool(x)"},
}

func init() {
	unOps = append(unOps, mathUnOps...)
	binOps = append(binOps, mathBinOps...)
}

// writePredicates writes one loop per predicate row and, per family, the
// lookup <family>Predicate(op).
func writePredicates(p func(string, ...any)) {
	for _, o := range predOps {
		p("// pred%s is: for i := range d { d[i] = %s }\n", o.name, o.expr)
		p("func pred%s[T %s](d []bool, a []T) {\n\ta = a[:len(d)]\n\tfor i := range d {\n\t\tx := a[i]\n\t\t_ = x\n\t\td[i] = %s\n\t}\n}\n\n", o.name, o.cons, o.expr)
	}
	for _, f := range []struct{ name, cons string }{{"float", "dtype.Float"}, {"integer", "dtype.Integer"}, {"complex", "dtype.Complex"}, {"bool", "~bool"}} {
		p("// %sPredicate returns the predicate kernel of op for %s element types.\n", f.name, f.name)
		p("func %sPredicate[T %s](op expr.Op) (func(d []bool, a []T), bool) {\n\tswitch op {\n", f.name, f.cons)
		for _, o := range predOps {
			if o.family == f.name {
				p("\tcase expr.%s:\n\t\treturn pred%s[T], true\n", o.op, o.name)
			}
		}
		p("\t}\n\treturn nil, false\n}\n\n")
	}
}
