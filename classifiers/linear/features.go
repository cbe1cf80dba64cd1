package linear

import (
	"encoding/binary"
	"math"
)

// Feature hashing. Features are read from the normalized text in one pass
// with a 64-bit window of the last eight bytes of the current word (with a
// leading space as the word-boundary mark):
//
//   - character n-grams (n in [MinN, MaxN], n ≤ 8) are the low n bytes of
//     the window, after each byte and after a trailing boundary mark;
//   - a word is hashed FNV-style over 8-byte chunks of the padded word and
//     its length;
//   - a bigram is the previous word's hash mixed with the current one.
//
// Each key is xored with a seed that says which kind of feature it is and
// spread by a 64-bit multiplicative (Fibonacci) hash whose high bits pick
// the bucket. Nothing here allocates; features are appended to a
// caller-owned slice.

const (
	mix64   = 0x9E3779B97F4A7C15
	prime64 = 0x100000001b3 // FNV-1a 64 prime

	seedWord   uint64 = 0xcbf29ce484222325 // FNV-1a 64 offset basis
	seedBigram uint64 = 0x2545f4914f6cdd1d
	seedLength uint64 = 0x6c8e9cf570932bd5

	// maxWordGrams caps the n-gram end positions taken from one word, so
	// a long run of letters (a URL, base64) cannot dominate the features.
	// It is long enough for a letter-spaced sentence ("h o w  t o …"),
	// which normalization joins into one word.
	maxWordGrams = 256
)

// seedGram[n] marks character n-grams of length n.
var seedGram = [9]uint64{
	0, 0x8a5cd789635d2dff, 0x121fd2155c472f96, 0x3b7a41d65c1e7d23, 0x7c4a5e1b8f3d9a61,
	0x5d6b2e8f4a1c7b39, 0x2f8e6d4c1b3a5978, 0x6a1f3e5d7c9b2a48, 0x4e7d1c3b5a2f6e97,
}

var gramMask = [9]uint64{
	0, 1<<8 - 1, 1<<16 - 1, 1<<24 - 1, 1<<32 - 1, 1<<40 - 1, 1<<48 - 1, 1<<56 - 1, 1<<64 - 1,
}

// Features says which hashed features a model reads. It is stored in the
// model file, so training and inference always agree.
type Features struct {
	// Bits is log2 of the number of hash buckets (12..24).
	Bits uint8 `json:"bits"`
	// MinN and MaxN bound the character n-grams taken inside each word,
	// with the word padded by one boundary mark on each side (so "kill"
	// gives " ki", "kil", "ill", "ll " for n=3). MinN = 0 disables them.
	MinN uint8 `json:"min_n"`
	MaxN uint8 `json:"max_n"`
	// Words enables word unigrams; Bigrams enables word bigrams.
	Words   bool `json:"words"`
	Bigrams bool `json:"bigrams"`
	// Long, when not 0, limits the character n-grams of a word of at most
	// Long bytes to its two edge n-grams (the first and the last of the
	// padded word: " kil" and "ill " for "kill" with n=4), which carry its
	// stem and its ending; longer words (compounds, hashtags, letter-spaced
	// text joined by normalization) get every n-gram. 0: every word gets
	// every n-gram.
	Long uint8 `json:"long,omitempty"`
	// Cross adds anchor crosses: for each anchor class some word of the
	// text belongs to (anchorClass), every word's hash crossed with that
	// class, so that a word can weigh differently next to a group of
	// people, the second person or the first person.
	Cross bool `json:"cross,omitempty"`
	// Request adds a fourth anchor class to Cross: words that mark a
	// request or an instruction to an assistant (how, write, give, steps,
	// please, …), so that a word can weigh differently in "how do I
	// poison …" or "write a story where …" than in a report or an
	// encyclopedia text. Without Cross it does nothing.
	Request bool `json:"request,omitempty"`
	// Length adds one feature to a text of at most maxLengthWords words:
	// its number of words. Every feature weighs 1/sqrt(number of
	// features), so in a text of one or two words each word weighs
	// several times what it does in a post, and words that only lean
	// harmful ("him", "bed") decide it; this feature lets the model
	// learn how often a text that short is harmful, apart from what its
	// words weigh in longer texts (docs/classifiers-experiments.md, "Short
	// texts").
	Length bool `json:"length,omitempty"`
	// Prior is a pseudo-count of features: each feature of a text with n
	// of them weighs 1/sqrt(n + Prior) instead of 1/sqrt(n), so a text of
	// a few words moves the log-odds less far from the bias than a post
	// does (a short text is shrunk towards the prior). 0: 1/sqrt(n), as
	// every model before it (docs/classifiers-experiments.md, "Short
	// texts").
	Prior uint8 `json:"prior,omitempty"`
}

// Scale is the weight of each of n features of a text: 1/sqrt(n + Prior).
// The model and training (classifiers/linear/train) both weigh with it.
func (f Features) Scale(n int) float64 { return 1 / math.Sqrt(float64(n)+float64(f.Prior)) }

// maxLengthWords is the longest text, in words, that gets a
// Features.Length feature.
const maxLengthWords = 6

// lengthBucket is the bucket of the Features.Length feature of a text of
// words words (1 … maxLengthWords).
func lengthBucket(words int, shift uint) uint32 {
	return uint32((uint64(words) ^ seedLength) * mix64 >> shift)
}

// anchorMask is the set of anchor classes f crosses with (bit k: class k).
func (f Features) anchorMask() uint8 {
	switch {
	case !f.Cross:
		return 0
	case f.Request:
		return 1<<numAnchors - 1
	default:
		return 1<<requestAnchor - 1
	}
}

// anchorWords are the words of each anchor class of Features.Cross: words
// that name a group of people (hate is about a group), the second person
// (a threat or an insult is aimed at "you") and the first person
// (self-harm is about "me"). Words that are mostly something else in
// ordinary text (the colours black and white) are left out: a white shirt
// is not a group. docs/classifiers-model.md says why these.
var anchorWords = [numAnchors][]string{
	append(identityWords[:len(identityWords):len(identityWords)], "people", "they", "them", "their", "those"),
	{"you", "your", "youre", "yourself", "u", "ur", "ya", "yours", "yall"},
	{"i", "me", "my", "myself", "im", "ive", "mine"},
	{"how", "ways", "steps", "write", "tell", "give", "explain", "describe", "generate", "create",
		"list", "guide", "tips", "instructions", "tutorial", "teach", "show", "easiest", "please", "pls", "plz"},
}

// numAnchors is the number of anchor classes; requestAnchor is the class
// that Features.Request turns on (the last one).
const (
	numAnchors    = 4
	requestAnchor = 3
)

// identityWords name a group of people by an identity that hate attacks
// (religion, origin, orientation, gender identity, gender, disability,
// age): the group anchor class without its generic words.
var identityWords = []string{"muslims", "muslim", "islam", "jews", "jew", "jewish", "christians", "christian", "blacks", "whites",
	"asians", "asian", "arabs", "arab", "africans", "african", "mexicans", "mexican", "latinos", "latino", "hispanics",
	"immigrants", "immigrant", "migrants", "refugees", "foreigners", "gays", "gay", "lesbians", "lesbian", "homosexuals",
	"homosexual", "trans", "transgender", "queers", "queer", "women", "woman", "females", "feminists", "hindus", "indians",
	"chinese", "disabled", "autistic", "elderly", "catholics", "atheists", "gypsies", "roma", "latinas"}

// NamesIdentity reports whether text (any case) holds one of the words
// that name a group of people by an identity (the group anchors of
// Features.Cross without people, they, them, their, those). Calibration
// uses it to hold benign text that names a group to its own ceiling.
func NamesIdentity(text string) bool {
	for len(text) > 0 {
		i := 0
		for i < len(text) && !isASCIILetter(text[i]) {
			i++
		}
		j := i
		for j < len(text) && isASCIILetter(text[j]) {
			j++
		}
		if j > i && j-i <= 16 {
			var buf [16]byte
			w := buf[:j-i]
			for k := range w {
				w[k] = text[i+k] | 0x20
			}
			for _, g := range identityWords {
				if string(w) == g {
					return true
				}
			}
		}
		text = text[j:]
	}
	return false
}

func isASCIILetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

// seedCross[k] marks the crosses with anchor class k.
var seedCross = [numAnchors]uint64{0x1d8e4e27c47d124f, 0x7a3c5f19b0e6d283, 0x5b2e9d4a81c7f063, 0x3f6a0c5d92e41b87}

// anchorEntry is one slot of anchorTable: a word hash and its classes.
type anchorEntry struct {
	h       uint64
	classes uint8
}

// anchorTable is an open-addressed table of the anchor words' hashes, by
// the hash's top byte with linear probing: one or two loads per word.
var anchorTable = func() (t [256]anchorEntry) {
	for k, ws := range anchorWords {
		for _, w := range ws {
			h := wordHash([]byte(w))
			i := h >> 56
			for t[i].h != 0 && t[i].h != h {
				i = (i + 1) & 255
			}
			t[i].h = h
			t[i].classes |= 1 << k
		}
	}
	return t
}()

// anchorFilter has bit h>>53 set for each anchor word's hash h: a word
// whose bit is clear is no anchor, which settles about 95% of the other
// words with one load from a table that stays in cache and a branch that
// is rarely taken (the table's probes, by contrast, miss often enough to
// be mispredicted).
var anchorFilter = func() (f [32]uint64) {
	for _, e := range anchorTable {
		if e.h != 0 {
			f[e.h>>59] |= 1 << (e.h >> 53 & 63)
		}
	}
	return f
}()

// anchorOf returns the anchor classes of the word with hash h (bit k:
// class k), 0 for most words.
func anchorOf(h uint64) uint8 {
	if anchorFilter[h>>59]>>(h>>53&63)&1 == 0 {
		return 0
	}
	return probeAnchor(h)
}

// probeAnchor is anchorOf without the filter: it probes anchorTable.
func probeAnchor(h uint64) uint8 {
	for i := h >> 56; ; i = (i + 1) & 255 {
		switch e := &anchorTable[i]; e.h {
		case h:
			return e.classes
		case 0:
			return 0
		}
	}
}

// crossBucket is the bucket of the word with hash h crossed with anchor
// class k.
func crossBucket(h uint64, k int, shift uint) uint32 {
	return uint32((h ^ seedCross[k]) * mix64 >> shift)
}

// isWordByte reports whether c belongs to a word of the normalized text:
// ASCII letters and digits, and every byte of a multi-byte UTF-8 sequence
// (normalized text keeps letters of other scripts as they are).
var isWordByte = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 0x80; c < 0x100; c++ {
		t[c] = true
	}
	return t
}()

// AppendFeatures appends the bucket of every feature of the normalized text
// s to dst, one entry per occurrence, and returns the extended slice.
// s must already be normalized (see Normalization.Append); training and
// inference both call this function, so they cannot drift apart.
func (f Features) AppendFeatures(dst []uint32, s []byte) []uint32 {
	shift := 64 - uint(f.Bits)&63
	minN, maxN := int(f.MinN), int(f.MaxN)
	long := int(f.Long)
	if minN == 0 {
		minN, maxN = 1, 0 // no n-grams
	}
	// The short-word path below writes up to 9-n candidate n-grams per
	// length n and keeps the valid ones; with the two word features that
	// is at most 8·grams+2 entries per word, and a word takes at least one
	// byte. Write by index into the grown slice, cut at the end.
	grams := maxN - minN + 1
	base := len(dst)
	bound := (len(s) + 1) * (8*grams + 2)
	var classes uint8
	mask := f.anchorMask()
	if mask != 0 {
		bound += (len(s) + 1) * numAnchors
	}
	bound++ // Length
	if cap(dst)-base < bound {
		dst = append(dst[:cap(dst)], make([]uint32, base+bound-cap(dst))...)
	}
	out := dst[base : base+bound]
	j := 0
	var prev uint64
	havePrev := false
	words := 0
	it := wordIter{s: s, blk: -64}
	for {
		start, end, more := it.word()
		if !more {
			break
		}
		L := end - start
		var h uint64
		if L <= 6 {
			// Short word: the padded word " w " fits in 8 bytes.
			x := packWord(s, start, end)
			h = shortWordHash(x, L)
			lead := ' '<<(8*uint(L)) | x // " w", first byte high
			v := lead<<8 | ' '           // " w "
			P := L + 2
			if long > 0 && L <= long {
				// Edge n-grams: the last n bytes of " w " and, when
				// longer than n, the first n.
				for n := minN; n <= maxN; n++ {
					if P < n {
						continue
					}
					mask, seed := gramMask[n&7|n&8], seedGram[n&7|n&8]
					out[j] = uint32((v&mask ^ seed) * mix64 >> shift)
					j++
					if P > n {
						out[j] = uint32((v>>(8*uint(P-n)&63)&mask ^ seed) * mix64 >> shift)
						j++
					}
				}
			}
			for n := minN; n <= maxN && (long == 0 || L > long); n++ {
				mask, seed := gramMask[n&7|n&8], seedGram[n&7|n&8]
				// Candidates end at P, P-1, … ; the first P-n+1 are real.
				o := out[j : j+8 : j+8]
				if n == 4 { // the shipped model's n, unrolled
					o[0] = uint32((v&mask ^ seed) * mix64 >> shift)
					o[1] = uint32((v>>8&mask ^ seed) * mix64 >> shift)
					o[2] = uint32((v>>16&mask ^ seed) * mix64 >> shift)
					o[3] = uint32((v>>24&mask ^ seed) * mix64 >> shift)
					o[4] = uint32((v>>32&mask ^ seed) * mix64 >> shift)
				} else {
					for t := 0; t <= 8-n; t++ {
						o[t&7] = uint32(((v>>(8*uint(t)&63))&mask ^ seed) * mix64 >> shift)
					}
				}
				if P >= n {
					j += P - n + 1
				}
			}
		} else {
			w := s[start:end]
			if long > 0 && L <= long {
				j = appendEdgeGrams(out, j, w, minN, maxN, shift)
			} else {
				j = appendGrams(out, j, w, minN, maxN, shift)
			}
			h = wordHash(w)
		}
		if f.Words {
			out[j] = uint32((h ^ seedWord) * mix64 >> shift)
			j++
		}
		if f.Bigrams && havePrev {
			out[j] = uint32(((prev * prime64) ^ h ^ seedBigram) * mix64 >> shift)
			j++
		}
		prev, havePrev = h, true
		words++
		if mask != 0 {
			classes |= anchorOf(h) & mask
		}
	}
	if classes != 0 {
		// A second pass: every word crossed with each class present.
		it := wordIter{s: s, blk: -64}
		for {
			start, end, more := it.word()
			if !more {
				break
			}
			var h uint64
			if L := end - start; L <= 6 {
				h = shortWordHash(packWord(s, start, end), L)
			} else {
				h = wordHash(s[start:end])
			}
			for k := range numAnchors {
				if classes&(1<<k) != 0 {
					out[j] = crossBucket(h, k, shift)
					j++
				}
			}
		}
	}
	if f.Length && words >= 1 && words <= maxLengthWords {
		out[j] = lengthBucket(words, shift)
		j++
	}
	return dst[:base+j]
}

// appendGrams writes the buckets of the character n-grams of the word w,
// padded with a space on both sides, to out[j:] and returns the new j.
// n-grams ending after the first maxWordGrams bytes of w are not taken.
func appendGrams(out []uint32, j int, w []byte, minN, maxN int, shift uint) int {
	last := min(len(w), maxWordGrams)
	trailing := len(w) < maxWordGrams
	for n := minN; n <= maxN; n++ {
		mask, seed := gramMask[n&7|n&8], seedGram[n&7|n&8]
		win := uint64(' ')
		// The n-gram ending at w[t] exists once t+2 ≥ n bytes of the
		// padded word are seen.
		warm := min(max(n-2, 0), last)
		for _, c := range w[:warm] {
			win = win<<8 | uint64(c)
		}
		for _, c := range w[warm:last] {
			win = win<<8 | uint64(c)
			out[j] = uint32((win&mask ^ seed) * mix64 >> shift)
			j++
		}
		if trailing && len(w)+2 >= n {
			win = win<<8 | ' '
			out[j] = uint32((win&mask ^ seed) * mix64 >> shift)
			j++
		}
	}
	return j
}

// appendEdgeGrams writes the buckets of the first and the last character
// n-gram of the word w padded with a space on both sides, for w of at least
// 7 bytes (so both exist and differ for n ≤ 8), to out[j:] and returns the
// new j.
func appendEdgeGrams(out []uint32, j int, w []byte, minN, maxN int, shift uint) int {
	var head, tail uint64 // first 7 bytes of w; last 7 bytes of w
	for _, c := range w[:7] {
		head = head<<8 | uint64(c)
	}
	for _, c := range w[len(w)-7:] {
		tail = tail<<8 | uint64(c)
	}
	lead := ' '<<56 | head // " " + w[:7]
	trail := tail<<8 | ' ' // w[len-7:] + " "
	for n := minN; n <= maxN; n++ {
		mask, seed := gramMask[n&7|n&8], seedGram[n&7|n&8]
		out[j] = uint32((lead>>(8*uint(8-n)&63)&mask ^ seed) * mix64 >> shift)
		out[j+1] = uint32((trail&mask ^ seed) * mix64 >> shift)
		j += 2
	}
	return j
}

// packWord returns the word s[start:end], at most eight bytes, as one
// number with its first byte highest.
func packWord(s []byte, start, end int) uint64 {
	if start+8 <= len(s) {
		return binary.BigEndian.Uint64(s[start:]) >> (64 - 8*uint(end-start))
	}
	var x uint64
	for _, c := range s[start:end] {
		x = x<<8 | uint64(c)
	}
	return x
}

// shortWordHash is wordHash of a word of L <= 6 bytes packed in x
// (packWord): the padded word fits in one chunk.
func shortWordHash(x uint64, L int) uint64 {
	lead := ' '<<(8*uint(L)) | x
	return ((seedWord^lead)*prime64 ^ uint64(L)) * prime64
}

// wordHash hashes the word w, padded with a leading space, FNV-style over
// 8-byte chunks (first byte in the high bits) and then its length.
func wordHash(w []byte) uint64 {
	h := seedWord
	acc := uint64(' ')
	k := 1
	for _, c := range w {
		acc = acc<<8 | uint64(c)
		k++
		if k&7 == 0 {
			h = (h ^ acc) * prime64
			acc = 0
		}
	}
	h = (h ^ acc) * prime64
	return (h ^ uint64(len(w))) * prime64
}
