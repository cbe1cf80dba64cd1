//go:build race

package tests

// raceEnabled says the race detector is on: some tests shorten their
// inputs, since it makes them an order of magnitude slower.
const raceEnabled = true
