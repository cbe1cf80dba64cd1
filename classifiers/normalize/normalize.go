package normalize

import (
	"slices"
	"unicode/utf8"
)

// Normalizer folds text into the form the classifiers match against. It is
// immutable after New and safe for concurrent use.
type Normalizer struct {
	t *runeTable
}

// New returns a Normalizer. The first call builds the shared rune table
// (a few milliseconds); later calls are cheap.
func New() *Normalizer { return &Normalizer{t: getTable()} }

// ASCII byte classes of the first pass.
const (
	aCopy  uint8 = iota // emit as is
	aUpper              // emit lower-cased
	aSpace              // whitespace: collapse runs to one ' ' or '\n'
	aNL                 // line break: collapse, and a run that holds one is '\n'
	aDrop               // control character: emit nothing
	aLeet               // emit as is; a leetspeak candidate (0 1 3 4 5 7 @ $ ! |)
)

var asciiClass = func() (t [128]uint8) {
	for c := 0; c < 0x20; c++ {
		t[c] = aDrop
	}
	t[0x7f] = aDrop
	t[' '], t['\t'], t['\v'], t['\f'] = aSpace, aSpace, aSpace, aSpace
	t['\n'], t['\r'] = aNL, aNL
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = aUpper
	}
	for _, c := range "013457@$!|" {
		t[c] = aLeet
	}
	return t
}()

// byte properties of the normalized text used by the word-level passes.
const (
	pLetter = 1 << iota // a–z
	pWord               // part of a word: letters, digits, non-ASCII
	pSep                // a separator that may be inserted between single letters
	pLeet               // leetspeak candidate
)

var props = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = pLetter | pWord
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = pWord
	}
	for c := 0x80; c < 0x100; c++ {
		t[c] = pWord
	}
	for _, c := range " .-_*~/+=,:" {
		t[c] |= pSep
	}
	for _, c := range "013457@$!|" {
		t[c] |= pLeet
	}
	return t
}()

// IsWordByte reports whether c, a byte of normalized text, belongs to a
// word: an ASCII letter or digit or any byte of a non-ASCII rune (an
// apostrophe separates words, so "neighbour's" holds the word "neighbour").
// Matchers use it for word-boundary checks.
func IsWordByte(c byte) bool { return props[c]&pWord != 0 }

// joinable marks the bytes that may stand alone in a separated chain.
var joinable = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
	}
	t['1'] = true
	return t
}()

var leetMap = [128]byte{'0': 'o', '1': '1', '3': 'e', '4': 'a', '5': 's', '7': 't',
	'@': 'a', '$': 's', '!': 'i', '|': 'l'}

// Append normalizes src, appends the result to dst and, for each byte
// appended, the offset in src of the rune (or run of runes) it came from onto
// offs. On return len(offs) == len(dst)+1: the extra final entry is len(src)
// and maps the end. offs is first cut (or zero-padded) to len(dst), so the
// result of a previous call may be passed back in.
//
// The normalized text is lower case; it has NFKC compatibility forms folded,
// generic combining diacritics, zero-width, bidi and other invisible
// characters removed, Cyrillic/Greek look-alikes and other confusables folded
// to Latin, whitespace runs collapsed to one ' ' (or '\n' when the run holds a
// line break), leetspeak in word context folded (the digit 1 is kept as '1',
// which matchers read as either i or l), runs of three or more of one letter
// collapsed to one, and words spelled as single letters with separators
// ("k.i.l.l", "k i l l") joined. Offsets are non-decreasing and each is the
// start of a rune (or of an invalid byte) in src.
func (n *Normalizer) Append(dst []byte, offs []int32, src []byte) ([]byte, []int32) {
	if len(offs) > len(dst) {
		offs = offs[:len(dst)]
	}
	for len(offs) < len(dst) {
		offs = append(offs, 0)
	}
	base := len(dst)
	dst = slices.Grow(dst, len(src)+64)
	offs = slices.Grow(offs, len(src)+65)
	dst, offs, leetFrom, compactFrom := n.fold(dst, offs, src, base)
	if leetFrom >= 0 {
		leet(dst, base, leetFrom)
		if f := max(base, leetFrom-4); compactFrom < 0 || f < compactFrom {
			compactFrom = f
		}
	}
	w := len(dst)
	if compactFrom >= 0 {
		w = compact(dst, offs, base, compactFrom)
	}
	dst, offs = dst[:w], offs[:w]
	offs = append(offs, int32(len(src)))
	return dst, offs
}

// fold is the first pass: per-rune folding and whitespace collapse. It
// writes by index into the spare capacity of dst and offs (grown as needed)
// and returns where the leet pass and the compaction pass must start (-1:
// nothing for them to do).
func (n *Normalizer) fold(dst []byte, offs []int32, src []byte, base int) ([]byte, []int32, int, int) {
	lim := min(cap(dst), cap(offs))
	d, o := dst[:lim], offs[:lim]
	w := len(dst)
	leetFrom, compactFrom := -1, -1
	for i := 0; i < len(src); {
		// ASCII fast path.
		for i < len(src) {
			c := src[i]
			m := asciiOut[c]
			if m == 0 || w >= len(d) || m == ' ' && w > base && (d[w-1] == ' ' || d[w-1] == '\n') {
				break
			}
			d[w], o[w] = m, int32(i)
			if w >= base+3 {
				if props[m]&pSep != 0 {
					// The second separator of "k.i.": a joining candidate.
					if joinable[d[w-1]] && props[d[w-2]]&pSep != 0 && joinable[d[w-3]] &&
						(w-4 < base || props[d[w-4]]&pWord == 0) && compactFrom < 0 {
						compactFrom = w - 3
					}
				} else if m == d[w-1] && m == d[w-2] && compactFrom < 0 && props[m]&pLetter != 0 {
					compactFrom = w - 2
				}
			}
			w++
			i++
		}
		if i >= len(src) {
			break
		}
		if len(d)-w < 64 {
			d, o = grow(d, o, w, len(src)-i+64)
		}
		c := src[i]
		if c < utf8.RuneSelf {
			switch asciiClass[c] {
			case aLeet:
				// A candidate touching a letter needs the leet pass; a
				// trailing '!' never does.
				left := w > base && props[d[w-1]]&pLetter != 0
				right := i+1 < len(src) && (asciiOut[src[i+1]]|0x20)-'a' < 26
				if right || left && c != '!' {
					if leetFrom < 0 {
						leetFrom = w
					}
				}
				d[w], o[w] = c, int32(i)
				w++
			case aSpace:
				w = space(d, o, base, w, ' ', i)
			case aNL:
				w = space(d, o, base, w, '\n', i)
			}
			i++
			continue
		}
		if compactFrom < 0 {
			// Spaces, leetspeak candidates and runes from the slow path
			// can take part in a run or a chain: check from a little
			// before here.
			compactFrom = max(base, w-4)
		}
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size == 1 {
			w += copy(d[w:], "\uFFFD")
			o[w-3], o[w-2], o[w-1] = int32(i), int32(i), int32(i)
			i++
			continue
		}
		switch e := n.t.lookup(r); e {
		case entKeep:
			for k := range size {
				d[w], o[w] = src[i+k], int32(i)
				w++
			}
		case entDrop:
		default:
			rep := n.t.pool[e>>8 : e>>8+e&0xff]
			if len(d)-w < len(rep) {
				d, o = grow(d, o, w, len(rep)+len(src)-i+64)
			}
			for j := 0; j < len(rep); j++ {
				c := rep[j]
				if c < utf8.RuneSelf {
					switch asciiClass[c] {
					case aSpace:
						w = space(d, o, base, w, ' ', i)
						continue
					case aNL:
						w = space(d, o, base, w, '\n', i)
						continue
					case aDrop:
						continue
					}
					if asciiLeet[c] != 0 && leetFrom < 0 {
						leetFrom = w
					}
				}
				d[w], o[w] = c, int32(i)
				w++
			}
		}
		i += size
	}
	return d[:w], o[:w], leetFrom, compactFrom
}

// grow makes room for at least more bytes after w.
func grow(d []byte, o []int32, w, more int) ([]byte, []int32) {
	d = slices.Grow(d[:w], more)
	o = slices.Grow(o[:w], more+1)
	lim := min(cap(d), cap(o)) // d and o always have the same length
	return d[:lim], o[:lim]
}

// asciiOut maps an ASCII byte that the fast path copies to its output
// (lower-cased); 0 marks bytes that need the slow path (whitespace,
// controls, leetspeak candidates, non-ASCII).
var asciiOut, asciiLeet = func() (out, leet [256]uint8) {
	for c := 0; c < utf8.RuneSelf; c++ {
		switch asciiClass[c] {
		case aCopy:
			out[c] = byte(c)
		case aLeet:
			leet[c] = 1 // the slow path decides whether the leet pass runs
		case aUpper:
			out[c] = byte(c) + 'a' - 'A'
		}
	}
	out[' '] = ' ' // the fast path checks for a run itself
	return
}()

// space emits whitespace ws at src offset i, collapsing it into a previous
// whitespace byte ('\n' wins over ' '). It returns the new length.
func space(d []byte, o []int32, base, w int, ws byte, i int) int {
	if k := w - 1; k >= base && (d[k] == ' ' || d[k] == '\n') {
		if ws == '\n' {
			d[k] = '\n'
		}
		return w
	}
	d[w], o[w] = ws, int32(i)
	return w + 1
}

// leet folds leetspeak characters in word context, in place (one byte for
// one byte). A maximal run of candidates (0 1 3 4 5 7 @ $ ! |) is folded
// when it touches a letter: inside a word always; at the start of a word when
// it is one character or made of symbols (so "10am" stays); at the end of a
// word when it is at most two characters and holds no '!' (so "wow!" stays).
// Runs that hold other digits ("2024", "covid19") or touch no letter
// ("7 days", "$100") are left alone. '1' stays '1'.
func leet(b []byte, base, from int) {
	for i := from; i < len(b); {
		if props[b[i]]&pLeet == 0 {
			i++
			continue
		}
		s := i
		for s > base && props[b[s-1]]&pLeet != 0 {
			s--
		}
		digits, bang := false, false
		for i < len(b) && props[b[i]]&pLeet != 0 {
			switch b[i] {
			case '!':
				bang = true
			case '0', '1', '3', '4', '5', '7':
				digits = true
			}
			i++
		}
		e := i
		if e < len(b) && b[e] >= '0' && b[e] <= '9' || s > base && b[s-1] >= '0' && b[s-1] <= '9' {
			continue // part of a longer number
		}
		left := s > base && props[b[s-1]]&pLetter != 0
		right := e < len(b) && props[b[e]]&pLetter != 0
		switch {
		case left && right:
		case right:
			if e-s > 1 && digits {
				continue
			}
		case left:
			if e-s > 2 || bang {
				continue
			}
		default:
			continue
		}
		for k := s; k < e; k++ {
			b[k] = leetMap[b[k]]
		}
	}
}

// compact is the last pass, in place: it joins words spelled as single
// letters with separators and collapses runs of three or more of one letter.
// It returns the new length.
func compact(b []byte, offs []int32, base, from int) int {
	end := len(b)
	// Fast scan for the first place that changes anything.
	r := from
	for ; r+2 < end; r++ {
		c, c1 := b[r], b[r+1]
		if c1 != c && props[c1]&pSep == 0 {
			continue
		}
		if props[c]&pLetter == 0 {
			continue
		}
		if c1 == c && b[r+2] == c {
			break
		}
		if c1 != c && (r == base || props[b[r-1]]&pWord == 0) && isSingle(b, r+2) &&
			r+4 < end && props[b[r+3]]&pSep != 0 && isSingle(b, r+4) {
			break
		}
	}
	if r+2 >= end {
		return end
	}
	w := r
	prev := byte(' ')
	if r > base {
		prev = b[r-1]
	}
	for r < end {
		c := b[r]
		if props[c]&pLetter != 0 {
			// "k.i.l.l": single letters with one separator between them.
			if props[prev]&pWord == 0 && r+2 < end && props[b[r+1]]&pSep != 0 && isSingle(b, r+2) {
				j, k := r, 1
				for j+2 < end && props[b[j+1]]&pSep != 0 && isSingle(b, j+2) {
					j += 2
					k++
				}
				if k >= 3 {
					for q := r; q <= j; q += 2 {
						b[w], offs[w] = b[q], offs[q]
						w++
					}
					prev = b[j]
					r = j + 1
					continue
				}
			}
			// Stretched letters: three or more collapse to one.
			if r+2 < end && b[r+1] == c && b[r+2] == c {
				e := r + 3
				for e < end && b[e] == c {
					e++
				}
				b[w], offs[w] = c, offs[r]
				w++
				prev = c
				r = e
				continue
			}
		}
		b[w], offs[w] = c, offs[r]
		w++
		prev = c
		r++
	}
	return w
}

// isSingle reports whether b[i] is a letter (or the leet '1') standing alone:
// not followed by another word byte.
func isSingle(b []byte, i int) bool {
	c := b[i]
	if props[c]&pLetter == 0 && c != '1' {
		return false
	}
	return i+1 == len(b) || props[b[i+1]]&pWord == 0
}

// Span maps the normalized byte range [s, e) back to the source: offs is the
// offset map of one Append call (offs[0] for the first byte that call
// appended, with its final end entry). The start is the offset of the rune
// that produced byte s; the end is the first offset past the rune or run that
// produced byte e-1 (so a stretched run or a letter with its combining marks
// is covered whole). The result lies on rune boundaries of the source.
func Span(offs []int32, s, e int) (start, end int) {
	start = int(offs[s])
	if e <= s {
		return start, start
	}
	o := offs[e-1]
	k := e
	for k < len(offs)-1 && offs[k] == o {
		k++
	}
	return start, int(offs[k])
}
