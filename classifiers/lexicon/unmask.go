package lexicon

import (
	"bytes"
	"fmt"
	"strings"
)

// Masked words. A writer who hides a word behind asterisks ("k*ll",
// "r**e") keeps its first letter, its length and most of its letters, so
// that a reader still knows it. The matcher would read "k*ll" as the two
// words "k" and "ll", and the model the same. Unmask gives such a word its
// letters back when the words it can stand for all fill it alike: the
// lexicon's and the blocklists' single-word terms, the names of groups
// (the single words of the classes maskClasses names: hateful posts hide
// "j*ws" as they hide slurs), and the common profanity of data/masked.txt
// (no term, but masked as often, and listed so that a term is not guessed
// where one of these fits as well).

const (
	maskMin = 3  // the shortest masked word resolved
	maskMax = 24 // the longest
)

// maskWords holds the words a masked word may stand for: the single-word
// terms of a Classifier, the group names and the words of masked.txt, lower
// case ASCII letters only, each word once; by length (for the masks, which
// try every word as long) and as a set (for the words broken by
// punctuation, which look one up).
type maskWords struct {
	byLen [maskMax + 1][]string
	set   map[string]struct{}
}

// newMaskWords gathers the single-word terms, the words of masked.txt
// (data, one word a line) and the single words of extra.
func newMaskWords(terms []term, data []byte, extra []string) (*maskWords, error) {
	mw := maskWords{set: map[string]struct{}{}}
	add := func(w string) {
		if _, seen := mw.set[w]; seen || len(w) < maskMin || len(w) > maskMax || !isLetters(w) {
			return
		}
		mw.set[w] = struct{}{}
		mw.byLen[len(w)] = append(mw.byLen[len(w)], w)
	}
	for _, t := range terms {
		add(strings.ToLower(strings.Trim(t.text, "*")))
	}
	for _, w := range extra {
		add(w)
	}
	in := newLines("masked.txt", bytes.NewReader(data))
	for in.next() {
		w := strings.TrimSpace(in.text)
		if !isLetters(w) || len(w) < maskMin || len(w) > maskMax {
			return nil, fmt.Errorf("%w: masked.txt:%d: want one lower-case word of %d to %d letters", ErrSyntax, in.ln, maskMin, maskMax)
		}
		add(w)
	}
	return &mw, in.err()
}

// all returns the words of mw.
func (mw *maskWords) all() []string {
	var out []string
	for _, ws := range mw.byLen {
		out = append(out, ws...)
	}
	return out
}

func isLetters(w string) bool {
	for i := range len(w) {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

// maskWordByte reports whether b can be part of a masked word: an ASCII
// lower-case letter or '*'.
func maskWordByte(b byte) bool { return b >= 'a' && b <= 'z' || b == '*' }

// Unmask rewrites, in place, every masked word of norm (text normalized by
// classifiers/internal/normalize) that it can read back, and reports
// whether it rewrote one. A masked word is a run of lower-case ASCII
// letters and asterisks between bytes that belong to no word (neither
// letters, digits nor non-ASCII), asterisks at its ends cut off
// ("**kill**" is emphasis, not a mask), that
//
//   - holds no two letters with an asterisk on each side ("*a*s*" spells
//     letters out),
//   - begins with a letter and holds at least one asterisk inside,
//   - is maskMin to maskMax bytes long,
//   - keeps at least two letters, and at least one letter for every two
//     asterisks.
//
// Each asterisk stands for one letter, so the word keeps its length and
// the offset map of norm stays valid. The word is read back when every
// word it fits fills its asterisks alike (fit): a word as long as it, or
// failing that, a word it begins with followed by one of maskTails. A
// word that two words fill differently is left as it is. Unmask allocates
// nothing.
func (c *Classifier) Unmask(norm []byte) bool {
	if c.maskWords == nil || bytes.IndexByte(norm, '*') < 0 {
		return false
	}
	changed := false
	for i := 0; i < len(norm); {
		if !maskWordByte(norm[i]) {
			i++
			continue
		}
		j := i
		for j < len(norm) && maskWordByte(norm[j]) {
			j++
		}
		start, end := i, j
		i = j
		if start > 0 && isWordByte(norm[start-1]) || end < len(norm) && isWordByte(norm[end]) {
			continue // part of a longer word with digits or other scripts
		}
		if spelledOut(norm[start:end]) {
			continue
		}
		for start < end && norm[start] == '*' {
			start++
		}
		for end > start && norm[end-1] == '*' {
			end--
		}
		if w := c.maskWords.fit(norm[start:end]); w != "" {
			copy(norm[start:], w) // through the last asterisk
			changed = true
		}
	}
	return changed
}

// spelledOut reports whether run (letters and asterisks) holds two
// letters that each stand between two asterisks: letters spelled out with
// asterisks between them ("*a*s*"), not a word with letters hidden.
func spelledOut(run []byte) bool {
	n := 0
	for k := 0; k+2 < len(run); k++ {
		if run[k] == '*' && run[k+1] != '*' && run[k+2] == '*' {
			n++
		}
	}
	return n >= 2
}

// isWordByte reports whether b belongs to a word of normalized text other
// than as a lower-case letter: a digit or a byte of a non-ASCII rune.
func isWordByte(b byte) bool { return b >= '0' && b <= '9' || b >= 0x80 }

// maskTails are the endings a masked word may add to a word it begins
// with: inflections, and the nouns insults are compounded with.
var maskTails = []string{
	"s", "es", "ed", "er", "ers", "ing", "in", "y", "ey", "ies", "ier", "iest", "ty",
	"head", "heads", "face", "faces", "hole", "holes", "bag", "bags",
}

// fit returns m with its asterisks filled when the words of mw that it
// fits all fill them alike, or "". m fits a word as long as it; failing
// that, a shorter word whose letters it begins with when the rest of m is
// one of maskTails ("d*ckhead": dick + head, "b*tches": bitch + es).
func (mw *maskWords) fit(m []byte) string {
	n := len(m)
	if n < maskMin || n > maskMax || m[0] == '*' {
		return ""
	}
	last := bytes.LastIndexByte(m, '*')
	stars := bytes.Count(m, []byte{'*'})
	letters := n - stars
	if last < 0 || letters < 2 || 2*letters < stars {
		return ""
	}
	if w, ok := mw.fill(m, n, last); w != "" || !ok {
		return w // read back, or ambiguous
	}
	found := ""
	for _, tail := range maskTails {
		L := n - len(tail)
		if L <= last || L < maskMin || string(m[L:]) != tail {
			continue
		}
		w, ok := mw.fill(m, L, last)
		if !ok || found != "" && w != "" && w != found {
			return "" // ambiguous
		}
		if w != "" {
			found = w
		}
	}
	return found
}

// fill returns how the words of mw as long as L that m[:L] fits fill m's
// asterisks (through last): "" and true when none fits, "" and false when
// two fill them differently.
func (mw *maskWords) fill(m []byte, L, last int) (string, bool) {
	found := ""
	for _, w := range mw.byLen[L] {
		if !fits(m[:L], w) {
			continue
		}
		if found != "" && found != w[:last+1] {
			return "", false
		}
		found = w[:last+1]
	}
	return found, true
}

// fits reports whether word w, as long as m, has m's letters where m has
// letters.
func fits(m []byte, w string) bool {
	for k := range len(m) {
		if m[k] != '*' && m[k] != w[k] {
			return false
		}
	}
	return true
}
