// Package metrics exports raiserver's Prometheus metrics: the gRPC server
// metrics of go-grpc-middleware's Prometheus provider (grpc_server_*), the Go
// runtime and process collectors, and the service's own raiserver_* series
// (streams in flight and their ends by cause, events sent by kind, blocking
// results by source and category, NoModel results, bytes analyzed, segment
// analysis time, watermark lag, segment deadline overruns).
//
// Metrics implements server.Observer and analyzer.Observer structurally, so
// those packages import no metrics library; Handler serves /metrics and
// /healthz for the --metrics-listen HTTP listener. Every label comes from a
// small fixed set (source, category, kind, cause, fail mode, gRPC method and
// code): never text, never message ids. docs/operations.md lists every series.
//
// Dependencies: metrics imports prometheus/client_golang, the go-grpc-middleware
// Prometheus provider, grpc-go, and analyzer, classifiers and extract for their
// plain types. Only cmd/raiserver imports it:
//
//	analyzer, classifiers, extract ← metrics ← cmd/raiserver
package metrics
