package linear

// The word list, the memo loop and the bigram loop are plain Go on every
// platform: their amd64 assembly saved under 10% of the stack's time on
// the server's path (docs/benchmarks.md, "Assembly kept or removed") and
// was removed.

func memoSums(c *wordCache, s []byte, spans, hs []uint64, slow []int32) (a, b uint64, cnt, ns int) {
	return memoSumsGo(c, s, spans, hs, slow)
}

func bigramSums(w []uint64, hs []uint64) (a, b uint64) { return bigramSumsGo(w, hs) }

func wordsFull(s []byte, nblk int, out []uint64, st *wordState) int {
	return wordsFullGo(s, nblk, out, st)
}
