package lexicon
import ("testing";"strings")
var a2k = []byte(("Also, how do I kill a Python process that hangs on startup? I tried ctrl+c but nothing happens. " +
		strings.Repeat("Hi! Could you help me write a short email to my team about the release schedule? "+
			"We moved the launch to next Tuesday because the payment service still fails two integration tests. "+
			"Please keep the tone friendly and mention that the demo is on Friday at 3pm. Thanks a lot, Sam\n", 8))[:2048])
func BenchmarkPartNorm(b *testing.B) {
	c, _ := Default(); s := newScratch(); b.SetBytes(2048)
	for b.Loop() { s.norm, s.offs = c.norm.Append(s.norm[:0], s.offs[:0], a2k) }
}
func BenchmarkPartMatch(b *testing.B) {
	c, _ := Default(); s := newScratch(); b.SetBytes(2048)
	s.norm, s.offs = c.norm.Append(s.norm[:0], s.offs[:0], a2k)
	for b.Loop() { s.matches = c.m.AppendMatches(s.matches[:0], s.norm) }
}
func BenchmarkPartAll(b *testing.B) {
	c, _ := Default(); s := newScratch(); b.SetBytes(2048)
	for b.Loop() { c.classify(s, nil, a2k) }
}
