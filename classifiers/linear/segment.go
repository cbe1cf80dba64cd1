package linear

import (
	"encoding/binary"
	"math"

	"github.com/openrai/raiserver/classifiers/vectors"
)

// Normalization joins letters spelled out one by one ("k i l l t h e m",
// "k.i.l.l t.h.e.m") into one word ("killthem"), which the hashed
// n-grams read but no vector table holds. The word terms (VectorTerm,
// ConvTerm) therefore split such a word back into the table's words
// ("kill", "them"): the most likely split under a unigram model in which
// a word's probability falls with its frequency rank (Zipf), found by
// dynamic programming. It applies to words the table does not hold, of
// segMinBytes to segMaxBytes letters a-z; a split is kept when at most one
// part in segMaxOddShare is a letter other than a and i (the one-letter
// words, which the table does not hold).
const (
	segMinBytes    = 6
	segMaxBytes    = 256
	segMaxPart     = 20 // the longest part tried
	segOddShare    = 5  // at most one odd letter per segOddShare parts
	segLetterCost  = 3  // -log-probability of "a" and "i" (about rank 20)
	segOddCost     = 14 // of any other single letter (beyond the table's last rank)
	segRankOffset  = 2
	segUnreachable = math.MaxFloat32
)

// segScratch is the dynamic program's memory for one word, and the kept
// splits of the words it has split lately (memo).
type segScratch struct {
	cost [segMaxBytes + 1]float32 // cost of the best split of w[:i]
	back [segMaxBytes + 1]int16   // where its last part starts
	id   [segMaxBytes + 1]int32   // that part's table id, or -1 for a letter
	memo [splitMemoSize]splitEntry
}

// A split costs a table lookup per part tried (up to segMaxPart at every
// byte), and a conversation repeats its words, so the model's scratch
// keeps the last kept split of each of splitMemoSize slots (direct-mapped
// by the word's hash; vecModel.split): words of at most splitMemoBytes
// bytes split into at most splitMemoIDs parts the table holds. Anything
// else is split again each time. segment itself keeps nothing, so that
// TableWords, the reference, splits every word afresh.
const (
	splitMemoBits  = 6
	splitMemoSize  = 1 << splitMemoBits
	splitMemoBytes = 16
	splitMemoIDs   = 6
)

// splitEntry is one slot of segScratch.memo: the word (its bytes in key,
// zero-padded, and its length n; n = 0 for an empty slot), its number of
// parts and the table ids of those the table holds, in order.
type splitEntry struct {
	key   [2]uint64
	n     uint8
	parts uint8
	nids  uint8
	ids   [splitMemoIDs]int32
}

// splitKey returns the memo key of w (at most splitMemoBytes bytes) and
// its slot in segScratch.memo.
func splitKey(w []byte) (key [2]uint64, slot int) {
	var b [splitMemoBytes]byte
	copy(b[:], w)
	key[0] = binary.LittleEndian.Uint64(b[:8])
	key[1] = binary.LittleEndian.Uint64(b[8:])
	h := (key[0]*mix64 ^ key[1] ^ uint64(len(w))) * mix64
	return key, int(h >> (64 - splitMemoBits))
}

// segmentable reports whether w is a word segment may split.
func segmentable(w []byte) bool {
	if len(w) < segMinBytes || len(w) > segMaxBytes {
		return false
	}
	for _, c := range w {
		if c-'a' >= 26 {
			return false
		}
	}
	return true
}

// segment splits w, a word tab does not hold, into tab's words (see the
// constants above). When w is segmentable and a split is kept, it appends
// the ids of the parts tab holds to dst and returns the number of parts
// (one-letter parts included) and true; otherwise it returns dst and false.
func segment(dst []int32, tab *vectors.Table, w []byte, sc *segScratch) ([]int32, int, bool) {
	parts, ok := split(tab, w, sc)
	if !ok {
		return dst, 0, false
	}
	// The parts from the end: append them, then reverse the new ids.
	base := len(dst)
	for i := len(w); i > 0; i = int(sc.back[i]) {
		if sc.id[i] >= 0 {
			dst = append(dst, sc.id[i])
		}
	}
	for a, b := base, len(dst)-1; a < b; a, b = a+1, b-1 {
		dst[a], dst[b] = dst[b], dst[a]
	}
	return dst, parts, true
}

// split runs the dynamic program of segment on w into sc and reports the
// number of parts and whether the split is kept.
func split(tab *vectors.Table, w []byte, sc *segScratch) (int, bool) {
	if !segmentable(w) {
		return 0, false
	}
	n := len(w)
	sc.cost[0] = 0
	for i := 1; i <= n; i++ {
		best, from, bid := float32(segUnreachable), -1, int32(-1)
		for j := max(0, i-segMaxPart); j < i; j++ {
			if sc.cost[j] == segUnreachable {
				continue
			}
			var c float32
			id := int32(-1)
			if i-j == 1 {
				c = segOddCost
				if w[j] == 'a' || w[j] == 'i' {
					c = segLetterCost
				}
				if got, ok := tab.Lookup(w[j:i]); ok {
					id, c = got, rankCost(tab, got)
				}
			} else {
				got, ok := tab.Lookup(w[j:i])
				if !ok {
					continue
				}
				id, c = got, rankCost(tab, got)
			}
			if c += sc.cost[j]; c < best {
				best, from, bid = c, j, id
			}
		}
		sc.cost[i], sc.back[i], sc.id[i] = best, int16(from), bid
	}
	if sc.cost[n] == segUnreachable {
		return 0, false
	}
	parts, odd := 0, 0
	for i := n; i > 0; i = int(sc.back[i]) {
		parts++
		if sc.id[i] < 0 && w[i-1] != 'a' && w[i-1] != 'i' {
			odd++
		}
	}
	return parts, parts >= 2 && odd*segOddShare <= parts
}

// rankCost is the -log-probability of the word id under the Zipf model.
func rankCost(tab *vectors.Table, id int32) float32 {
	return float32(math.Log(float64(tab.Rank(id) + segRankOffset)))
}
