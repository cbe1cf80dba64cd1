package lexicon

import (
	"bytes"
	"slices"
	"strings"
)

// Respelled words. Besides hiding letters behind asterisks (unmask.go),
// writers break a word they expect a filter to catch with inner
// punctuation ("ki.ll", "sui-cide") or misspell it ("klil", "suicde"), on
// purpose or not, and the matcher and the model then read a word that is
// not there. Respell gives such words their spelling back, as one of the
// words Unmask reads masked words back to (the single-word terms, the
// blocklists' single words, the group names of classes.txt and the words
// of masked.txt: the masked-word list):
//
//   - masked words, as Unmask;
//   - a word broken by inner punctuation: letters joined by single '.',
//     '-' or '_' whose letters, joined, are a word of the list, alone or
//     with a plural ending, unless (with a Dictionary) it is written as a
//     compound: every part a word of three letters or more and the joined
//     letters no word ("self-harm", not "sui-cide"). The separators are
//     dropped.
//   - a misspelled word: with a Dictionary (by default GloVe's 150,000
//     most frequent words; WithDictionary), a word of four to 24 letters
//     the dictionary does not know that one edit inside the word (the
//     first and last letters stay) turns into exactly one word of the
//     list of four letters or more: two neighbouring letters swapped, or,
//     in a word of six letters or more, one letter missing. (A letter too
//     many is left alone: in a short word it is as often an informal
//     spelling, "wasnt" is not "want", and testing for it costs a look at
//     every letter of every long word.)
//
// The rewritten text keeps its offset map: a dropped byte's entry is
// dropped, an added letter maps to an empty range at the next letter's
// offset, so a finding on the word still spans all of its source bytes.

// Dictionary reports whether word (lower-case ASCII letters) is a word of
// the language; a word it knows is never respelled. *vectors.Table's
// Known is one.
type Dictionary interface {
	Known(word []byte) bool
}

// WithDictionary sets the words Respell leaves as written, in place of
// the word vectors' vocabulary (classifiers/vectors) that New uses by
// default. With nil, Respell reads back only masked and broken words,
// never misspelled ones.
func WithDictionary(d Dictionary) Option {
	return optionFunc(func(c *config) error {
		c.dict, c.dictSet = d, true
		return nil
	})
}

const (
	spellMin   = 4                  // the shortest word read back as misspelled
	missingMin = 6                  // the shortest text word with a letter missing
	sigBits    = 18                 // bits of a letter-multiset signature
	sigWords   = 1 << sigBits / 64  // uint64s of a signature set
	sigFactor  = 0x9e3779b97f4a7c15 // spreads a signature sum over the bits
)

// spellWords is the masked-word list with the indexes a text word is looked
// up in. A word's letter multiset has a signature (the sum of a random
// number per letter, so any order of the same letters sums alike), and
// two bit sets of signatures let almost every text word skip the map
// lookups: full holds every word's, part every word's with one inner
// letter left out. A listed word is told by its fingerprint, a 64-bit
// hash of its bytes, in an open-addressing table.
type spellWords struct {
	exact map[string]string // each word to itself: a lookup returns the word without building a string
	// short maps a word with one inner letter left out to the word, or
	// to "" when two words give it.
	short       map[string]string
	prints      []uint64 // fingerprints of the listed words; 0 is an empty slot
	shapes      [(maskMax + 2) * 26 * 26 / 64]uint64
	full, part  [sigWords]uint64
	letterValue [26]uint64
}

// fingerprint steps: FNV-1a, 64 bits.
const (
	fpBasis = 0xcbf29ce484222325
	fpPrime = 0x100000001b3
)

func fingerprint(w []byte) uint64 {
	h := uint64(fpBasis)
	for _, b := range w {
		h = (h ^ uint64(b)) * fpPrime
	}
	return h | 1
}

// listed reports whether the word with fingerprint h is on the list (a
// false yes, one in 2^63, only leaves a misspelling as written).
func (sw *spellWords) listed(h uint64) bool {
	mask := uint64(len(sw.prints) - 1)
	for i := h >> 32 & mask; ; i = (i + 1) & mask {
		switch sw.prints[i] {
		case h:
			return true
		case 0:
			return false
		}
	}
}

func newSpellWords(words []string) *spellWords {
	sw := &spellWords{exact: map[string]string{}, short: map[string]string{}}
	x := uint64(0x2545f4914f6cdd1d) // fixed: the same sets on every build
	for i := range sw.letterValue {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		sw.letterValue[i] = x
	}
	var prints []uint64
	for _, w := range words {
		if len(w) < spellMin || len(w) > maskMax || !isLetters(w) {
			continue
		}
		if _, ok := sw.exact[w]; ok {
			continue
		}
		sw.exact[w] = w
		prints = append(prints, fingerprint([]byte(w)))
		// The text words an edit of w gives: as long (swapped) and one
		// letter shorter (missing).
		f, l := w[0], w[len(w)-1]
		sw.setShape(len(w), f, l)
		if len(w)-1 >= missingMin {
			sw.setShape(len(w)-1, f, l)
		}
		sum := sw.sum([]byte(w))
		setSig(&sw.full, sum)
		for k := 1; k < len(w)-1; k++ {
			setSig(&sw.part, sum-sw.letterValue[w[k]-'a'])
			s := w[:k] + w[k+1:]
			if old, ok := sw.short[s]; ok && old != w {
				sw.short[s] = ""
			} else {
				sw.short[s] = w
			}
		}
	}
	size := 64
	for size < 4*len(prints) {
		size *= 2
	}
	sw.prints = make([]uint64, size)
	for _, h := range prints {
		if !sw.listed(h) {
			i := h >> 32 & uint64(size-1)
			for sw.prints[i] != 0 {
				i = (i + 1) & uint64(size-1)
			}
			sw.prints[i] = h
		}
	}
	return sw
}

func shapeIndex(n int, f, l byte) int { return (n*26+int(f-'a'))*26 + int(l-'a') }

func (sw *spellWords) setShape(n int, f, l byte) {
	i := shapeIndex(n, f, l)
	sw.shapes[i/64] |= 1 << (i % 64)
}

// shaped reports whether a word of n bytes (at most maskMax) from f to l
// may be an edit of a listed word.
func (sw *spellWords) shaped(n int, f, l byte) bool {
	if f-'a' >= 26 || l-'a' >= 26 {
		return false
	}
	i := shapeIndex(n, f, l)
	return sw.shapes[i/64]&(1<<(i%64)) != 0
}

func (sw *spellWords) sum(w []byte) uint64 {
	var s uint64
	for _, b := range w {
		s += sw.letterValue[b-'a']
	}
	return s
}

func sigIndex(sum uint64) uint64 { return (sum * sigFactor) >> (64 - sigBits) }

func setSig(set *[sigWords]uint64, sum uint64) {
	i := sigIndex(sum)
	set[i/64] |= 1 << (i % 64)
}

func hasSig(set *[sigWords]uint64, sum uint64) bool {
	i := sigIndex(sum)
	return set[i/64]&(1<<(i%64)) != 0
}

// edit is a respelling of one text word: the word it reads as, and where
// the text differs (kind).
type edit struct {
	word string
	kind editKind
	at   int // swapped: the first of the two letters; missing: where it goes
}

type editKind uint8

const (
	noEdit editKind = iota
	swapped
	missing
)

// correct returns the one word of the list that w (lower-case letters) is
// one inner edit away from, or noEdit when w is listed, or there is none
// or more than one. sum is sw.sum(w); mayFull and mayPart whether its
// signature is in full and (for a word long enough to miss a letter) in
// part.
func (sw *spellWords) correct(w []byte, mayFull, mayPart bool) edit {
	n := len(w)
	if n < spellMin || n > maskMax || mayFull && sw.listed(fingerprint(w)) {
		return edit{}
	}
	var found edit
	if mayFull {
		// Two neighbouring inner letters swapped.
		var buf [maskMax]byte
		copy(buf[:], w)
		for k := 1; k+2 < n; k++ {
			if w[k] == w[k+1] {
				continue
			}
			buf[k], buf[k+1] = w[k+1], w[k]
			if v, ok := sw.exact[string(buf[:n])]; ok {
				if found.kind != noEdit && found.word != v {
					return edit{} // two words
				}
				found = edit{word: v, kind: swapped, at: k}
			}
			buf[k], buf[k+1] = w[k], w[k+1]
		}
	}
	if mayPart {
		// One letter missing, from a longer word: short words with a
		// letter less are as often other words or slang ("shes").
		if v, ok := sw.short[string(w)]; ok {
			if v == "" || found.kind != noEdit && found.word != v {
				return edit{} // two words
			}
			k := 1
			for k < n && v[k] == w[k] {
				k++
			}
			found = edit{word: v, kind: missing, at: k}
		}
	}
	return found
}

// correctWord is correct for a word alone.
func (sw *spellWords) correctWord(w []byte) edit {
	sum := sw.sum(w)
	return sw.correct(w, hasSig(&sw.full, sum), len(w) >= missingMin && hasSig(&sw.part, sum))
}

// joined reports whether the letters of run (letters with single '.', '-'
// or '_' between them) are a masked-word list word, alone or with a plural
// ending.
func (mw *maskWords) joined(run []byte) bool {
	var buf [maskMax]byte
	n := 0
	for _, b := range run {
		if b >= 'a' && b <= 'z' {
			if n == len(buf) {
				return false
			}
			buf[n] = b
			n++
		}
	}
	w := buf[:n]
	if mw.has(w) {
		return true
	}
	for _, tail := range []string{"s", "es"} {
		if n-len(tail) >= maskMin && string(w[n-len(tail):]) == tail && mw.has(w[:n-len(tail)]) {
			return true
		}
	}
	return false
}

// has reports whether w is a word of mw.
func (mw *maskWords) has(w []byte) bool {
	if len(w) < maskMin || len(w) > maskMax {
		return false
	}
	_, ok := mw.set[string(w)]
	return ok
}

// writtenCompound reports whether run, letters with join bytes between
// them, is written as a compound ("self-harm", "half-breed"), not a word
// broken to evade ("ki.ll", "sui-cide"): every part is a word d knows of
// three letters or more, and the letters joined are no word d knows. It
// joins the letters in spare (appending to spare[:0], which the caller's
// slice's spare capacity lets it do without allocating).
func writtenCompound(d Dictionary, run, spare []byte) bool {
	joined := spare[:0]
	for part := run; len(part) > 0; {
		k := 0
		for k < len(part) && !isJoin(part[k]) {
			k++
		}
		if k < 3 || !d.Known(part[:k]) {
			return false
		}
		joined = append(joined, part[:k]...)
		part = part[min(k+1, len(part)):]
	}
	return !d.Known(joined)
}

func isJoin(b byte) bool { return b == '.' || b == '-' || b == '_' }

func isLower(b byte) bool { return b >= 'a' && b <= 'z' }

// Respell rewrites the respelled words of norm (text normalized by
// classifiers/internal/normalize, offs its offset map as Append returns
// it): masked words as Unmask, words broken by inner punctuation and, with
// a Dictionary, misspelled words (see the comment at the top of
// respell.go). It returns norm and offs, rewritten in place or, when a
// word gained a letter, grown by append, and whether it changed a word.
// It allocates only to grow. It is RespellMarked, then RespellMisspelled.
func (c *Classifier) Respell(norm []byte, offs []int32) ([]byte, []int32, bool) {
	norm, offs, marked := c.RespellMarked(norm, offs)
	norm, offs, spelled := c.RespellMisspelled(norm, offs)
	return norm, offs, marked || spelled
}

// RespellMarked is the first step of Respell: masked words and words
// broken by inner punctuation, which asterisks and punctuation mark and
// which cost next to nothing to find.
func (c *Classifier) RespellMarked(norm []byte, offs []int32) ([]byte, []int32, bool) {
	changed := c.Unmask(norm)
	if c.maskWords != nil && len(norm) > 2 {
		var ch bool
		norm, offs, ch = c.join(norm, offs)
		changed = changed || ch
	}
	return norm, offs, changed
}

// RespellMisspelled is the second step of Respell: misspelled words (none
// without a Dictionary). It reads every word, and changes only words of
// four letters or more that Dictionary does not know: a caller that knows
// the text has none (the ensemble, from the model, which looks every word
// up in the same table) may skip it.
func (c *Classifier) RespellMisspelled(norm []byte, offs []int32) ([]byte, []int32, bool) {
	if c.spell == nil {
		return norm, offs, false
	}
	return c.spellBack(norm, offs)
}

// Dictionary returns the words Respell leaves as written (nil: it reads
// no misspelled word back).
func (c *Classifier) Dictionary() Dictionary {
	if c.spell == nil {
		return nil
	}
	return c.dict
}

// alone reports whether the bytes around norm[start:end] let it be a word
// of its own: not digits or other scripts (a longer word), a mask or an
// apostrophe.
func alone(norm []byte, start, end int) bool {
	return (start == 0 || !isWordByte(norm[start-1]) && norm[start-1] != '*' && norm[start-1] != '\'') &&
		(end == len(norm) || !isWordByte(norm[end]) && norm[end] != '*' && norm[end] != '\'')
}

// join joins the words of norm broken by inner punctuation that it can
// read back.
func (c *Classifier) join(norm []byte, offs []int32) ([]byte, []int32, bool) {
	changed := false
	for _, sep := range []byte{'.', '-', '_'} {
		for i := 1; i+1 < len(norm); i++ {
			k := bytes.IndexByte(norm[i:len(norm)-1], sep)
			if k < 0 {
				break
			}
			i += k
			if !isLower(norm[i-1]) || !isLower(norm[i+1]) {
				continue
			}
			start := i - 1
			for start > 0 && (isLower(norm[start-1]) || isJoin(norm[start-1]) && start > 1 && isLower(norm[start-2])) {
				start--
			}
			j := i + 1
			for j < len(norm) && (isLower(norm[j]) || isJoin(norm[j]) && j+1 < len(norm) && isLower(norm[j+1])) {
				j++
			}
			i = j
			run := norm[start:j]
			if !alone(norm, start, j) || !c.maskWords.joined(run) || c.dict != nil && writtenCompound(c.dict, run, norm[len(norm):]) {
				continue
			}
			w := start
			for k := start; k < j; k++ {
				if !isJoin(norm[k]) {
					norm[w], offs[w] = norm[k], offs[k]
					w++
				}
			}
			norm = append(norm[:w], norm[j:]...)
			offs = append(offs[:w], offs[j:]...)
			i = w
			changed = true
		}
	}
	return norm, offs, changed
}

// spellBack reads back the misspelled words of norm. It reads the letters
// of a word again only when its length, first and last letter are those
// of an edit of a listed word (spellWords.shaped), and looks it up only
// when their signature is: most words end at the first test.
func (c *Classifier) spellBack(norm []byte, offs []int32) ([]byte, []int32, bool) {
	sw := c.spell
	changed := false
	for i := 0; i < len(norm); {
		if norm[i]-'a' >= 26 {
			i++
			continue
		}
		start := i
		for i < len(norm) && norm[i]-'a' < 26 {
			i++
		}
		n := i - start
		if n < spellMin || n > maskMax || !sw.shaped(n, norm[start], norm[i-1]) {
			continue
		}
		sum := sw.sum(norm[start:i])
		mayFull := hasSig(&sw.full, sum)
		mayPart := n >= missingMin && hasSig(&sw.part, sum)
		if !mayFull && !mayPart || !alone(norm, start, i) {
			continue
		}
		run := norm[start:i]
		e := sw.correct(run, mayFull, mayPart)
		if e.kind == noEdit || c.dict.Known(run) {
			continue
		}
		changed = true
		p := start + e.at
		if e.kind == swapped {
			norm[p], norm[p+1] = norm[p+1], norm[p]
			continue
		}
		norm = slices.Insert(norm, p, e.word[e.at]) // missing
		offs = slices.Insert(offs, p, offs[p])
		i++
	}
	return norm, offs, changed
}

// maskClasses are the classes whose words a masked or broken word may
// stand for besides the terms and masked.txt: the names of groups, which
// hateful posts hide as they hide slurs ("j*ws").
var maskClasses = []string{"GROUP_ADJ", "GROUP_N", "GROUP"}

// classWords returns the single words of the named classes.
func classWords(classes []classDef, names ...string) []string {
	var out []string
	for _, cd := range classes {
		if !slices.Contains(names, cd.name) {
			continue
		}
		for _, w := range cd.words {
			w = strings.TrimSpace(w)
			if !strings.ContainsAny(w, " *") {
				out = append(out, w)
			}
		}
	}
	return out
}
