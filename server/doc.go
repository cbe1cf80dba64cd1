// Package server is the gRPC adapter: it implements rai.v1.AnalysisService on
// top of an analyzer.Analyzer, converts analyzer events to wire messages, and
// chooses every gRPC status code in one place (errorEnd).
//
// Stream topology: per stream, one receive loop (reads, analyzes, hands event
// batches on) and one send loop (the handler goroutine) joined by a bounded
// channel. Events are never dropped; a slow client applies back-pressure. The
// Completion is always the last event, sent exactly once, also on errors and
// at shutdown. When the drain deadline passes (or a stream's idle timeout),
// everything already queued, and a request still in analysis, is delivered
// before the Completion, and an end already decided (END_OF_STREAM) wins.
//
// Limits (WithLimits, DefaultLimits): streams in total (over it a stream ends
// at start with RESOURCE_EXHAUSTED), streams per connection, keepalive
// enforcement, connection age with a grace period, and a per-stream idle
// timeout. An Observer (WithObserver) is told about streams and sent events
// for metrics, in plain Go types; this package imports no metrics library.
//
// Dependencies: server imports analyzer, extract (error sentinels, source
// types), classifiers, gen/ and grpc-go (with its health and reflection
// services). No other package imports gen/ outside tests; cmd/raiserver
// reaches the wire types only through this package.
package server
