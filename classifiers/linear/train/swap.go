package train

import (
	"hash/fnv"
	"os"
	"strings"
)

// Group swapping (Config.GroupSwap) adds, for a training row that names an
// identity group, a copy in which every group word is replaced by the same
// form of another group (muslims → immigrants, jewish → disabled), with the
// row's labels. A hateful post about one group then teaches what is
// hateful about the words around the group, not the group's name, and a
// benign post that names a group teaches that the name alone is benign:
// the labelled data names some groups far more often in hate than in
// anything else, and hate against a group it rarely names is what a model
// trained on it misses.
//
// The classes hold words that can replace each other in the same
// sentence: plural nouns; words that are a singular noun and an adjective
// alike (a Muslim, a Muslim woman); words that are only adjectives. Words
// whose other senses are common (black, white, trans, queer) are not
// swapped, nor are groups that the labelled sets rarely treat as targets.
var swapClasses = [][]string{
	{"muslims", "jews", "christians", "blacks", "asians", "arabs", "africans", "mexicans", "immigrants",
		"migrants", "refugees", "gays", "lesbians", "homosexuals", "women", "hindus", "catholics", "latinos", "hispanics"},
	{"muslim", "christian", "hindu", "catholic", "asian", "arab", "african", "mexican", "immigrant", "latino"},
	{"jewish", "gay", "lesbian", "transgender", "disabled", "chinese", "homosexual"},
}

// swapClass maps a lower-case word to its class in swapClasses.
var swapClass = func() map[string]int {
	m := map[string]int{}
	for k, ws := range swapClasses {
		for _, w := range ws {
			m[w] = k
		}
	}
	return m
}()

// SwapGroups returns text with every group word of swapClasses replaced by
// another word of its class, chosen by a hash of key and the word (so one
// word is replaced the same way throughout the text), in the case the
// original was written in (lower, Capitalized or UPPER), and whether it
// replaced anything.
func SwapGroups(text, key string) (string, bool) {
	var b strings.Builder
	swapped := false
	last := 0
	for i := 0; i < len(text); {
		if !isLetter(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isLetter(text[j]) {
			j++
		}
		w := text[i:j]
		if k, ok := swapClass[strings.ToLower(w)]; ok && (j == len(text) || text[j] < 0x80) && (i == 0 || text[i-1] < 0x80) {
			to := pickSwap(swapClasses[k], strings.ToLower(w), key)
			if !swapped {
				b.Grow(len(text) + 16)
			}
			b.WriteString(text[last:i])
			b.WriteString(sameCase(w, to))
			last, swapped = j, true
		}
		i = j
	}
	if !swapped {
		return text, false
	}
	b.WriteString(text[last:])
	return b.String(), true
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// pickSwap returns a word of class other than w, by a hash of key and w.
func pickSwap(class []string, w, key string) string {
	h := fnv.New64a()
	h.Write([]byte(key))
	h.Write([]byte{0})
	h.Write([]byte(w))
	n := h.Sum64() % uint64(len(class)-1)
	for _, c := range class {
		if c == w {
			continue
		}
		if n == 0 {
			return c
		}
		n--
	}
	return w
}

// sameCase writes to in the case pattern of from: all upper, first letter
// upper, or lower.
func sameCase(from, to string) string {
	switch {
	case len(from) > 1 && strings.ToUpper(from) == from:
		return strings.ToUpper(to)
	case from[0] >= 'A' && from[0] <= 'Z':
		return strings.ToUpper(to[:1]) + to[1:]
	}
	return to
}

// withSwaps returns exs followed by one group-swapped copy of every row
// that names a group of swapClasses, at weight w relative to the row's.
func withSwaps(exs []Example, w float32) []Example {
	out := append([]Example(nil), exs...)
	mode := os.Getenv("RAI_SWAP_MODE")
	for _, e := range exs {
		if mode == "benign" && !e.Negative(0) || mode == "hate" && !e.Positive(0) {
			continue
		}
		t, ok := SwapGroups(e.Text, e.Dataset+"/"+e.ID)
		if !ok {
			continue
		}
		r := e
		r.ID, r.Text = e.ID+"#g", t
		for c := range N {
			r.Weight[c] *= w
		}
		out = append(out, r)
	}
	return out
}
