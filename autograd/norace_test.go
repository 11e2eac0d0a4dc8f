//go:build !race

package autograd_test

const raceEnabled = false
