package lexicon

import (
	"bytes"

	"github.com/openrai/raiserver/classifiers/internal/match"
)

// stretchOK reports whether every normalized byte ns+j with bit j set in
// stretch came from a stretched run of the source.
func stretchOK(stretch uint64, text []byte, offs []int32, ns int) bool {
	for b := stretch; b != 0; b &= b - 1 {
		if !stretched(text, offs, ns+trailingZeros(b)) {
			return false
		}
	}
	return true
}

// anyTrigger reports whether a trigger match makes an event: a match of a
// single-letter variant ("of" for "off") whose letter did not come from a
// stretched run makes none. Without such a match there is no finding, and
// on ordinary English those false triggers were most of the lexicon's work.
func (c *Classifier) anyTrigger(ms []match.Match, text []byte, offs []int32) bool {
	for _, m := range ms {
		if c.makesEvent(&m, text, offs) {
			return true
		}
	}
	return false
}

// makesEvent reports whether trigger match m makes an event (see
// anyTrigger).
func (c *Classifier) makesEvent(m *match.Match, text []byte, offs []int32) bool {
	return c.isEvent(&c.tpats[m.Pattern], *m, text, offs)
}

// readings notes whether s.norm holds a leet '1' and, if so, makes its i
// and l readings.
func (s *scratch) readings() {
	s.leet = hasLeetOne(s.norm)
	if !s.leet {
		return
	}
	reading := func(dst []byte, r byte) []byte {
		dst = append(dst[:0], s.norm...)
		for i, ch := range dst {
			if ch == '1' && leetOne(s.norm, i) {
				dst[i] = r
			}
		}
		return dst
	}
	s.altI, s.altL = reading(s.altI, 'i'), reading(s.altL, 'l')
}

// scanAll appends the matches of m in s.norm and in its i and l readings
// of the leet '1'.
func (s *scratch) scanAll(m *match.Matcher, dst []match.Match) []match.Match {
	dst = m.AppendMatches(dst, s.norm)
	if s.leet {
		dst = m.AppendMatches(dst, s.altI)
		dst = m.AppendMatches(dst, s.altL)
	}
	return dst
}

// scanSpans appends the context-word matches that start in the sentences
// of spans (in order) to dst: those of s.norm and of its i and l readings
// of the leet '1'. The readings' matches come after all of s.norm's, which
// keeps the order of any two with the same span, the only order
// buildEvents keeps.
func (c *Classifier) scanSpans(s *scratch, dst []match.Match, spans []span) []match.Match {
	dst = c.cm.AppendStarting(dst, s.norm, spans)
	if s.leet {
		dst = c.cm.AppendStarting(dst, s.altI, spans)
		dst = c.cm.AppendStarting(dst, s.altL, spans)
	}
	return dst
}

// leetOne reports whether the '1' at t[i] touches a letter, that is, stands
// for a letter in a word ("k1ll").
func leetOne(t []byte, i int) bool {
	return i > 0 && t[i-1] >= 'a' && t[i-1] <= 'z' || i+1 < len(t) && t[i+1] >= 'a' && t[i+1] <= 'z'
}

func hasLeetOne(t []byte) bool {
	for i := 0; ; i++ {
		k := bytes.IndexByte(t[i:], '1')
		if k < 0 {
			return false
		}
		if i += k; leetOne(t, i) {
			return true
		}
	}
}

// isEvent reports whether match m of pattern pr makes an event (see
// stretchOK).
func (c *Classifier) isEvent(pr *patRec, m match.Match, text []byte, offs []int32) bool {
	return pr.stretch == 0 || stretchOK(pr.stretch, text, offs, int(m.End-pr.n))
}

// patOf returns the patRec of a match of s.trig.
func (c *Classifier) patOf(m match.Match) *patRec {
	if m.Pattern < 0 {
		return &c.tpats[-1-m.Pattern]
	}
	return &c.cpats[m.Pattern]
}
