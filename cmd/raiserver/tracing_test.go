package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/protobuf/proto"

	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"

	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
)

func TestTracingEnabled(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want bool
	}{
		{nil, false},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}, true},
		{map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://collector:4318/v1/traces"}, true},
		{map[string]string{"OTEL_TRACES_EXPORTER": "otlp"}, true},
		{map[string]string{"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"}, false},
		{map[string]string{"OTEL_SDK_DISABLED": "true", "OTEL_TRACES_EXPORTER": "otlp"}, false},
	}
	for _, tt := range tests {
		if got := tracingEnabled(func(k string) string { return tt.env[k] }); got != tt.want {
			t.Errorf("%v: enabled = %v, want %v", tt.env, got, tt.want)
		}
	}
	env := map[string]string{"OTEL_TRACES_EXPORTER": "zipkin"}
	if _, _, err := setupTracing(context.Background(), func(k string) string { return env[k] }); err == nil {
		t.Error("unsupported exporter accepted")
	}
}

// TestTracingExportsStreamSpans points the OTLP/HTTP exporter at a loopback
// receiver through the standard environment, runs a stream and a health
// check, and checks that the stream's span (and no health check span) arrives
// when the server stops, with no analyzed text in it.
func TestTracingExportsStreamSpans(t *testing.T) {
	var mu sync.Mutex
	var spans []string
	var raw [][]byte
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req coltrace.ExportTraceServiceRequest
		if r.URL.Path != "/v1/traces" || proto.Unmarshal(body, &req) != nil {
			http.Error(w, "bad export", http.StatusBadRequest)
			return
		}
		mu.Lock()
		raw = append(raw, body)
		for _, rs := range req.GetResourceSpans() {
			for _, ss := range rs.GetScopeSpans() {
				for _, s := range ss.GetSpans() {
					spans = append(spans, s.GetName())
				}
			}
		}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
		b, _ := proto.Marshal(&coltrace.ExportTraceServiceResponse{})
		w.Write(b)
	}))
	defer recv.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", recv.URL)
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ready := make(chan listening, 1)
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"--listen", "127.0.0.1:0"}, os.Getenv, io.Discard, ready) }()
	var la listening
	select {
	case la = <-ready:
	case err := <-done:
		t.Fatalf("run: %v", err)
	}
	conn, err := grpc.NewClient(la.GRPC, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{}); err != nil {
		t.Fatal(err)
	}
	s, err := raiv1.NewAnalysisServiceClient(conn).Analyze(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range metricsRequests() {
		s.Send(r)
	}
	s.CloseSend()
	for {
		if _, err := s.Recv(); err != nil {
			break
		}
	}
	conn.Close()
	cancel() // stops the server; the tracer provider flushes on the way out
	if err := <-done; err != nil {
		t.Fatalf("run: %v", err)
	}

	mu.Lock()
	defer mu.Unlock()
	if len(spans) != 1 || spans[0] != "rai.v1.AnalysisService/Analyze" {
		t.Fatalf("spans %q, want one rai.v1.AnalysisService/Analyze", spans)
	}
	for _, b := range raw {
		for _, secret := range []string{"zorblax", "calm answer", promptItemID, responseID} {
			if strings.Contains(string(b), secret) {
				t.Errorf("exported spans hold %q", secret)
			}
		}
	}
}
