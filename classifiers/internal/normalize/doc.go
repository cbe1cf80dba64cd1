// Package normalize folds text into the form harm classifiers match against,
// keeping a map from every output byte back to the input, so findings made
// on normalized text are reported at exact ranges of the original.
//
// Normalization undoes the common evasions: NFKC compatibility forms
// (fullwidth, mathematical alphanumerics, circled and enclosed letters),
// combining diacritics and "Zalgo" marks, zero-width and bidi controls, soft
// hyphens, Cyrillic and Greek look-alikes, leetspeak in word context,
// stretched letters and words spelled as separated single letters. Plain
// lower-case ASCII goes through a fast path.
//
// A Normalizer is immutable after New and safe for concurrent use; Append
// allocates nothing when dst and offs have room.
//
// Dependencies: the standard library and golang.org/x/text only. The
// classifiers build on it: normalize ← lexicon, linear (segmenter ←
// classifiers ← analyzer ← server ← cmd).
package normalize
