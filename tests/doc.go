// Package tests holds the end-to-end and reliability suites: a real server
// on a loopback TCP port (or an in-memory gRPC connection for the fuzz
// target), driven by gRPC clients, and the built cmd/raiserver binary for
// the process tests.
//
// Dependencies (test code only): the suite imports server, analyzer,
// classifiers and classifiers/ensemble to start the service, gen/ for the
// wire types, grpc-go and protobuf (proto, protojson) as a client would, and
// goleak.
//
// End-to-end: golden event transcripts in testdata/golden (rewrite with
// `go test ./tests -update` after checking the diff), the shared payload
// fixtures (skipped when ../shared is absent), SPEC's invariants on every
// transcript.
//
// Reliability (short mode by default; `go test ./tests -long` for the long
// mode; `-short` skips the tests that build the binary):
//
//   - TestLoadMixedAPIs: 1,000 concurrent streams mixing every API for 10 s
//     (60 s long); every transcript equals the analyzer's own events for its
//     requests and holds SPEC's invariants, and the live heap returns to
//     within 16 MiB of its baseline.
//   - TestCancelFreesStream: a cancelled stream's goroutines are gone within
//     100 ms (goleak) and its buffers are collectable.
//   - TestSIGTERMDeliversEverything: SIGTERM to the binary with open streams:
//     each gets every result, then exactly one Completion; the process exits
//     after the drain deadline.
//   - TestSlowReaderMemoryIsBounded: a client that never reads stalls its own
//     sends; the server's memory stays bounded.
//   - TestBadInputTable, TestMillionOneByteChunks (100,000 under -race
//     without -long), TestGarbageMessages: each bad input's status, and the
//     server healthy afterwards.
//   - FuzzStream: request sequences of every API, differential against the
//     analyzer; seeds in testdata/fuzz/FuzzStream
//     (`go test ./tests -run '^$' -fuzz '^FuzzStream$' -fuzztime 30s`).
//
// goleak checks the whole package for leaked goroutines (TestMain).
package tests
