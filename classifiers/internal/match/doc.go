// Package match is a multi-pattern matcher: an Aho–Corasick automaton
// compiled to a dense DFA over byte classes, with optional word-boundary
// checks per pattern. Scanning costs one table load per input byte whatever
// the number of patterns, allocates nothing when the caller's result slice
// has room, and a compiled Matcher is immutable and safe for concurrent use.
//
// Dependencies: the standard library only. It is used by
// classifiers/lexicon (segmenter ← classifiers ← analyzer ← server ← cmd).
package match
