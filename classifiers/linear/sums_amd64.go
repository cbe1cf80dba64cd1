//go:build !purego

package linear

import "unsafe"

// memoSums, bigramSums and wordsFull: see memoSumsGo and bigramSumsGo in
// sums.go and wordsFullGo in fast.go for their contract and the portable
// Go they replace on amd64. The assembly reads without bounds checks; the
// wrappers below check every length it relies on, the word memo's size
// (wordCacheBits) is fixed below, and a bigram's bucket is masked by
// len(w)-1, a power of two minus one.

//go:noescape
func memoSumsAsm(c *wordCache, s *byte, slen int, spans *uint64, n int, hs *uint64, slow *int32) (a, b uint64, cnt, ns int)

//go:noescape
func bigramSumsAsm(w *uint64, mask uint64, hs *uint64, n int) (a, b uint64)

// The assembly shifts a word's hash right by 55 for its set and scales
// the set by 64, two entries of 32 bytes.
var (
	_ [wordCacheBits - 10]struct{}
	_ [10 - wordCacheBits]struct{}
	_ [unsafe.Sizeof(wordEntry{}) - 32]struct{}
	_ [32 - unsafe.Sizeof(wordEntry{})]struct{}
)

func memoSums(c *wordCache, s []byte, spans, hs []uint64, slow []int32) (a, b uint64, cnt, ns int) {
	if len(spans) == 0 {
		return 0, 0, 0, 0
	}
	_, _ = hs[len(spans)-1], slow[len(spans)-1]
	var s0 *byte
	if len(s) > 0 {
		s0 = &s[0]
	}
	return memoSumsAsm(c, s0, len(s), &spans[0], len(spans), &hs[0], &slow[0])
}

func bigramSums(w []uint64, hs []uint64) (a, b uint64) {
	if len(hs) < 2 || len(w) == 0 || len(w)&(len(w)-1) != 0 {
		return bigramSumsGo(w, hs)
	}
	return bigramSumsAsm(&w[0], uint64(len(w)-1), &hs[0], len(hs))
}

func wordsFull(s []byte, nblk int, out []uint64, st *wordState) int {
	// Every block writes at most 32 words; out has room for len(s)/2+1.
	_ = s[nblk*64-1]
	_ = out[nblk*32-1]
	return wordsFullAsm(&s[0], len(s), nblk, &out[0], st)
}

// wordsFullAsm is wordsFullGo in assembly.
//
//go:noescape
func wordsFullAsm(s *byte, n, nblk int, out *uint64, st *wordState) (k int)

var (
	_ [unsafe.Offsetof(wordState{}.pendDigit) - 8]struct{}
	_ [unsafe.Offsetof(wordState{}.carry) - 16]struct{}
)
