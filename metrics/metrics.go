package metrics

import (
	"net/http"
	"strings"
	"time"

	grpcprom "github.com/grpc-ecosystem/go-grpc-middleware/providers/prometheus"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"google.golang.org/grpc"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/extract"
)

// Histogram buckets, in seconds.
var (
	// SegmentBuckets spans one classifier call: microseconds for a segment
	// of a few hundred bytes, up to the default segment deadline and past it.
	SegmentBuckets = []float64{5e-6, 1e-5, 2.5e-5, 5e-5, 1e-4, 2.5e-4, 5e-4, 1e-3, 2.5e-3, 5e-3, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 2.5}
	// LagBuckets spans watermark lag: analysis plus queueing plus send.
	LagBuckets = []float64{1e-4, 2.5e-4, 5e-4, 1e-3, 2.5e-3, 5e-3, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}
	// StreamBuckets spans whole gRPC streams, which last as long as a prompt
	// or a streamed completion: up to many minutes.
	StreamBuckets = []float64{0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 120, 300, 600, 1800}
)

// Event kinds, the values of raiserver_events_sent_total's kind label.
const (
	KindResult     = "analysis_result"
	KindWatermark  = "watermark"
	KindCompletion = "completion"
)

// sources are the source label values, indexed by extract.Source.
var sources = [...]extract.Source{extract.Prompt, extract.Completion}

// Metrics holds every metric raiserver exports, in its own registry. It
// implements server.Observer and analyzer.Observer; all methods are safe for
// concurrent use, and the hot ones touch pre-bound series only (no label
// lookups).
type Metrics struct {
	reg  *prometheus.Registry
	grpc *grpcprom.ServerMetrics

	inFlight   prometheus.Gauge
	streamEnds map[string]prometheus.Counter
	otherEnd   *prometheus.CounterVec
	events     map[string]prometheus.Counter
	blocking   [3][classifiers.NumCategories]prometheus.Counter // [source][category]
	noModel    [3]prometheus.Counter                            // [source]
	bytes      [3]prometheus.Counter
	lag        [3]prometheus.Observer
	segment    prometheus.Histogram
	late       [2]prometheus.Counter // [analyzer.FailMode]
}

// New returns Metrics registered in a new registry, with the Go runtime and
// process collectors. endCauses are the values of the stream end cause label
// to create up front (server.EndCauses), so that every series exists from the
// first scrape.
func New(endCauses []string) *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		reg: reg,
		grpc: grpcprom.NewServerMetrics(grpcprom.WithServerHandlingTimeHistogram(
			grpcprom.WithHistogramBuckets(StreamBuckets))),
	}
	reg.MustRegister(m.grpc,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))

	m.inFlight = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "raiserver_streams_in_flight",
		Help: "Analyze streams open now (admitted, not yet ended).",
	})
	ends := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "raiserver_stream_ends_total",
		Help: "Analyze streams ended, by cause: end_of_stream, invalid_argument, resource_exhausted, internal_error, shutdown, idle_timeout, rejected (over the stream limit), canceled, send_failed.",
	}, []string{"cause"})
	m.otherEnd = ends
	m.streamEnds = make(map[string]prometheus.Counter, len(endCauses))
	for _, c := range endCauses {
		m.streamEnds[c] = ends.WithLabelValues(c)
	}
	events := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "raiserver_events_sent_total",
		Help: "Events handed to gRPC, by kind: analysis_result, watermark, completion.",
	}, []string{"kind"})
	m.events = map[string]prometheus.Counter{}
	for _, k := range []string{KindResult, KindWatermark, KindCompletion} {
		m.events[k] = events.WithLabelValues(k)
	}
	blocking := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "raiserver_blocking_results_total",
		Help: "AnalysisResults sent that block, by source and category; a result blocking in several categories counts once in each.",
	}, []string{"source", "category"})
	noModel := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "raiserver_nomodel_results_total",
		Help: "NoModel AnalysisResults sent (content without analyzable text), by source.",
	}, []string{"source"})
	bytes := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "raiserver_analyzed_bytes_total",
		Help: "Bytes of text classified, by source; context bytes classified again with the next segment are not counted.",
	}, []string{"source"})
	lag := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "raiserver_watermark_lag_seconds",
		Help:    "From receiving the request (or half-close) that completes a segment to sending the Watermark that covers it, by source.",
		Buckets: LagBuckets,
	}, []string{"source"})
	for _, src := range sources {
		s := strings.ToUpper(src.String())
		for c := range classifiers.NumCategories {
			m.blocking[src][c] = blocking.WithLabelValues(s, c.String())
		}
		m.noModel[src] = noModel.WithLabelValues(s)
		m.bytes[src] = bytes.WithLabelValues(s)
		m.lag[src] = lag.WithLabelValues(s)
	}
	m.segment = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "raiserver_segment_analysis_seconds",
		Help:    "Wall time of classifying one segment (with its context bytes).",
		Buckets: SegmentBuckets,
	})
	late := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "raiserver_segment_deadline_exceeded_total",
		Help: "Segments whose classification overran the segment deadline, by fail mode: closed (reported blocking) or open (reported as classified).",
	}, []string{"fail_mode"})
	for _, fm := range []analyzer.FailMode{analyzer.FailClosed, analyzer.FailOpen} {
		m.late[fm] = late.WithLabelValues(fm.String())
	}
	reg.MustRegister(m.inFlight, ends, events, blocking, noModel, bytes, lag, m.segment, late)
	return m
}

// Registry returns the registry, for tests and for adding collectors.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// GRPCOptions returns the interceptors that record the grpc_server_*
// metrics. Pass them to the grpc.Server, then call InitGRPC.
func (m *Metrics) GRPCOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.ChainUnaryInterceptor(m.grpc.UnaryServerInterceptor()),
		grpc.ChainStreamInterceptor(m.grpc.StreamServerInterceptor()),
	}
}

// InitGRPC creates the grpc_server_* series of every method registered on
// gs at zero, so that rates exist before the first call.
func (m *Metrics) InitGRPC(gs *grpc.Server) { m.grpc.InitializeMetrics(gs) }

// Handler serves /metrics (Prometheus text or OpenMetrics, as the scraper
// asks) and /healthz: 200 "ok" while healthy returns true, 503 after (the
// server is draining).
func (m *Metrics) Handler(healthy func() bool) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{EnableOpenMetrics: true}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if healthy != nil && !healthy() {
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte("shutting down\n"))
			return
		}
		w.Write([]byte("ok\n"))
	})
	return mux
}

// StreamStarted implements server.Observer.
func (m *Metrics) StreamStarted() { m.inFlight.Inc() }

// StreamRejected implements server.Observer.
func (m *Metrics) StreamRejected() { m.end("rejected") }

// StreamEnded implements server.Observer.
func (m *Metrics) StreamEnded(cause string) {
	m.inFlight.Dec()
	m.end(cause)
}

func (m *Metrics) end(cause string) {
	if c, ok := m.streamEnds[cause]; ok {
		c.Inc()
		return
	}
	m.otherEnd.WithLabelValues(cause).Inc()
}

// ResultSent implements server.Observer.
func (m *Metrics) ResultSent(src extract.Source, noModel bool, blocking [classifiers.NumCategories]bool) {
	m.events[KindResult].Inc()
	if int(src) >= len(m.noModel) || m.noModel[src] == nil {
		return
	}
	if noModel {
		m.noModel[src].Inc()
	}
	for c, b := range blocking {
		if b {
			m.blocking[src][c].Inc()
		}
	}
}

// WatermarkSent implements server.Observer.
func (m *Metrics) WatermarkSent(src extract.Source, lag time.Duration) {
	m.events[KindWatermark].Inc()
	if int(src) < len(m.lag) && m.lag[src] != nil {
		m.lag[src].Observe(lag.Seconds())
	}
}

// CompletionSent implements server.Observer.
func (m *Metrics) CompletionSent() { m.events[KindCompletion].Inc() }

// SegmentAnalyzed implements analyzer.Observer.
func (m *Metrics) SegmentAnalyzed(s analyzer.SegmentStats) {
	m.segment.Observe(s.Took.Seconds())
	if int(s.Source) < len(m.bytes) && m.bytes[s.Source] != nil {
		m.bytes[s.Source].Add(float64(s.Bytes))
	}
	if s.Late && int(s.FailMode) < len(m.late) {
		m.late[s.FailMode].Inc()
	}
}
