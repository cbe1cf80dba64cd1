// Command raiserver runs the content-safety analysis service.
//
// It listens for gRPC on --listen (env RAI_LISTEN, default :50051), serves
// rai.v1.AnalysisService, gRPC server reflection and grpc.health.v1, and runs
// on embedded defaults: no configuration file and no network are needed.
// With --metrics-listen it also serves Prometheus metrics and /healthz over
// HTTP; with the standard OTEL_* variables it traces streams over OTLP.
// See docs/configuration.md and docs/operations.md.
//
// It depends on analyzer (the per-stream pipeline) and server (the gRPC
// service), on classifiers, classifiers/ensemble, classifiers/lexicon and
// classifiers/linear for the stack it loads (embedded defaults, or a lexicon
// and model named in the configuration), on metrics for the Prometheus
// registry, on google.golang.org/grpc, and on OpenTelemetry (otel, otelgrpc,
// the OTLP trace exporters over grpc and http) for tracing.
package main
