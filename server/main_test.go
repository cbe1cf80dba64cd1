package server

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if a stream or server goroutine outlives them.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
