// Package classifiers defines what a harm classifier is: a tiny interface
// that appends findings (category, severity 1–5, byte range, rule id) for a
// text into a caller-owned slice, so that classification allocates nothing per
// segment. Optional abilities (Closer, Readier) are found by type assertion.
//
// Implementations live in subpackages: lexicon (terms and phrase rules),
// linear (the learned model: hashed n-grams and pooled word vectors),
// vectors (the GloVe word-vector table), and ensemble (the combination the
// server runs); internal/normalize (evasion-proof text normalization with an
// offset map) and internal/match (the Aho–Corasick matcher) serve them.
//
// Dependencies point one way: classifiers ← analyzer ← server ← cmd (the
// analyzer also imports segmenter and extract; classifiers imports neither).
// This package imports only the standard library.
package classifiers
