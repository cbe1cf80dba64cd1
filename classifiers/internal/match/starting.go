package match

// Span is the byte range [From, To) of a text.
type Span struct{ From, To int32 }

// AppendStarting appends the occurrences in text that start in one of
// spans, whole (an occurrence may end past its span), and returns the
// extended slice: span by span, each span's in the order of
// AppendMatches. The spans must be in order: each within text, From <=
// To, and not before the end of the one before. Word boundaries are
// checked against the bytes around each occurrence, as AppendMatches of
// the whole text would check them.
//
// A span is scanned from its first byte in the state after a boundary (or
// inside a word), as by AppendMatchesIn, and past its last byte only while
// the state stands for a pattern prefix that started in the span: after
// the end of a sentence, rarely more than a byte, where reading the
// longest pattern's length on would find the same occurrences. Spans are
// scanned one after the other, a span of twoMin bytes or more as two
// halves at once (scan2); four chains at once, over consecutive shares of
// the spans' bytes, measured slower on sentence spans (bench/classify,
// ASCIIVaried2K: 8%), since the shares must be joined and regrouped.
func (m *Matcher) AppendStarting(dst []Match, text []byte, spans []Span) []Match {
	prev := int32(0)
	for _, sp := range spans {
		if sp.From < prev || sp.From > sp.To || int(sp.To) > len(text) {
			panic("match: AppendStarting spans out of order or out of bounds")
		}
		prev = sp.To
	}
	for _, sp := range spans {
		from, to := int(sp.From), int(sp.To)
		s := m.start
		if from > 0 && m.word[text[from-1]] {
			s = 0 // the root inside a word
		}
		if to-from >= twoMin {
			dst = m.scan2(dst, text, from, to, s, true)
			continue
		}
		dst, s = m.scan(dst, text, from, to, s)
		dst = m.extend(dst, text, to, len(text), s)
	}
	return dst
}

// extend goes on with a scan in state s at to, past the end of a span, for
// as long as an occurrence that starts before to can still be in progress
// (the state's prefix reaches back past to), and appends those that end
// there, at or before limit.
func (m *Matcher) extend(dst []Match, text []byte, to, limit int, s uint32) []Match {
	for i := to; i < limit && int(m.depth[s/m.nclass]) > i-to; {
		s = m.trans[s+uint32(m.class[text[i]])]
		i++
		if s&matchFlag == 0 {
			continue
		}
		s &^= matchFlag
		n := len(dst)
		dst = m.emit(dst, text, i, s)
		w := n
		for _, mt := range dst[n:] {
			if int(mt.End-m.lens[mt.Pattern]) < to {
				dst[w] = mt
				w++
			}
		}
		dst = dst[:w]
	}
	return dst
}
