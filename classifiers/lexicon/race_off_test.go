//go:build !race

package lexicon_test

const raceEnabled = false
