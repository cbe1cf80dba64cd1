package match

import (
	"encoding/binary"
	"errors"
	"fmt"
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
// automaton sits in its root state, and the scan skips ahead to the next
// byte that can start something (a non-word byte, or the first byte of a
// pattern without a left boundary).
type Matcher struct {
	class  [256]uint8 // byte → class; 0 and 1 are the word and non-word bytes that no pattern uses
	nclass uint32
	// trans[s+class] is the next state, premultiplied by nclass, with
	// matchFlag set when that state has outputs. State 0 is the root inside
	// a word; start is the root after a boundary.
	trans   []uint32
	start   uint32
	outHead []int32 // state index → first index into outs, or -1
	outs    []out
	pats    []patInfo
	maxLen  int32 // the longest pattern
	word    [256]bool
	skip    [256]bool // word bytes that leave the root state unchanged
	// skipSWAR: every lower-case ASCII letter and every byte >= 0x80 is in
	// skip, so eight such bytes at a time can be skipped.
	skipSWAR bool
}

type out struct {
	pat  int32
	next int32 // next index into outs, or -1
}

type patInfo struct {
	n           int32
	left, right bool
}

// Compile builds a Matcher for pats. isWord tells which bytes are word bytes
// for the boundary checks (nil: none are, so boundaries always hold).
func Compile(pats []Pattern, isWord func(byte) bool) (*Matcher, error) {
	m := &Matcher{pats: make([]patInfo, len(pats))}
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
		for _, c := range p.Bytes {
			used[c] = true
		}
		m.pats[i] = patInfo{n: int32(len(p.Bytes)), left: p.LeftWord, right: p.RightWord}
		m.maxLen = max(m.maxLen, int32(len(p.Bytes)))
	}
	// Classes: 0 unused word bytes, 1 unused non-word bytes, then one per
	// used byte; the boundary symbol is class n, used only while building.
	n := uint32(2)
	for c := range 256 {
		switch {
		case used[c]:
			m.class[c] = uint8(n)
			n++
		case m.word[c]:
			m.class[c] = 0
		default:
			m.class[c] = 1
		}
	}
	if n > 256 {
		return nil, fmt.Errorf("%w: patterns use too many byte values", ErrPattern)
	}
	m.nclass = n
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
				nodes = append(nodes, newNode(k))
				nodes[s].next[k] = int32(len(nodes) - 1)
			}
			s = nodes[s].next[k]
		}
		nodes[s].own = append(nodes[s].own, int32(i))
	}
	ns := len(nodes)
	if uint64(ns+1)*uint64(n) >= matchFlag {
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
	m.outHead = make([]int32, ns+1)
	for i := range m.outHead {
		m.outHead[i] = -1
	}
	// Process in BFS order so outLink targets (shallower) are done first.
	order := append([]int32{0}, queue...)
	for _, s := range order {
		next := int32(-1)
		if outLink[s] >= 0 {
			next = m.outHead[outLink[s]]
		}
		own := nodes[s].own
		for j := len(own) - 1; j >= 0; j-- {
			m.outs = append(m.outs, out{pat: own[j], next: next})
			next = int32(len(m.outs) - 1)
		}
		m.outHead[s] = next
	}

	// The scanning DFA folds the boundary symbol into the non-word byte
	// before it. A state entered on a non-word byte keeps its outputs but
	// takes the transitions of its boundary successor; the root entered on
	// a non-word byte is the extra state ns (the root after a boundary).
	// No pattern ends with the boundary symbol, so no output is lost.
	rows := ns + 1
	m.trans = make([]uint32, rows*int(n))
	for r := range rows {
		src := int32(r)
		switch {
		case r == ns:
			src = delta[bsym]
		case nodes[r].label != bsym && nonWord[nodes[r].label]:
			src = delta[r*int(nc)+int(bsym)]
		}
		for k := range n {
			t := delta[int(src)*int(nc)+int(k)]
			if t == 0 && nonWord[k] {
				t = int32(ns)
			}
			v := uint32(t) * n
			if m.outHead[t] >= 0 {
				v |= matchFlag
			}
			m.trans[r*int(n)+int(k)] = v
		}
	}
	m.start = uint32(ns) * n
	m.skipSWAR = true
	for c := range 256 {
		m.skip[c] = m.word[c] && m.trans[m.class[c]] == 0
		if (c >= 'a' && c <= 'z' || c >= 0x80) && !m.skip[c] {
			m.skipSWAR = false
		}
	}
	return m, nil
}

// Len returns the length of pattern p.
func (m *Matcher) Len(p int32) int { return int(m.pats[p].n) }

// MaxLen returns the length of the longest pattern.
func (m *Matcher) MaxLen() int { return int(m.maxLen) }

// NumStates returns the number of automaton states.
func (m *Matcher) NumStates() int { return len(m.trans) / int(m.nclass) }

// splitMin is the least text length that AppendMatches scans as two
// interleaved halves.
const splitMin = 256

// AppendMatches appends every occurrence of every pattern in text, in order
// of end offset (for one end, longer patterns first), and returns the
// extended slice.
//
// A text of splitMin bytes or more is scanned as two halves at once, one
// step of each in turn: each step waits on a table load that depends on the
// step before, and two independent chains keep the core busy in each
// other's waits. The second half starts maxLen+1 bytes early, from the
// state after a boundary; from maxLen+1 bytes on its state is the state a
// scan from the start would have (no state is deeper than the longest
// pattern), and it only reports matches that end past the middle.
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
	n := to
	mid := from + (to-from)/2
	p0 := mid - int(m.maxLen) - 1
	if to-from < splitMin || p0 <= from {
		return m.scan(dst, text, from, to, s0, 0)
	}
	base := len(dst)
	trans := m.trans
	class := &m.class
	skip := &m.skip
	sa, sb := s0, m.start
	i, j := from, p0
	// The skip loops here go byte by byte: the eight-byte skip of scan
	// measured slower in this loop (bench/classify, Lexicon), its extra
	// branches costing more than the bytes it saves.
	for i < mid && j < n {
		// The inner loop makes no call, so the compiler keeps its state
		// in registers; it stops at the first step that enters a state
		// with outputs, whose flag is cleared once they are emitted.
		for i < mid && j < n {
			if sa == 0 {
				for i < mid && skip[text[i]] {
					i++
				}
				if i == mid {
					break
				}
			}
			if sb == 0 {
				for j < n && skip[text[j]] {
					j++
				}
				if j == n {
					break
				}
			}
			sa = trans[sa+uint32(class[text[i]])]
			sb = trans[sb+uint32(class[text[j]])]
			i++
			j++
			if (sa|sb)&matchFlag != 0 {
				break
			}
		}
		if sa&matchFlag != 0 {
			sa &^= matchFlag
			dst = m.emit(dst, text, i, sa/m.nclass)
		}
		if sb&matchFlag != 0 {
			sb &^= matchFlag
			if j > mid {
				dst = m.emit(dst, text, j, sb/m.nclass)
			}
		}
	}
	// One half is done; finish the other alone.
	dst = m.scan(dst, text, i, mid, sa, 0)
	dst = m.scan(dst, text, j, n, sb, mid)
	// The halves' matches came out interleaved; each half's in order, and
	// every match of the first ends at or before mid, every match of the
	// second after it: a stable partition puts them in order.
	return partition(dst, base, int32(mid))
}

// partition moves the matches of dst[base:] that end after mid behind the
// others, keeping the order within each group, and returns dst. The ones
// it moves pass through the spare room at the end of dst.
func partition(dst []Match, base int, mid int32) []Match {
	n := len(dst)
	w := base
	for r := base; r < n; r++ {
		if m := dst[r]; m.End <= mid {
			dst[w] = m
			w++
		} else {
			dst = append(dst, m)
		}
	}
	if w == n {
		return dst
	}
	copy(dst[w:], dst[n:])
	return dst[:n]
}

// scan appends the matches that end in text[from+1:to+1] past after, for
// a scan in state s at from (the whole of text is there for the boundary
// checks).
func (m *Matcher) scan(dst []Match, text []byte, from, to int, s uint32, after int) []Match {
	trans := m.trans
	class := &m.class
	skip := &m.skip
	swar := m.skipSWAR
	full := text // for the boundary checks past to
	text = text[:to]
	s &^= matchFlag
	for i := from; i < len(text); {
		// The inner loop makes no call (see AppendMatches).
		for i < len(text) {
			if s == 0 {
				// The root inside a word: skip to the next byte that
				// can start something.
				if swar {
					for i+8 <= len(text) && wordish8(binary.LittleEndian.Uint64(text[i:])) {
						i += 8
					}
				}
				for i < len(text) && skip[text[i]] {
					i++
				}
				if i == len(text) {
					break
				}
			}
			s = trans[s+uint32(class[text[i]])]
			i++
			if s&matchFlag != 0 {
				break
			}
		}
		if s&matchFlag != 0 {
			s &^= matchFlag
			if i > after {
				dst = m.emit(dst, full, i, s/m.nclass)
			}
		}
	}
	return dst
}

// wordish8 reports whether each byte of x is a lower-case ASCII letter or
// a byte >= 0x80.
func wordish8(x uint64) bool {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	y := x &^ high
	letter := (y + (0x80-'a')*ones) &^ (y + (0x80-'z'-1)*ones)
	return (letter|x)&high == high
}

func (m *Matcher) emit(dst []Match, text []byte, end int, state uint32) []Match {
	for o := m.outHead[state]; o >= 0; o = m.outs[o].next {
		p := m.outs[o].pat
		pi := m.pats[p]
		if pi.right && end < len(text) && m.word[text[end]] {
			continue
		}
		dst = append(dst, Match{Pattern: p, End: int32(end)})
	}
	return dst
}
