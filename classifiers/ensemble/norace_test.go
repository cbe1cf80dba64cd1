//go:build !race

package ensemble_test

const raceEnabled = false
