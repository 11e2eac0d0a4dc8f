// Command tpbench times tensorplay's workloads (the standard W1–W14, the
// pipelines suite of NumPy programs, the matmul suite) next to hand-written
// Go loops over the same data, a STREAM-style bandwidth probe and an FMA
// peak probe, in one process, and, when /usr/bin/python3 imports them,
// against NumPy and PyTorch running the same cases on the same inputs. It
// prints the results as a table, CSV, JSON or Markdown; it can also draw a
// chart, write a profile and compare with a saved run. Run it with -h for
// the flags; docs/benchmarks.md explains the columns.
//
//	go run ./bench/cmd/tpbench
//	go run ./bench/cmd/tpbench -suite pipelines
//	go run ./bench/cmd/tpbench -size 1e7 -run 'W[1-3]$' -chart gbps.svg
package main

import (
	"io"
	"os"

	"github.com/tensorplay/tensorplay/bench"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main with its arguments and outputs passed in, for tests.
func run(args []string, stdout, stderr io.Writer) int {
	return bench.Main(args, stdout, stderr, append(bench.All(), bench.OutOfCore()...)...)
}
