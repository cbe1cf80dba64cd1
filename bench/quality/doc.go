// Command quality scores harm classifiers on the labelled public data in
// ../shared/data and prints aggregate metrics only (never row text):
//
//	go run ./bench/quality                          # the ensemble
//	go run ./bench/quality -classifier=ensemble,lexicon,linear,goaway
//	go run ./bench/quality -no-obfuscation -leaks   # with the leak matrix
//	go run ./bench/quality -rows mine.tsv           # your own labelled rows
//
// With -rows FILE it scores only the rows of FILE, labelled by the user
// ("labels<TAB>text" lines, the format of the hand-written training rows:
// train.ReadLabelled), and prints what each blockAt (LOW, MEDIUM, HIGH)
// would do per category and the ids (file:line) of the rows each category
// gets wrong at the default; it needs no ../shared/data. -context,
// -min-segment and -blocklist (repeatable) score as a server with those
// settings would.
//
// Rows are labelled with the same mapping the model is trained with
// (classifiers/linear/train, documented in docs/classifiers-model.md).
// Each row is scored the way the server scores an item: cut into segments
// with their context (train.Windows; -context N scores as a server whose
// contextBytes is N), each classified, a finding that ends in the context
// left to the window before, the item as harmful as its worst window. A
// finding blocks at severity ≥ 2 (MEDIUM, the default threshold of SPEC
// §4).
//
// Average precision is reported twice. AP ranks the rows by severity, the
// only ranking a client of the service sees (rows of equal severity are
// one threshold, as scikit-learn counts ties); it is the figure to compare
// with other services. AP score breaks ties between equal severities by
// the model's largest window probability, which the API does not expose:
// it measures the model's ranking, not what a user can rank by.
//
// The "eval" rows of a set are the rows the shipped model never trained
// on: the dev split (FNV-1a of the row id mod 5 == 0) of the sets it trains
// on, the other rows of the development-only sets (their dev split
// calibrates the thresholds), and every row of the probes (XSTest,
// SimpleSafetyTests). With -lodo DIR (models from rai-train -lodo
// -lodo-out DIR) each trainable set is also scored whole by the model
// trained without it: the honest estimate for data never seen.
//
// The obfuscation table (skipped with -no-obfuscation) scores a sample of
// the positive and benign rows again rewritten as evaders write (look-alike
// letters, invisible characters, leetspeak, stretched and spelled-out
// letters: obfuscate.go) and reports recall relative to the clean rows.
// The three -profanity rows touch only the words of the public profanity
// list in ../shared/data (surge_profanity), as people do: masked-profanity
// hides a letter behind an asterisk ("k*ll"), broken-profanity puts a dot
// inside ("ki.ll"), swapped-profanity swaps the two middle letters
// ("klil").
//
// When ../shared/data is absent it prints a message and exits 0.
//
// It depends on classifiers, classifiers/ensemble, classifiers/lexicon and
// classifiers/linear (the classifiers it scores), on classifiers/linear/train
// for the data sets, their label mapping, splits and the server's windows,
// on analyzer for its default context and its bound, and on
// github.com/TwiN/go-away, the word-list baseline scored in the same run.
package main
