package linear

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/openrai/raiserver/classifiers/vectors"
)

// ConvTerm is the phrase term of a model (Params.Conv): a convolution of
// Width consecutive words over the word vectors of a text (the words the
// vector table holds, in order, as the vector term sees them), a ReLU, the
// maximum of each filter over the positions, and one linear read-out per
// category:
//
//	h_f  = max(0, max_p (FBias_f + Σ_k Kernel[f][k] · v(word_{p-Width+1+k})))
//	       (each term rounded to a multiple of Scale_f: see convRowMax)
//	z_c += r · (Const_c + Σ_f Out_c[f] · h_f) + (1-r) · Absent_c
//
// over the positions p = 0 … len(words)+Width-2, where a word outside the
// text is a zero vector, and r = Coverage: the share of the text's words
// the table holds. So the term speaks for the part of a text it can read:
// a text whose letters were spaced out, which normalization joins into
// words no table holds, gets little or none of it, and the hashed n-grams
// carry it at the severity they would have alone. Where the pooled vector term
// sees which words a text holds, this term sees short phrases ("should be
// wiped out"), and through the vectors also the phrases training never
// held but whose words are close to ones it did.
type ConvTerm struct {
	// Width is the number of words a filter spans; Filters the number of
	// filters. The vector dimensions are the vector term's.
	Width, Filters int
	// Kernel holds Filters × Width × Dims weights: filter f's weight of
	// dimension d of the word at offset k (0: the oldest) is
	// Kernel[(f·Width+k)·Dims+d].
	Kernel []float32
	// FBias holds one bias per filter.
	FBias []float32
	// Const and Out read the filters out into each category's log-odds.
	Const [N]float32
	Out   [N][]float32
	// Scale holds one positive number per filter: the unit of the
	// filter's quantized rows and sums (see convRowMax).
	Scale []float32
	// Absent is what the term adds for the part of a text it cannot read
	// (the 1-r below): the shift that puts the Medium threshold of the
	// model without the term where the model with it has its own, so that
	// a text the term cannot read is scored as the rest of the model alone
	// would score it.
	Absent [N]float32
}

const (
	maxConvWidth   = 5
	maxConvFilters = 256
)

func (t *ConvTerm) validate(dims int) error {
	if t.Width < 1 || t.Width > maxConvWidth || t.Filters < 1 || t.Filters > maxConvFilters {
		return fmt.Errorf("%w: convolution of width %d with %d filters", ErrFormat, t.Width, t.Filters)
	}
	if len(t.Kernel) != t.Filters*t.Width*dims || len(t.FBias) != t.Filters {
		return fmt.Errorf("%w: convolution kernel of %d and %d numbers, want %d and %d",
			ErrFormat, len(t.Kernel), len(t.FBias), t.Filters*t.Width*dims, t.Filters)
	}
	for c := range N {
		if len(t.Out[c]) != t.Filters {
			return fmt.Errorf("%w: convolution read-out of category %d: %d numbers, want %d", ErrFormat, c, len(t.Out[c]), t.Filters)
		}
		if !finite(t.Const[c]) || !finite(t.Absent[c]) || !allFinite(t.Out[c]) {
			return fmt.Errorf("%w: convolution read-out of category %d not finite", ErrFormat, c)
		}
	}
	if !allFinite(t.Kernel) || !allFinite(t.FBias) {
		return fmt.Errorf("%w: convolution kernel not finite", ErrFormat)
	}
	if len(t.Scale) != t.Filters || slices.ContainsFunc(t.Scale, func(x float32) bool { return !(x > 0) || !finite(x) }) {
		return fmt.Errorf("%w: convolution scales", ErrFormat)
	}
	return nil
}

func allFinite(xs []float32) bool {
	for _, x := range xs {
		if !finite(x) {
			return false
		}
	}
	return true
}

// Coverage is the weight of the phrase term of a text with words words,
// found of them in the vector table: the share of the text the term can
// read (0 without a word).
func Coverage(found, words int) float32 {
	if found == 0 || words <= 0 {
		return 0
	}
	return float32(found) / float32(words)
}

// convChunkWords is how many words' rows a convModel allocates at a time.
const convChunkWords = 64

// Per-word row states of a convModel.
const (
	rowAbsent uint32 = iota
	rowFilling
	rowReady
)

// The quantized phrase term: a word's row (what it adds to every filter
// at every offset) is int8, q = round(x / Scale[f]) clamped to ±127, and a
// filter's bias int16, round(FBias[f] / Scale[f]) clamped to ±convBiasMax,
// so that the sums of a position (the bias and Width ≤ maxConvWidth rows)
// are exact in int16 in any order; the maximum is taken on them and
// scaled back, h_f = Scale[f] · max(0, max_p sum). A row costs Width ×
// Filters bytes and sixteen filters add in one AVX2 instruction.
const (
	convRowMax  = 127
	convBiasMax = 32767 - maxConvWidth*convRowMax
)

// convModel is a model's phrase term, ready to score. A word's row is
// computed the first time a text holds the word and kept, so that a model
// costs nothing at start for words it never meets and a word seen before
// costs Width × Filters int8 additions per position. The rows live in
// chunks of convChunkWords words allocated on first use; memory grows with
// the vocabulary the traffic uses, at most Words × Width × Filters bytes.
type convModel struct {
	t      *ConvTerm
	tab    *vectors.Table
	rowLen int
	// kt is the kernel by dimension, divided by the filter's scale:
	// kt[d*rowLen+k*Filters+f] = Kernel[(f·Width+k)·Dims+d] / Scale[f], so
	// a row is round(Σ_d v_d · kt[d]).
	kt     []float32
	bias   []int16                  // per filter, quantized
	out    [][N]float32             // by filter: Out[c][f] · Scale[f]
	zero   []int8                   // the padding row
	active []int                    // the categories whose read-out is not all 0
	state  []atomic.Uint32          // per word: rowAbsent, rowFilling, rowReady
	ready  []atomic.Pointer[int8]   // per word: its kept row, once ready
	chunks []atomic.Pointer[[]int8] // per convChunkWords words
}

func newConvModel(t *ConvTerm, tab *vectors.Table) (*convModel, error) {
	dims := tab.Dims()
	if err := t.validate(dims); err != nil {
		return nil, err
	}
	cm := &convModel{t: t, tab: tab, rowLen: t.Width * t.Filters}
	cm.kt = make([]float32, dims*cm.rowLen)
	for f := range t.Filters {
		inv := 1 / t.Scale[f]
		for k := range t.Width {
			for d := range dims {
				cm.kt[d*cm.rowLen+k*t.Filters+f] = t.Kernel[(f*t.Width+k)*dims+d] * inv
			}
		}
	}
	cm.bias = make([]int16, t.Filters)
	for f, b := range t.FBias {
		cm.bias[f] = int16(min(max(math.Round(float64(b/t.Scale[f])), -convBiasMax), convBiasMax))
	}
	cm.out = make([][N]float32, t.Filters)
	for c := range N {
		for f, o := range t.Out[c] {
			cm.out[f][c] = o * t.Scale[f]
		}
	}
	cm.zero = make([]int8, cm.rowLen)
	for c := range N {
		if t.Const[c] != 0 || t.Absent[c] != 0 || slices.ContainsFunc(t.Out[c], func(x float32) bool { return x != 0 }) {
			cm.active = append(cm.active, c)
		}
	}
	cm.ready = make([]atomic.Pointer[int8], tab.Len())
	cm.state = make([]atomic.Uint32, tab.Len())
	cm.chunks = make([]atomic.Pointer[[]int8], (tab.Len()+convChunkWords-1)/convChunkWords)
	return cm, nil
}

// convScratch is the per-call scratch of a convModel.
type convScratch struct {
	// rows points at the row of each word of the text, with Width-1
	// pointers to a zero row at each end (the padding).
	rows []*int8
	row  []float32 // a row before rounding
	max  []int16   // per filter
}

func (cm *convModel) newScratch() *convScratch {
	return &convScratch{
		row: make([]float32, cm.rowLen),
		max: make([]int16, cm.t.Filters),
	}
}

// computeRow sets dst (rowLen numbers) to the quantized row of word id;
// tmp is scratch of rowLen numbers.
func (cm *convModel) computeRow(dst []int8, tmp []float32, id int32) {
	clear(tmp)
	q, s := cm.tab.Vector(id), cm.tab.Scale(id)
	n := cm.rowLen
	for d, x := range q {
		if x == 0 {
			continue
		}
		v := float32(x) * s
		k := cm.kt[d*n : (d+1)*n]
		for i := range tmp {
			tmp[i] += v * k[i]
		}
	}
	for i, x := range tmp {
		dst[i] = int8(min(max(math.Round(float64(x)), -convRowMax), convRowMax))
	}
}

// row returns the row of word id: the kept one, or one computed now (and
// kept, when no other call is filling it).
func (cm *convModel) row(id int32, s *convScratch) *int8 {
	if r := cm.ready[id].Load(); r != nil {
		return r
	}
	return cm.fill(id, s)
}

// fill computes the row of word id. When this call wins the word's state
// it computes it into its chunk and marks it ready; otherwise (another
// call is filling it at this moment, which happens only while the rows
// warm up) into a row of its own. Only the winner writes the chunk's row,
// and readers read it only once it is ready.
//
//go:noinline
func (cm *convModel) fill(id int32, s *convScratch) *int8 {
	c, i := int(id)/convChunkWords, int(id)%convChunkWords*cm.rowLen
	if cm.state[id].CompareAndSwap(rowAbsent, rowFilling) {
		ch := cm.chunks[c].Load()
		if ch == nil {
			fresh := make([]int8, convChunkWords*cm.rowLen)
			if cm.chunks[c].CompareAndSwap(nil, &fresh) {
				ch = &fresh
			} else {
				ch = cm.chunks[c].Load()
			}
		}
		r := (*ch)[i : i+cm.rowLen]
		cm.computeRow(r, s.row, id)
		cm.state[id].Store(rowReady)
		cm.ready[id].Store(&r[0])
		return &r[0]
	}
	r := make([]int8, cm.rowLen)
	cm.computeRow(r, s.row, id)
	return &r[0]
}

// add adds the term of the words ids (the vector table's ids of a text's
// words, in order, those of the parts of split words as ^id; the text has
// words words in all) to z.
func (cm *convModel) add(z *[N]float32, ids []int32, words int, s *convScratch) {
	t := cm.t
	W := t.Width
	if len(ids) == 0 {
		for _, c := range cm.active {
			z[c] += t.Absent[c]
		}
		return
	}
	h := s.max
	rows := s.rows[:0]
	for range W - 1 {
		rows = append(rows, &cm.zero[0])
	}
	for _, id := range ids {
		if id < 0 {
			id = ^id // a part of a split word
		}
		rows = append(rows, cm.row(id, s))
	}
	for range W - 1 {
		rows = append(rows, &cm.zero[0])
	}
	s.rows = rows
	convMax(h, cm.bias, rows, W)
	read := readOut(cm.out, h)
	r := Coverage(len(ids), words)
	for _, c := range cm.active {
		z[c] += r*(t.Const[c]+read[c]) + (1-r)*t.Absent[c]
	}
}

// readOut returns Σ_f out[f][c]·h[f] for every category, in the order of
// the filters.
func readOut(out [][N]float32, h []int16) (sum [N]float32) {
	out = out[:len(h)]
	var s0, s1, s2, s3 float32
	for f, x := range h {
		v, o := float32(x), &out[f]
		s0 += o[0] * v
		s1 += o[1] * v
		s2 += o[2] * v
		s3 += o[3] * v
	}
	return [N]float32{s0, s1, s2, s3}
}

// The portable convMax adds eight filters at a time in two uint64 words
// of four 16-bit lanes each (SWAR): a row's eight int8 numbers, loaded as
// one word and moved to offset binary (x+128, 1…255, by flipping each
// byte's top bit), split into the even and the odd filters; the Width ≤
// maxConvWidth offset sums of a lane stay below 2^15, so no lane carries
// into the next and the lanes compare by one subtraction. The bias is
// added after the maximum over positions, which is the same number:
// max_p(bias + S_p) = bias + max_p S_p.
const (
	swarFlip = 0x8080808080808080 // the top bit of every byte
	swarLow  = 0x00ff00ff00ff00ff // the low byte of every 16-bit lane
	swarTop  = 0x8000800080008000 // the top bit of every 16-bit lane
)

// maxLanes returns the lane-wise maximum of a and b, whose 16-bit lanes
// all hold numbers below 2^15.
func maxLanes(a, b uint64) uint64 {
	ge := ((a | swarTop) - b) & swarTop // lane top bit set where a ≥ b
	m := (ge >> 15) * 0xffff            // all ones where a ≥ b
	return a&m | b&^m
}

// load64 returns the eight int8 at r+i in offset binary, as a
// little-endian word.
func load64(r *int8, i int) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(r), i)), 8)) ^ swarFlip
}

// convMaxGo is the portable convMax: for the rows of a text padded as in
// convScratch.rows, it sets h[f] to the largest of 0 and, over the
// positions p, bias[f] + Σ_k row(p+k)[k·F+f], exactly as int16 sums would
// (see convBiasMax). Filters go eight at a time in SWAR words (above), the
// last F mod 8 one by one; it allocates nothing.
func convMaxGo(h, bias []int16, rows []*int8, width int) {
	F := len(h)
	bias = bias[:F]
	npos := len(rows) - width + 1
	if npos < 1 {
		clear(h)
		return
	}
	off := uint64(128 * width) // what offset binary adds to a sum
	f := 0
	for ; f+8 <= F; f += 8 {
		var even, odd uint64 // the largest sums so far, offset by off
		if width == 3 {      // the shipped width: the rows roll, without bounds checks
			r0, r1 := rows[0], rows[1]
			for _, r2 := range rows[2:] {
				x0, x1, x2 := load64(r0, f), load64(r1, F+f), load64(r2, 2*F+f)
				r0, r1 = r1, r2
				e := x0&swarLow + x1&swarLow + x2&swarLow
				o := x0>>8&swarLow + x1>>8&swarLow + x2>>8&swarLow
				even, odd = maxLanes(even, e), maxLanes(odd, o)
			}
		} else {
			for p := range npos {
				var e, o uint64
				for k, r := range rows[p : p+width] {
					x := load64(r, k*F+f)
					e += x & swarLow
					o += x >> 8 & swarLow
				}
				even, odd = maxLanes(even, e), maxLanes(odd, o)
			}
		}
		for i := range 4 {
			h[f+2*i] = max(0, bias[f+2*i]+int16(uint16(even>>(16*i))-uint16(off)))
			h[f+2*i+1] = max(0, bias[f+2*i+1]+int16(uint16(odd>>(16*i))-uint16(off)))
		}
	}
	for ; f < F; f++ {
		best := int16(math.MinInt16)
		for p := range npos {
			var s int16
			for k, r := range rows[p : p+width] {
				s += int16(*(*int8)(unsafe.Add(unsafe.Pointer(r), k*F+f)))
			}
			best = max(best, s)
		}
		h[f] = max(0, bias[f]+best)
	}
}
