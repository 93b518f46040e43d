package hw

import "testing"

// Exports for the external tests of package gmma_test (records_test.go),
// which replay internal/replay's H200 records: an internal test cannot
// import internal/replay, which imports gmma.

// EachPath runs f as a subtest under every execution path of this machine.
func EachPath(t *testing.T, f func(t *testing.T)) { eachPath(t, f) }

// AccPos is accPos: the (m, n) of accumulator register r of thread t.
var AccPos = accPos
