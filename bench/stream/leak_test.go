package stream

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests and benchmarks when a server or
// stream goroutine outlives them.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
