// Package classifiers defines what a harm classifier is: a tiny interface
// that appends findings (category, severity 1–5, byte range, rule id) for a
// text into a caller-owned slice, so that classification allocates nothing per
// segment. Optional abilities (Closer, Readier) are found by type assertion.
//
// Implementations live in subpackages: normalize (evasion-proof text
// normalization with an offset map), lexicon (terms and phrase rules), linear
// (a learned linear model) and ensemble (the combination the server runs).
//
// Dependencies point one way: segmenter ← classifiers ← analyzer ← server ←
// cmd. This package imports only the standard library.
package classifiers
