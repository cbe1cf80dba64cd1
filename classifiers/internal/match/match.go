package match

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
)

// ErrPattern reports an invalid pattern set.
var ErrPattern = errors.New("match: invalid pattern")

// Pattern is one byte string to find. LeftWord and RightWord ask for a word
// boundary before the first and after the last byte: the neighbouring byte
// (if any) must not be a word byte as defined by the isWord table given to
// Compile.
type Pattern struct {
	Bytes     []byte
	LeftWord  bool
	RightWord bool
}

// Match is one occurrence: the pattern's index in the slice given to
// Compile and the end offset (exclusive) of the occurrence in the text. The
// start is End - m.Len(Pattern).
type Match struct {
	Pattern int32
	End     int32
}

const matchFlag = 1 << 31

// Matcher finds every occurrence of a set of patterns. It is immutable and
// safe for concurrent use.
//
// Word boundaries on the left are part of the automaton: the text is read
// as if a virtual boundary symbol followed every non-word byte (and opened
// the text), and a pattern that wants a left boundary starts with that
// symbol. So inside a word that no live pattern prefix reaches, the
// automaton sits in its root state until the next byte that can start
// something (a non-word byte, or the first byte of a pattern without a
// left boundary).
type Matcher struct {
	class  [256]uint8 // byte → class; 1 and 2 are the word and non-word bytes that no pattern uses
	nclass uint32
	// trans[s+class] is the next state, premultiplied by nclass, with
	// matchFlag set when that state has outputs. State 0 is the root inside
	// a word; start is the root after a boundary. Column 0 of a row (no
	// class is 0) is the state's outputs (see outputs): a match reads them
	// from the row the scan reads next, not from tables of their own, and
	// the row offset needs no division to find them.
	trans  []uint32
	start  uint32
	outs   []out
	lens   []int32 // the patterns' lengths
	maxLen int32   // the longest pattern
	word   [256]bool
	// depth[r] is the length in bytes of the pattern prefix that row r
	// stands for: a match still in progress in that state started at most
	// that many bytes back.
	depth []int32
}

type out struct {
	pat   int32
	next  int32 // next index into outs, or -1
	right bool  // the pattern wants a word boundary after it
}

// Compile builds a Matcher for pats. isWord tells which bytes are word bytes
// for the boundary checks (nil: none are, so boundaries always hold).
func Compile(pats []Pattern, isWord func(byte) bool) (*Matcher, error) {
	m := &Matcher{lens: make([]int32, len(pats))}
	if isWord != nil {
		for c := range 256 {
			m.word[c] = isWord(byte(c))
		}
	}
	var used [256]bool
	for i, p := range pats {
		if len(p.Bytes) == 0 {
			return nil, fmt.Errorf("%w: pattern %d is empty", ErrPattern, i)
		}
		if len(p.Bytes) > 1<<20 {
			return nil, fmt.Errorf("%w: pattern %d is too long", ErrPattern, i)
		}
		if i >= patBits {
			return nil, fmt.Errorf("%w: more than %d patterns", ErrPattern, patBits)
		}
		for _, c := range p.Bytes {
			used[c] = true
		}
		m.lens[i] = int32(len(p.Bytes))
		m.maxLen = max(m.maxLen, int32(len(p.Bytes)))
	}
	// Classes: 0 none (the outputs' column), 1 unused word bytes, 2 unused
	// non-word bytes, then one per used byte, the bytes most frequent in
	// English chat first, so that a state's transitions on them share the
	// first cache line of its row with its outputs (see stride); the
	// boundary symbol is class n, used only while building.
	for c := range 256 {
		if m.word[c] {
			m.class[c] = 1
		} else {
			m.class[c] = 2
		}
	}
	n := uint32(3)
	for _, c := range byFrequency {
		if used[c] {
			m.class[c] = uint8(n)
			n++
		}
	}
	if n > 256 {
		return nil, fmt.Errorf("%w: patterns use too many byte values", ErrPattern)
	}
	// The table's rows are stride entries wide, a multiple of sixteen
	// (a cache line), the columns past n unused.
	stride := (n + 15) &^ 15
	m.nclass = stride
	bsym := n // the boundary symbol
	nc := n + 1
	nonWord := make([]bool, nc) // per class
	for c := range 256 {
		if !m.word[c] {
			nonWord[m.class[c]] = true
		}
	}

	// Trie over classes and the boundary symbol.
	type node struct {
		next  []int32 // per symbol, -1 absent
		own   []int32 // patterns ending here
		label uint32  // symbol of the incoming edge
		depth int32   // bytes (not boundary symbols) from the root
	}
	newNode := func(label uint32) node {
		nx := make([]int32, nc)
		for i := range nx {
			nx[i] = -1
		}
		return node{next: nx, label: label}
	}
	nodes := []node{newNode(bsym)}
	var seq []uint32
	for i, p := range pats {
		seq = seq[:0]
		if p.LeftWord {
			seq = append(seq, bsym)
		}
		for j, c := range p.Bytes {
			seq = append(seq, uint32(m.class[c]))
			if !m.word[c] && j+1 < len(p.Bytes) {
				seq = append(seq, bsym)
			}
		}
		s := int32(0)
		for _, k := range seq {
			if nodes[s].next[k] < 0 {
				nd := newNode(k)
				nd.depth = nodes[s].depth
				if k != bsym {
					nd.depth++
				}
				nodes = append(nodes, nd)
				nodes[s].next[k] = int32(len(nodes) - 1)
			}
			s = nodes[s].next[k]
		}
		nodes[s].own = append(nodes[s].own, int32(i))
	}
	ns := len(nodes)
	if uint64(ns+1)*uint64((n+15)&^15) >= matchFlag {
		return nil, fmt.Errorf("%w: automaton too large", ErrPattern)
	}

	// Failure links in BFS order; the DFA transition of a missing edge is
	// the transition of the failure state.
	fail := make([]int32, ns)
	outLink := make([]int32, ns) // nearest proper suffix state with outputs, -1
	delta := make([]int32, ns*int(nc))
	queue := make([]int32, 0, ns)
	outLink[0] = -1
	for k := range nc {
		t := nodes[0].next[k]
		if t < 0 {
			delta[k] = 0
			continue
		}
		delta[k] = t
		fail[t] = 0
		outLink[t] = -1
		queue = append(queue, t)
	}
	for qi := 0; qi < len(queue); qi++ {
		s := queue[qi]
		for k := range nc {
			t := nodes[s].next[k]
			if t < 0 {
				delta[int(s)*int(nc)+int(k)] = delta[int(fail[s])*int(nc)+int(k)]
				continue
			}
			delta[int(s)*int(nc)+int(k)] = t
			f := delta[int(fail[s])*int(nc)+int(k)]
			fail[t] = f
			if len(nodes[f].own) > 0 {
				outLink[t] = f
			} else {
				outLink[t] = outLink[f]
			}
			queue = append(queue, t)
		}
	}

	// Output lists: a state's own patterns, then its outLink's list.
	outHead := make([]int32, ns+1)
	for i := range outHead {
		outHead[i] = -1
	}
	// Process in BFS order so outLink targets (shallower) are done first.
	order := append([]int32{0}, queue...)
	for _, s := range order {
		next := int32(-1)
		if outLink[s] >= 0 {
			next = outHead[outLink[s]]
		}
		own := nodes[s].own
		for j := len(own) - 1; j >= 0; j-- {
			m.outs = append(m.outs, out{pat: own[j], next: next, right: pats[own[j]].RightWord})
			next = int32(len(m.outs) - 1)
		}
		outHead[s] = next
	}

	// The scanning DFA folds the boundary symbol into the non-word byte
	// before it. A state entered on a non-word byte keeps its outputs but
	// takes the transitions of its boundary successor; the root entered on
	// a non-word byte is the extra state ns (the root after a boundary).
	// No pattern ends with the boundary symbol, so no output is lost.
	rows := ns + 1
	m.trans = make([]uint32, rows*int(stride))
	m.depth = make([]int32, rows)
	for r := range ns {
		m.depth[r] = nodes[r].depth
	}
	for r := range rows {
		src := int32(r)
		switch {
		case r == ns:
			src = delta[bsym]
		case nodes[r].label != bsym && nonWord[nodes[r].label]:
			src = delta[r*int(nc)+int(bsym)]
		}
		m.trans[r*int(stride)] = m.outputs(outHead[r])
		for k := uint32(1); k < n; k++ {
			t := delta[int(src)*int(nc)+int(k)]
			if t == 0 && nonWord[k] {
				t = int32(ns)
			}
			v := uint32(t) * stride
			if outHead[t] >= 0 {
				v |= matchFlag
			}
			m.trans[r*int(stride)+int(k)] = v
		}
	}
	m.start = uint32(ns) * stride
	if err := m.checkTable(); err != nil {
		return nil, err
	}
	return m, nil
}

// checkTable reports an error unless every byte's class is a column of
// trans other than the outputs' and every transition, its flag cleared, is
// the start of a row of trans, and every row's outputs are -1 or an index
// into outs.
func (m *Matcher) checkTable() error {
	n := m.nclass
	rows := uint32(len(m.trans)) / n
	if uint32(len(m.trans)) != rows*n || m.start%n != 0 || m.start/n >= rows {
		return fmt.Errorf("%w: malformed automaton", ErrPattern)
	}
	for c := range 256 {
		if k := uint32(m.class[c]); k == 0 || k >= n {
			return fmt.Errorf("%w: malformed automaton", ErrPattern)
		}
	}
	for i, v := range m.trans {
		if uint32(i)%n == 0 {
			if v != noOutputs && (v&oneOutput != 0 && v&patBits >= uint32(len(m.lens)) || v&oneOutput == 0 && v >= uint32(len(m.outs))) {
				return fmt.Errorf("%w: malformed automaton", ErrPattern)
			}
			continue
		}
		if v &^= matchFlag; v%n != 0 || v/n >= rows {
			return fmt.Errorf("%w: malformed automaton", ErrPattern)
		}
	}
	return nil
}

// byFrequency is every byte value, the ones most frequent in lower-cased
// English chat first (space, the letters by frequency, common
// punctuation, digits), then the rest in order.
var byFrequency = func() []byte {
	const common = " etaoinsrhldcumfpgwyb,.vk\nxjqz'-0123456789?!:;()/\"*"
	var seen [256]bool
	out := make([]byte, 0, 256)
	for _, c := range []byte(common) {
		seen[c] = true
		out = append(out, c)
	}
	for c := range 256 {
		if !seen[c] {
			out = append(out, byte(c))
		}
	}
	return out
}()

// Len returns the length of pattern p.
func (m *Matcher) Len(p int32) int { return int(m.lens[p]) }

// MaxLen returns the length of the longest pattern.
func (m *Matcher) MaxLen() int { return int(m.maxLen) }

// NumStates returns the number of automaton states.
func (m *Matcher) NumStates() int { return len(m.trans) / int(m.nclass) }

// splitMin is the least text length that AppendMatches scans as
// interleaved parts.
const splitMin = 256

// chains is how many parts of a long text are scanned at once.
const chains = 4

// hit is a round of the chains after which one entered a state with
// outputs: the index after the round and the states (flags set).
type hit struct {
	i int32
	s [chains]uint32
}

// hitCap is how many hits steps4 notes before it returns.
const hitCap = 16

// AppendMatches appends every occurrence of every pattern in text, in order
// of end offset (for one end, longer patterns first), and returns the
// extended slice.
//
// A text of splitMin bytes or more is scanned as four parts at once, one
// step of each in turn, every byte a table step with no branch but the one
// that stops at a state with outputs. A step waits on a load that depends
// on the step before, so one scan leaves the core mostly idle; four
// independent chains fill each other's waits (a text of twoMin bytes or
// more but shorter than that, such as a sentence with its context, is
// scanned as two halves at once, scan2; a shorter one in one chain).
// Skipping the bytes inside a word that no pattern can start saves steps
// but costs a mispredicted branch at most word edges of varied text, which
// measured slower (bench/classify,
// ASCIIVaried2K and StackSegments). Every part but the first starts
// maxLen+1 bytes before its own range, from the state after a boundary:
// from maxLen+1 bytes on, its state is the state a scan from the start
// would have (no state is deeper than the longest pattern), and it only
// reports matches that end in its range.
func (m *Matcher) AppendMatches(dst []Match, text []byte) []Match {
	return m.AppendMatchesIn(dst, text, 0, len(text))
}

// AppendMatchesIn is AppendMatches for the occurrences in text that start
// at or after from and end at or before to (0 <= from <= to <= len(text)),
// as AppendMatches of the whole text would find them: the word boundaries
// are checked against the bytes around text[from:to], not against its
// ends. End offsets are in text.
func (m *Matcher) AppendMatchesIn(dst []Match, text []byte, from, to int) []Match {
	if from < 0 || from > to || to > len(text) {
		panic("match: AppendMatchesIn range out of bounds")
	}
	s0 := m.start
	if from > 0 && m.word[text[from-1]] {
		s0 = 0 // the root inside a word
	}
	// Chain k scans L bytes from p[k] = from + k*(L-warm) and reports the
	// matches that end in (p[k]+warm, p[k]+L] (chain 0 all of them), so the
	// ranges tile (from, from+chains*L-(chains-1)*warm]; the last chain
	// finishes the few bytes left to to on its own.
	warm := int(m.maxLen) + 1
	L := (to - from + (chains-1)*warm) / chains
	if to-from < splitMin || L < 2*warm {
		if to-from >= twoMin {
			return m.scan2(dst, text, from, to, s0, false)
		}
		dst, _ = m.scan(dst, text, from, to, s0)
		return dst
	}
	base := len(dst)
	step := L - warm
	t := text[from : from+3*step+L]
	s := [chains]uint32{s0, m.start, m.start, m.start}
	var hits [hitCap]hit
	for i := 0; i < L; {
		var nh int
		i, nh = m.steps4(t, step, i, L, &s, &hits)
		// Emit what the chains that entered a state with outputs found
		// in their ranges, from a bit per flagged chain (one branch per
		// chain with a match rather than one per chain).
		for _, h := range hits[:nh] {
			f := uint(h.s[0]>>31 | h.s[1]>>31<<1 | h.s[2]>>31<<2 | h.s[3]>>31<<3)
			if int(h.i) <= warm {
				f &= 1 // the other chains are still warming up
			}
			for ; f != 0; f &= f - 1 {
				k := bits.TrailingZeros(f)
				dst = m.emit(dst, text, from+k*step+int(h.i), h.s[k]&^matchFlag)
			}
		}
	}
	s3 := s[chains-1]
	dst, _ = m.scan(dst, text, from+3*step+L, to, s3)
	// The chains' matches came out interleaved, each chain's in order and
	// in a range of its own: a stable regrouping by range puts them in
	// order.
	return regroup(dst, base, [chains - 1]int32{int32(from + L), int32(from + step + L), int32(from + 2*step + L)})
}

// regroup sorts dst[base:] stably into chains groups, the matches that end
// at or before bounds[0], then those at or before bounds[1], and so on, and
// returns dst. The matches pass through spare room at the end of dst.
func regroup(dst []Match, base int, bounds [chains - 1]int32) []Match {
	n := len(dst)
	var count [chains]int
	sorted := true
	prev := 0
	for _, m := range dst[base:] {
		g := group(m.End, &bounds)
		count[g]++
		sorted = sorted && g >= prev
		prev = g
	}
	if sorted {
		return dst
	}
	var at [chains]int
	for g := 1; g < chains; g++ {
		at[g] = at[g-1] + count[g-1]
	}
	dst = slices.Grow(dst, n-base)
	tmp := dst[n : n+(n-base)]
	for _, m := range dst[base:n] {
		g := group(m.End, &bounds)
		tmp[at[g]] = m
		at[g]++
	}
	copy(dst[base:n], tmp)
	return dst[:n]
}

func group(end int32, bounds *[chains - 1]int32) int {
	// b-end < 0 when end > b (both are below 2^31, so no overflow), without
	// a branch.
	return int(uint32(bounds[0]-end)>>31 + uint32(bounds[1]-end)>>31 + uint32(bounds[2]-end)>>31)
}

// scan appends the matches that end in text[from+1:to+1] for a scan in
// state s at from (the whole of text is there for the boundary checks),
// and returns the state at to (its flag cleared): a
// table step for every byte, the only branch the one that stops at a
// state with outputs. Skipping the bytes inside words where the automaton
// sits in its root state saves steps, but the branch around the skip is
// mispredicted at most word edges of varied text, which measured slower
// (bench/classify, StackSegments: 14% of the whole stack).
func (m *Matcher) scan(dst []Match, text []byte, from, to int, s uint32) ([]Match, uint32) {
	trans := m.trans
	class := &m.class
	t := text[:to]
	s &^= matchFlag
	for i := from; i < len(t); {
		// The inner loop makes no call, so the compiler keeps its state
		// in registers.
		for i < len(t) {
			s = trans[s+uint32(class[t[i]])]
			i++
			if s&matchFlag != 0 {
				break
			}
		}
		if s&matchFlag != 0 {
			s &^= matchFlag
			dst = m.emit(dst, text, i, s)
		}
	}
	return dst, s
}

// Column 0 of a row: noOutputs, or a state's one output inline (oneOutput
// set, the pattern in the low bits and rightOutput when it wants a word
// boundary after it), or else its first index into outs.
const (
	noOutputs   = 1<<32 - 1
	oneOutput   = 1 << 31
	rightOutput = 1 << 30
	patBits     = 1<<30 - 1 // also the most patterns (noOutputs is not one)
)

// outputs returns column 0 for a state whose first index into outs is o.
func (m *Matcher) outputs(o int32) uint32 {
	switch {
	case o < 0:
		return noOutputs
	case m.outs[o].next < 0:
		v := oneOutput | uint32(m.outs[o].pat)
		if m.outs[o].right {
			v |= rightOutput
		}
		return v
	}
	return uint32(o)
}

// emit appends the matches of the state whose row starts at trans[s] that
// end at end.
func (m *Matcher) emit(dst []Match, text []byte, end int, s uint32) []Match {
	inWord := end < len(text) && m.word[text[end]] // no right boundary here
	v := m.trans[s]
	if v&oneOutput != 0 {
		// The usual case: no list to read.
		if v&rightOutput == 0 || !inWord {
			dst = append(dst, Match{Pattern: int32(v & patBits), End: int32(end)})
		}
		return dst
	}
	for o := int32(v); o >= 0; {
		ot := &m.outs[o]
		if !(ot.right && inWord) {
			dst = append(dst, Match{Pattern: ot.pat, End: int32(end)})
		}
		o = ot.next
	}
	return dst
}
