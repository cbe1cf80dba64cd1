// Package classify holds the speed comparison of the whole classification
// stack (ensemble.Default: normalization, rules and the linear model) with
// github.com/TwiN/go-away on the same inputs:
//
//	go test -run='^$' -bench=. -benchmem ./bench/classify
//
// Inputs are 2 KiB of English chat text (ASCII2K) and of mixed scripts
// (MixedScript2K). MB/s and allocations are reported in the same run; see
// docs/classifiers-model.md for the numbers and the machine.
package classify
