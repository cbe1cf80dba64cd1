package lexicon

import (
	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/internal/normalize"
)

// report appends the findings of s to dst: those of the rules (s.found)
// and the lone terms of the events that are not suppressed, lowered by the
// context modifiers (s.mods), with spans in the original text.
func (c *Classifier) report(s *scratch, dst []classifiers.Finding) []classifiers.Finding {
	// Lone terms.
	for ei := range s.events {
		ev := &s.events[ei]
		if ev.suppressed {
			continue
		}
		in := &c.infos[ev.info]
		ne := ev.ne
		if in.prefix {
			for int(ne) < len(s.norm) && normalize.IsWordByte(s.norm[ne]) {
				ne++
			}
		}
		for _, ti := range in.terms {
			t := &c.terms[ti]
			s.found = append(s.found, pending{cat: t.cat, sev: int8(t.sev), firm: t.firm, slur: t.slur,
				ns: ev.ns, ne: ne, sent: ev.sent, rule: t.id})
		}
	}
	// Context modifiers, then report.
	for i := range s.found {
		f := &s.found[i]
		if !c.cats.has(f.cat) {
			continue
		}
		sev := f.sev
		var low int8
		for j := range s.mods {
			m := &s.mods[j]
			if m.cats.has(f.cat) && f.firm <= m.reach && f.sent >= m.lo && f.sent <= m.hi && m.delta < low {
				low = m.delta
			}
		}
		if low < 0 {
			sev += low
			if sev < 1 {
				sev = 1
			}
		}
		start, end := normalize.Span(s.offs, int(f.ns), int(f.ne))
		if dup(dst, f, sev, start) {
			continue
		}
		dst = append(dst, classifiers.Finding{Category: f.cat, Severity: uint8(sev), Start: start, End: end, Rule: f.rule})
	}
	return dst
}

// dup reports whether f is already in dst with the same rule (the same rule
// firing from two anchors of one match).
func dup(dst []classifiers.Finding, f *pending, sev int8, start int) bool {
	for i := len(dst) - 1; i >= 0 && i >= len(dst)-8; i-- {
		if dst[i].Start == start && dst[i].Rule == f.rule && dst[i].Category == f.cat && dst[i].Severity == uint8(sev) {
			return true
		}
	}
	return false
}
