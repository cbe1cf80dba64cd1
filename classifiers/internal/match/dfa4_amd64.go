//go:build !purego

package match

import "unsafe"

// steps4 runs the four chains of AppendMatchesIn over t: chain k reads
// t[k*step+i] for i from i to n, from state s[k]. After a round in which
// some chain enters a state with outputs it notes the round in hits (the
// index after it and the four states, flags set) and clears the flags. It
// stops at n or when hits is full and returns where it stopped and how
// many hits it noted. t must hold 3*step+n bytes.
func (m *Matcher) steps4(t []byte, step, i, n int, s *[chains]uint32, hits *[hitCap]hit) (int, int) {
	if i >= n {
		return i, 0
	}
	_ = t[3*step+n-1] // the assembly reads no further
	return dfa4(&m.trans[0], &m.class, &t[0], step, i, n, s, hits)
}

// dfa4 is steps4 in assembly, the four chains' loads interleaved. It reads
// trans without bounds checks: Compile checks that every entry, its flag
// cleared, plus any class is an index into trans, and dfa4 clears the
// flags before the next step.
//
//go:noescape
func dfa4(trans *uint32, class *[256]uint8, t *byte, step, i, n int, s *[chains]uint32, hits *[hitCap]hit) (j, nhits int)

// The assembly notes at most 16 hits of 20 bytes each.
var (
	_ [hitCap - 16]struct{}
	_ [16 - hitCap]struct{}
	_ [unsafe.Sizeof(hit{}) - 20]struct{}
	_ [20 - unsafe.Sizeof(hit{})]struct{}
)
