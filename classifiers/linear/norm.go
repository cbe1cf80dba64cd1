package linear

import (
	"encoding/binary"

	"github.com/openrai/raiserver/classifiers/internal/normalize"
)

// normalizer applies the text normalization a model was trained with.
type normalizer struct {
	kind Normalization
	n    *normalize.Normalizer // for NormV1
}

func newNormalizer(k Normalization) normalizer {
	n := normalizer{kind: k}
	if k == NormV1 {
		n.n = normalize.New()
	}
	return n
}

// Append appends the text normalized by n to dst. It is what a model with
// this normalization sees before featurization.
func (n Normalization) Append(dst, src []byte) []byte {
	dst, _ = newNormalizer(n).append(dst, nil, src)
	return dst
}

// append appends the normalized text to dst; offs is scratch for the
// normalizer's offset map, which the linear model does not need.
func (n normalizer) append(dst []byte, offs []int32, src []byte) ([]byte, []int32) {
	if n.kind == NormV1 {
		base := len(dst)
		dst, offs = n.n.Append(dst, offs, src)
		foldDigits(dst[base:])
		return dst, offs
	}
	return asciiLower(dst, src), offs
}

// asciiLower appends src to dst with ASCII letters lowercased.
func asciiLower(dst, src []byte) []byte {
	for _, c := range src {
		if c-'A' < 26 {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// leetDigit maps the digits that stand for letters to those letters.
var leetDigit = [256]byte{'0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't'}

// foldDigits rewrites, in place, the leet digits of every run of ASCII
// letters and digits that holds at least one letter ("th1s" → "this",
// "71me" → "time"); runs of digits alone ("2024") are kept. It completes
// classifiers/internal/normalize, which keeps some digits (notably 1, read as i or
// l) for matchers to interpret; a hashed feature needs one spelling.
func foldDigits(b []byte) {
	for i := 0; i < len(b); i++ {
		// Skip eight bytes at a time while they hold no ASCII digit.
		for i+8 <= len(b) && !hasDigit8(binary.LittleEndian.Uint64(b[i:])) {
			i += 8
		}
		if i >= len(b) || b[i]-'0' >= 10 {
			continue
		}
		// A digit: find its run and whether the run has a letter.
		s, e := i, i
		for s > 0 && isAlnum(b[s-1]) {
			s--
		}
		letter := false
		for e < len(b) && isAlnum(b[e]) {
			letter = letter || b[e]-'a' < 26
			e++
		}
		letter = letter || hasLetter(b[s:i])
		if letter {
			for k := s; k < e; k++ {
				if d := leetDigit[b[k]]; d != 0 {
					b[k] = d
				}
			}
		}
		i = e
	}
}

// hasDigit8 reports whether any byte of x is an ASCII digit.
func hasDigit8(x uint64) bool { return digits8(x) != 0 }

// digits8 has the high bit of each byte of x that is an ASCII digit.
func digits8(x uint64) uint64 {
	y := x &^ high8
	return (y + (0x80-'0')*ones8) &^ (y + (0x80-'9'-1)*ones8) &^ x & high8
}

func isAlnum(c byte) bool { return c-'a' < 26 || c-'0' < 10 }

func hasLetter(b []byte) bool {
	for _, c := range b {
		if c-'a' < 26 {
			return true
		}
	}
	return false
}

// isChainSep marks the bytes that, alone between two single letters, may
// join them ("k.i.l.l"): classifiers/internal/normalize's separators and whitespace.
var isChainSep = func() (t [256]bool) {
	for _, c := range " .-_*~/+=,:\t\n\r\v\f" {
		t[c] = true
	}
	return t
}()

// chainGap reports whether gap, the bytes between two single letters, may
// join them: one separator, or a run of whitespace.
func chainGap(gap []byte) bool {
	if len(gap) == 1 {
		return isChainSep[gap[0]]
	}
	for _, c := range gap {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\v' && c != '\f' {
			return false
		}
	}
	return len(gap) > 0
}
