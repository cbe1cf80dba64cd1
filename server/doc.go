// Package server is the gRPC adapter: it implements rai.v1.AnalysisService on
// top of an analyzer.Analyzer, converts analyzer events to wire messages, and
// chooses every gRPC status code in one place (errorEnd).
//
// Stream topology: per stream, one receive loop (reads, analyzes, hands event
// batches on) and one send loop (the handler goroutine) joined by a bounded
// channel. Events are never dropped; a slow client applies back-pressure. The
// Completion is always the last event, sent exactly once, also on errors and
// at shutdown.
//
// Dependencies: server imports analyzer, extract (for its error sentinels),
// classifiers and gen/; only server and cmd/raiserver import gen/.
package server
