// Command rai-train trains the linear harm model shipped in
// classifiers/linear/model from the labelled public data in ../shared/data
// and the hand-written examples in cmd/rai-train/synthetic.tsv,
// synthetic-sexual-context.tsv and the three synthetic-prose-*.tsv files,
// reusing
// the phrase term in classifiers/linear/model/phrase-term.gob (-conv-load;
// empty fits a new one, -conv-save writes the fitted one).
//
//	go run ./cmd/rai-train            # writes weights.bin.gz and MANIFEST.json
//	go run ./cmd/rai-train -lodo      # also leave-one-dataset-out metrics
//
// The run is deterministic: the same inputs and flags give byte-identical
// weights and manifest on the same GOARCH. Only aggregate numbers are
// printed; no row text ever is.
//
// It depends on classifiers/linear/train (the data sets, the label mapping,
// the splits, the optimizers and the calibration), classifiers/linear (the
// model it writes) and classifiers (the categories).
package main
