package match

import (
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
type Matcher struct {
	class  [256]uint8 // byte → class; 0 is every byte that no pattern uses
	nclass uint32
	// trans[s+class] is the next state, premultiplied by nclass, with
	// matchFlag set when that state has outputs.
	trans   []uint32
	outHead []int32 // state → first index into outs, or -1
	outs    []out
	pats    []patInfo
	word    [256]bool
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
	}
	n := uint32(1)
	for c := range 256 {
		if used[c] {
			m.class[c] = uint8(n)
			n++
		}
	}
	if n > 256 {
		// Every byte value is used: class 0 must still exist for the
		// "other" bytes; fold it onto the last class by construction.
		return nil, fmt.Errorf("%w: patterns use every byte value", ErrPattern)
	}
	m.nclass = n

	// Trie.
	type node struct {
		next []int32 // per class, -1 absent
		own  []int32 // patterns ending here
	}
	newNode := func() node {
		nx := make([]int32, n)
		for i := range nx {
			nx[i] = -1
		}
		return node{next: nx}
	}
	nodes := []node{newNode()}
	for i, p := range pats {
		s := int32(0)
		for _, c := range p.Bytes {
			k := m.class[c]
			if nodes[s].next[k] < 0 {
				nodes = append(nodes, newNode())
				nodes[s].next[k] = int32(len(nodes) - 1)
			}
			s = nodes[s].next[k]
		}
		nodes[s].own = append(nodes[s].own, int32(i))
	}
	if uint64(len(nodes))*uint64(n) >= matchFlag {
		return nil, fmt.Errorf("%w: automaton too large", ErrPattern)
	}

	// Failure links in BFS order; the DFA transition of a missing edge is
	// the transition of the failure state.
	ns := len(nodes)
	fail := make([]int32, ns)
	outLink := make([]int32, ns) // nearest proper suffix state with outputs, -1
	delta := make([]int32, ns*int(n))
	queue := make([]int32, 0, ns)
	outLink[0] = -1
	for k := range n {
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
		for k := range n {
			t := nodes[s].next[k]
			if t < 0 {
				delta[int(s)*int(n)+int(k)] = delta[int(fail[s])*int(n)+int(k)]
				continue
			}
			delta[int(s)*int(n)+int(k)] = t
			f := delta[int(fail[s])*int(n)+int(k)]
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
	m.outHead = make([]int32, ns)
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

	m.trans = make([]uint32, ns*int(n))
	for i, t := range delta {
		v := uint32(t) * n
		if m.outHead[t] >= 0 {
			v |= matchFlag
		}
		m.trans[i] = v
	}
	return m, nil
}

// Len returns the length of pattern p.
func (m *Matcher) Len(p int32) int { return int(m.pats[p].n) }

// NumStates returns the number of automaton states.
func (m *Matcher) NumStates() int { return len(m.trans) / int(m.nclass) }

// AppendMatches appends every occurrence of every pattern in text, in order
// of end offset (for one end, longer patterns first), and returns the
// extended slice.
func (m *Matcher) AppendMatches(dst []Match, text []byte) []Match {
	trans := m.trans
	class := &m.class
	s := uint32(0)
	for i := 0; i < len(text); i++ {
		s = trans[s&^matchFlag+uint32(class[text[i]])]
		if s&matchFlag != 0 {
			dst = m.emit(dst, text, i+1, (s&^matchFlag)/m.nclass)
		}
	}
	return dst
}

func (m *Matcher) emit(dst []Match, text []byte, end int, state uint32) []Match {
	for o := m.outHead[state]; o >= 0; o = m.outs[o].next {
		p := m.outs[o].pat
		pi := m.pats[p]
		if pi.left {
			if st := end - int(pi.n); st > 0 && m.word[text[st-1]] {
				continue
			}
		}
		if pi.right && end < len(text) && m.word[text[end]] {
			continue
		}
		dst = append(dst, Match{Pattern: p, End: int32(end)})
	}
	return dst
}
