//go:build !amd64 || purego

package linear

func memoSums(c *wordCache, s []byte, spans, hs []uint64, slow []int32) (a, b uint64, cnt, ns int) {
	return memoSumsGo(c, s, spans, hs, slow)
}

func bigramSums(w []uint64, hs []uint64) (a, b uint64) { return bigramSumsGo(w, hs) }

func wordsFull(s []byte, nblk int, out []uint64, st *wordState) int {
	return wordsFullGo(s, nblk, out, st)
}
