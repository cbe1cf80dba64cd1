package normalize

import (
	"encoding/binary"
	"math/bits"
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

// IsSentenceBreak reports whether t[p], a byte of normalized text, ends a
// sentence: '!', '?', ';', a line break, or '.' not followed by a word byte
// ("e.g" and "3.5" go on). The rules' sentences and the ensemble's
// sentence of a hold both end there.
func IsSentenceBreak(t []byte, p int) bool {
	switch t[p] {
	case '!', '?', ';', '\n':
		return true
	case '.':
		return p+1 == len(t) || !IsWordByte(t[p+1])
	}
	return false
}

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

// Folds is a set of the rewritings Append did beyond lower-casing ASCII
// and collapsing whitespace: what a caller needs to know about how the
// text was spelled without reading it again.
type Folds uint8

const (
	// Runes: a non-ASCII rune was folded or dropped (a confusable or
	// look-alike, a width or styled form, a combining mark, an invisible
	// or bidi character) or an invalid byte replaced.
	Runes Folds = 1 << iota
	// Controls: an ASCII control character other than whitespace was
	// dropped.
	Controls
	// Leet: a run of leetspeak characters between two letters was read
	// as letters ("k1ll", "h4te"; the digit 1 stays '1', which matchers
	// read as i or l).
	Leet
	// LeetEdge: a run of leetspeak characters at the start or end of a
	// word was read as letters ("4ss", "hat3").
	LeetEdge
	// Stretched: a run of three or more of one letter was collapsed.
	Stretched
	// Spelled: a word spelled as four or more single letters with
	// separators was joined ("k i l l", "k.i.l.l").
	Spelled
	// Initials: three single letters with separators were joined
	// ("u.s.a", "a b c"): more often initials or a list than an evasion.
	Initials
)

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
	dst, offs, _ = n.AppendFolds(dst, offs, src)
	return dst, offs
}

// AppendFolds is Append that also reports what it folded.
func (n *Normalizer) AppendFolds(dst []byte, offs []int32, src []byte) ([]byte, []int32, Folds) {
	if len(offs) > len(dst) {
		offs = offs[:len(dst)]
	}
	for len(offs) < len(dst) {
		offs = append(offs, 0)
	}
	base := len(dst)
	dst = slices.Grow(dst, len(src)+64)
	offs = slices.Grow(offs, len(src)+65)
	dst, offs, leetFrom, leetTo, compactFrom, folds := n.fold(dst, offs, src, base)
	if leetFrom >= 0 {
		// leet reports where the bytes it folded start something for
		// the compaction pass (a run of three, a separated spelling).
		first, f := leet(dst, base, leetFrom, leetTo)
		folds |= f
		if first >= 0 && (compactFrom < 0 || first < compactFrom) {
			compactFrom = first
		}
	}
	w := len(dst)
	if compactFrom >= 0 {
		var f Folds
		w, f = compact(dst, offs, base, compactFrom)
		folds |= f
	}
	dst, offs = dst[:w], offs[:w]
	offs = append(offs, int32(len(src)))
	return dst, offs, folds
}

// fold is the first pass: per-rune folding and whitespace collapse. It
// writes by index into the spare capacity of dst and offs (grown as needed)
// and returns the first and last leetspeak candidates that touch a letter
// (-1: none), where the compaction pass must start (-1: nothing for it
// to do) and what it folded (Runes, Controls).
func (n *Normalizer) fold(dst []byte, offs []int32, src []byte, base int) ([]byte, []int32, int, int, int, Folds) {
	lim := min(cap(dst), cap(offs))
	d, o := dst[:lim], offs[:lim]
	w := len(dst)
	leetFrom, leetTo, compactFrom := -1, -1, -1
	var folds Folds
	// next64 and next16 are where a block of 64 or sixteen is tried again
	// after one stopped short with many more bytes no block takes past its
	// stop (denseStops, denseStops16: a table of numbers, code, leetspeak,
	// a URL), where each try would lower the whole block to keep a few
	// bytes; the smaller blocks and the byte path take the bytes until
	// then. In prose a block that stops short is tried again at once.
	next64, next16 := 0, 0
	for i := 0; i < len(src); {
		// Block path: 64 (lower64), sixteen (lower16; SSE2) and then eight
		// plain ASCII bytes at a time (letters, single spaces, punctuation
		// that is neither leetspeak nor a control), as long as they hold
		// nothing for the later passes to find. lower64 and lower16 write
		// the whole block and fold keeps its plain prefix (plainPrefix);
		// the paths below write the rest again. When a block stops short,
		// the byte at its end is one no block takes, so the byte path
		// comes next.
		short := false
		for haveLower16 && i >= next64 && i+64 <= len(src) && w+64 <= len(d) && ascii64(src[i:i+64]) {
			bad, sp, letter, e, sep := lower64(&d[w], &o[w], &src[i], int32(i), before(d, base, w))
			k := plainPrefix(bad, sp, letter, e, sep, d, base, w, 64, compactFrom < 0)
			w += k
			i += k
			if k < 64 {
				short = true
				if bits.OnesCount64(bad>>uint(k)) >= denseStops {
					next64 = i + 64
				}
				break
			}
		}
		for haveLower16 && !short && i >= next16 && i+16 <= len(src) && w+16 <= len(d) &&
			(binary.LittleEndian.Uint64(src[i:])|binary.LittleEndian.Uint64(src[i+8:]))&high == 0 {
			bad, sp, letter, e, sep := lower16(&d[w], &o[w], &src[i], int32(i), before(d, base, w))
			k := plainPrefix(bad, sp, letter, e, sep, d, base, w, 16, compactFrom < 0)
			w += k
			i += k
			if k < 16 {
				short = true
				if bits.OnesCount64(bad>>uint(k)) >= denseStops16 {
					next16 = i + 16
				}
				break
			}
		}
		for !short && w >= base+2 && i+8 <= len(src) && w+8 <= len(d) {
			x, ok := block8(binary.LittleEndian.Uint64(src[i:i+8]), d[w-2], d[w-1], compactFrom < 0, i+8 < len(src) && isAlnum(src[i+8]))
			if !ok {
				break
			}
			d8, o8 := d[w:w+8:w+8], o[w:w+8:w+8]
			binary.LittleEndian.PutUint64(d8, x)
			i32 := int32(i)
			o8[0], o8[1], o8[2], o8[3] = i32, i32+1, i32+2, i32+3
			o8[4], o8[5], o8[6], o8[7] = i32+4, i32+5, i32+6, i32+7
			w += 8
			i += 8
		}
		// Byte path, for at most eight bytes before trying blocks again.
		lim := min(len(src), i+8)
		for i < lim {
			c := src[i]
			m := asciiOut[c]
			if m == 0 || w >= len(d) || m == ' ' && w > base && (d[w-1] == ' ' || d[w-1] == '\n') {
				break
			}
			d[w], o[w] = m, int32(i)
			if w >= base+2 {
				if props[m]&pSep != 0 {
					// The second separator of "k.i.": a joining candidate.
					if compactFrom < 0 && w >= base+3 && chain(d, base, w) && !stopsChain(src, i+1, m) {
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
		if i == lim || asciiOut[src[i]] != 0 && src[i] != ' ' {
			continue // a plain byte: back to the fast paths
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
					leetTo = w
				}
				d[w], o[w] = c, int32(i)
				w++
			case aSpace:
				w = space(d, o, base, w, ' ', i)
				if compactFrom < 0 && w >= base+4 && chain(d, base, w-1) && !stopsChain(src, i+1, ' ') {
					compactFrom = w - 4
				}
			case aNL:
				w = space(d, o, base, w, '\n', i)
			case aDrop:
				folds |= Controls
				if w > base && props[d[w-1]]&pLeet != 0 {
					// "$\x7fi": the letter comes next.
					if leetFrom < 0 {
						leetFrom = w - 1
					}
					leetTo = w - 1
				}
			}
			i++
			continue
		}
		// Non-ASCII runes, one after another.
		for i < len(src) && src[i] >= utf8.RuneSelf {
			if len(d)-w < 64 {
				d, o = grow(d, o, w, len(src)-i+64)
			}
			if w > base && props[d[w-1]]&pLeet != 0 {
				// A leetspeak candidate before a rune that may fold to a
				// letter ("5ǅ").
				if leetFrom < 0 {
					leetFrom = w - 1
				}
				leetTo = w - 1
			}
			var r rune
			var size int
			if c := src[i]; c >= 0xC2 && c < 0xE0 && i+1 < len(src) && src[i+1]&0xC0 == 0x80 {
				// Two bytes (Cyrillic, Greek, Arabic, Latin letters with
				// marks): decode's first case, inline.
				r, size = rune(c&0x1F)<<6|rune(src[i+1]&0x3F), 2
			} else {
				r, size = decode(src, i)
			}
			if r == utf8.RuneError && size == 1 {
				folds |= Runes
				w += copy(d[w:], "\uFFFD")
				o[w-3], o[w-2], o[w-1] = int32(i), int32(i), int32(i)
				i++
				continue
			}
			switch e := n.t.lookup(r); e {
			case entKeep:
				if i+4 <= len(src) {
					// A rune is at most four bytes and d has room to spare:
					// copy four, keep size.
					binary.LittleEndian.PutUint32(d[w:w+4], binary.LittleEndian.Uint32(src[i:]))
					o4, i32 := o[w:w+4:w+4], int32(i)
					o4[0], o4[1], o4[2], o4[3] = i32, i32, i32, i32
					w += size
					break
				}
				for k := range size {
					d[w], o[w] = src[i+k], int32(i)
					w++
				}
			case entDrop:
				folds |= Runes
			default:
				folds |= Runes
				if e&0xff == 1 {
					// One letter (a look-alike, a wide or styled letter).
					if m := n.t.pool[e>>8]; props[m]&pLetter != 0 {
						d[w], o[w] = m, int32(i)
						if compactFrom < 0 && w >= base+2 && m == d[w-1] && m == d[w-2] {
							compactFrom = w - 2
						}
						w++
						i += size
						continue
					}
				}
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
							if compactFrom < 0 && w >= base+4 && chain(d, base, w-1) {
								compactFrom = w - 4
							}
							continue
						case aNL:
							w = space(d, o, base, w, '\n', i)
							continue
						case aDrop:
							continue
						}
						if asciiLeet[c] != 0 {
							if leetFrom < 0 {
								leetFrom = w
							}
							leetTo = w
						}
					}
					d[w], o[w] = c, int32(i)
					if compactFrom < 0 && c < utf8.RuneSelf {
						// A folded letter or separator can take part in a run
						// or a separated spelling ("ооо", "к.і.л.л").
						compactFrom = detectAt(d, base, w)
					}
					w++
				}
			}
			i += size
		}
	}
	return d[:w], o[:w], leetFrom, leetTo, compactFrom, folds
}

// isAlnum reports whether c is an ASCII letter or digit. It is a table
// load, not two comparisons and a branch: fold asks it of the byte after
// every eight-byte block it tries, and in mixed-script text the answer
// flips too often to predict. (For block8 it is only a hint, so no test
// can tell a wrong answer: block8 refuses a letter that may stand alone,
// and the byte path catches what it lets through.)
func isAlnum(c byte) bool { return alnum[c] }

var alnum = func() (t [256]bool) {
	for c := range t {
		b := byte(c)
		t[c] = (b|0x20)-'a' < 26 || b-'0' < 10
	}
	return t
}()

const (
	ones = 0x0101010101010101
	high = 0x8080808080808080
	lows = 0x7f7f7f7f7f7f7f7f
)

// zeroMask has the high bit of each byte of t that is zero, exactly (no
// carry crosses a byte).
func zeroMask(t uint64) uint64 { return ^((t&lows + lows) | t) & high }

// block8 lower-cases eight ASCII bytes x (the first in the low byte) that
// follow the output bytes p2 p1. It reports false when the byte path must
// handle them: a byte that is not plain (plain: letters, space and
// punctuation other than the leetspeak symbols; no digits, so within a
// block the word bytes are the letters), a space after whitespace (to
// collapse), or, when
// detect is set, anything the compaction pass might rewrite (a run of
// three letters, a letter standing alone that could start or continue a
// separated spelling). next tells whether the byte after the block is a
// letter or digit.
func block8(x uint64, p2, p1 byte, detect, next bool) (uint64, bool) {
	if x&high != 0 {
		return 0, false
	}
	// Not plain: controls, "!"#$" (0x21-0x24), digits, '@', "|}~" and DEL
	// (0x7c-0x7f); '"' '#' '}' '~' are plain but rare enough to leave to
	// the byte path.
	ge := func(k byte) uint64 { return x + uint64(0x80-k)*ones }
	bad := ^ge(0x20) | ge(0x21)&^ge(0x25) | ge('0')&^ge('9'+1) | zeroMask(x^'@'*ones) | ge(0x7c)
	if bad&high != 0 {
		return 0, false
	}
	up := ge('A') &^ ge('Z'+1) & high
	y := x | up>>2
	sp := zeroMask(y ^ ' '*ones)
	var ps uint64
	if p1 == ' ' || p1 == '\n' {
		ps = 0x80
	}
	if sp&(sp<<8|ps) != 0 {
		return 0, false
	}
	if !detect {
		return y, true
	}
	letter := (y + (0x80-'a')*ones) &^ (y + (0x80-'z'-1)*ones) & high
	e1 := zeroMask(y ^ (y<<8 | uint64(p1)))
	e2 := zeroMask(y ^ (y<<16 | uint64(p1)<<8 | uint64(p2)))
	if e1&e2&letter != 0 {
		return 0, false
	}
	wl, wr := letter<<8, letter>>8
	if props[p1]&pWord != 0 {
		wl |= 0x80
	}
	if next {
		wr |= 0x80 << 56
	}
	if letter&^wl&^wr != 0 {
		return 0, false
	}
	if joinable[p1] && props[p2]&pWord == 0 && letter&0x80 == 0 {
		return 0, false
	}
	return y, true
}

// chainBits has, per output byte, bit 0 set for a separator, bit 1 for a
// joinable byte and bit 2 for a word byte: what plainPrefix needs to know of
// the bytes before a block.
var chainBits = func() (t [256]uint8) {
	for c := range t {
		if props[c]&pSep != 0 {
			t[c] |= 1
		}
		if joinable[c] {
			t[c] |= 2
		}
		if props[c]&pWord != 0 {
			t[c] |= 4
		}
	}
	return t
}()

// ascii64 reports whether the 64 bytes of b are ASCII.
func ascii64(b []byte) bool {
	b = b[:64]
	x := binary.LittleEndian.Uint64(b[0:]) | binary.LittleEndian.Uint64(b[8:]) |
		binary.LittleEndian.Uint64(b[16:]) | binary.LittleEndian.Uint64(b[24:]) |
		binary.LittleEndian.Uint64(b[32:]) | binary.LittleEndian.Uint64(b[40:]) |
		binary.LittleEndian.Uint64(b[48:]) | binary.LittleEndian.Uint64(b[56:])
	return x&high == 0
}

// before is the before argument of lower16 and lower64 for a block at
// d[w:] after the output d[base:w]: its last two bytes, 0 where it has
// none (no plain output byte is 0).
func before(d []byte, base, w int) uint64 {
	var b uint64
	if w-1 >= base {
		b = uint64(d[w-1]) << 8
	}
	if w-2 >= base {
		b |= uint64(d[w-2])
	}
	return b
}

// plainPrefix returns how many of the n (16 or 64) bytes lower16 or
// lower64 wrote at d[w:w+n], after the output d[base:w], can stay as they
// are, from their masks of n lanes: bad (not plain), sp (spaces), letter,
// e (equal to the two bytes before) and sep (separators). A byte can when
// it is plain (as block8 has it), is no space after whitespace and, when
// detect is set, is nothing the byte path would mark for the compaction
// pass: a letter that ends a run of three, or a separator that ends the
// "k.i." of a separated spelling (chain), looking back into d as far as
// that needs. Each condition looks only back, so the bytes before the
// first that fails can stay whatever follows them, and fold goes on from
// there by the byte path, as it would after a shorter block. It accepts
// every block whose eight-byte parts block8 accepts in turn, and more: a
// letter standing alone is fine as long as no second one follows it with
// one separator between.
func plainPrefix(bad, sp, letter, e, sep uint64, d []byte, base, w, n int, detect bool) int {
	d = d[:w+n]
	var ps uint64
	if w-1 >= base && (d[w-1] == ' ' || d[w-1] == '\n') {
		ps = 1
	}
	stop := bad | sp&(sp<<1|ps)
	if detect {
		stop |= e & letter
		// The separated spellings: a separator with a joinable letter, a
		// separator and a joinable letter before it and no word byte
		// before those ("k.i." in "x k.i."). In a plain block the word
		// bytes and the joinable ones are the letters. From the fifth
		// lane on, all of it is in the block.
		stop |= sep & (letter << 1) & (sep << 2) & (letter << 3) &^ (letter << 4) &^ 0xf
		// The first four lanes look back into d[base:w], where a chain
		// ends on a separator among them. Bits 0-3: the output bytes
		// d[w-4:w] that exist; bits 4-7: the block's first four.
		if sep&0xf != 0 {
			var h uint64 // chainBits of d[w-4+k] in byte k
			if w-4 >= base {
				h = uint64(chainBits[d[w-4]]) | uint64(chainBits[d[w-3]])<<8 | uint64(chainBits[d[w-2]])<<16 | uint64(chainBits[d[w-1]])<<24
			} else {
				for k := 1; k <= 4 && w-k >= base; k++ {
					h |= uint64(chainBits[d[w-k]]) << (8 * (4 - k))
				}
			}
			// gather4 moves bit 0 of bytes 0-3 to bits 0-3 (the products
			// of the other bits land outside them, without carries).
			gather4 := func(x uint64) uint64 { return (x & 0x01010101 * 0x204081) >> 21 & 0xf }
			S, J, W := gather4(h)|(sep&0xf)<<4, gather4(h>>1)|(letter&0xf)<<4, gather4(h>>2)|(letter&0xf)<<4
			stop |= S & (J << 1) & (S << 2) & (J << 3) &^ (W << 4) & 0xf0 >> 4
		}
	}
	if stop == 0 {
		return n
	}
	return min(bits.TrailingZeros64(stop), n)
}

// denseStops and denseStops16 are how many bytes no block takes, counted
// from the one a block of 64 or sixteen stopped at, that make fold skip
// that block size for one block's length (a dense stretch). Measured in
// instructions on the stack's benchmarks (docs/benchmarks.md): a table of
// numbers −38%, leetspeak −16%, code and URLs −8%, chat prose +0.2%.
const (
	denseStops   = 8
	denseStops16 = 2
)

// decode decodes the rune at src[i], two- and three-byte sequences
// inline (the common scripts), the rest with utf8.DecodeRune.
func decode(src []byte, i int) (rune, int) {
	c := src[i]
	if c >= 0xC2 && c < 0xE0 && i+1 < len(src) {
		if c1 := src[i+1]; c1&0xC0 == 0x80 {
			return rune(c&0x1F)<<6 | rune(c1&0x3F), 2
		}
	} else if c >= 0xE1 && c <= 0xEF && c != 0xED && i+2 < len(src) {
		// E0 (overlong forms) and ED (surrogates) need the full checks.
		if c1, c2 := src[i+1], src[i+2]; c1&0xC0 == 0x80 && c2&0xC0 == 0x80 {
			return rune(c&0x0F)<<12 | rune(c1&0x3F)<<6 | rune(c2&0x3F), 3
		}
	}
	return utf8.DecodeRune(src[i:])
}

// detectAt returns where the compaction pass must start if the byte just
// written at d[w] ends a run of three letters or the "k.i." of a separated
// spelling, or -1.
func detectAt(d []byte, base, w int) int {
	m := d[w]
	switch {
	case w < base+2:
	case props[m]&pSep != 0:
		if w >= base+3 && chain(d, base, w) {
			return w - 3
		}
	case m == d[w-1] && m == d[w-2] && props[m]&pLetter != 0:
		return w - 2
	}
	return -1
}

// stopsChain reports whether the bytes of src from j are sure not to make
// a third letter standing alone after the "k.i." of a candidate chain that
// the separator sep ends, so that the compaction pass would leave the
// chain ("e.g. ", "a y coordinate"): src[j] is ASCII punctuation copied
// as it is, or whitespace after a separator that is not whitespace itself
// (the collapse of a run would change sep), or a letter followed by a
// letter or a digit that stays one.
func stopsChain(src []byte, j int, sep byte) bool {
	if j >= len(src) || src[j] >= utf8.RuneSelf {
		return false
	}
	c := src[j]
	switch asciiClass[c] {
	case aCopy, aUpper:
		if props[asciiOut[c]]&pLetter == 0 {
			return true
		}
		if j+1 >= len(src) || src[j+1] >= utf8.RuneSelf {
			return false
		}
		k := asciiClass[src[j+1]]
		return (k == aCopy || k == aUpper) && props[asciiOut[src[j+1]]]&pWord != 0
	case aSpace, aNL:
		return sep != ' ' && sep != '\n'
	}
	return false
}

// chain reports whether the separator at d[w] ends "k.i.", the start of a
// word spelled as single letters (or the leet '1') with separators. It
// needs w >= base+3.
func chain(d []byte, base, w int) bool {
	return joinable[d[w-1]] && props[d[w-2]]&pSep != 0 && joinable[d[w-3]] &&
		(w-4 < base || props[d[w-4]]&pWord == 0)
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
// ("7 days", "$100") are left alone. '1' stays '1'. Only the runs that
// hold a byte of b[from:to+1] are looked at. It returns the first index
// where a folded byte lets the compaction pass change something, or -1,
// and what it folded (Leet, LeetEdge).
func leet(b []byte, base, from, to int) (int, Folds) {
	first := -1
	var folds Folds
	for i := from; i <= to && i < len(b); {
		if props[b[i]]&pLeet == 0 {
			i++
			continue
		}
		s := i
		for s > base && props[b[s-1]]&pLeet != 0 {
			s--
		}
		// The whole run decides, wherever the pass started in it.
		i = s
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
			folds |= Leet
		case right:
			if e-s > 1 && digits {
				continue
			}
			folds |= LeetEdge
		case left:
			if e-s > 2 || bang {
				continue
			}
			folds |= LeetEdge
		default:
			continue
		}
		for k := s; k < e; k++ {
			b[k] = leetMap[b[k]]
		}
		// A run of three or a separated spelling that a folded byte takes
		// part in starts at most five bytes before it.
		if first < 0 {
			for r := max(base, s-5); r < e; r++ {
				if changesAt(b, base, r) {
					first = r
					break
				}
			}
		}
	}
	return first, folds
}

// compact is the last pass, in place: it joins words spelled as single
// letters with separators and collapses runs of three or more of one letter.
// It returns the new length and what it folded (Stretched, Spelled,
// Initials).
func compact(b []byte, offs []int32, base, from int) (int, Folds) {
	end := len(b)
	// Fast scan for the first place that changes anything.
	r := from
	for ; r+2 < end; r++ {
		for r > base && r+10 <= end && !changeIn8(b[r-1:r+10]) {
			r += 8
		}
		if r+2 >= end {
			break
		}
		if changesAt(b, base, r) {
			break
		}
	}
	if r+2 >= end {
		return end, 0
	}
	var folds Folds
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
					if k == 3 {
						folds |= Initials
					} else {
						folds |= Spelled
					}
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
				folds |= Stretched
				continue
			}
		}
		b[w], offs[w] = c, offs[r]
		w++
		prev = c
		r++
	}
	return w, folds
}

// changesAt reports whether compact rewrites something starting at b[r]:
// a run of three of one letter, or a word spelled as single letters with
// separators.
func changesAt(b []byte, base, r int) bool {
	if r+2 >= len(b) {
		return false
	}
	c, c1 := b[r], b[r+1]
	if c1 != c && props[c1]&pSep == 0 || props[c]&pLetter == 0 {
		return false
	}
	if c1 == c {
		return b[r+2] == c
	}
	return (r == base || props[b[r-1]]&pWord == 0) && isSingle(b, r+2) &&
		r+4 < len(b) && props[b[r+3]]&pSep != 0 && isSingle(b, r+4)
}

// changeIn8 reports whether compact might change something starting at
// one of b[1:9] (b holds one byte before and two after): a letter that
// starts a run of three, or a letter standing alone (which every separated
// spelling starts with). Non-ASCII bytes count as non-word, so the answer
// errs towards true.
func changeIn8(b []byte) bool {
	b = b[:11]
	l := binary.LittleEndian.Uint64(b[0:])
	a := binary.LittleEndian.Uint64(b[1:])
	a1 := binary.LittleEndian.Uint64(b[2:])
	a2 := binary.LittleEndian.Uint64(b[3:])
	la := letters8(a)
	if zeroMask(a^a1)&zeroMask(a^a2)&la != 0 {
		return true
	}
	return la&^words8(l)&^words8(a1) != 0
}

// letters8 has the high bit of each byte of x that is a-z.
func letters8(x uint64) uint64 {
	y := x &^ high
	return (y + (0x80-'a')*ones) &^ (y + (0x80-'z'-1)*ones) &^ x & high
}

// words8 has the high bit of each byte of x that is an ASCII letter or
// digit (a subset of the word bytes).
func words8(x uint64) uint64 { return digits8(x) | letters8(x) }

// digits8 has the high bit of each byte of x that is 0-9.
func digits8(x uint64) uint64 {
	y := x &^ high
	return (y + (0x80-'0')*ones) &^ (y + (0x80-'9'-1)*ones) &^ x & high
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
