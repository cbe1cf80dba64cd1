//go:build !race

package linear_test

const raceEnabled = false
