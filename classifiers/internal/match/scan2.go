package match

// twoMin is the least text length that AppendMatchesIn scans as two
// halves at once when it is too short for four chains (splitMin).
const twoMin = 48

// scan2 is scan over text[from:to] (from state s) as two chains at once:
// chain A over the first half from s, chain B over the second from the
// state after a boundary (or inside a word), one step of each in turn, so
// that each fills the other's wait for its table load. B finds every
// occurrence that starts in its half; A finds those that start in the
// first half, reading on past the middle only while its state stands for
// a prefix that started there (rarely more than a byte or two). Matches
// come out as scan's: in order of end offset, for one end longer
// patterns first.
//
// With open set, the occurrences are those that start in text[from:to],
// whatever their end (AppendStarting's): both chains read on past to as
// far as an occurrence that started before it can reach.
func (m *Matcher) scan2(dst []Match, text []byte, from, to int, s uint32, open bool) []Match {
	mid := from + (to-from)/2
	sA := s &^ matchFlag
	sB := m.start
	if m.word[text[mid-1]] {
		sB = 0
	}
	trans := m.trans
	class := &m.class
	tA := text[from:mid:mid]
	tB := text[mid:to:to][:len(tA)]
	base := len(dst)
	for i := 0; i < len(tA); i++ {
		sA = trans[sA+uint32(class[tA[i]])]
		sB = trans[sB+uint32(class[tB[i]])]
		if (sA|sB)&matchFlag == 0 {
			continue
		}
		if sA&matchFlag != 0 {
			sA &^= matchFlag
			dst = m.emit(dst, text, from+i+1, sA)
		}
		if sB&matchFlag != 0 {
			sB &^= matchFlag
			dst = m.emit(dst, text, mid+i+1, sB)
		}
	}
	dst, sB = m.scan(dst, text, mid+len(tA), to, sB)
	// A's matches end at or before mid, B's after it: a stable regrouping
	// puts them in order.
	dst = regroup2(dst, base, int32(mid))
	limit := to
	if open {
		dst = m.extend(dst, text, to, len(text), sB)
		limit = len(text)
	}
	// A reads on past mid for the occurrences that started before it.
	nb := len(dst)
	dst = m.extend(dst, text, mid, limit, sA)
	// Merge those into B's, by end; at one end A's started earlier, so
	// they are longer and go first.
	for k := nb; k < len(dst); k++ {
		mt := dst[k]
		j := k
		for j > base && dst[j-1].End >= mt.End && int(dst[j-1].End-m.lens[dst[j-1].Pattern]) >= mid {
			dst[j] = dst[j-1]
			j--
		}
		dst[j] = mt
	}
	return dst
}

// regroup2 sorts dst[base:] stably into the matches that end at or before
// mid and those after it.
func regroup2(dst []Match, base int, mid int32) []Match {
	sorted := true
	seenB := false
	for _, m := range dst[base:] {
		if m.End > mid {
			seenB = true
		} else if seenB {
			sorted = false
			break
		}
	}
	if sorted {
		return dst
	}
	n := len(dst)
	dst = append(dst, dst[base:n]...) // a copy to read from
	w := base
	for _, m := range dst[n:] {
		if m.End <= mid {
			dst[w] = m
			w++
		}
	}
	for _, m := range dst[n:] {
		if m.End > mid {
			dst[w] = m
			w++
		}
	}
	return dst[:n]
}
