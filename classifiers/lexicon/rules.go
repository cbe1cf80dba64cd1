package lexicon

import (
	"math/bits"

	"github.com/openrai/raiserver/classifiers"
)

// decide runs the suppressions and the finding rules over s.events and
// reports whether anything is found: a rule, or a term that is not
// suppressed. Rules are anchored on each event's classes, suppressions
// first, so a homonym in a safe context neither anchors a rule nor reports
// its term.
func (c *Classifier) decide(s *scratch) bool {
	s.found = s.found[:0]
	s.mods = s.mods[:0]
	for _, act := range [...]int{actSuppress, actFind} {
		c.runRules(s, act)
	}
	return len(s.found) > 0 || c.anyTerm(s)
}

func trailingZeros(x uint64) int { return bits.TrailingZeros64(x) }

// runRules tries every rule of action act anchored on each event.
func (c *Classifier) runRules(s *scratch, act int) {
	for ei := range s.events {
		ev := &s.events[ei]
		if ev.suppressed {
			continue
		}
		for _, ri := range c.infos[ev.info].rules[act] {
			c.tryRule(s, &c.rules[ri], ei)
			if ev.suppressed {
				break
			}
		}
	}
}

// anyTerm reports whether an unsuppressed event carries a lexicon term.
func (c *Classifier) anyTerm(s *scratch) bool {
	for i := range s.events {
		if !s.events[i].suppressed && len(c.infos[s.events[i].info].terms) > 0 {
			return true
		}
	}
	return false
}

// tryRule tries rule ru with its anchor slot on event ai and records what
// it does when it matches.
func (c *Classifier) tryRule(s *scratch, ru *rule, ai int) {
	a := &s.events[ai]
	in := &c.infos[a.info]
	if !in.m.meets(&ru.slots[ru.anchor].m) {
		return
	}
	s.stack = append(s.stack[:0], int32(ai))
	if !c.matchBack(s, ru, ru.anchor-1, ai, ai) {
		return
	}
	// s.stack holds the events of every slot, in slot order.
	evs := s.stack
	lo := &s.events[evs[0]]
	hi := &s.events[evs[len(evs)-1]]
	switch ru.act {
	case actSuppress:
		for j, si := range evs {
			if !ru.slots[j].target {
				continue
			}
			t := s.events[si]
			for k := int(si); k >= 0 && s.events[k].ts >= t.ts-8; k-- {
				if e := &s.events[k]; e.ts >= t.ts && e.te <= t.te {
					e.suppressed = true
				}
			}
			for k := int(si) + 1; k < len(s.events) && s.events[k].ts < t.te; k++ {
				if e := &s.events[k]; e.te <= t.te {
					e.suppressed = true
				}
			}
		}
		if ru.hold {
			c.find(s, ru, a, lo, hi)
		}
	case actModify:
		m := modifier{cats: ru.cats, delta: int8(ru.sev), reach: ru.reach,
			lo: lo.sent - int32(ru.scope), hi: hi.sent + int32(ru.scope)}
		for i := len(s.mods) - 1; i >= 0 && i >= len(s.mods)-16; i-- {
			if s.mods[i] == m {
				return
			}
		}
		s.mods = append(s.mods, m)
	case actFind:
		c.find(s, ru, a, lo, hi)
	}
}

// find records the findings of rule ru, anchored on event a, over the
// events lo … hi.
func (c *Classifier) find(s *scratch, ru *rule, a, lo, hi *event) {
	for k := classifiers.Category(0); k < classifiers.NumCategories; k++ {
		if !ru.cats.has(k) {
			continue
		}
		s.found = append(s.found, pending{cat: k, sev: int8(ru.sev), firm: ru.firm, tgt: ru.tgt,
			ns: lo.ns, ne: hi.ne, as: a.ns, ae: a.ne, sent: a.sent, rule: ru.id})
	}
}

// matchBack matches slots j, j-1, …, 0 before the event at index cur,
// then the slots after the anchor. On success s.stack holds one event per
// slot in slot order.
func (c *Classifier) matchBack(s *scratch, ru *rule, j int, cur, anchor int) bool {
	if j < 0 {
		// Reverse what was pushed (anchor first, then backwards) into slot
		// order, then go forward from the anchor.
		st := s.stack
		for l, r := 0, len(st)-1; l < r; l, r = l+1, r-1 {
			st[l], st[r] = st[r], st[l]
		}
		if c.matchFwd(s, ru, ru.anchor+1, anchor) {
			return true
		}
		// Undo the reversal so the caller's backtracking stays consistent.
		for l, r := 0, len(st)-1; l < r; l, r = l+1, r-1 {
			st[l], st[r] = st[r], st[l]
		}
		s.stack = st
		return false
	}
	ce := &s.events[cur]
	sl := &ru.slots[j+1] // gap between slot j and j+1 lives on slot j+1
	for k := cur - 1; k >= 0; k-- {
		e := &s.events[k]
		if e.sent != ce.sent {
			break
		}
		if e.te > ce.ts {
			continue
		}
		if ce.ts-e.te > int32(sl.gap) {
			// Events are sorted by start; an earlier start may still end
			// later only for multi-word keys, so keep scanning a little.
			if ce.ts-e.ts > int32(sl.gap)+8 {
				break
			}
			continue
		}
		if e.suppressed || !c.infos[e.info].m.meets(&ru.slots[j].m) {
			continue
		}
		s.stack = append(s.stack, int32(k))
		if c.matchBack(s, ru, j-1, k, anchor) {
			return true
		}
		s.stack = s.stack[:len(s.stack)-1]
	}
	return false
}

// matchFwd matches slots j, j+1, … after the event at index cur.
func (c *Classifier) matchFwd(s *scratch, ru *rule, j int, cur int) bool {
	if j >= len(ru.slots) {
		return true
	}
	ce := &s.events[cur]
	sl := &ru.slots[j]
	for k := cur + 1; k < len(s.events); k++ {
		e := &s.events[k]
		if e.sent != ce.sent || e.ts-ce.te > int32(sl.gap) {
			break
		}
		if e.ts < ce.te {
			continue
		}
		if e.suppressed || !c.infos[e.info].m.meets(&sl.m) {
			continue
		}
		s.stack = append(s.stack, int32(k))
		if c.matchFwd(s, ru, j+1, k) {
			return true
		}
		s.stack = s.stack[:len(s.stack)-1]
	}
	return false
}
