package lexicon

import (
	"math/bits"
	"slices"

	"github.com/openrai/raiserver/classifiers/internal/normalize"
)

// ownSentences sets s.own to the sentences that hold the start of a
// trigger match that makes an event, in order.
func (c *Classifier) ownSentences(s *scratch, text []byte) {
	s.own = s.own[:0]
	t := s.norm
	sorted := true
	for i := range s.matches {
		m := &s.matches[i]
		st := m.End - c.tpats[m.Pattern].n
		n := len(s.own)
		if n > 0 && st >= s.own[n-1].From && st < s.own[n-1].To || !c.makesEvent(m, text, s.offs) {
			continue
		}
		sp := span{From: int32(s.w.sentStart(t, int(st))), To: int32(s.w.sentEnd(t, int(st)))}
		if n > 0 && sp.From < s.own[n-1].From {
			sorted = false
		}
		s.own = append(s.own, sp)
	}
	if !sorted {
		slices.SortFunc(s.own, func(x, y span) int { return int(x.From - y.From) })
		s.own = slices.Compact(s.own)
	}
}

// nearSentences sets s.near to the sentences within c.reach of one in
// s.own that are not in it, in order, and reports whether there are any.
func (c *Classifier) nearSentences(s *scratch) bool {
	s.near = s.near[:0]
	t := s.norm
	for _, o := range s.own {
		for x, k := int(o.From), 0; k < c.reach && x > 0; k++ {
			a := s.w.sentStart(t, x-1)
			s.near = append(s.near, span{From: int32(a), To: int32(x)})
			x = a
		}
		for y, k := int(o.To), 0; k < c.reach && y < len(t); k++ {
			b := s.w.sentEnd(t, y)
			s.near = append(s.near, span{From: int32(y), To: int32(b)})
			y = b
		}
	}
	slices.SortFunc(s.near, func(x, y span) int { return int(x.From - y.From) })
	s.near = slices.Compact(s.near)
	// Drop the sentences of s.own (both in order).
	w, j := 0, 0
	for _, sp := range s.near {
		for j < len(s.own) && s.own[j].From < sp.From {
			j++
		}
		if j < len(s.own) && s.own[j].From == sp.From {
			continue
		}
		s.near[w] = sp
		w++
	}
	s.near = s.near[:w]
	return w > 0
}

// sentenceOf returns the index of the span of own that holds byte i, or
// -1, looking from index j on (either way).
func sentenceOf(own []span, i int32, j int) int {
	for j > 0 && i < own[j].From {
		j--
	}
	for j < len(own) && i >= own[j].To {
		j++
	}
	if j < len(own) && i >= own[j].From {
		return j
	}
	return -1
}

// walker counts tokens (runs of word bytes) and sentences of normalized
// text before a byte: walk(t, end) sets tok and sent. It keeps, per 64
// bytes of t read so far, the bits of the bytes that start a token and of
// those that start a new sentence count, with the counts before them, so a
// count is one block lookup and two popcounts.
type walker struct {
	tok, sent int32
	blocks    []walkBlock // blocks[k]: bytes [64k, 64k+64) of t
	// The state after the last block: its counts, whether its last byte
	// is a word byte.
	nTok, nSent int32
	prevWord    bool
}

type walkBlock struct {
	starts, incs uint64 // bytes that start a token; breaks that count
	tok, sent    int32  // counts before the block
}

// walk sets w.tok and w.sent to the tokens and sentences of t[:end]
// (sentence breaks as normalize.IsSentenceBreak has them; a run of breaks and spaces
// counts once). t must be the same text in every call on one walker.
func (w *walker) walk(t []byte, end int) {
	b := end >> 6
	for len(w.blocks) <= b {
		w.build(t)
	}
	blk := &w.blocks[b]
	below := uint64(1)<<(uint(end)&63) - 1
	w.tok = blk.tok + int32(bits.OnesCount64(blk.starts&below))
	w.sent = blk.sent + int32(bits.OnesCount64(blk.incs&below))
}

// upto builds the blocks of t up to the one holding byte i.
func (w *walker) upto(t []byte, i int) {
	for len(w.blocks) <= i>>6 {
		w.build(t)
	}
}

// sentStart returns the first byte of the sentence holding byte i of t:
// the byte after the last sentence break before i that counts, or 0.
func (w *walker) sentStart(t []byte, i int) int {
	w.upto(t, i)
	b := i >> 6
	m := w.blocks[b].incs & (1<<(uint(i)&63) - 1)
	for m == 0 {
		if b--; b < 0 {
			return 0
		}
		m = w.blocks[b].incs
	}
	return b<<6 + 63 - bits.LeadingZeros64(m) + 1
}

// sentEnd returns the end of the sentence holding byte i of t: the byte
// after the first sentence break at or after i that counts, or len(t).
func (w *walker) sentEnd(t []byte, i int) int {
	w.upto(t, i)
	b := i >> 6
	m := w.blocks[b].incs &^ (1<<(uint(i)&63) - 1)
	for m == 0 {
		if b++; b<<6 >= len(t) {
			return len(t)
		}
		w.upto(t, b<<6)
		m = w.blocks[b].incs
	}
	return b<<6 + trailingZeros(m) + 1
}

// build appends the next block of t (past the end of t: an empty one).
func (w *walker) build(t []byte) {
	base := len(w.blocks) * 64
	end := min(base+64, len(t))
	var word, brk uint64
	if end-base == 64 {
		word, _, brk = normalize.Marks64((*[64]byte)(t[base:end]))
	} else {
		word, _, brk = normalize.Marks(t[base:end])
	}
	var prev uint64
	if w.prevWord {
		prev = 1
	}
	blk := walkBlock{starts: word &^ (word<<1 | prev), tok: w.nTok, sent: w.nSent}
	for m := brk; m != 0; m &= m - 1 {
		if p := base + bits.TrailingZeros64(m); normalize.IsSentenceBreak(t, p) && !afterBreak(t, p) {
			blk.incs |= 1 << uint(p-base)
		}
	}
	w.nTok += int32(bits.OnesCount64(blk.starts))
	w.nSent += int32(bits.OnesCount64(blk.incs))
	if end > base {
		w.prevWord = word>>uint(end-base-1)&1 != 0
	}
	w.blocks = append(w.blocks, blk)
}

// afterBreak reports whether the last byte before t[p] other than a space
// is a sentence break, so that a break at p goes on the same run.
func afterBreak(t []byte, p int) bool {
	q := p - 1
	for q >= 0 && t[q] == ' ' {
		q--
	}
	return q >= 0 && normalize.IsSentenceBreak(t, q)
}
