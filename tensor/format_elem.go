package tensor

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tensorplay/tensorplay/dtype"
)

// formatWords formats the printed elements of a tensor with widths shared by
// all of them, as numpy's _get_format_function does. scalar is set for a
// 0-d tensor, whose bools are not padded.
func formatWords[T dtype.Elem](vals []T, prec int, scalar bool) []string {
	switch v := any(vals).(type) {
	case []float64:
		return floatWords(v, prec, 64)
	case []float32:
		return floatWords(widen(v), prec, 32)
	case []complex128:
		return complexWords(v, prec, 64)
	case []complex64:
		c := make([]complex128, len(v))
		for i, x := range v {
			c[i] = complex128(x)
		}
		return complexWords(c, prec, 32)
	case []bool:
		return boolWords(v, scalar)
	case []int8:
		return intWords(v)
	case []int16:
		return intWords(v)
	case []int32:
		return intWords(v)
	case []int64:
		return intWords(v)
	case []int:
		return intWords(v)
	case []uint8:
		return uintWords(v)
	case []uint16:
		return uintWords(v)
	case []uint32:
		return uintWords(v)
	case []uint64:
		return uintWords(v)
	case []uint:
		return uintWords(v)
	}
	// A named element type: its fmt text, right-aligned.
	words := make([]string, len(vals))
	for i, x := range vals {
		words[i] = fmt.Sprint(x)
	}
	return alignRight(words)
}

func widen(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

func intWords[E dtype.Signed](v []E) []string {
	words := make([]string, len(v))
	for i, x := range v {
		words[i] = strconv.FormatInt(int64(x), 10)
	}
	return alignRight(words)
}

func uintWords[E dtype.Unsigned](v []E) []string {
	words := make([]string, len(v))
	for i, x := range v {
		words[i] = strconv.FormatUint(uint64(x), 10)
	}
	return alignRight(words)
}

// alignRight pads every word on the left to the widest one's length.
func alignRight(words []string) []string {
	w := 0
	for _, s := range words {
		w = max(w, len(s))
	}
	for i, s := range words {
		words[i] = strings.Repeat(" ", w-len(s)) + s
	}
	return words
}

// boolWords is numpy's BoolFormat: " True" and "False", so columns align.
func boolWords(v []bool, scalar bool) []string {
	yes := " True"
	if scalar {
		yes = "True"
	}
	words := make([]string, len(v))
	for i, x := range v {
		words[i] = "False"
		if x {
			words[i] = yes
		}
	}
	return words
}

func floatWords(v []float64, prec, bits int) []string {
	f := newFloatFormat(v, prec, bits, false)
	words := make([]string, len(v))
	for i, x := range v {
		words[i] = f.format(x)
	}
	return words
}

// complexWords is numpy's ComplexFloatingFormat: the real and imaginary
// parts are formatted as two float columns, the imaginary one always signed,
// and the j goes before the imaginary part's right padding.
func complexWords(v []complex128, prec, bits int) []string {
	re, im := make([]float64, len(v)), make([]float64, len(v))
	for i, x := range v {
		re[i], im[i] = real(x), imag(x)
	}
	fr, fi := newFloatFormat(re, prec, bits, false), newFloatFormat(im, prec, bits, true)
	words := make([]string, len(v))
	for i := range v {
		is := fi.format(im[i])
		sp := len(strings.TrimRight(is, " "))
		words[i] = fr.format(re[i]) + is[:sp] + "j" + is[sp:]
	}
	return words
}

// floatFormat is numpy's FloatingFormat in its default 'maxprec' mode.
type floatFormat struct {
	bits      int
	plus      bool // always print the sign
	exp       bool // scientific notation
	precision int  // most digits after the point
	minDigits int  // fewest digits after the point (zero padded)
	trimZeros bool // drop trailing zeros after the point (keeping the point)
	padLeft   int  // width of the integer part, sign included
	padRight  int  // width of the fraction (positional) or of all after the point
	expDigits int  // fewest exponent digits (Go prints at least 2)
}

// newFloatFormat sizes the columns for data, as FloatingFormat.fillFormat
// does: only finite values count, and values spanning more than 1000x or
// outside [1e-4, 1e8) switch to scientific notation.
func newFloatFormat(data []float64, prec, bits int, plus bool) *floatFormat {
	f := &floatFormat{bits: bits, plus: plus, precision: prec, trimZeros: true}
	var finite []float64
	minAbs, maxAbs := math.Inf(1), 0.0
	hasNonFinite, negInf := false, false
	for _, x := range data {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			hasNonFinite = true
			negInf = negInf || math.IsInf(x, -1)
			continue
		}
		finite = append(finite, x)
		if a := math.Abs(x); a != 0 {
			minAbs, maxAbs = min(minAbs, a), max(maxAbs, a)
		}
	}
	if maxAbs > 0 {
		ratio := maxAbs / minAbs
		if bits == 32 {
			ratio = float64(float32(ratio))
		}
		f.exp = maxAbs >= 1e8 || minAbs < 0.0001 || ratio > 1000
	}
	switch {
	case len(finite) == 0:
		f.padLeft, f.padRight, f.expDigits = 0, 0, -1
	case f.exp:
		maxFrac, maxExp := 0, 0
		for _, x := range finite {
			ip, fp, ep := f.sciParts(x, prec)
			f.padLeft = max(f.padLeft, len(ip))
			maxFrac, maxExp = max(maxFrac, len(fp)), max(maxExp, len(ep))
		}
		f.precision, f.minDigits, f.trimZeros = maxFrac, maxFrac, false
		f.expDigits = maxExp - 1 // the exponent's sign does not count
		f.padRight = f.expDigits + 2 + f.precision
	default:
		for _, x := range finite {
			ip, fp := f.posParts(x, prec)
			f.padLeft, f.padRight = max(f.padLeft, len(ip)), max(f.padRight, len(fp))
		}
	}
	if hasNonFinite {
		infLen := len("inf")
		if plus || negInf {
			infLen++
		}
		off := f.padRight + 1
		f.padLeft = max(f.padLeft, len("nan")-off, infLen-off)
	}
	return f
}

// format prints one value in the column layout.
func (f *floatFormat) format(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		var s string
		switch {
		case math.IsNaN(x):
			s = "nan"
		case x < 0:
			s = "-inf"
		default:
			s = "inf"
		}
		if f.plus && !strings.HasPrefix(s, "-") {
			s = "+" + s
		}
		return strings.Repeat(" ", max(0, f.padLeft+f.padRight+1-len(s))) + s
	}
	if f.exp {
		ip, fp, ep := f.sciParts(x, f.precision)
		sign, digits := ep[:1], ep[1:]
		for len(digits) < f.expDigits {
			digits = "0" + digits
		}
		return pad(ip, f.padLeft) + "." + fp + "e" + sign + digits
	}
	ip, fp := f.posParts(x, f.precision)
	return pad(ip, f.padLeft) + "." + fp + strings.Repeat(" ", max(0, f.padRight-len(fp)))
}

func pad(s string, w int) string { return strings.Repeat(" ", max(0, w-len(s))) + s }

// sign returns the sign prefix of x ("-", "+" or "").
func (f *floatFormat) sign(x float64) string {
	switch {
	case math.Signbit(x):
		return "-"
	case f.plus:
		return "+"
	}
	return ""
}

// posParts returns x's integer part (with sign) and fraction digits in
// positional notation as numpy's Dragon4 does in unique mode: the shortest
// digits that identify x as a float of f.bits, rounded to at most prec after
// the point, or extended with the exact value's digits to f.minDigits.
func (f *floatFormat) posParts(x float64, prec int) (ip, fp string) {
	a := math.Abs(x)
	s := strconv.FormatFloat(a, 'f', -1, f.bits)
	ip, fp, _ = strings.Cut(s, ".")
	switch {
	case len(fp) > prec:
		ip, fp, _ = strings.Cut(strconv.FormatFloat(a, 'f', prec, f.bits), ".")
	case len(fp) < f.minDigits:
		// Dragon4 generates the further digits of the exact value: float32
		// 3.3 with 8 digits is 3.29999995, not 3.30000000.
		ip, fp, _ = strings.Cut(strconv.FormatFloat(a, 'f', f.minDigits, f.bits), ".")
	}
	return f.sign(x) + ip, f.fraction(fp)
}

// sciParts is posParts in scientific notation: the mantissa's integer digit
// (with sign), its fraction digits and the exponent with its sign ("-05").
func (f *floatFormat) sciParts(x float64, prec int) (ip, fp, ep string) {
	a := math.Abs(x)
	s := strconv.FormatFloat(a, 'e', -1, f.bits)
	m, e, _ := strings.Cut(s, "e")
	ip, fp, _ = strings.Cut(m, ".")
	if len(fp) > prec || len(fp) < f.minDigits {
		m, e, _ = strings.Cut(strconv.FormatFloat(a, 'e', max(min(len(fp), prec), f.minDigits), f.bits), "e")
		ip, fp, _ = strings.Cut(m, ".")
	}
	return f.sign(x) + ip, f.fraction(fp), e
}

// fraction trims or pads fraction digits per f.
func (f *floatFormat) fraction(fp string) string {
	if f.trimZeros {
		fp = strings.TrimRight(fp, "0")
	}
	for len(fp) < f.minDigits {
		fp += "0"
	}
	return fp
}

// scalarString prints one element as numpy prints a scalar (str of a 0-d
// array): 2.0, 1e-05, (1+2j), True.
func scalarString[T dtype.Elem](v T) string {
	switch x := any(v).(type) {
	case float64:
		return pyFloat(x, 64, true)
	case float32:
		return pyFloat(float64(x), 32, true)
	case complex128:
		return pyComplex(real(x), imag(x), 64)
	case complex64:
		return pyComplex(float64(real(x)), float64(imag(x)), 32)
	case bool:
		if x {
			return "True"
		}
		return "False"
	}
	return formatWords([]T{v}, printPrecision, true)[0]
}

// pyFloat is Python's float repr (and numpy's scalar str): positional for
// magnitudes in [1e-4, 1e16), scientific otherwise; pointZero keeps ".0" on
// whole numbers, as floats print but complex parts do not.
func pyFloat(x float64, bits int, pointZero bool) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	if a := math.Abs(x); a != 0 && (a < 1e-4 || a >= 1e16) {
		return strconv.FormatFloat(x, 'e', -1, bits)
	}
	s := strconv.FormatFloat(x, 'f', -1, bits)
	if pointZero && !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// pyComplex is Python's complex repr: (1+2j), or 2j when the real part is +0.
func pyComplex(re, im float64, bits int) string {
	is := pyFloat(im, bits, false)
	if !strings.HasPrefix(is, "-") {
		is = "+" + is
	}
	if re == 0 && !math.Signbit(re) {
		return strings.TrimPrefix(is, "+") + "j"
	}
	return "(" + pyFloat(re, bits, false) + is + "j)"
}
