package linear

import (
	"encoding/binary"
	"math/bits"
	"slices"

	"github.com/openrai/raiserver/classifiers/internal/normalize"
)

// The fast path of Scores and ScoresNormalized for the shipped feature set
// (4-gram edges, words, bigrams; see Features.Long) on text classifiers/
// normalize has normalized (which decides alone what needs folding: its
// block path lower-cases plain ASCII): one pass over the words adds up the
// weights of their features, applying foldDigits word by word, and rules
// out what it does not handle (a letter three times in a row, a spelled
// chain); a short word's own features are memoized per scratch, so a
// common word costs one cache probe and its bigram. When the pass says no,
// Scores featurizes the ordinary way. TestFastPathMatchesNormV1 checks
// that whenever the fast path answers, its features are those of the
// normalized text, and that the scores are the ordinary path's;
// TestPlainSumsMatchAppendPlain checks the memoized sums against the
// listed features.

const (
	ones8 = 0x0101010101010101
	high8 = 0x8080808080808080
)

// fastPath reports whether f is the feature set plainSums implements.
func (f Features) fastPath() bool {
	return f.Bits == 16 && f.MinN == 4 && f.MaxN == 4 && f.Words && f.Bigrams
}

// plainSums returns what m.sums(feats) and len(feats) would be for the
// features of foldDigits(s), s text normalized by classifiers/internal/normalize
// (in any script), and false when NormV1 would rewrite a word of s: a
// letter three times in a row, or three or more single letters each
// separated by one separator or by whitespace ("k i l l", "k.i.l.l").
// (appendPlain, in the tests, lists the same features.)
//
// It works in passes, each a loop small enough for the compiler to keep
// its state in registers: one lists the words from the 64-byte bitmaps of
// normalize.Marks64, one checks the single letters, one adds up each
// word's own features (its n-grams and itself) and notes its hash, and one
// adds up the bigrams, whose table loads are independent of each other. A
// word contributes the same own features wherever it stands, so their
// packed weight sum and its hash are memoized: in p.words for a word of
// at most eight bytes, in p.long for one of at most maxLongWord. A word
// with a digit is folded on its own: foldDigits rewrites runs of letters
// and digits, which never reach past a word, so the text needs no copy. The sums are integers, so the result depends neither on
// the order of the features nor on what the memo holds
// (TestPlainSumsMatchAppendPlain).
func (m *Model) plainSums(p *plainScratch, s []byte) (sum [N]int64, n int, ok bool) {
	p.spans = appendWords(p.spans[:0], s)
	spans := p.spans
	var st plainState
	for _, sp := range spans {
		if !st.single(spanStart(sp), spanEnd(sp), s) {
			return sum, 0, false
		}
	}
	p.hashes = slices.Grow(p.hashes[:0], len(spans))[:len(spans)]
	hs := p.hashes
	c := &p.words
	// The words found in the memo (memoSums); the others (not there yet,
	// longer than eight bytes, with a digit) after them.
	p.slow = slices.Grow(p.slow[:0], len(spans))[:len(spans)]
	slow := p.slow
	ns := 0
	for i := 0; i < len(spans); i += memoChunk {
		e := min(len(spans), i+memoChunk)
		a, b, k, nk := memoSums(c, s, spans[i:e], hs[i:e], slow[ns:])
		n += flush32(&sum, a, b, k)
		for j := ns; j < ns+nk; j++ {
			slow[j] += int32(i)
		}
		ns += nk
	}
	var acc uint64
	cnt := 0
	for _, i := range slow[:ns] {
		var h, lanes uint64
		var k int
		if h, lanes, k, ok = m.otherWord(p, &sum, &n, s, spans[i]); !ok {
			return sum, 0, false
		}
		hs[i] = h
		acc += lanes
		cnt += k
		if cnt > 256-maxLongWord { // a word has at most maxLongWord own features here
			n += flushLanes(&sum, acc, cnt)
			acc, cnt = 0, 0
		}
	}
	n += flushLanes(&sum, acc, cnt)
	// The bigrams of consecutive words.
	for i := 1; i < len(hs); i += memoChunk {
		e := min(len(hs), i+memoChunk)
		a, b := bigramSums(m.lanes, hs[i-1:e])
		n += flush32(&sum, a, b, e-i)
	}
	if mask := m.p.Features.anchorMask(); mask != 0 {
		// Every word crossed with each anchor class present.
		var classes uint8
		for _, h := range hs {
			classes |= anchorOf(h)
		}
		classes &= mask
		for k := range numAnchors {
			if classes&(1<<k) == 0 {
				continue
			}
			for i := 0; i < len(hs); i += memoChunk {
				e := min(len(hs), i+memoChunk)
				a, b := crossSums(m.lanes, hs[i:e], k)
				n += flush32(&sum, a, b, e-i)
			}
		}
	}
	return sum, n, true
}

// featureSums is plainSums with the length feature (Features.Length)
// added when the model reads it: the sums scorePlain turns into log-odds
// (appendPlain, in the tests, lists the same features). The feature is
// added here, outside plainSums' loops, so that a model without it runs
// them unchanged.
func (m *Model) featureSums(p *plainScratch, s []byte) (sum [N]int64, n int, ok bool) {
	if sum, n, ok = m.plainSums(p, s); ok && m.p.Features.Length {
		if w := len(p.spans); w >= 1 && w <= maxLengthWords {
			v := m.lanes[lengthBucket(w, 64-16)&uint32(len(m.lanes)-1)]
			n += flush32(&sum, v&lanes32, v>>16&lanes32, 1)
		}
	}
	return sum, n, ok
}

// fill memoizes in en the own features of the word s[start:end], packed in
// x (at most eight bytes), or reports false when NormV1 would rewrite it.
//
//go:noinline
func (m *Model) fill(p *plainScratch, en *wordEntry, x uint64, s []byte, start, end int) bool {
	h, lanes, k, ok := m.ownLanes(p, s, start, end)
	if ok {
		*en = wordEntry{key: x, lanes: lanes, h: h, n: uint32(k)}
	}
	return ok
}

// fillLong is fill for a word longer than Features.Long and eight bytes
// and at most maxLongWord, whose first eight bytes are k0 and the rest k1
// (packWord).
//
//go:noinline
func (m *Model) fillLong(p *plainScratch, en *longEntry, k0, k1 uint64, s []byte, start, end int) bool {
	h, lanes, _, ok := m.ownLanes(p, s, start, end)
	if ok {
		*en = longEntry{k0: k0, k1: k1, lanes: lanes, h: h}
	}
	return ok
}

// ownLanes returns the hash of the word s[start:end], of at most
// maxLongWord bytes, and the packed biased weights of its own features and
// their count, or false when NormV1 would rewrite the word.
func (m *Model) ownLanes(p *plainScratch, s []byte, start, end int) (h, lanes uint64, k int, ok bool) {
	tmp := &p.feats // not a local array, which every call would clear
	if h, k, ok = ownFeatures(tmp[:], 0, s, start, end, int(m.p.Features.Long)); !ok {
		return 0, 0, 0, false
	}
	w := m.lanes
	mask := uint32(len(w) - 1)
	for _, f := range tmp[:k] {
		lanes += w[f&mask]
	}
	return h, lanes, k, true
}

// otherWord handles a word that is not in the memo yet, is longer than
// eight bytes or holds a digit (folded first): it returns the word's hash
// and either the packed weights of its own features and their count (a
// word of at most maxLongWord bytes, memoized in p.words or p.long) or
// nothing, having added them to sum and n itself (a longer word); or false
// when NormV1 would rewrite the word.
//
//go:noinline
func (m *Model) otherWord(p *plainScratch, sum *[N]int64, n *int, s []byte, sp uint64) (h, lanes uint64, k int, ok bool) {
	ws, a, e := s, spanStart(sp), spanEnd(sp)
	if sp&digitSpan != 0 {
		p.fold = append(p.fold[:0], s[a:e]...)
		foldDigits(p.fold)
		ws, a, e = p.fold, 0, len(p.fold)
	}
	if e-a <= 8 {
		x := packWord(ws, a, e)
		st := p.words.set(x)
		w := st.way(x)
		if w < 0 {
			// Not there: in place of the entry used less recently.
			w = 1 - int(st[0].last)
			if !m.fill(p, &st[w], x, ws, a, e) {
				return 0, 0, 0, false
			}
		}
		st[0].last = uint32(w)
		return st[w].h, st[w].lanes, int(st[w].n), true
	}
	if L := e - a; L > int(m.p.Features.Long) && L <= maxLongWord {
		// A word of L bytes past Features.Long has L own features: its
		// L-1 4-grams, padded, and itself.
		k0 := binary.BigEndian.Uint64(ws[a:])
		k1 := packWord(ws, a+8, e)
		st := p.long.set(k0, k1)
		switch {
		case st[0].k0 == k0 && st[0].k1 == k1:
		case st[1].k0 == k0 && st[1].k1 == k1:
			st[0], st[1] = st[1], st[0]
		default:
			var en longEntry
			if !m.fillLong(p, &en, k0, k1, ws, a, e) {
				return 0, 0, 0, false
			}
			st[0], st[1] = en, st[0]
		}
		return st[0].h, st[0].lanes, e - a, true
	}
	tmp := &p.feats
	if h, k, ok = ownFeatures(tmp[:], 0, ws, a, e, int(m.p.Features.Long)); !ok {
		return 0, 0, 0, false
	}
	part := m.sums(tmp[:k])
	for c := range N {
		sum[c] += part[c]
	}
	*n += k
	return h, 0, 0, true
}

// plainScratch is what plainSums reuses from call to call: one per model
// scratch (so per goroutine at a time), valid for one model.
type plainScratch struct {
	words  wordCache
	long   longCache
	spans  []uint64                 // the words of the text (appendWords)
	hashes []uint64                 // their hashes
	slow   []int32                  // the words plainSums looks up the slow way
	fold   []byte                   // a word with a digit, folded
	feats  [maxWordGrams + 4]uint32 // the own features of one word
}

// The flags of a word in appendWords' list.
const (
	digitSpan = 1 << 63 // it holds an ASCII digit
	longSpan  = 1 << 62 // it is longer than eight bytes
)

func spanStart(sp uint64) int { return int(sp >> 32 & (1<<30 - 1)) }
func spanEnd(sp uint64) int   { return int(uint32(sp)) }

// appendWords appends the words (runs of word bytes) of s to dst, in
// order, each as start<<32 | end with the flags digitSpan and longSpan,
// and returns dst. s is shorter than 1 GiB. Each 64-byte block gives the
// bitmaps of the first and the last bytes of its words; their set bits,
// taken in turn, pair up. The full blocks go to wordsFull, the last short
// one to wordState.block.
func appendWords(dst []uint64, s []byte) []uint64 {
	n := len(s)
	base := len(dst)
	dst = slices.Grow(dst, n/2+1) // a word and a separator take two bytes
	out := dst[base : base+n/2+1]
	st := wordState{pending: -1}
	k := 0
	if full := n / 64; full > 0 {
		k = wordsFull(s, full, out, &st)
	}
	if blk := n &^ 63; blk < n {
		wm, dm, _ := normalize.Marks(s[blk:])
		k = st.block(out, k, blk, wm, dm, 0)
	}
	return dst[:base+k]
}

// wordState is what appendWords carries from one block to the next.
type wordState struct {
	pending   int64  // the start of a word that goes on past the block, or -1
	pendDigit uint64 // its digits so far (nonzero: it holds one)
	carry     uint64 // whether the last byte of the block before is a word byte
}

// block appends to out[k:] the words of the block at blk that end in it,
// from its word-byte and digit bitmaps and whether the byte after it is a
// word byte, and returns the new k.
func (st *wordState) block(out []uint64, k, blk int, wm, dm, after uint64) int {
	starts := wm &^ (wm<<1 | st.carry)
	ends := wm &^ (wm>>1 | after<<63) // the last byte of each word
	st.carry = wm >> 63
	if st.pending >= 0 {
		if ends == 0 { // the word spans the block
			st.pendDigit |= dm
			return k
		}
		e := bits.TrailingZeros64(ends)
		ends &= ends - 1
		start, end := int(st.pending), blk+e+1
		f := flags(start, end)
		if st.pendDigit|dm&(2<<uint(e)-1) != 0 {
			f |= digitSpan
		}
		out[k] = uint64(start)<<32 | uint64(end) | f
		k++
		st.pending = -1
	}
	for ends != 0 {
		b := bits.TrailingZeros64(starts) & 63
		e := bits.TrailingZeros64(ends) & 63
		starts &= starts - 1
		ends &= ends - 1
		start, end := blk+b, blk+e+1
		f := flags(start, end)
		if dm != 0 && dm&(2<<uint(e)-1<<uint(b)) != 0 {
			f |= digitSpan
		}
		out[k] = uint64(start)<<32 | uint64(end) | f
		k++
	}
	if starts != 0 { // a word that goes on into the next block
		b := bits.TrailingZeros64(starts) & 63
		st.pending = int64(blk + b)
		st.pendDigit = dm >> uint(b)
	}
	return k
}

// wordsFullGo is wordsFull in Go: the first nblk blocks of s, all 64 bytes
// long, appended to out from st; it returns how many words it wrote.
func wordsFullGo(s []byte, nblk int, out []uint64, st *wordState) int {
	k := 0
	for blk := 0; blk < nblk*64; blk += 64 {
		wm, dm, _ := normalize.Marks64((*[64]byte)(s[blk : blk+64]))
		var after uint64
		if blk+64 < len(s) && isWordByte[s[blk+64]] {
			after = 1
		}
		k = st.block(out, k, blk, wm, dm, after)
	}
	return k
}

// flags is longSpan for a word from start to end longer than eight bytes.
func flags(start, end int) uint64 {
	if end-start > 8 {
		return longSpan
	}
	return 0
}

// flushLanes adds the cnt biased weights summed in the 16-bit lanes of acc
// to sum and returns cnt.
func flushLanes(sum *[N]int64, acc uint64, cnt int) int {
	bias := 128 * int64(cnt)
	sum[0] += int64(acc&0xffff) - bias
	sum[1] += int64(acc>>16&0xffff) - bias
	sum[2] += int64(acc>>32&0xffff) - bias
	sum[3] += int64(acc>>48) - bias
	return cnt
}

// wordCacheBits is log2 of the entries of a wordCache: 32 KiB, which
// holds the common words of a conversation.
const wordCacheBits = 10

// wordCache is a two-way set-associative memo of short words' own
// features, one per scratch (so per goroutine at a time), valid for one
// model. A word may sit in either entry of its set (set); the first entry
// notes which of the two was used last, and a new word takes the other's
// place (least recently used; a note is one store, where swapping the
// entries on a hit in the second was eight loads and stores). Two ways
// keep two common words whose hashes meet from evicting each other on
// every use, which a direct-mapped memo of the same size does (on
// ASCIIVaried2K's stream 13% of lookups missed direct-mapped, 4% with two
// ways; docs/classifiers-model.md has the rates on public text).
type wordCache [1 << wordCacheBits]wordEntry

// set returns the two entries where the word packed in x may be: a set is
// 64 bytes, one cache line.
func (c *wordCache) set(x uint64) *wordSet {
	i := x * mix64 >> (64 - wordCacheBits + 1) * 2
	return (*wordSet)(c[i : i+2])
}

// wordSet is a set of a wordCache.
type wordSet [2]wordEntry

// way returns the entry of the set that holds the word packed in x (the
// second when both do), or -1.
func (st *wordSet) way(x uint64) int {
	switch {
	case st[1].key == x:
		return 1
	case st[0].key == x:
		return 0
	}
	return -1
}

// longCacheBits is log2 of the entries of a longCache: 16 KiB.
const longCacheBits = 9

// maxLongWord is the longest word a longCache holds.
const maxLongWord = 16

// longCache is wordCache for the words longer than eight bytes and
// Features.Long and at most maxLongWord, with the same two ways: a memo of
// their own features, so that a common long word ("something",
// "everything", "recommend") costs a probe and not the hashes and weight
// loads of its n-grams.
type longCache [1 << longCacheBits]longEntry

// set returns the two entries where the word with halves k0 and k1 may be.
func (c *longCache) set(k0, k1 uint64) *[2]longEntry {
	i := (k0 ^ k1*mix64) * mix64 >> (64 - longCacheBits + 1) * 2
	return (*[2]longEntry)(c[i : i+2])
}

type longEntry struct {
	k0, k1 uint64 // the word's first eight bytes and the rest (packWord); k0 0: empty
	lanes  uint64 // packed biased weights of its own features (as many as its bytes)
	h      uint64 // its hash, for bigrams
}

type wordEntry struct {
	key   uint64 // the word's bytes, first byte high; 0: empty
	lanes uint64 // packed biased weights of its own features
	h     uint64 // its hash, for bigrams
	n     uint32 // how many own features
	last  uint32 // in a set's first entry: the entry used last (0 or 1)
}

// wordIter yields the words (runs of word bytes) of s in order, finding
// them 64 bytes at a time from a bit mask so that the byte loop has no
// data-dependent branch. AppendFeatures and the fast paths share it.
type wordIter struct {
	s    []byte
	blk  int    // the current 64-byte block; start at -64
	m    uint64 // its word bytes not yet yielded
	next int    // bytes before next belong to words already yielded
}

// word returns the next word s[start:end], or false at the end.
func (it *wordIter) word() (start, end int, ok bool) {
	s := it.s
	for it.m == 0 {
		it.blk += 64
		blk := it.blk
		if blk >= len(s) {
			return 0, 0, false
		}
		if it.next >= blk+64 {
			continue
		}
		var m uint64
		if blk+64 <= len(s) {
			m, _, _ = normalize.Marks64((*[64]byte)(s[blk : blk+64]))
		} else {
			m, _, _ = normalize.Marks(s[blk:])
		}
		if it.next > blk {
			m &^= 1<<uint(it.next-blk) - 1
		}
		it.m = m
	}
	b := bits.TrailingZeros64(it.m)
	start = it.blk + b
	run := bits.TrailingZeros64(^(it.m >> uint(b)))
	it.m &^= 1<<uint(b+run) - 1 // 1<<64 is 0: clears the whole mask
	end = start + run
	if b+run == 64 { // the word goes on into the next block
		for end < len(s) && isWordByte[s[end]] {
			end++
		}
		it.next = end
	}
	return start, end, true
}

// plainState follows the letters standing alone from one word to the
// next (single).
type plainState struct {
	chain   int // single letters joined so far
	lastEnd int // end of the last single letter
}

// single follows the letters standing alone and reports false when the
// word s[start:end] is the third of them in a row with one separator or
// whitespace between each ("k i l l"), which NormV1 would join.
func (st *plainState) single(start, end int, s []byte) bool {
	if end-start != 1 {
		st.chain = 0
		return true
	}
	if st.chain > 0 && chainGap(s[st.lastEnd:start]) {
		st.chain++
		if st.chain >= 3 {
			return false
		}
	} else {
		st.chain = 1
	}
	st.lastEnd = end
	return true
}

// bigram is the bucket of the bigram of two words' hashes.
func bigram(prev, h uint64) uint32 {
	const shift = 64 - 16 // fastPath: Bits == 16
	return uint32(((prev * prime64) ^ h ^ seedBigram) * mix64 >> shift)
}

// ownFeatures writes the features the word s[start:end] has on its own
// (its 4-grams, only the edge ones for a word of at most long bytes as
// Features.Long says, and the word) to out[j:] and returns the word's hash
// and the new j, or false when NormV1 would rewrite the word (a letter
// three times in a row).
func ownFeatures(out []uint32, j int, s []byte, start, end, long int) (uint64, int, bool) {
	const seed4 = 0x7c4a5e1b8f3d9a61 // seedGram[4]
	const mask4 = 1<<32 - 1
	const shift = 64 - 16 // fastPath: Bits == 16
	L := end - start
	var h uint64
	if L <= 6 {
		x := packWord(s, start, end)
		if L >= 3 {
			// A byte equal to the next two: the low L-2 lanes of the
			// comparison hold the triples inside the word.
			e := (x ^ x>>8) | (x ^ x>>16)
			z := (e - ones8) &^ e & high8 // lanes where e is 0 (exact up to the first)
			if z&(1<<(8*uint(L-2))-1) != 0 {
				return 0, j, false
			}
		}
		h = shortWordHash(x, L)
		v := (' '<<(8*uint(L))|x)<<8 | ' '
		switch {
		case L <= long || L <= 3:
			// The edge 4-grams of " w " (for L ≤ 3 they are all its
			// 4-grams).
			if L >= 2 {
				out[j] = uint32((v&mask4 ^ seed4) * mix64 >> shift)
				j++
			}
			if L >= 3 {
				out[j] = uint32((v>>(8*uint(L-2))&mask4 ^ seed4) * mix64 >> shift)
				j++
			}
		default:
			// Every 4-gram of " w ", from its end, as AppendFeatures
			// lists them.
			for t := 0; t <= L-2; t++ {
				out[j] = uint32((v>>(8*uint(t))&mask4 ^ seed4) * mix64 >> shift)
				j++
			}
		}
	} else {
		w := s[start:end]
		for k := 2; k < L; k++ {
			if w[k] == w[k-1] && w[k] == w[k-2] {
				return 0, j, false
			}
		}
		if L <= long {
			j = appendEdgeGrams(out, j, w, 4, 4, shift)
		} else {
			j = appendGrams(out, j, w, 4, 4, shift)
		}
		h = wordHash(w)
	}
	out[j] = uint32((h ^ seedWord) * mix64 >> shift)
	return h, j + 1, true
}
