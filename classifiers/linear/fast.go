package linear

import (
	"encoding/binary"
	"math/bits"
)

// The fast path of Scores for the shipped feature set (4-gram edges, words,
// bigrams; see Features.Long) on plain ASCII text: one SWAR pass lowercases
// the text and rules out what NormV1 would rewrite byte by byte (non-ASCII,
// controls, leetspeak), then one pass over the words appends the features
// and rules out what it would rewrite word by word (stretched letters,
// letter-spaced words). When either pass says no, Scores normalizes and
// featurizes the ordinary way. TestFastFeaturesMatchNormV1 checks that
// whenever the fast path answers, its features are those of the normalized
// text.

const (
	ones8 = 0x0101010101010101
	high8 = 0x8080808080808080
)

// inRange has the top bit of each byte of y (7-bit values) set when the
// byte is in [lo, hi].
func inRange(y uint64, lo, hi byte) uint64 {
	return (y + (0x80-uint64(lo))*ones8) &^ (y + (0x80-uint64(hi)-1)*ones8) & high8
}

// fastPath reports whether f is the feature set appendPlain implements.
func (f Features) fastPath() bool {
	return f.Bits == 16 && f.MinN == 4 && f.MaxN == 4 && f.Words && f.Bigrams && f.Long >= 6
}

// lowerPlain appends src lowercased to dst and reports false when src holds
// a byte NormV1 may rewrite or drop: a non-ASCII byte, a control character
// other than whitespace, a digit or one of @ $ | next to a letter, or a '!'
// before a letter or digit. It reads eight bytes at a time.
func lowerPlain(dst, src []byte) ([]byte, bool) {
	base := len(dst)
	n := len(src)
	if cap(dst)-base < n {
		dst = append(dst[:cap(dst)], make([]byte, base+n-cap(dst))...)
	}
	dst = dst[:base+n]
	out := dst[base:]
	i := 0
	for ; i+9 <= n; i += 8 {
		x0 := binary.LittleEndian.Uint64(src[i:])
		if x0&high8 != 0 {
			return dst, false
		}
		up0 := inRange(x0, 'A', 'Z')
		// Most chunks hold none of the bytes the rules are about:
		// controls and whitespace other than ' ', digits, ! $ @ | DEL.
		sus := inRange(x0, 0, 0x1f) | inRange(x0, '0', '9') | inRange(x0, '!', '!') | inRange(x0, '$', '$') |
			inRange(x0, '@', '@') | inRange(x0, '|', '|') | inRange(x0, 0x7f, 0x7f)
		if sus != 0 {
			// Lanes: x0 = src[i:i+8], x1 = the byte after each lane,
			// letm = whether the byte before each lane is a letter.
			x1 := binary.LittleEndian.Uint64(src[i+1:])
			if x1&high8 != 0 {
				return dst, false
			}
			let0 := up0 | inRange(x0, 'a', 'z')
			let1 := inRange(x1, 'A', 'Z') | inRange(x1, 'a', 'z')
			letm := let0 << 8
			if i > 0 && plainClass[src[i-1]] == pcLetter {
				letm |= 0x80
			}
			bad := inRange(x0, 0, 8) | inRange(x0, 14, 31) | inRange(x0, 0x7f, 0x7f)
			leet := inRange(x0, '0', '9') | inRange(x0, '@', '@') | inRange(x0, '$', '$') | inRange(x0, '|', '|')
			bad |= leet & (letm | let1)
			bad |= inRange(x0, '!', '!') & (let1 | inRange(x1, '0', '9'))
			if bad != 0 {
				return dst, false
			}
		}
		binary.LittleEndian.PutUint64(out[i:], x0|up0>>2)
	}
	// The tail, byte by byte, with the same rules.
	for ; i < n; i++ {
		c := src[i]
		k := plainClass[c]
		var prev, next uint8 = pcSpace, pcSpace
		if i > 0 {
			prev = plainClass[src[i-1]]
		}
		if i+1 < n {
			next = plainClass[src[i+1]]
		}
		switch k {
		case pcBad:
			return dst, false
		case pcDigit, pcLeet:
			if prev == pcLetter || next == pcLetter {
				return dst, false
			}
		case pcBang:
			if next == pcLetter || next == pcDigit {
				return dst, false
			}
		case pcLetter:
			c |= 0x20
		}
		out[i] = c
	}
	return dst, true
}

// appendPlain appends the features of s, lower-case ASCII text (from
// lowerPlain, or normalized text for ScoresNormalized), for
// the fast-path feature set, and reports false (with dst in an unspecified
// state past its length) when NormV1 would rewrite a word of s: a letter
// three times in a row, or three or more single letters each separated by
// one separator or by whitespace ("k i l l", "k.i.l.l").
func (f Features) appendPlain(dst []uint32, s []byte) ([]uint32, bool) {
	// At most one feature per byte plus two: a word of L bytes gives at
	// most L+1 (L-1 n-grams, word, bigram) and is followed by a
	// separator, except the last.
	base := len(dst)
	bound := len(s) + 2
	if cap(dst)-base < bound {
		dst = append(dst[:cap(dst)], make([]uint32, base+bound-cap(dst))...)
	}
	st := plainState{out: dst[base : base+bound], long: int(f.Long), lastEnd: -2}
	next := 0
	for blk := 0; blk < len(s); blk += 64 {
		if next >= blk+64 {
			continue
		}
		var m uint64
		if blk+64 <= len(s) {
			b := s[blk : blk+64 : blk+64]
			for k := 0; k < 64; k += 8 {
				m |= wordMask8(binary.LittleEndian.Uint64(b[k:])) << uint(k)
			}
		} else {
			for k, c := range s[blk:] {
				m |= uint64(wordBit[c]) << (uint(k) & 63)
			}
		}
		if next > blk {
			m &^= 1<<uint(next-blk) - 1
		}
		for m != 0 {
			b := bits.TrailingZeros64(m)
			start := blk + b
			run := bits.TrailingZeros64(^(m >> uint(b)))
			m &^= 1<<uint(b+run) - 1
			end := start + run
			if b+run == 64 {
				for end < len(s) && isWordByte[s[end]] {
					end++
				}
				next = end
			}
			if !st.word(s, start, end) {
				return dst, false
			}
		}
	}
	return dst[:base+st.j], true
}

// plainState is appendPlain's state between words.
type plainState struct {
	out     []uint32
	j       int
	long    int
	prev    uint64 // hash of the previous word
	hasPrev bool
	chain   int // single letters joined so far
	lastEnd int // end of the last single letter
}

// word appends the features of the word s[start:end] and reports false
// when NormV1 would rewrite it.
func (st *plainState) word(s []byte, start, end int) bool {
	const seed4 = 0x7c4a5e1b8f3d9a61 // seedGram[4]
	const mask4 = 1<<32 - 1
	L := end - start
	const shift = 64 - 16 // fastPath: Bits == 16
	out := st.out
	j := st.j
	var h uint64
	if L <= 6 {
		var x uint64
		if start+8 <= len(s) {
			x = binary.BigEndian.Uint64(s[start:]) >> (64 - 8*uint(L))
		} else {
			for _, c := range s[start:end] {
				x = x<<8 | uint64(c)
			}
		}
		if L >= 3 {
			// A byte equal to the next two: the low L-2 lanes of the
			// comparison hold the triples inside the word.
			e := (x ^ x>>8) | (x ^ x>>16)
			z := (e - ones8) &^ e & high8 // lanes where e is 0 (exact up to the first)
			if z&(1<<(8*uint(L-2))-1) != 0 {
				return false
			}
		}
		lead := ' '<<(8*uint(L)) | x
		h = ((seedWord^lead)*prime64 ^ uint64(L)) * prime64
		v := lead<<8 | ' '
		if L >= 2 {
			out[j] = uint32((v&mask4 ^ seed4) * mix64 >> shift)
			j++
		}
		if L >= 3 {
			out[j] = uint32((v>>(8*uint(L-2))&mask4 ^ seed4) * mix64 >> shift)
			j++
		}
		if L == 1 {
			if st.chain > 0 && chainGap(s[st.lastEnd:start]) {
				st.chain++
				if st.chain >= 3 {
					return false
				}
			} else {
				st.chain = 1
			}
			st.lastEnd = end
		} else {
			st.chain = 0
		}
	} else {
		w := s[start:end]
		for k := 2; k < L; k++ {
			if w[k] == w[k-1] && w[k] == w[k-2] {
				return false
			}
		}
		if L <= st.long {
			j = appendEdgeGrams(out, j, w, 4, 4, shift)
		} else {
			j = appendGrams(out, j, w, 4, 4, shift)
		}
		h = wordHash(w)
		st.chain = 0
	}
	out[j] = uint32((h ^ seedWord) * mix64 >> shift)
	j++
	if st.hasPrev {
		out[j] = uint32(((st.prev * prime64) ^ h ^ seedBigram) * mix64 >> shift)
		j++
	}
	st.prev, st.hasPrev, st.j = h, true, j
	return true
}
