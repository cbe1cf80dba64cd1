//go:build !purego

package normalize

import (
	"math/rand/v2"
	"testing"

	"golang.org/x/sys/cpu"
)

// TestLower64AVX2MatchesSSE2 holds the AVX2 lower64 to the SSE2 one
// (which TestPlain64 holds to the definition) on random blocks and bytes
// before them: the same bytes, offsets and masks.
func TestLower64AVX2MatchesSSE2(t *testing.T) {
	if !cpu.X86.HasAVX2 {
		t.Skip("no AVX2 on this CPU")
	}
	defer func(v bool) { useAVX2 = v }(useAVX2)
	r := rand.New(rand.NewPCG(27, 28))
	for round := range 100000 {
		var src []byte
		for range 4 {
			src = append(src, block16(r)[:16]...)
		}
		before := uint64(0)
		switch r.IntN(3) {
		case 1:
			before = r.Uint64() & 0xffff
		case 2:
			before = uint64(src[0]|0x20) * 0x101
		}
		off := int32(r.IntN(1 << 20))
		var d1, d2 [64]byte
		var o1, o2 [64]int32
		useAVX2 = false
		var m1, m2 masks
		m1.bad, m1.sp, m1.letter, m1.eq, m1.sep = lower64(&d1[0], &o1[0], &src[0], off, before)
		useAVX2 = true
		m2.bad, m2.sp, m2.letter, m2.eq, m2.sep = lower64(&d2[0], &o2[0], &src[0], off, before)
		if d1 != d2 || o1 != o2 || m1 != m2 {
			t.Fatalf("round %d: AVX2 masks %+v, SSE2 %+v (or other bytes %v or offsets %v)", round, m2, m1, d1 != d2, o1 != o2)
		}
	}
}

// TestBothPaths runs the tests that go through lower64 and Marks64 with
// each of their two versions when the CPU has AVX2 (the other tests use
// it).
func TestBothPaths(t *testing.T) {
	if !cpu.X86.HasAVX2 {
		t.Skip("no AVX2 on this CPU: every test ran the SSE2 lower64")
	}
	defer func(v bool) { useAVX2 = v }(useAVX2)
	for _, avx := range []bool{false, true} {
		useAVX2 = avx
		name := "SSE2"
		if avx {
			name = "AVX2"
		}
		t.Run(name, func(t *testing.T) {
			TestPlain64(t)
			TestChainCandidates(t)
			if !raceEnabled {
				TestDifferentialSlowPlain(t)
			}
			TestMarks64(t)
			TestMarksShort(t)
		})
	}
}
