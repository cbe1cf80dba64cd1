//go:build !unix

package vectors_test

import "time"

func cpuTime() (time.Duration, bool) { return 0, false }
