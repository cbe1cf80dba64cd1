package match

// steps4 runs the four chains of AppendMatchesIn over t: chain k reads
// t[k*step+i] for i from i to n, from state s[k]. After a round in which
// some chain enters a state with outputs it notes the round in hits (the
// index after it and the four states, flags set) and clears the flags. It
// stops at n or when hits is full and returns where it stopped and how
// many hits it noted. t must hold 3*step+n bytes.
func (m *Matcher) steps4(t []byte, step, i, n int, s *[chains]uint32, hits *[hitCap]hit) (int, int) {
	trans := m.trans
	class := &m.class
	t0 := t[:n:n]
	t1 := t[step:][:n:n]
	t2 := t[2*step:][:n:n]
	t3 := t[3*step:][:n:n]
	s0, s1, s2, s3 := s[0], s[1], s[2], s[3]
	nh := 0
	for ; i < len(t0) && i < len(t1) && i < len(t2) && i < len(t3); i++ {
		s0 = trans[s0+uint32(class[t0[i]])]
		s1 = trans[s1+uint32(class[t1[i]])]
		s2 = trans[s2+uint32(class[t2[i]])]
		s3 = trans[s3+uint32(class[t3[i]])]
		if (s0|s1|s2|s3)&matchFlag != 0 {
			hits[nh] = hit{i: int32(i + 1), s: [chains]uint32{s0, s1, s2, s3}}
			s0 &^= matchFlag
			s1 &^= matchFlag
			s2 &^= matchFlag
			s3 &^= matchFlag
			if nh++; nh == len(hits) {
				i++
				break
			}
		}
	}
	s[0], s[1], s[2], s[3] = s0, s1, s2, s3
	return i, nh
}
