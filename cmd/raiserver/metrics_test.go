package main

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
)

// startRun runs the server through run with args and returns its addresses;
// it stops at test cleanup.
func startRun(t *testing.T, args []string, env map[string]string) listening {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	ready := make(chan listening, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"--listen", "127.0.0.1:0"}, args...), func(k string) string { return env[k] }, io.Discard, ready)
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	})
	select {
	case la := <-ready:
		return la
	case err := <-done:
		t.Fatalf("run: %v", err)
	}
	return listening{}
}

// scrape fetches and parses /metrics.
func scrape(t *testing.T, addr string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/metrics: %s", resp.Status)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return mfs
}

// value returns the value of the series of family name whose labels include
// labels (pairs of name, value): a counter's or gauge's value, a histogram's
// sample count. Missing series fail the test.
func value(t *testing.T, mfs map[string]*dto.MetricFamily, name string, labels ...string) float64 {
	t.Helper()
	mf, ok := mfs[name]
	if !ok {
		t.Fatalf("no metric %s", name)
	}
next:
	for _, m := range mf.GetMetric() {
		for i := 0; i+1 < len(labels); i += 2 {
			found := false
			for _, lp := range m.GetLabel() {
				if lp.GetName() == labels[i] && lp.GetValue() == labels[i+1] {
					found = true
				}
			}
			if !found {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.GetCounter().GetValue()
		case m.Gauge != nil:
			return m.GetGauge().GetValue()
		case m.Histogram != nil:
			return float64(m.GetHistogram().GetSampleCount())
		}
	}
	t.Fatalf("no series %s%v", name, labels)
	return 0
}

// Realtime payloads with distinctive ids, to check that no id reaches a label.
const (
	promptItemID = "item_q7z3unique"
	responseID   = "resp_k3j9unique"
	outputItemID = "item_m8n1unique"
	promptText   = "Tell me about zorblax quint please. "
	outputText   = "Here is a calm answer. It has two sentences. "
)

func metricsRequests() []*raiv1.AnalyzeRequest {
	return []*raiv1.AnalyzeRequest{
		{SourceType: "PROMPT", ApiName: "Realtime", Payload: `{"type":"conversation.item.create","item":{"id":"` + promptItemID +
			`","type":"message","role":"user","content":[{"type":"input_text","text":"` + promptText + `"},{"type":"input_audio","audio":"AAAA"}]}}`},
		{SourceType: "COMPLETION", ApiName: "Realtime", Payload: `{"type":"response.output_text.delta","response_id":"` + responseID +
			`","item_id":"` + outputItemID + `","output_index":0,"content_index":0,"delta":"` + outputText + `"}`},
	}
}

// TestMetricsAfterStream runs a real stream over loopback against the server
// as run starts it, then scrapes /metrics and checks the service's series
// against the events the client received, the gRPC server metrics, and that
// no label carries text or ids.
func TestMetricsAfterStream(t *testing.T) {
	list := writeFile(t, "block.txt", "zorblax quint\tHATE\t3\n")
	cfg := writeFile(t, "c.json", `{"blocklists": ["`+list+`"]}`)
	la := startRun(t, []string{"--config", cfg, "--metrics-listen", "127.0.0.1:0"}, nil)
	if la.Metrics == "" {
		t.Fatal("no metrics address")
	}

	conn, err := grpc.NewClient(la.GRPC, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	stream, err := raiv1.NewAnalysisServiceClient(conn).Analyze(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range metricsRequests() {
		if err := stream.Send(r); err != nil {
			t.Fatal(err)
		}
	}
	stream.CloseSend()
	var results, watermarks, completions, blockingHate, noModel int
	wmBySource := map[raiv1.SourceType]int{}
	for {
		ev, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case ev.GetAnalysisResult() != nil:
			results++
			for _, tr := range ev.GetAnalysisResult().GetHarmCategoryTaskResults() {
				if tr.GetResult() == raiv1.Result_NoModel {
					noModel++
					break
				}
				if tr.GetIsBlocking() && tr.GetHarmCategoryTaskResult().GetHarmCategory() == raiv1.HarmCategory_HATE {
					blockingHate++
				}
			}
		case ev.GetWatermark() != nil:
			watermarks++
			wmBySource[ev.GetWatermark().GetSourceType()]++
		case ev.GetCompletion() != nil:
			completions++
		}
	}
	if blockingHate != 1 || noModel != 1 || completions != 1 || watermarks == 0 {
		t.Fatalf("transcript: %d results (%d blocking HATE, %d NoModel), %d watermarks, %d completions",
			results, blockingHate, noModel, watermarks, completions)
	}

	mfs := scrape(t, la.Metrics)
	checks := []struct {
		name   string
		labels []string
		want   float64
	}{
		{"raiserver_events_sent_total", []string{"kind", "analysis_result"}, float64(results)},
		{"raiserver_events_sent_total", []string{"kind", "watermark"}, float64(watermarks)},
		{"raiserver_events_sent_total", []string{"kind", "completion"}, 1},
		{"raiserver_blocking_results_total", []string{"source", "PROMPT", "category", "HATE"}, 1},
		{"raiserver_blocking_results_total", []string{"source", "COMPLETION", "category", "HATE"}, 0},
		{"raiserver_nomodel_results_total", []string{"source", "PROMPT"}, 1},
		{"raiserver_analyzed_bytes_total", []string{"source", "PROMPT"}, float64(len(promptText))},
		{"raiserver_analyzed_bytes_total", []string{"source", "COMPLETION"}, float64(len(outputText))},
		{"raiserver_watermark_lag_seconds", []string{"source", "PROMPT"}, float64(wmBySource[raiv1.SourceType_PROMPT])},
		{"raiserver_watermark_lag_seconds", []string{"source", "COMPLETION"}, float64(wmBySource[raiv1.SourceType_COMPLETION])},
		{"raiserver_streams_in_flight", nil, 0},
		{"raiserver_stream_ends_total", []string{"cause", "end_of_stream"}, 1},
		{"raiserver_stream_ends_total", []string{"cause", "rejected"}, 0},
		{"raiserver_segment_deadline_exceeded_total", []string{"fail_mode", "closed"}, 0},
		{"grpc_server_started_total", []string{"grpc_method", "Analyze", "grpc_type", "bidi_stream"}, 1},
		{"grpc_server_handled_total", []string{"grpc_method", "Analyze", "grpc_code", "OK"}, 1},
		{"grpc_server_msg_received_total", []string{"grpc_method", "Analyze"}, 2},
		{"grpc_server_msg_sent_total", []string{"grpc_method", "Analyze"}, float64(results + watermarks + completions)},
		{"grpc_server_handling_seconds", []string{"grpc_method", "Analyze"}, 1},
	}
	for _, c := range checks {
		if got := value(t, mfs, c.name, c.labels...); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	// Segments: the prompt is one sentence, the output two.
	if got := value(t, mfs, "raiserver_segment_analysis_seconds"); got != 3 {
		t.Errorf("raiserver_segment_analysis_seconds count = %v, want 3", got)
	}

	// No label value holds analyzed text or an id; label names are a known set.
	allowed := map[string]bool{"cause": true, "kind": true, "source": true, "category": true, "fail_mode": true,
		"grpc_type": true, "grpc_service": true, "grpc_method": true, "grpc_code": true, "le": true, "quantile": true,
		"version": true}
	secrets := append(strings.Fields(promptText+outputText), promptItemID, responseID, outputItemID, "q7z3", "k3j9", "m8n1")
	for name, mf := range mfs {
		for _, m := range mf.GetMetric() {
			for _, lp := range m.GetLabel() {
				if !allowed[lp.GetName()] {
					t.Errorf("%s: unexpected label %s=%q", name, lp.GetName(), lp.GetValue())
				}
				for _, s := range secrets {
					if len(s) > 3 && strings.Contains(strings.ToLower(lp.GetValue()), strings.ToLower(strings.Trim(s, ".,"))) {
						t.Errorf("%s: label %s=%q holds text or an id", name, lp.GetName(), lp.GetValue())
					}
				}
			}
		}
	}

	resp, err := http.Get("http://" + la.Metrics + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("/healthz: %s", resp.Status)
	}
}

func TestMetricsOffByDefault(t *testing.T) {
	la := startRun(t, nil, nil)
	if la.Metrics != "" {
		t.Errorf("metrics listening on %s without --metrics-listen", la.Metrics)
	}
}
