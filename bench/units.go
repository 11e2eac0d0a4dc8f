package bench

import (
	"fmt"
	"strconv"
	"time"
)

// fmtDuration prints d with about four significant digits: 812ns, 45.61µs,
// 3.142ms, 1.250s.
func fmtDuration(d time.Duration) string {
	switch {
	case d < time.Microsecond:
		return fmt.Sprintf("%dns", d.Nanoseconds())
	case d < time.Millisecond:
		return sig(float64(d)/1e3) + "µs"
	case d < time.Second:
		return sig(float64(d)/1e6) + "ms"
	}
	return sig(d.Seconds()) + "s"
}

// sig prints v (>= 1) with four significant digits.
func sig(v float64) string {
	switch {
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}

// fmtRate prints a throughput in GB/s or GFLOP/s; empty for 0.
func fmtRate(v float64) string {
	if v == 0 {
		return ""
	}
	if v >= 100 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// fmtBytes prints a byte count in B, kB, MB or GB (powers of 1000).
func fmtBytes(v float64) string {
	switch {
	case v < 1e3:
		return strconv.FormatFloat(v, 'f', 0, 64) + "B"
	case v < 1e6:
		return strconv.FormatFloat(v/1e3, 'f', 1, 64) + "kB"
	case v < 1e9:
		return strconv.FormatFloat(v/1e6, 'f', 1, 64) + "MB"
	}
	return strconv.FormatFloat(v/1e9, 'f', 1, 64) + "GB"
}

// fmtCount prints allocations per run: an integer when it is one, else
// with one decimal.
func fmtCount(v float64) string {
	if v == float64(int64(v)) {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// fmtRatio prints a ratio as 0.97x; empty for 0.
func fmtRatio(v float64) string {
	if v == 0 {
		return ""
	}
	return strconv.FormatFloat(v, 'f', 2, 64) + "x"
}

// fmtSize prints a size parameter as the flag takes it: 1e6, 1e7, 40000.
func fmtSize(n int) string {
	e, m := 0, n
	for m >= 10 && m%10 == 0 {
		m /= 10
		e++
	}
	if e >= 3 {
		if m == 1 {
			return fmt.Sprintf("1e%d", e)
		}
		return fmt.Sprintf("%de%d", m, e)
	}
	return strconv.Itoa(n)
}

// fmtDiff prints a largest difference with one significant digit: 0, 2e-07.
func fmtDiff(v float64) string {
	if v == 0 {
		return "0"
	}
	return strconv.FormatFloat(v, 'e', 0, 64)
}
