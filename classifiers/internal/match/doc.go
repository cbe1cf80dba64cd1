// Package match is a multi-pattern matcher: an Aho–Corasick automaton
// compiled to a dense DFA over byte classes, with optional word-boundary
// checks per pattern. Scanning costs one table load per input byte whatever
// the number of patterns, allocates nothing when the caller's result slice
// has room, and a compiled Matcher is immutable and safe for concurrent use.
//
// A text of 256 bytes or more is scanned as four parts in lockstep (steps4),
// one of 48 to 255 bytes as two halves (scan2: a sentence with its context,
// as the analyzer hands the classifiers), in portable Go: an amd64 assembly version was removed, since it made no
// measurable difference end to end (docs/benchmarks.md, "Assembly kept or
// removed").
//
// It is internal to classifiers/. Dependencies: the standard library only.
// Imported by classifiers/lexicon (segmenter ← classifiers ← analyzer ←
// server ← cmd).
package match
