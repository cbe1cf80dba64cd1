//go:build race

package normalize

// raceEnabled: the race detector slows the single-goroutine differential
// tests tenfold and finds nothing in them, so some run smaller.
const raceEnabled = true
