package normalize

import (
	"math/rand/v2"
	"testing"
)

// TestMarks64 checks Marks64 (SSE2 on amd64, eight bytes at a time with
// -tags purego, which CI runs too) against its definition byte by byte, on
// random blocks and on blocks of the bytes at the edges of its ranges.
func TestMarks64(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	edges := []byte("`az{/09:@AZ[.!?;\n\x00\x7f\x80\xff ")
	isPunct := func(c byte) bool { return c == '.' || c == '!' || c == '?' || c == ';' || c == '\n' }
	var p [64]byte
	for round := range 20000 {
		for i := range p {
			switch {
			case round < 4:
				p[i] = byte(round*64 + i) // every byte value
			case round%2 == 0:
				p[i] = byte(r.IntN(256))
			default:
				p[i] = edges[r.IntN(len(edges))]
			}
		}
		var word, digit, punct uint64
		for i, c := range p {
			if IsWordByte(c) {
				word |= 1 << i
			}
			if c >= '0' && c <= '9' {
				digit |= 1 << i
			}
			if isPunct(c) {
				punct |= 1 << i
			}
		}
		if w, d, b := Marks64(&p); w != word || d != digit || b != punct {
			t.Fatalf("round %d: Marks64 %016x %016x %016x, want %016x %016x %016x", round, w, d, b, word, digit, punct)
		}
	}
}

// TestMarksShort checks Marks on every length up to 64 against Marks64 of
// the bytes padded with zeros.
func TestMarksShort(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for round := range 2000 {
		b := make([]byte, round%65)
		for i := range b {
			b[i] = "az09.!?;\n \x80"[r.IntN(11)]
		}
		var p [64]byte
		copy(p[:], b)
		w, d, q := Marks(b)
		ww, wd, wq := Marks64(&p)
		if w != ww || d != wd || q != wq {
			t.Fatalf("round %d (%d bytes): Marks %x %x %x, Marks64 of the padded block %x %x %x", round, len(b), w, d, q, ww, wd, wq)
		}
	}
}
