package lexicon

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortEventsMatchesStableSort checks sortEvents against its
// definition: a stable sort of all events by eventLess, then exact
// duplicates dropped. The two parts are made the way buildEvents makes
// them (matches in order of their ends, so starts out of order where a
// long match holds a short one), sometimes shuffled so that the bounded
// insertion sort runs out of budget and falls back.
func TestSortEventsMatchesStableSort(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	part := func(n int, shuffle bool) []event {
		ev := make([]event, n)
		end := int32(0)
		for i := range ev {
			end += int32(r.IntN(4))
			l := int32(1 + r.IntN(12))
			ev[i] = event{info: int32(r.IntN(3)), ns: max(end-l, 0), ne: end, ts: int32(i)}
		}
		if shuffle {
			r.Shuffle(len(ev), func(i, j int) { ev[i], ev[j] = ev[j], ev[i] })
		}
		return ev
	}
	s := newScratch()
	fallbacks := 0
	for round := range 20000 {
		a := part(r.IntN(40), round%7 == 0)
		b := part(r.IntN(200), round%11 == 0)
		all := append(slices.Clone(a), b...)
		want := slices.Clone(all)
		slices.SortStableFunc(want, compareEvents)
		want = dropDuplicates(want)
		s.events = append(s.events[:0], all...)
		s.sortEvents(len(a))
		if !slices.Equal(s.events, want) {
			t.Fatalf("round %d (%d+%d events): sortEvents differs from a stable sort", round, len(a), len(b))
		}
		budget := 8*len(all) + 64
		if budget = insertionSort(slices.Clone(a), budget); budget < 0 || insertionSort(slices.Clone(b), budget) < 0 {
			fallbacks++
		}
	}
	if fallbacks == 0 {
		t.Error("no round ran out of insertion-sort budget: the fallback is untested")
	}
}

// dropDuplicates is the definition of sortEvents' duplicate rule on
// sorted events: an event equal in info and span to an earlier one with
// the same start is dropped.
func dropDuplicates(ev []event) []event {
	var out []event
	for _, e := range ev {
		if !slices.ContainsFunc(out, func(o event) bool { return o.ns == e.ns && o.ne == e.ne && o.info == e.info }) {
			out = append(out, e)
		}
	}
	return out
}
