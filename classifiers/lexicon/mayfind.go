package lexicon

import "slices"

// mayFind reports whether the matches in s.trig, those of the trigger
// words and of the context words in their sentences (s.own), can make a
// finding, as decide would tell after buildEvents: false only when none
// can, which is the usual answer for everyday text, whose trigger words
// are homonyms ("take", "child", "hang") that no rule completes. It does
// not build events. A trigger's lexicon term is reported unless it is
// suppressed, which it always is inside an idiom (a key a one-slot rule
// suppresses, such as "be hard on": whatever suppresses the idiom
// suppresses the words inside it too); that is checked first, as a term
// elsewhere ends the search at once. Then each sentence is read as a set
// of classes: a finding rule anchored on a trigger needs a word of each of
// its other slots in the anchor's sentence. Compound events are counted in
// a sentence that holds both their classes, in any order; a compound that
// can lead to a finding on its own (none in the embedded rules) turns the
// shortcut off.
func (c *Classifier) mayFind(s *scratch, text []byte) bool {
	if c.compoundTrigger {
		return true
	}
	trig := s.trig[:len(s.matches)]
	s.idioms = s.idioms[:0]
	for i, m := range s.trig {
		if pr := c.patOf(m); pr.kind&keyIdiom != 0 && c.isEvent(pr, m, text, s.offs) {
			s.idioms = append(s.idioms, int32(i))
		}
	}
	for _, m := range trig {
		pr := &c.tpats[-1-m.Pattern]
		if pr.kind&keyTerm != 0 && c.isEvent(pr, m, text, s.offs) && !c.inIdiom(s, m.End-pr.n, &c.infos[pr.info]) {
			return true
		}
	}
	// The classes of each sentence.
	own := s.own
	ms := slices.Grow(s.masks[:0], len(own))[:len(own)]
	clear(ms)
	s.masks = ms
	j := 0
	for _, m := range s.trig {
		pr := c.patOf(m)
		ns := m.End - pr.n
		if j = sentenceOf(own, ns, j); j < 0 {
			j = 0
			continue
		}
		if c.isEvent(pr, m, text, s.offs) {
			ms[j].or(&c.infos[pr.info].m)
		}
	}
	for j := range ms {
		for _, cp := range c.compounds {
			if ms[j].has(cp.a) && ms[j].has(cp.b) {
				ms[j].or(&c.infos[cp.info].m)
			}
		}
	}
	j = 0
	for _, m := range trig {
		pr := &c.tpats[-1-m.Pattern]
		if pr.kind&keyAnchor == 0 {
			continue
		}
		ns := m.End - pr.n
		if j = sentenceOf(own, ns, j); j < 0 {
			j = 0
			continue
		}
		if c.isEvent(pr, m, text, s.offs) && c.mayAnchor(&c.infos[pr.info], &ms[j]) {
			return true
		}
	}
	return false
}

// mayAnchor reports whether a finding rule or a hold rule anchored on key
// in can match in a sentence with the classes of m: each of its other
// slots meets m.
func (c *Classifier) mayAnchor(in *info, m *mask) bool {
	for _, act := range [...]int{actFind, actSuppress} {
		if act == actSuppress && !in.hold {
			break // no hold rule here: the suppressions cannot make a finding
		}
		for _, ri := range in.rules[act] {
			ru := &c.rules[ri]
			if act == actSuppress && !ru.hold {
				continue
			}
			ok := true
			for k := range ru.slots {
				if k != ru.anchor && !ru.slots[k].m.meets(m) {
					ok = false
					break
				}
			}
			if ok {
				return true
			}
		}
	}
	return false
}

// inIdiom reports whether the event of key in at normalized byte ns lies
// inside the event of an idiom (s.idioms) that starts at or before it: its
// tokens within the idiom's, which is what a suppression reaches.
func (c *Classifier) inIdiom(s *scratch, ns int32, in *info) bool {
	if len(s.idioms) == 0 {
		return false
	}
	w := &s.w
	w.walk(s.norm, int(ns))
	ts := w.tok
	te := ts + in.words
	for _, i := range s.idioms {
		m := s.trig[i]
		pr := c.patOf(m)
		ins := m.End - pr.n
		if ins > ns {
			continue
		}
		w.walk(s.norm, int(ins))
		its := w.tok
		ite := its + c.infos[pr.info].words
		if its <= ts && te <= ite && ts < ite {
			return true
		}
	}
	return false
}
