// Package linear is a learned harm classifier: one logistic regression per
// category (HATE, SEXUAL, VIOLENCE, SELF_HARM) over hashed features of the
// normalized text — word unigrams, word bigrams and character n-grams of
// words (only the first and last of short words; see Features.Long), and
// every word crossed with the anchor classes the text holds (a group of
// people, the second person, the first person, Features.Cross; a request
// to an assistant, Features.Request) —
// computed with an inline FNV-style hash, no allocation per call. Weights
// are int8 with one power-of-two scale per category, so the shipped table
// (2^16 buckets) stays in a core's L2 cache.
//
// Scores normalizes with classifiers/internal/normalize (which alone
// decides what text needs folding) and then, for the shipped feature set,
// takes a fast path: one pass over the words that adds up their weights, a
// short word's own features memoized; it is checked against the ordinary
// featurization by a differential test. ScoresNormalized takes text the
// normalizer has already produced, in any script, for callers that
// normalize once for several classifiers, and adds up its words the same
// way; ScoresNormalizedUnknown also reports whether a word of four bytes
// or more was not in the word-vector table (Vocabulary), which the
// ensemble uses to skip looking for misspelled words in most texts.
//
// A model may also carry a word-vector term (Params.Vectors, VectorTerm):
// the mean and the IDF-weighted mean of the GloVe vectors
// (classifiers/vectors) of the text's words, weighted per category and
// added to the log-odds, so that words the training data never held count
// by their meaning. Both pools are linear, so at load each word of the
// table becomes a row of per-category scalars and the term costs one
// lookup (memoized per scratch for short words) and a few adds per word.
// Model files with the term are version 3 (RAILIN3); version-2 files load
// as before, with no term.
//
// A model with a vector term may also carry a phrase term (Params.Conv,
// ConvTerm, version 4: RAILIN4): a convolution of three consecutive words
// over their vectors, 64 filters, a ReLU and the maximum over positions,
// read out per category and weighted by the share of the text's words the
// table holds (TableWords, which also splits a word of spelled-out letters
// that normalization joined back, or a hashtag, into the table's words;
// each pooled scratch remembers its last splits, so a conversation pays
// for each joined word once). A word's
// quantized row is computed the first time a text holds it and kept
// (lock-free); the positions run in AVX2 assembly on amd64
// (convmax_amd64.s) and elsewhere, or under the purego tag, in portable Go
// eight filters per 64-bit step (SWAR); the tests hold both to a
// one-filter-at-a-time definition. BeginNormalized scores a text in two
// stages (Staged): everything but the phrase term first, so that a caller
// (the ensemble's cascade) can read the scores with the term counted as
// absent (Partial, PartialBelow) and add it (Finish) only when that could
// change its decision; Finish gives ScoresNormalized's scores exactly.
//
// A Model is immutable after Load and safe for concurrent use; per-call
// scratch comes from a sync.Pool. Scores gives one probability per category
// for a whole text; Classify maps those probabilities to segment-level
// findings (Start 0, End len(text)) with severity thresholds that were
// calibrated on the development split and are stored in the model file.
//
// The weights shipped with the package (model/weights.bin.gz, loaded by
// Default) are produced by cmd/rai-train; model/MANIFEST.json records how.
// The train subpackage holds the training code; it is not needed to serve.
//
// Dependencies: classifiers ← linear (and classifiers/internal/normalize
// for the text normalization shared by training and inference,
// classifiers/vectors for the word vectors, loaded only by a model with a
// vector term; golang.org/x/sys/cpu to ask for AVX2).
package linear
