package classify_test

import "testing"

// chainSink keeps BenchmarkHostChain's result alive.
var chainSink uint64

// BenchmarkHostChain is a control, not the product: one chain of dependent
// multiply-adds, 1<<20 steps per op, which needs no memory and no more than
// one of the core's ports at a time. When the stack's numbers swing and
// this one does not, what slowed is the throughput of the core and its
// caches (a busy sibling hyper-thread on a shared host), not the clock;
// docs/benchmarks.md has the interleaved runs.
func BenchmarkHostChain(b *testing.B) {
	x := uint64(1)
	for b.Loop() {
		x = chain(x)
	}
	chainSink = x
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(1<<20), "ns/step")
}

// chain runs the 1<<20 steps with x in a register.
//
//go:noinline
func chain(x uint64) uint64 {
	for range 1 << 20 {
		x = x*0x9E3779B97F4A7C15 + 1
	}
	return x
}
