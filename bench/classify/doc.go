// Package classify holds the speed comparison of the whole classification
// stack (ensemble.Default: normalization, rules and the linear model) with
// github.com/TwiN/go-away on the same inputs:
//
//	go test -run='^$' -bench=. -benchmem ./bench/classify
//
// Inputs are 2 KiB of English chat text (ASCII2K, one paragraph repeated;
// ASCIIHomonyms2K, dense with words the rules must look at twice;
// ASCIIVaried2K, a different 2 KiB window of twelve answers each call) and
// of mixed scripts (MixedScript2K), and social-media chat, a code block
// and a table of numbers (Hashtags2K, Code2K, Table2K). BenchmarkStack
// classifies each whole; BenchmarkStackSegments and
// BenchmarkStackSegmentShapes classify a text as the analyzer does, segment
// by segment with the context before each (train.Windows);
// BenchmarkStackSegmentsContext does it with each context size the
// analyzer can be set to (analyzer.WithContextBytes). MB/s and allocations are
// reported in the same run; see docs/benchmarks.md for the numbers and the
// machine.
// BenchmarkHostChain is a control that needs neither memory nor more than
// one port of the core: when the stack's numbers swing and it does not,
// the host's shared core, not the code, moved.
//
// Dependencies (test code only, in the bench module, bench/go.mod):
// analyzer, classifiers, classifiers/ensemble, classifiers/lexicon,
// classifiers/linear and classifiers/linear/train (the analyzer's windows),
// and github.com/TwiN/go-away as the yardstick.
package classify
