// Package stream benchmarks whole streams through the real gRPC service over
// an in-memory connection (bufconn), with the default classifier stack:
// payload decoding, extraction, segmentation, classification and event
// encoding, without the kernel's network stack. bench/ghz.sh measures the
// same over loopback TCP from a separate process.
//
//	go test -run='^$' -bench=. -benchmem ./bench/stream
//
// Dependencies (test code only, in the bench module, bench/go.mod): server,
// analyzer, classifiers/ensemble, gen/ for the wire types, grpc-go with its
// bufconn listener, and goleak (no goroutine may outlive a run).
package stream
