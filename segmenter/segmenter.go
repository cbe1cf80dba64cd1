package segmenter

import "unicode/utf8"

const (
	// DefaultMaxBytes is the segment size cap used when New is given
	// maxBytes <= 0, and by the zero Segmenter.
	DefaultMaxBytes = 1024
	// MinMaxBytes is the smallest cap New accepts; smaller positive values
	// are raised to it. It leaves room for several runes of up to 4 bytes.
	MinMaxBytes = 16
)

// Byte classes for the scan loop. Every byte >= 0x80 is cMulti: the first
// byte of a multi-byte sequence, a continuation byte or an invalid byte, to be
// told apart by utf8.DecodeRune. cPlain and cSpace come first: the ASCII
// fast path tests c <= cSpace.
const (
	cPlain uint8 = iota // ASCII with no role in the rules
	cSpace              // ' ', '\t', '\v', '\f': whitespace that is not a line break
	cBreak              // '\r', '\n'
	cTerm               // '.', '!', '?'
	cClose              // '"', '\'', ')', ']'
	cMulti              // 0x80..0xFF
)

var class = func() (t [256]uint8) {
	for b := 0x80; b < 0x100; b++ {
		t[b] = cMulti
	}
	for _, b := range []byte(" \t\v\f") {
		t[b] = cSpace
	}
	t['\r'], t['\n'] = cBreak, cBreak
	t['.'], t['!'], t['?'] = cTerm, cTerm, cTerm
	t['"'], t['\''], t[')'], t[']'] = cClose, cClose, cClose, cClose
	return t
}()

// Scan states; the state describes the bytes just before the scan position.
const (
	stText  uint8 = iota // ordinary text (or nothing yet)
	stTerm               // a terminator, then possibly closers
	stBreak              // inside a run of '\r' and '\n' bytes
)

// Segmenter is a reusable incremental segmenter for one item at a time. Use
// New; the zero value works too and behaves like New(0).
//
// A Segmenter keeps how far it has scanned the current segment, so it must
// not be shared between items that are fed in turns (use one per item, or
// call Reset when switching) and is not safe for concurrent use.
type Segmenter struct {
	max   int   // segment size cap; 0 means DefaultMaxBytes
	min   int   // least length a line break or sentence end may end a segment at
	pos   int   // bytes of the current segment already scanned
	space int   // end of the last whitespace byte in data[:pos], 0 if none
	st    uint8 // scan state at pos
}

// New returns a Segmenter whose segments are at most maxBytes long.
// maxBytes <= 0 means DefaultMaxBytes; a positive value below MinMaxBytes is
// raised to MinMaxBytes.
func New(maxBytes int) *Segmenter {
	return &Segmenter{max: clampMax(maxBytes)}
}

// NewMinMax returns a Segmenter whose segments are at most maxBytes long
// (as New) and, but for the last segment of a text and cuts by the cap,
// at least minBytes long: a line break or sentence end less than minBytes
// bytes into a segment is not a boundary. minBytes <= 0 means none (New's
// segments); a value above the cap is lowered to it.
func NewMinMax(minBytes, maxBytes int) *Segmenter {
	s := New(maxBytes)
	s.min = min(max(minBytes, 0), s.max)
	return s
}

// MinBytes returns the least length of a segment that a line break or a
// sentence end ends (NewMinMax).
func (s *Segmenter) MinBytes() int { return s.min }

func clampMax(n int) int {
	switch {
	case n <= 0:
		return DefaultMaxBytes
	case n < MinMaxBytes:
		return MinMaxBytes
	}
	return n
}

// MaxBytes returns the segment size cap.
func (s *Segmenter) MaxBytes() int {
	if s.max <= 0 {
		return DefaultMaxBytes
	}
	return s.max
}

// Reset forgets the scan state, so that the next call to Next starts a new
// segment (of a new item). The size cap is kept.
func (s *Segmenter) Reset() {
	s.pos, s.space, s.st = 0, 0, stText
}

// cut ends the current segment at n and resets the scan state.
func (s *Segmenter) cut(n int) int {
	s.pos, s.space, s.st = 0, 0, stText
	return n
}

// Next looks for the end of the segment that starts at data[0]. data is all
// text of the item not yet cut into segments: it grows between calls as text
// arrives, and after Next returns n > 0 the caller drops data[:n] and passes
// the rest. Next returns the segment length n > 0, or 0 meaning "need more
// text": the end of the segment depends on bytes that have not arrived. With
// atEOF and len(data) > 0 it always returns n > 0, and so it does whenever
// len(data) >= MaxBytes. n never exceeds len(data) or MaxBytes.
//
// Between a call that returned 0 and the next call, data must keep its
// prefix (only grow); Next resumes scanning where it stopped, so feeding text
// byte by byte costs O(total) rather than O(n²). If data is shorter than what
// was scanned, Next starts over. Reset discards the state explicitly.
func (s *Segmenter) Next(data []byte, atEOF bool) int {
	if len(data) == 0 {
		return 0
	}
	limit := s.MaxBytes()
	capped := len(data) >= limit
	if !capped {
		limit = len(data)
	}
	data = data[:limit] // the scan never looks past the cap
	i, space, st := s.pos, s.space, s.st
	if i > limit {
		i, space, st = 0, 0, stText
	}
scan:
	for i < len(data) {
		c := data[i]
		if st == stBreak {
			if class[c] != cBreak {
				if i >= s.min {
					return s.cut(i)
				}
				st = stText // too short: the run is ordinary text
				continue
			}
			i++
			space = i
			continue
		}
		switch class[c] {
		case cPlain:
			// ASCII fast path: a run of plain bytes and spaces in ordinary
			// text cannot hold a boundary.
			i++
			st = stText
			for i < len(data) {
				c := class[data[i]]
				if c > cSpace {
					break
				}
				i++
				if c == cSpace {
					space = i
				}
			}
		case cSpace:
			i++
			if st == stTerm && i >= s.min {
				return s.cut(i)
			}
			space = i
			st = stText
		case cBreak:
			i++
			space = i
			st = stBreak
		case cTerm:
			i++
			st = stTerm
		case cClose:
			// A closer keeps stTerm and is ordinary text otherwise.
			i++
		default: // cMulti
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 && !utf8.FullRune(data[i:]) {
				// A sequence cut at the end of the available data (or of
				// the cap window): wait for the rest, or let the cap or
				// atEOF below decide. At EOF these bytes are invalid and
				// cannot hold a boundary.
				break scan
			}
			i += size
			switch r {
			case '。', '！', '？':
				if i >= s.min {
					return s.cut(i)
				}
				st = stText
			case '…':
				st = stTerm
			case '”', '’', '»':
				// closer: keep st
			default:
				st = stText
			}
		}
	}
	if capped {
		// No boundary within the first MaxBytes bytes: cut after the last
		// whitespace byte, else before the first rune that does not fit
		// (i is MaxBytes or the start of that rune, never 0).
		if space > 0 {
			return s.cut(space)
		}
		return s.cut(i)
	}
	if atEOF {
		return s.cut(len(data))
	}
	s.pos, s.space, s.st = i, space, st
	return 0
}
