// Package train builds the linear model from labelled data: it loads every
// public data set under ../shared/data and hand-written TSV examples
// (labelled files, also a user's own rows for bench/quality: ReadLabelled), maps
// their labels to per-category targets and weights (the loaders in data.go
// and shared.go; Datasets says which sets may train a shipped model and at
// what weight), splits rows into train and dev by a hash of their ids
// (IsDev; every row of a calibration-only file, Corpus.AddCalibration, is
// a dev row), adds the server windows of long benign texts as negatives
// (Windows: segments with their context, as the analyzer classifies),
// fits one L2-regularized logistic regression per category (over the
// hashed features and, with Config.Vectors, the standardized pooled word
// vectors of classifiers/vectors as dense columns; with Config.SetBias,
// an intercept per data set that the model leaves out) with
// deterministic full-batch L-BFGS, with Config.Conv then fits the phrase
// term (linear.ConvTerm) by Adam with a fixed order, or reuses one
// (ConvConfig.From, ReadConvNet, ConvNet.WriteTo), and chooses its blend
// per category (conv.go), calibrates the severity thresholds on
// the dev split scored item by item as the server scores (Calibrate), and
// measures the result (Evaluate, AveragePrecision).
//
// It never logs or returns row text: errors name files and line numbers,
// reports hold counts and rates. cmd/rai-train is its command line and
// bench/quality reuses its loaders, split and metrics.
//
// Dependencies: classifiers, linear, vectors, analyzer (its context size)
// and segmenter ← train ← cmd/rai-train, bench/quality.
// The server does not import it.
package train
