package segmenter_test

import "unicode/utf8"

// This file states the boundary rules a second time, slowly and plainly, for
// the whole text at once: decode all runes, list every candidate boundary,
// take the smallest, apply the cap. The fast Segmenter must agree with it.

func refIsTerminator(r rune) bool { return r == '.' || r == '!' || r == '?' || r == '…' }

func refIsCloser(r rune) bool {
	return r == '"' || r == '\'' || r == ')' || r == ']' || r == '”' || r == '’' || r == '»'
}

func refIsCJKTerminator(r rune) bool { return r == '。' || r == '！' || r == '？' }

func refIsBreak(r rune) bool { return r == '\r' || r == '\n' }

// refIsSpace reports an ASCII whitespace byte other than a line break.
func refIsSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\v' || r == '\f' }

// refSegments returns the segments of the finished text text.
func refSegments(text []byte, maxBytes int) [][2]int { return refSegmentsMin(text, 0, maxBytes) }

// refSegmentsMin returns the segments of the finished text text when a
// natural boundary less than minBytes into a segment does not count.
func refSegmentsMin(text []byte, minBytes, maxBytes int) [][2]int {
	var out [][2]int
	for start := 0; start < len(text); {
		n := refFirst(text[start:], minBytes, maxBytes)
		out = append(out, [2]int{start, start + n})
		start += n
	}
	return out
}

type refRune struct {
	start, size int
	r           rune // utf8.RuneError for an invalid byte
}

// refFirst returns the length of the first segment of rest, the remainder
// of a finished text: its first natural boundary at least minBytes into
// it, else the cap's cut, else all of it.
func refFirst(rest []byte, minBytes, maxBytes int) int {
	var runes []refRune
	for i := 0; i < len(rest); {
		r, size := utf8.DecodeRune(rest[i:])
		if r == utf8.RuneError && size == 1 {
			r = -1 // an invalid byte: never matches a rule
		}
		runes = append(runes, refRune{i, size, r})
		i += size
	}
	end := func(k int) int { // offset where rune k starts, or len(rest)
		if k < len(runes) {
			return runes[k].start
		}
		return len(rest)
	}

	// Natural boundaries.
	first := -1
	for k, ru := range runes {
		b := -1
		switch {
		case refIsCJKTerminator(ru.r):
			b = ru.start + ru.size
		case refIsTerminator(ru.r):
			j := k + 1
			for j < len(runes) && (refIsTerminator(runes[j].r) || refIsCloser(runes[j].r)) {
				j++
			}
			if j < len(runes) && refIsSpace(runes[j].r) {
				b = runes[j].start + 1
			}
		case refIsBreak(ru.r):
			j := k
			for j < len(runes) && refIsBreak(runes[j].r) {
				j++
			}
			b = end(j)
		}
		if b >= minBytes && (first < 0 || b < first) {
			first = b
		}
	}

	if len(rest) < maxBytes {
		if first < 0 {
			return len(rest) // end of text
		}
		return first
	}
	if first >= 0 && first <= maxBytes {
		return first
	}

	// The cap: after the last whitespace byte in the window...
	window := rest[:maxBytes]
	for k := len(window) - 1; k >= 0; k-- {
		if r := rune(window[k]); refIsSpace(r) || refIsBreak(r) {
			return k + 1
		}
	}
	// ...else after the last rune that is complete inside the window.
	i := 0
	for i < len(window) && utf8.FullRune(window[i:]) {
		_, size := utf8.DecodeRune(window[i:])
		i += size
	}
	return i
}
