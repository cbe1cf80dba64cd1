// Package normalize folds text into the form harm classifiers match against,
// keeping a map from every output byte back to the input, so findings made
// on normalized text are reported at exact ranges of the original.
//
// Normalization undoes the common evasions: NFKC compatibility forms
// (fullwidth, mathematical alphanumerics, circled and enclosed letters),
// combining diacritics and "Zalgo" marks, zero-width and bidi controls, soft
// hyphens, Cyrillic and Greek look-alikes, leetspeak in word context,
// stretched letters and words spelled as separated single letters.
// AppendFolds also reports what it folded (Folds: Runes, Controls, Leet,
// LeetEdge, Stretched, Spelled, Initials), so a caller learns how the text
// was spelled without reading it again; the ensemble's evasive-spelling
// signal is that report.
//
// This package alone decides which ASCII needs no normalization: the block
// path copies plain ASCII lower-cased 64, sixteen or eight bytes at a time
// and stops where a later pass (leetspeak, runs of three, separated
// spellings) may rewrite something; after a block that stopped in a
// stretch dense with such bytes (numbers, code) it leaves that block size
// alone for a block's length. On amd64 the 64- and 16-byte blocks are
// SSE2 assembly (lower16_amd64.s); the portable eight-byte path (block8),
// used with -tags purego and on other architectures, is the reference: tests
// hold the assembly's masks to a byte-by-byte definition and the whole of
// Append to a slow rune-by-rune version. Marks64 (word, digit and sentence
// punctuation bitmaps of 64 bytes, for the rule engine and the model) is
// portable Go. IsWordByte and IsSentenceBreak are the one definition of a
// word byte and of a sentence's end, for the rules and the ensemble.
//
// A Normalizer is immutable after New and safe for concurrent use; Append
// allocates nothing when dst and offs have room.
//
// It is internal to classifiers/. Dependencies: the standard library and
// golang.org/x/text only. Imported by classifiers/lexicon, classifiers/linear
// and classifiers/ensemble (segmenter ← classifiers ← analyzer ← server ←
// cmd).
package normalize
