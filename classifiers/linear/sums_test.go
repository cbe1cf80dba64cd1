package linear

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestAppendWords holds appendWords (full blocks through wordsFull) and
// wordsFullGo to a byte-by-byte definition of the word list, on texts
// of every length around the 64-byte blocks with words that span blocks,
// digits (or none in the whole text) and bytes >= 0x80.
func TestAppendWords(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 44))
	for round := range 5000 {
		s := make([]byte, r.IntN(300))
		run := r.IntN(4) == 0 // now and then a long run of word bytes
		noDigit := r.IntN(3) == 0
		for i := range s {
			switch {
			case run && r.IntN(100) != 0:
				s[i] = "abz09\xc3"[r.IntN(6)]
			default:
				s[i] = "ab  .,1\xe9z\n"[r.IntN(10)]
			}
			if noDigit && s[i]-'0' < 10 {
				s[i] = 'q' // blocks without a digit take their own loop
			}
		}
		var want []uint64
		for i := 0; i < len(s); {
			if !isWordByte[s[i]] {
				i++
				continue
			}
			j, digit := i, false
			for j < len(s) && isWordByte[s[j]] {
				digit = digit || s[j]-'0' < 10
				j++
			}
			w := uint64(i)<<32 | uint64(j)
			if digit {
				w |= digitSpan
			}
			if j-i > 8 {
				w |= longSpan
			}
			want = append(want, w)
			i = j
		}
		if got := appendWords(nil, s); !slices.Equal(got, want) {
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Logf("word %d: got %x want %x", i, got[i], want[i])
				}
			}
			t.Fatalf("round %d (%d bytes): appendWords gave %d words, the definition %d (or others)", round, len(s), len(got), len(want))
		}
		out := make([]uint64, len(s)/2+1)
		st := wordState{pending: -1}
		k := wordsFullGo(s, len(s)/64, out, &st)
		st2 := wordState{pending: -1}
		out2 := make([]uint64, len(s)/2+1)
		k2 := k
		if len(s) >= 64 {
			k2 = wordsFull(s, len(s)/64, out2, &st2)
		} else {
			st2 = st
		}
		if k != k2 || st != st2 || !slices.Equal(out[:k], out2[:k2]) {
			t.Fatalf("round %d: wordsFull and wordsFullGo differ (%d and %d words)", round, k2, k)
		}
	}
}

// TestMemoLeastRecentlyUsed checks the memo's replacement: of two words in
// one set, the one used less recently (a hit through memoSums, a fill
// through otherWord) gives its place to a third.
func TestMemoLeastRecentlyUsed(t *testing.T) {
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	// Three words of one set, and a word of another set to pad the texts
	// (memoSums reads eight bytes from a word's start).
	// The words are three letters without a letter three times ("aaa" is
	// a stretched spelling, which plainSums leaves to the normalizer), the
	// pad the first such word of another set, so the choice does not
	// depend on map order.
	var c wordCache
	bySet := map[*wordSet][]string{}
	var words, same []string
	for i := 0; same == nil; i++ {
		w := []byte{byte('a' + i%26), byte('a' + i/26%26), byte('a' + i/676%26)}
		if w[0] == w[1] && w[1] == w[2] {
			continue
		}
		words = append(words, string(w))
		st := c.set(packWord(w, 0, 3))
		if bySet[st] = append(bySet[st], string(w)); len(bySet[st]) == 3 {
			same = bySet[st]
		}
	}
	pad := ""
	for _, w := range words {
		if c.set(packWord([]byte(w), 0, 3)) != c.set(packWord([]byte(same[0]), 0, 3)) {
			pad = w
			break
		}
	}
	has := func(p *plainScratch, w string) bool {
		return p.words.set(packWord([]byte(w), 0, 3)).way(packWord([]byte(w), 0, 3)) >= 0
	}
	for _, again := range []int{0, 1} { // the first or the second word used again
		p := new(plainScratch)
		a, b, x := same[0], same[1], same[2]
		for _, text := range []string{a + " " + b + " " + pad, same[again] + " " + pad + " " + pad, x + " " + pad + " " + pad} {
			if _, _, ok := m.plainSums(p, []byte(text)); !ok {
				t.Fatal("plainSums refused a plain text")
			}
		}
		kept, gone := same[again], same[1-again]
		if !has(p, kept) || has(p, gone) || !has(p, x) {
			t.Errorf("word %d used again: the set holds word 0 %v, word 1 %v, word 2 %v; want the word used again and the new one",
				again, has(p, a), has(p, b), has(p, x))
		}
	}
}
