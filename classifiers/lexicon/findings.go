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
	yield(s.found)
	// Context modifiers, then report.
	for i := range s.found {
		f := &s.found[i]
		if !c.cats.has(f.cat) || f.sev <= 0 {
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

// yield drops the findings that read one harm word as aimed at the wrong
// person, when two rules of different categories are anchored on
// overlapping words of one sentence:
//
//   - a SELF_HARM finding of a rule that names no target ("how … lethal",
//     "should … die") yields to a rule that names another target (flag
//     other: "best way to kill someone", "all of them should die"): harm
//     aimed at someone else is violence or hate, not self-harm;
//   - a finding of a rule that names another target yields to a SELF_HARM
//     rule that names the speaker (flag self: "shoot myself with my dad's
//     gun"): the reflexive is the object of the verb, the person after it
//     is not.
//
// A dropped finding gets severity 0. Lone terms (no anchor) never yield.
func yield(found []pending) {
	if len(found) < 2 {
		return
	}
	for i := range found {
		f := &found[i]
		if f.ae == 0 || f.tgt == tgtSelf {
			continue
		}
		for j := range found {
			g := &found[j]
			if g.ae == 0 || g.cat == f.cat || g.sent != f.sent || g.as >= f.ae || f.as >= g.ae {
				continue
			}
			if f.cat == classifiers.SelfHarm && f.tgt == 0 && g.tgt == tgtOther ||
				f.tgt == tgtOther && g.cat == classifiers.SelfHarm && g.tgt == tgtSelf {
				f.sev = 0
				break
			}
		}
	}
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
