// Package analyzer turns a stream of API payloads into analysis events:
// AnalysisResults for segments where harm is found (and for content that
// carries no analyzable text), and Watermarks that say how far each text item
// is analyzed and safe.
//
// An Analyzer is immutable and shared; each stream gets a Session, which is not
// safe for concurrent use. Session.Process extracts the text pieces of one
// payload (package extract), appends them to their items, cuts every item's new
// text into segments (package segmenter; WithMaxSegmentBytes and
// WithMinSegmentBytes bound their length) and classifies each segment as soon as
// its end is known, with up to ContextBytes of the text before it so that a
// phrase split across a segment border is still found. Session.Finish analyzes
// what is left when the client half-closes.
//
// Classification is synchronous CPU work. WithSegmentDeadline sets a wall-time
// budget per segment, checked when the classifier returns; a late segment is
// reported blocking (FailClosed, the default mode) or with the classifier's own
// result (FailOpen). An Observer (WithObserver) is told each segment's source,
// length, classification time and lateness, for metrics; the package itself
// imports no metrics library.
//
// Event rules (SPEC §3): per item, watermarks only grow, never pass received
// text and never pass the start of a blocking segment; a result is appended
// before any watermark that covers it. Errors name the problem, never the text.
//
// Dependencies: analyzer imports classifiers (the Classifier interface and
// its types), extract and segmenter, and the standard library. They point
// one way:
//
//	segmenter, classifiers, extract ← analyzer ← server (the gRPC adapter,
//	the only user of gen/) ← cmd/raiserver
//
// This package speaks plain Go types and never imports gen/.
package analyzer
