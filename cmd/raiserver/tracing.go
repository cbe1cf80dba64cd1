package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"
	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc/filters"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"google.golang.org/grpc"
)

// tracingEnabled tells from the standard OpenTelemetry environment whether
// to trace: off unless OTEL_TRACES_EXPORTER names an exporter (other than
// "none") or an OTLP endpoint is set, and always off with OTEL_SDK_DISABLED=true.
func tracingEnabled(getenv func(string) string) bool {
	if strings.EqualFold(getenv("OTEL_SDK_DISABLED"), "true") {
		return false
	}
	if e := getenv("OTEL_TRACES_EXPORTER"); e != "" {
		return !strings.EqualFold(e, "none")
	}
	return getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// setupTracing returns the otelgrpc stats handler that traces every stream
// (one span per RPC; health checks are not traced) and a function that
// flushes and stops the exporter, or nil, nil when tracing is off.
//
// Spans go to an OTLP exporter, over HTTP/protobuf (the OpenTelemetry
// default) or gRPC as OTEL_EXPORTER_OTLP_TRACES_PROTOCOL or
// OTEL_EXPORTER_OTLP_PROTOCOL say. The exporters read the other
// OTEL_EXPORTER_OTLP_* variables (endpoint, headers, certificates, timeout,
// compression) themselves; the SDK reads OTEL_TRACES_SAMPLER(_ARG),
// OTEL_BSP_* and OTEL_SERVICE_NAME / OTEL_RESOURCE_ATTRIBUTES (the service
// name defaults to raiserver). Trace context is taken from W3C traceparent
// and baggage metadata.
func setupTracing(ctx context.Context, getenv func(string) string) (grpc.ServerOption, func(context.Context) error, error) {
	if !tracingEnabled(getenv) {
		return nil, nil, nil
	}
	if e := getenv("OTEL_TRACES_EXPORTER"); e != "" && !strings.EqualFold(e, "otlp") {
		return nil, nil, fmt.Errorf("OTEL_TRACES_EXPORTER %q: only otlp (or none) is supported", e)
	}
	protocol := firstNonEmpty(getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"), getenv("OTEL_EXPORTER_OTLP_PROTOCOL"), "http/protobuf")
	var (
		exp sdktrace.SpanExporter
		err error
	)
	switch protocol {
	case "grpc":
		exp, err = otlptracegrpc.New(ctx)
	case "http/protobuf":
		exp, err = otlptracehttp.New(ctx)
	default:
		return nil, nil, fmt.Errorf("OTLP protocol %q: want grpc or http/protobuf", protocol)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("tracing: %w", err)
	}
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", "raiserver")),
		resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil && !errors.Is(err, resource.ErrPartialResource) {
		return nil, nil, fmt.Errorf("tracing resource: %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	h := otelgrpc.NewServerHandler(
		otelgrpc.WithTracerProvider(tp),
		otelgrpc.WithPropagators(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})),
		otelgrpc.WithFilter(filters.Not(filters.HealthCheck())),
	)
	return grpc.StatsHandler(h), tp.Shutdown, nil
}
