package lexicon

import (
	"math/rand/v2"
	"testing"

	"github.com/openrai/raiserver/classifiers/internal/normalize"
)

// walkSlow is the definition of walker: one byte at a time.
func walkSlow(t []byte, end int) (tok, sent int32) {
	prevWord, prevBreak := false, false
	for pos := 0; pos < end; pos++ {
		ch := t[pos]
		w := normalize.IsWordByte(ch)
		if w && !prevWord {
			tok++
		}
		prevWord = w
		br := ch == '!' || ch == '?' || ch == ';' || ch == '\n' ||
			ch == '.' && (pos+1 == len(t) || !normalize.IsWordByte(t[pos+1]))
		if br && !prevBreak {
			sent++
		}
		if !w {
			prevBreak = br || (prevBreak && ch == ' ')
		} else {
			prevBreak = false
		}
	}
	return tok, sent
}

func checkWalk(t *testing.T, text []byte, stops []int) {
	t.Helper()
	var w walker
	for _, e := range stops {
		w.walk(text, e)
		if tok, sent := walkSlow(text, e); w.tok != tok || w.sent != sent {
			t.Fatalf("len %d, stop %d: walker %d/%d, byte loop %d/%d", len(text), e, w.tok, w.sent, tok, sent)
		}
	}
}

// TestWalkerMatchesByteLoop checks the eight-bytes-at-a-time walk against
// the byte loop on random texts over an alphabet of the bytes that matter.
func TestWalkerMatchesByteLoop(t *testing.T) {
	alpha := []byte("aAzZ09 .!?;\n,'-\x80\xff\x00@[`{")
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		text := make([]byte, r.IntN(300))
		for i := range text {
			if r.IntN(3) == 0 {
				text[i] = byte(r.IntN(256))
			} else {
				text[i] = alpha[r.IntN(len(alpha))]
			}
		}
		var stops []int
		for e := 0; e <= len(text); e += r.IntN(12) + 1 {
			stops = append(stops, e)
		}
		checkWalk(t, text, stops)
	}
}

func FuzzWalker(f *testing.F) {
	f.Add([]byte("Hi. Here is a plan; ok?\nsure... e.g. 3.5 done!"), uint8(3))
	f.Fuzz(func(t *testing.T, text []byte, step uint8) {
		var stops []int
		for e := 0; e <= len(text); e += int(step%16) + 1 {
			stops = append(stops, e)
		}
		checkWalk(t, text, stops)
	})
}

// TestSentenceSpans checks sentStart and sentEnd against the byte loop's
// sentence count: the span of byte i is the bytes with its count.
func TestSentenceSpans(t *testing.T) {
	alpha := []byte("ab 9 .!?;\n,")
	r := rand.New(rand.NewPCG(13, 14))
	for round := range 2000 {
		text := make([]byte, r.IntN(300))
		for i := range text {
			text[i] = alpha[r.IntN(len(alpha))]
		}
		sent := make([]int32, len(text))
		for i := range text {
			_, sent[i] = walkSlow(text, i)
		}
		var w walker
		for i := range text {
			a, b := i, i+1
			for a > 0 && sent[a-1] == sent[i] {
				a--
			}
			for b < len(text) && sent[b] == sent[i] {
				b++
			}
			if gotA, gotB := w.sentStart(text, i), w.sentEnd(text, i); gotA != a || gotB != b {
				t.Fatalf("round %d, byte %d of %d: span [%d, %d), want [%d, %d)", round, i, len(text), gotA, gotB, a, b)
			}
		}
	}
}

// TestBreaksAreMarksPunct checks that every byte that can end a sentence
// (normalize.IsSentenceBreak) is in the punctuation bitmap of normalize.Marks64,
// where the walker looks for breaks.
func TestBreaksAreMarksPunct(t *testing.T) {
	for c := range 256 {
		var p [64]byte
		p[0], p[1] = byte(c), ' '
		_, _, punct := normalize.Marks64(&p)
		if normalize.IsSentenceBreak(p[:], 0) && punct&1 == 0 {
			t.Fatalf("byte %#x ends a sentence but is not in Marks64's punctuation", c)
		}
	}
}
