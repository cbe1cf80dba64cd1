package metrics_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"go.uber.org/goleak"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/classifiers"
	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
	"github.com/openrai/raiserver/metrics"
	"github.com/openrai/raiserver/server"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// slowClassifier sleeps on segments that hold "slow" (so a shorter deadline
// is always overrun) and finds nothing.
type slowClassifier struct{}

func (slowClassifier) Classify(dst []classifiers.Finding, text []byte) []classifiers.Finding {
	if bytes.Contains(text, []byte("slow")) {
		time.Sleep(5 * time.Millisecond)
	}
	return dst
}

// start serves a server observed by fresh Metrics on loopback.
func start(t *testing.T, l server.Limits, aopts ...analyzer.Option) (*metrics.Metrics, raiv1.AnalysisServiceClient) {
	t.Helper()
	m := metrics.New(server.EndCauses)
	a, err := analyzer.New(slowClassifier{}, append(aopts, analyzer.WithObserver(m), analyzer.WithContextBytes(0))...)
	if err != nil {
		t.Fatal(err)
	}
	srv := server.NewServer(a, server.WithLimits(l), server.WithObserver(m), server.WithGRPCOptions(m.GRPCOptions()...))
	m.InitGRPC(srv.GRPC)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(lis)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(); srv.Shutdown(time.Second) })
	return m, raiv1.NewAnalysisServiceClient(conn)
}

// get returns the value of a counter or gauge series, or -1 if it is absent.
func get(t *testing.T, m *metrics.Metrics, name string, labels ...string) float64 {
	t.Helper()
	mfs, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, s := range mf.GetMetric() {
			if match(s, labels) {
				if s.Counter != nil {
					return s.GetCounter().GetValue()
				}
				return s.GetGauge().GetValue()
			}
		}
	}
	return -1
}

func match(s *dto.Metric, labels []string) bool {
	for i := 0; i+1 < len(labels); i += 2 {
		ok := false
		for _, lp := range s.GetLabel() {
			ok = ok || lp.GetName() == labels[i] && lp.GetValue() == labels[i+1]
		}
		if !ok {
			return false
		}
	}
	return true
}

func chunk(text string) *raiv1.AnalyzeRequest {
	return &raiv1.AnalyzeRequest{SourceType: "COMPLETION", ApiName: "Chatcompletion",
		Payload: `{"choices":[{"index":0,"delta":{"content":"` + text + `"}}]}`}
}

// transcript sends reqs (half-closing when closeSend) and reads to the end.
func transcript(t *testing.T, c raiv1.AnalysisServiceClient, closeSend bool, reqs ...*raiv1.AnalyzeRequest) []*raiv1.AnalyzeResponse {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := c.Analyze(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range reqs {
		if err := s.Send(r); err != nil {
			t.Fatal(err)
		}
	}
	if closeSend {
		s.CloseSend()
	}
	var evs []*raiv1.AnalyzeResponse
	for {
		ev, err := s.Recv()
		if errors.Is(err, io.EOF) || err != nil {
			return evs
		}
		evs = append(evs, ev)
	}
}

func TestRejectionsAreCounted(t *testing.T) {
	l := server.DefaultLimits()
	l.MaxStreams = 1
	m, c := start(t, l)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s1, err := c.Analyze(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s1.Send(chunk("Hello there. "))
	if ev, err := s1.Recv(); err != nil || ev.GetWatermark() == nil {
		t.Fatalf("first stream: %v, %v", ev, err)
	}
	if got := get(t, m, "raiserver_streams_in_flight"); got != 1 {
		t.Errorf("in flight = %v, want 1", got)
	}
	evs := transcript(t, c, true)
	if len(evs) != 1 || evs[0].GetCompletion().GetEndReason() != raiv1.EndReason_END_REASON_RESOURCE_EXHAUSTED {
		t.Fatalf("second stream: %v", evs)
	}
	s1.CloseSend()
	for {
		if _, err := s1.Recv(); err != nil {
			break
		}
	}
	for cause, want := range map[string]float64{"rejected": 1, "end_of_stream": 1, "idle_timeout": 0} {
		if got := get(t, m, "raiserver_stream_ends_total", "cause", cause); got != want {
			t.Errorf("stream ends %s = %v, want %v", cause, got, want)
		}
	}
	if got := get(t, m, "raiserver_streams_in_flight"); got != 0 {
		t.Errorf("in flight = %v, want 0", got)
	}
}

func TestIdleTimeoutsAreCounted(t *testing.T) {
	l := server.DefaultLimits()
	l.IdleTimeout = 50 * time.Millisecond
	m, c := start(t, l)
	evs := transcript(t, c, false, chunk("Hello there. "))
	if n := len(evs); n == 0 || evs[n-1].GetCompletion().GetEndReason() != raiv1.EndReason_END_REASON_RESOURCE_EXHAUSTED {
		t.Fatalf("events %v", evs)
	}
	if got := get(t, m, "raiserver_stream_ends_total", "cause", "idle_timeout"); got != 1 {
		t.Errorf("idle timeouts = %v, want 1", got)
	}
}

func TestSegmentDeadlineIsCounted(t *testing.T) {
	for _, mode := range []analyzer.FailMode{analyzer.FailClosed, analyzer.FailOpen} {
		t.Run(mode.String(), func(t *testing.T) {
			m, c := start(t, server.DefaultLimits(), analyzer.WithSegmentDeadline(time.Millisecond, mode))
			evs := transcript(t, c, true, chunk("Fine. A slow line. Fine again. "))
			results := 0
			for _, ev := range evs {
				if ev.GetAnalysisResult() != nil {
					results++
				}
			}
			wantResults, wantBlocking := 0, 0.0
			if mode == analyzer.FailClosed {
				wantResults, wantBlocking = 1, 1
			}
			if results != wantResults {
				t.Errorf("%d results, want %d", results, wantResults)
			}
			if got := get(t, m, "raiserver_segment_deadline_exceeded_total", "fail_mode", mode.String()); got != 1 {
				t.Errorf("deadline exceeded = %v, want 1", got)
			}
			for c := range classifiers.NumCategories {
				if got := get(t, m, "raiserver_blocking_results_total", "source", "COMPLETION", "category", c.String()); got != wantBlocking {
					t.Errorf("blocking %v = %v, want %v", c, got, wantBlocking)
				}
			}
		})
	}
}
