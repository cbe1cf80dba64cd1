// Package tests holds the end-to-end suite: a real server on a loopback TCP
// port, driven by a gRPC client, with a goroutine-leak check (goleak) over the
// whole package, golden event transcripts in testdata/golden (rewrite with
// `go test ./tests -update` after checking the diff), the shared payload
// fixtures (skipped when ../shared is absent), and a test of the built binary.
//
// Dependencies (test code only): the suite imports server, analyzer,
// classifiers and classifiers/ensemble to start the service, gen/ for the wire
// types, grpc-go and protobuf (proto, protojson) as a client would, and goleak.
package tests
