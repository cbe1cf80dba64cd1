package linear

import "encoding/binary"

// The two inner loops of plainSums (TestPlainSumsMatchAppendPlain holds
// plainSums to the listed features). Both add
// packed 16-bit lanes of biased weights (category c in bits 16c..16c+15)
// into two accumulators of 32-bit lanes: a holds categories 0 and 2, b
// categories 1 and 3 (see flush32), so no lane carries before 2^32 / (9 ×
// 255) words; plainSums calls them on at most memoChunk words at a time.

// memoChunk is the most words plainSums hands memoSums or bigramSums at
// once.
const memoChunk = 1 << 20

// memoSumsGo adds up the memoized own features of the words of spans
// (appendWords' list over s) that are in the memo c (noting in its set the
// entry used, see wordCache), sets hs[i] to the hash of each such word, and
// lists in slow the indices of the others:
// words with a digit or longer than eight bytes, words not in the memo,
// and words too near the end of s for an eight-byte load. cnt is the
// number of features added, ns the number of indices in slow.
func memoSumsGo(c *wordCache, s []byte, spans, hs []uint64, slow []int32) (a, b uint64, cnt, ns int) {
	hs = hs[:len(spans)]
	slow = slow[:len(spans)]
	for i, sp := range spans {
		start, end := spanStart(sp), spanEnd(sp)
		if sp&(digitSpan|longSpan) == 0 && start+8 <= len(s) {
			x := binary.BigEndian.Uint64(s[start:]) >> (64 - 8*uint(end-start))
			st := c.set(x)
			if w := st.way(x); w >= 0 {
				en := &st[w]
				a += en.lanes & lanes32
				b += en.lanes >> 16 & lanes32
				cnt += int(en.n)
				hs[i] = en.h
				st[0].last = uint32(w)
				continue
			}
		}
		slow[ns] = int32(i)
		ns++
	}
	return a, b, cnt, ns
}

// bigramSumsGo adds up the weights of the bigrams of consecutive hashes in
// hs (len(hs)-1 features).
func bigramSumsGo(w []uint64, hs []uint64) (a, b uint64) {
	mask := uint32(len(w) - 1)
	for j := 1; j < len(hs); j++ {
		v := w[bigram(hs[j-1], hs[j])&mask]
		a += v & lanes32
		b += v >> 16 & lanes32
	}
	return a, b
}

// crossSums adds up the weights of every hash in hs crossed with anchor
// class k (len(hs) features).
func crossSums(w []uint64, hs []uint64, k int) (a, b uint64) {
	const shift = 64 - 16 // fastPath: Bits == 16
	mask := uint32(len(w) - 1)
	for _, h := range hs {
		v := w[crossBucket(h, k, shift)&mask]
		a += v & lanes32
		b += v >> 16 & lanes32
	}
	return a, b
}

// lanes32 keeps lanes 0 and 2 of four 16-bit lanes, in 32-bit lanes.
const lanes32 = 0x0000ffff0000ffff

// flush32 adds the cnt biased weights summed in the 32-bit lanes of a and
// b (memoSums, bigramSums) to sum and returns cnt.
func flush32(sum *[N]int64, a, b uint64, cnt int) int {
	bias := 128 * int64(cnt)
	sum[0] += int64(a&0xffffffff) - bias
	sum[2] += int64(a>>32) - bias
	sum[1] += int64(b&0xffffffff) - bias
	sum[3] += int64(b>>32) - bias
	return cnt
}
