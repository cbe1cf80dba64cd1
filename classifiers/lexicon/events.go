package lexicon

import "slices"

// buildEvents turns matcher matches into events with token and sentence
// indices, sorted by start.
func (c *Classifier) buildEvents(s *scratch, text []byte) {
	s.events = s.events[:0]
	split := 0 // events before it come from trigger matches
	for i, m := range s.trig {
		if i == len(s.matches) {
			split = len(s.events)
		}
		pr := c.patOf(m)
		if !c.isEvent(pr, m, text, s.offs) {
			continue
		}
		ns := int(m.End - pr.n)
		s.events = append(s.events, event{info: pr.info, ns: int32(ns), ne: m.End})
	}
	if len(s.trig) == len(s.matches) {
		split = len(s.events)
	}
	s.sortEvents(split)
	// Token and sentence indices.
	w := &s.w
	for i := range s.events {
		ev := &s.events[i]
		w.walk(s.norm, int(ev.ns))
		ev.ts = w.tok
		ev.te = w.tok + c.infos[ev.info].words
		ev.sent = w.sent
	}
	// Compound events: class A directly followed by class B. Compounds
	// whose A class no event holds are skipped (bit k of info.compA: the
	// key is in compound k's class A; all bits set past 64 compounds).
	// The events in some class A are listed once (s.stack, by index) and
	// again after a compound adds events.
	var have uint64
	s.stack = s.stack[:0]
	for i := range s.events {
		if a := c.infos[s.events[i].info].compA; a != 0 {
			have |= a
			s.stack = append(s.stack, int32(i))
		}
	}
	for k, cp := range c.compounds {
		if k < 64 && have&(1<<k) == 0 {
			continue
		}
		s.tmp = s.tmp[:0]
		for _, i := range s.stack {
			i := int(i)
			e1 := &s.events[i]
			if !c.infos[e1.info].m.has(cp.a) {
				continue
			}
			for j := i + 1; j < len(s.events); j++ {
				e2 := &s.events[j]
				if e2.ts > e1.te {
					break
				}
				if e2.ts == e1.te && e2.sent == e1.sent && c.infos[e2.info].m.has(cp.b) {
					s.tmp = append(s.tmp, event{info: cp.info, ns: e1.ns, ne: e2.ne, ts: e1.ts, te: e2.te, sent: e1.sent})
				}
			}
		}
		if len(s.tmp) == 0 {
			continue
		}
		for _, ev := range s.tmp {
			s.insert(ev)
		}
		have |= c.infos[cp.info].compA
		s.stack = s.stack[:0]
		for i := range s.events {
			if c.infos[s.events[i].info].compA != 0 {
				s.stack = append(s.stack, int32(i))
			}
		}
	}
}

// sortEvents orders s.events as inserting them one by one would (see
// insert): by start, longest first on ties, equal spans in their order,
// and a later exact duplicate dropped. The events before split and those
// after it each come from matches in order of their ends, so each part is
// out of order only where a longer match ends after a shorter one it
// holds: a bounded insertion sort of each and one merge put them in
// order, as a stable sort of the whole would (which is the fallback when
// the parts are further out of order than that).
func (s *scratch) sortEvents(split int) {
	ev := s.events
	a, b := ev[:split], ev[split:]
	budget := 8*len(ev) + 64
	if budget = insertionSort(a, budget); budget >= 0 {
		budget = insertionSort(b, budget)
	}
	switch {
	case budget < 0:
		slices.SortStableFunc(ev, compareEvents)
	case len(a) > 0 && len(b) > 0 && eventLess(&b[0], &a[len(a)-1]):
		// Merge through s.tmp, the first part first on ties.
		m := append(s.tmp[:0], a...)
		i, j, k := 0, split, 0
		for i < len(m) && j < len(ev) {
			if eventLess(&ev[j], &m[i]) {
				ev[k] = ev[j]
				j++
			} else {
				ev[k] = m[i]
				i++
			}
			k++
		}
		copy(ev[k:], m[i:])
		s.tmp = m
	}
	w := 0
	for i := range ev {
		dup := false
		for k := w - 1; k >= 0 && ev[k].ns == ev[i].ns; k-- {
			if ev[k].info == ev[i].info && ev[k].ne == ev[i].ne {
				dup = true
				break
			}
		}
		if !dup {
			ev[w] = ev[i]
			w++
		}
	}
	s.events = ev[:w]
}

// eventLess orders events by start, longer first.
func eventLess(a, b *event) bool { return a.ns < b.ns || a.ns == b.ns && a.ne > b.ne }

// compareEvents is eventLess as a comparison function.
func compareEvents(a, b event) int {
	switch {
	case eventLess(&a, &b):
		return -1
	case eventLess(&b, &a):
		return 1
	}
	return 0
}

// insertionSort sorts ev by eventLess, stably, moving an event by at most
// budget places in all, and returns the budget left, or -1 when it ran out
// (ev is then in some order, each equal run still in its first order).
func insertionSort(ev []event, budget int) int {
	for i := 1; i < len(ev); i++ {
		if !eventLess(&ev[i], &ev[i-1]) {
			continue
		}
		e := ev[i]
		j := i
		for j > 0 && eventLess(&e, &ev[j-1]) {
			ev[j] = ev[j-1]
			j--
		}
		ev[j] = e
		if budget -= i - j; budget < 0 {
			return -1
		}
	}
	return budget
}

// insert adds ev keeping events sorted by start (longest first on ties) and
// drops an exact duplicate (the same key found twice by the i/l rescans).
func (s *scratch) insert(ev event) {
	i := len(s.events)
	for i > 0 && (s.events[i-1].ns > ev.ns || s.events[i-1].ns == ev.ns && s.events[i-1].ne < ev.ne) {
		i--
	}
	for k := i - 1; k >= 0 && s.events[k].ns == ev.ns; k-- {
		if s.events[k].info == ev.info && s.events[k].ne == ev.ne {
			return
		}
	}
	s.events = append(s.events, event{})
	copy(s.events[i+1:], s.events[i:])
	s.events[i] = ev
}
