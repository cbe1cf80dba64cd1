package linear

import (
	"fmt"
	"math"
	"slices"

	"github.com/openrai/raiserver/classifiers/vectors"
)

// Word vectors. A model may add to each category's log-odds a linear term
// in two pooled word vectors of the text: the mean of the vectors of its
// words found in vectors.Default(), and their IDF-weighted mean (weight
// IDFWeight(rank)). Words are those of the hashed features (runs of word
// bytes of the normalized text, so "don't" is "don" and "t"); a word with
// a byte outside the table's lowercase ASCII is not found. With no word
// found the term is 0; otherwise it is
//
//	Const[c] + Mean[c]·mean + IDF[c]·idfMean
//
// Both pools are linear in the word vectors, so at load the model turns
// each word of the table into one row of per-category scalars (Mean[c]·v
// and IDFWeight·IDF[c]·v, and the IDF weight): the term then costs one
// lookup and a few adds per word and does not allocate.

// idfRank is the rank scale of IDFWeight: about where stop words end in
// the table's frequency order.
const idfRank = 100

// IDFWeight is the weight of a word of the given 1-based frequency rank
// (vectors.Table.Rank) in the IDF-weighted mean: log(1 + rank/100). By
// Zipf's law log(rank) is, up to a constant, the word's -log probability;
// the offset keeps the weight positive and makes the hundred most frequent
// words (the, of, and, …) count for less than 0.7 against about 7 for a
// word of rank 100,000.
func IDFWeight(rank int) float32 {
	return float32(math.Log1p(float64(rank) / idfRank))
}

// VectorTerm is the word-vector term of a model (Params.Vectors).
type VectorTerm struct {
	// Words and Dims are the word count and dimensions of the table the
	// term was trained with (vectors.Default); New refuses another.
	Words, Dims int
	// Const[c] is added to category c's log-odds when the text has at
	// least one word of the table.
	Const [N]float32
	// Mean[c] and IDF[c], Dims numbers each, weight the mean and the
	// IDF-weighted mean of the word vectors.
	Mean, IDF [N][]float32
}

func (v *VectorTerm) validate() error {
	if v.Dims < 1 || v.Dims > 1024 || v.Words < 1 || v.Words > 1<<24 {
		return fmt.Errorf("%w: vector term of %d words × %d dims", ErrFormat, v.Words, v.Dims)
	}
	for c := range N {
		if !finite(v.Const[c]) {
			return fmt.Errorf("%w: vector constant %d not finite", ErrFormat, c)
		}
		if len(v.Mean[c]) != v.Dims || len(v.IDF[c]) != v.Dims {
			return fmt.Errorf("%w: vector weights of category %d: %d and %d numbers, want %d",
				ErrFormat, c, len(v.Mean[c]), len(v.IDF[c]), v.Dims)
		}
		for i := range v.Dims {
			if !finite(v.Mean[c][i]) || !finite(v.IDF[c][i]) {
				return fmt.Errorf("%w: vector weight of category %d not finite", ErrFormat, c)
			}
		}
	}
	return nil
}

// vecRow is what one word of the table adds to the pools: its mean-term
// scalars, its IDF-weighted IDF-term scalars and its IDF weight.
type vecRow struct {
	mean, idf [N]float32
	w         float32
}

// vecModel is a model's vector term, ready to score.
type vecModel struct {
	tab   *vectors.Table
	rows  []vecRow // by word id
	konst [N]float32
}

// newVecModel computes the per-word rows of v over tab.
func newVecModel(v *VectorTerm, tab *vectors.Table) (*vecModel, error) {
	if tab.Len() != v.Words || tab.Dims() != v.Dims {
		return nil, fmt.Errorf("%w: vector term for %d words × %d dims, table has %d × %d",
			ErrFormat, v.Words, v.Dims, tab.Len(), tab.Dims())
	}
	vm := &vecModel{tab: tab, rows: make([]vecRow, tab.Len()), konst: v.Const}
	// The weights by dimension, so that one pass over a word's numbers
	// gives its eight dot products (1.2 G instructions for the shipped
	// table the obvious way, a quarter of that so).
	wt := make([][2 * N]float32, v.Dims)
	for i := range wt {
		for c := range N {
			wt[i][c], wt[i][N+c] = v.Mean[c][i], v.IDF[c][i]
		}
	}
	for id := range vm.rows {
		q, s := tab.Vector(int32(id)), tab.Scale(int32(id))
		q = q[:len(wt)]
		var a0, a1, a2, a3, a4, a5, a6, a7 float32
		for i, x := range q {
			w := &wt[i]
			f := float32(x)
			a0 += w[0] * f
			a1 += w[1] * f
			a2 += w[2] * f
			a3 += w[3] * f
			a4 += w[4] * f
			a5 += w[5] * f
			a6 += w[6] * f
			a7 += w[7] * f
		}
		r := &vm.rows[id]
		r.w = IDFWeight(tab.Rank(int32(id)))
		ws := r.w * s
		r.mean = [N]float32{a0 * s, a1 * s, a2 * s, a3 * s}
		r.idf = [N]float32{a4 * ws, a5 * ws, a6 * ws, a7 * ws}
	}
	return vm, nil
}

// newVecModel unrolls its dot products for four categories.
var (
	_ [N - 4]struct{}
	_ [4 - N]struct{}
)

// vecMemoBits is log2 of the entries of a vecMemo: 16 KiB.
const vecMemoBits = 13

// vecMemo is a direct-mapped memo of the table ids of words of at most
// eight bytes, one per scratch (so per goroutine at a time), valid for
// one table: a common word costs a probe instead of the table's hash and
// its two dependent loads. It changes no result.
type vecMemo [1 << vecMemoBits]vecMemoEntry

type vecMemoEntry struct {
	key uint64 // the word's bytes, first byte high (packWord); 0: empty
	id  int32  // its id; memoAbsent or memoSplit when the table does not have it
}

// The ids of a vecMemoEntry for a word the table does not hold.
const (
	memoAbsent int32 = -1 // nor does it split (segment)
	memoSplit  int32 = -2 // but it splits into words the table holds
)

// longMemoBits is log2 of the entries of a longMemo (about 5 KiB).
const longMemoBits = 7

// longMemoMax is the longest word a longMemo keeps.
const longMemoMax = 32

// longMemo is a direct-mapped memo of the words of 9 to longMemoMax bytes
// (and of shorter words with a digit, folded) the table lookups the memo
// of short words does not serve: their id, memoAbsent or memoSplit, so a
// long word the table does not hold is not split again each time. It keeps
// the words themselves and changes no result.
type longMemo [1 << longMemoBits]longMemoEntry

type longMemoEntry struct {
	n   uint8 // the word's length; 0: empty
	key [longMemoMax]byte
	id  int32
}

// findLong returns the id of the word w (of any length) the fast and
// ordinary paths look up without the short memo, or memoAbsent, or
// memoSplit when it is not in the table but splits.
func (vm *vecModel) findLong(lm *longMemo, w []byte, seg **segScratch) int32 {
	if len(w) > longMemoMax || len(w) == 0 {
		return vm.classify(w, seg)
	}
	h := uint64(len(w))
	for _, c := range w {
		h = (h ^ uint64(c)) * 0x100000001b3
	}
	e := &lm[h*mix64>>(64-longMemoBits)]
	if int(e.n) == len(w) && string(e.key[:len(w)]) == string(w) {
		return e.id
	}
	id := vm.classify(w, seg)
	e.n = uint8(len(w))
	copy(e.key[:], w)
	e.id = id
	return id
}

// classify returns the id of w in the table, or memoSplit when the table
// does not hold it but it splits, or memoAbsent.
//
//go:noinline
func (vm *vecModel) classify(w []byte, seg **segScratch) int32 {
	if id, ok := vm.tab.Lookup(w); ok {
		return id
	}
	if segmentable(w) {
		if *seg == nil {
			*seg = new(segScratch)
		}
		if _, ok := split(vm.tab, w, *seg); ok {
			return memoSplit
		}
	}
	return memoAbsent
}

// lookup returns the id of the word s[start:end] of at most eight bytes,
// or -1.
func (vm *vecModel) lookup(memo *vecMemo, s []byte, start, end int, seg **segScratch) int32 {
	x := packWord(s, start, end)
	e := &memo[x*mix64>>(64-vecMemoBits)]
	if e.key != x {
		return vm.fill(e, x, s[start:end], seg)
	}
	return e.id
}

// fill looks the word w, packed in x, up in the table and notes its id (or
// memoAbsent, or memoSplit) in e.
//
//go:noinline
func (vm *vecModel) fill(e *vecMemoEntry, x uint64, w []byte, seg **segScratch) int32 {
	id := vm.classify(w, seg)
	*e = vecMemoEntry{key: x, id: id}
	return id
}

// text appends to ids the table ids of the words of the normalized text s
// found in the table and those of the parts of a word split by segment (as
// ^id), and returns how many words s has (a split word counting as its
// parts): the ordinary path. seg is scratch, allocated when
// first needed.
func (vm *vecModel) text(ids []int32, s []byte, memo *vecMemo, lm *longMemo, seg **segScratch) ([]int32, int) {
	it := wordIter{s: s, blk: -64}
	words := 0
	for {
		start, end, more := it.word()
		if !more {
			break
		}
		words++
		var id int32
		if end-start <= 8 {
			id = vm.lookup(memo, s, start, end, seg)
		} else {
			id = vm.findLong(lm, s[start:end], seg)
		}
		if id == memoSplit {
			var parts int
			ids, parts = vm.split(ids, s[start:end], seg)
			words += parts - 1
			continue
		}
		if id >= 0 {
			ids = append(ids, id)
		}
	}
	return ids, words
}

// split appends the ids of the parts of the word w, which the table does
// not hold, when segment splits it, each as ^id (negative: the vector term
// skips them, the phrase term reads them), and returns how many parts it
// counts as (1 when it is not split). A short word's kept split is
// remembered in seg's memo (splitMemoSize).
//
//go:noinline
func (vm *vecModel) split(ids []int32, w []byte, seg **segScratch) ([]int32, int) {
	if !segmentable(w) {
		return ids, 1
	}
	if *seg == nil {
		*seg = new(segScratch)
	}
	sc := *seg
	var key [2]uint64
	var e *splitEntry
	if len(w) <= splitMemoBytes {
		var slot int
		key, slot = splitKey(w)
		if e = &sc.memo[slot]; e.n == uint8(len(w)) && e.key == key {
			for _, id := range e.ids[:e.nids] {
				ids = append(ids, ^id)
			}
			return ids, int(e.parts)
		}
	}
	base := len(ids)
	ids, parts, ok := segment(ids, vm.tab, w, sc)
	if !ok {
		return ids, 1
	}
	if e != nil && len(ids)-base <= splitMemoIDs {
		e.key, e.n, e.parts = key, uint8(len(w)), uint8(parts)
		e.nids = uint8(copy(e.ids[:], ids[base:]))
	}
	for i := base; i < len(ids); i++ {
		ids[i] = ^ids[i]
	}
	return ids, parts
}

// spans appends to ids the table ids of the words of s listed in spans
// (appendWords) found in the table, and returns how many words s has and
// whether a word of unknownMin bytes or more is not in the table whole:
// the fast path, where a word with a digit is folded first and a long word
// the table does not hold is split as in text (fold is scratch, returned
// for reuse).
func (vm *vecModel) spans(ids []int32, s []byte, spans []uint64, fold []byte, memo *vecMemo, lm *longMemo, seg **segScratch) ([]int32, []byte, int, bool) {
	ids = slices.Grow(ids, len(spans))
	words := len(spans)
	unknown := false
	for _, sp := range spans {
		start, end := spanStart(sp), spanEnd(sp)
		long := end-start >= unknownMin
		var id int32
		if sp&(digitSpan|longSpan) == 0 {
			x := packWord(s, start, end)
			e := &memo[x*mix64>>(64-vecMemoBits)]
			id = e.id
			if e.key != x {
				id = vm.fill(e, x, s[start:end], seg)
			}
			if id == memoSplit {
				var parts int
				ids, parts = vm.split(ids, s[start:end], seg)
				words += parts - 1
				unknown = unknown || long
				continue
			}
		} else {
			fold = vm.other(fold, s[start:end], sp&digitSpan != 0)
			if id = vm.findLong(lm, fold, seg); id == memoSplit {
				var parts int
				ids, parts = vm.split(ids, fold, seg)
				words += parts - 1
				unknown = unknown || long
				continue
			}
		}
		if id >= 0 {
			ids = append(ids, id)
		} else {
			unknown = unknown || long
		}
	}
	return ids, fold, words, unknown
}

// unknownMin is the shortest word ScoresNormalizedUnknown reports missing
// from the table: the rule classifier reads no shorter word back as
// misspelled (classifiers/lexicon).
const unknownMin = 4

// add adds the term of the words ids (from text or spans; the parts of
// split words, negative, left out) to z. The sums
// are locals in a loop without calls, which the compiler keeps in
// registers, taken in the order of the words, so every path gets the same
// bits.
func (vm *vecModel) add(z *[N]float32, ids []int32) {
	if len(ids) == 0 {
		return
	}
	var m0, m1, m2, m3, f0, f1, f2, f3, w float32
	rows := vm.rows
	n := 0
	for _, id := range ids {
		if id < 0 {
			continue // a part of a split word: the phrase term's only
		}
		n++
		r := &rows[id]
		m0 += r.mean[0]
		m1 += r.mean[1]
		m2 += r.mean[2]
		m3 += r.mean[3]
		f0 += r.idf[0]
		f1 += r.idf[1]
		f2 += r.idf[2]
		f3 += r.idf[3]
		w += r.w
	}
	if n == 0 {
		return
	}
	inv := 1 / float32(n)
	invW := 1 / w
	z[0] += vm.konst[0] + m0*inv + f0*invW
	z[1] += vm.konst[1] + m1*inv + f1*invW
	z[2] += vm.konst[2] + m2*inv + f2*invW
	z[3] += vm.konst[3] + m3*inv + f3*invW
}

// other copies the word w of the fast path that is not looked up in the
// memo to fold, folding its digits when it has some.
//
//go:noinline
func (vm *vecModel) other(fold, w []byte, digits bool) []byte {
	fold = append(fold[:0], w...)
	if digits {
		foldDigits(fold)
	}
	return fold
}

// Pool sets mean and idf (tab.Dims() numbers each) to the mean and the
// IDF-weighted mean of the vectors of the words of the normalized text s
// (as Normalization.Append makes it) found in tab, the pools a model's
// VectorTerm weights, and returns how many words were found; with none,
// mean and idf are 0. Unlike the phrase term (TableWords), the pools take
// a word tab does not hold as it is, unsplit. Training calls it; it
// allocates nothing.
func Pool(tab *vectors.Table, s []byte, mean, idf []float32) int {
	clear(mean)
	clear(idf)
	n := 0
	var wsum float32
	it := wordIter{s: s, blk: -64}
	for {
		start, end, more := it.word()
		if !more {
			break
		}
		id, ok := tab.Lookup(s[start:end])
		if !ok {
			continue
		}
		w := IDFWeight(tab.Rank(id))
		tab.AddTo(mean, id, 1)
		tab.AddTo(idf, id, w)
		wsum += w
		n++
	}
	if n > 0 {
		inv := 1 / float32(n)
		for i := range mean {
			mean[i] *= inv
			idf[i] /= wsum
		}
	}
	return n
}

// TableWords appends to dst the ids in tab of the words of the normalized
// text s (as Normalization.Append makes it) that tab holds, in order, a
// word tab does not hold split into tab's words when segment splits it:
// the words the phrase term (ConvTerm) reads. It also returns how many
// words s has, held by tab or not (a split word counts as its parts). It
// is the reference the models' paths are tested against.
func TableWords(dst []int32, tab *vectors.Table, s []byte) (ids []int32, words int) {
	it := wordIter{s: s, blk: -64}
	var seg *segScratch
	for {
		start, end, more := it.word()
		if !more {
			return dst, words
		}
		w := s[start:end]
		if id, ok := tab.Lookup(w); ok {
			dst = append(dst, id)
			words++
			continue
		}
		if segmentable(w) {
			if seg == nil {
				seg = new(segScratch)
			}
			var parts int
			var ok bool
			if dst, parts, ok = segment(dst, tab, w, seg); ok {
				words += parts
				continue
			}
		}
		words++
	}
}
