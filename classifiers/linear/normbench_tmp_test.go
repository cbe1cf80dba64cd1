package linear

import "testing"

func BenchmarkTmpNorm(b *testing.B) {
	s := []byte(makeTextTmp("Hi! Could you help me plan a week of dinners for a family of four? We like pasta, grilled vegetables and fish, but my son won't eat mushrooms. Also, what's a quick way to kill a stuck process on my laptop? It froze while I was exporting photos from last weekend's hike, where we tried to shoot the sunset over the lake. Thanks so much, you're a lifesaver! "))
	n := newNormalizer(NormV1)
	var d []byte
	var o []int32
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		d, o = n.append(d[:0], o[:0], s)
	}
}

func makeTextTmp(u string) string {
	for len(u) < 2048 {
		u += u
	}
	return u[:2048]
}
