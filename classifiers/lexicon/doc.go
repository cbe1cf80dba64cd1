// Package lexicon is the rule classifier: lexicon terms, phrase rules with
// small gaps and context rules, matched on normalized text
// (classifiers/internal/normalize) with Aho–Corasick automata
// (classifiers/internal/match).
//
// The embedded data (data/terms.tsv, data/classes.txt, data/rules.txt,
// data/masked.txt; see docs/classifiers-rules.md) gives:
//
//   - terms: words and phrases with a category and a severity; a lone
//     ambiguous word is LOW (1), a slur or an explicit phrase MEDIUM–HIGH;
//   - phrase rules over word classes: first-person threats, method seeking,
//     self-harm intent, dehumanizing statements about protected groups,
//     sexual content involving minors (severity 5), …;
//   - suppress rules for homonyms and idioms ("kill a process", "shoot a
//     photo", "a killer deal") and context modifiers that lower severity in
//     game, fiction, history, news, definition, recovery and counter-speech
//     contexts;
//   - hold rules for counter-speech and negated claims about a group
//     ("saying X are Y is racist", "X are not Y"): they suppress the trait
//     word like a suppress rule and report a LOW finding whose rule id
//     starts with classifiers.HoldPrefix, which a combiner keeps at LOW;
//   - target flags on rules (self, other): when two categories read one harm
//     word, harm aimed at someone else is not self-harm and harm aimed at
//     oneself is not violence (findings.go, yield);
//   - respelled words: Respell reads back a word hidden behind asterisks
//     ("k*ll": Unmask, unmask.go), broken by inner punctuation ("ki.ll")
//     or misspelled ("klil", "suicde"; checked against a Dictionary, by
//     default the word vectors' vocabulary) as one of the single-word
//     terms, the group names of classes.txt or the profanity of
//     data/masked.txt (respell.go); Classify does it after normalizing,
//     and the ensemble before the rules and the model.
//
// Findings report byte ranges of the original text (through the
// normalizer's offset map) and a stable rule id ("lex:violence:1a2b3c4d",
// "phrase:threat-will", "hold:hate-negated"), never text. Custom blocklists and a category subset
// are options of New.
//
// A Classifier is immutable after New and safe for concurrent use; per-call
// scratch comes from a sync.Pool and Classify allocates nothing in steady
// state. Text without any trigger word costs one normalization, one
// respelling pass and one automaton scan. ClassifyNormalized takes text a caller has already
// normalized and respelled (the ensemble does both once for the rules and
// the model).
//
// The code is split by concern: classify.go (entry points and per-call
// scratch), scan.go (trigger scan and the leet '1' readings), sentences.go
// (sentence spans and the token/sentence walker), mayfind.go (the shortcut
// that proves no finding is possible), events.go (events from matches),
// rules.go (suppress, find and modify rules), findings.go (context
// modifiers and findings in source offsets), unmask.go (masked words),
// respell.go (broken and misspelled words);
// lexicon.go and parse.go build a Classifier from the embedded data.
//
// Dependencies: lexicon imports classifiers, classifiers/internal/normalize,
// classifiers/internal/match and classifiers/vectors (the default
// Dictionary) (segmenter ← classifiers ← analyzer ← server ← cmd).
package lexicon
