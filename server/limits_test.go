package server

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/openrai/raiserver/analyzer"
	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
)

func limitsAnalyzer(t *testing.T) *analyzer.Analyzer {
	t.Helper()
	a, err := analyzer.New(wordClassifier{})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func chatChunk(index int, text string) *raiv1.AnalyzeRequest {
	return &raiv1.AnalyzeRequest{SourceType: "COMPLETION", ApiName: "Chatcompletion",
		Payload: `{"choices":[{"index":` + string(rune('0'+index)) + `,"delta":{"content":"` + text + `"}}]}`}
}

// openStream opens a stream and sends one sentence, and returns once its
// watermark came back: the server has admitted the stream.
func openStream(t *testing.T, ctx context.Context, c raiv1.AnalysisServiceClient) raiv1.AnalysisService_AnalyzeClient {
	t.Helper()
	s, err := c.Analyze(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(chatChunk(0, "Hello there. ")); err != nil {
		t.Fatal(err)
	}
	ev, err := s.Recv()
	if err != nil || ev.GetWatermark() == nil {
		t.Fatalf("first event %v, %v; want a watermark", ev, err)
	}
	return s
}

// finish half-closes s and returns its remaining events and final status.
func finish(s raiv1.AnalysisService_AnalyzeClient) ([]*raiv1.AnalyzeResponse, error) {
	s.CloseSend()
	var evs []*raiv1.AnalyzeResponse
	for {
		ev, err := s.Recv()
		if errors.Is(err, io.EOF) {
			return evs, nil
		}
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev)
	}
}

func TestMaxStreamsRejectsAtStart(t *testing.T) {
	l := DefaultLimits()
	l.MaxStreams = 2
	ts := startBufconnWith(t, limitsAnalyzer(t), WithLimits(l))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s1 := openStream(t, ctx, ts.client)
	s2 := openStream(t, ctx, ts.client)

	s3, err := ts.client.Analyze(ctx)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := finish(s3)
	if status.Code(err) != codes.ResourceExhausted {
		t.Fatalf("third stream: status %v, want ResourceExhausted", err)
	}
	if len(evs) != 1 || evs[0].GetCompletion().GetEndReason() != raiv1.EndReason_END_REASON_RESOURCE_EXHAUSTED ||
		evs[0].GetCompletion().GetErrorDescription() == "" {
		t.Fatalf("third stream: events %v, want one RESOURCE_EXHAUSTED Completion with a description", evs)
	}
	t.Logf("rejection: %s", evs[0].GetCompletion().GetErrorDescription())

	// A stream that ends frees its slot.
	if _, err := finish(s1); err != nil {
		t.Fatal(err)
	}
	s4 := openStream(t, ctx, ts.client)
	for _, s := range []raiv1.AnalysisService_AnalyzeClient{s2, s4} {
		if _, err := finish(s); err != nil {
			t.Fatal(err)
		}
	}
}

func TestIdleTimeoutEndsStream(t *testing.T) {
	l := DefaultLimits()
	l.IdleTimeout = 50 * time.Millisecond
	ts := startBufconnWith(t, limitsAnalyzer(t), WithLimits(l))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s := openStream(t, ctx, ts.client)
	// The client neither sends nor half-closes.
	ev, err := s.Recv()
	c := ev.GetCompletion()
	if err != nil || c.GetEndReason() != raiv1.EndReason_END_REASON_RESOURCE_EXHAUSTED {
		t.Fatalf("event %v, %v; want a RESOURCE_EXHAUSTED Completion", ev, err)
	}
	if _, err := s.Recv(); status.Code(err) != codes.ResourceExhausted {
		t.Fatalf("status %v, want ResourceExhausted", err)
	}
	t.Logf("idle end: %s", c.GetErrorDescription())
}

// TestIdleTimeoutCountsFromLastRequest runs in a synctest bubble (virtual
// time): requests 30ms apart keep a stream with a 50ms idle timeout alive;
// 50ms after the last one it ends, after its events.
func TestIdleTimeoutCountsFromLastRequest(t *testing.T) {
	a := limitsAnalyzer(t)
	reqs := drainRequests(4)
	want := wantEvents(t, a, reqs, false)
	synctest.Test(t, func(t *testing.T) {
		l := DefaultLimits()
		l.IdleTimeout = 50 * time.Millisecond
		svc := New(a, WithLimits(l))
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		fs := &pacedStream{fakeStream: fakeStream{ctx: ctx, reqs: reqs, gate: make(chan struct{})}, gap: 30 * time.Millisecond}
		close(fs.gate)
		start := time.Now()
		err := svc.Analyze(fs)
		cancel()
		if status.Code(err) != codes.ResourceExhausted {
			t.Errorf("status %v, want ResourceExhausted", err)
		}
		checkTranscript(t, fs.sent, want, raiv1.EndReason_END_REASON_RESOURCE_EXHAUSTED)
		if got, wantD := time.Since(start), 4*30*time.Millisecond+50*time.Millisecond; got != wantD {
			t.Errorf("stream ended after %v (virtual), want %v", got, wantD)
		}
	})
}

// pacedStream is a fakeStream whose Recv waits gap before each request.
type pacedStream struct {
	fakeStream
	gap time.Duration
}

func (p *pacedStream) Recv() (*raiv1.AnalyzeRequest, error) {
	if len(p.reqs) > 0 {
		time.Sleep(p.gap)
	}
	return p.fakeStream.Recv()
}

// rawConn dials addr and does the client side of the HTTP/2 handshake; it
// returns the framer and the server's first SETTINGS frame.
func rawConn(t *testing.T, addr string) (net.Conn, *http2.Framer, *http2.SettingsFrame) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.SetDeadline(time.Now().Add(20 * time.Second))
	if _, err := conn.Write([]byte(http2.ClientPreface)); err != nil {
		t.Fatal(err)
	}
	fr := http2.NewFramer(conn, conn)
	if err := fr.WriteSettings(); err != nil {
		t.Fatal(err)
	}
	for range 10 {
		f, err := fr.ReadFrame()
		if err != nil {
			t.Fatal(err)
		}
		if sf, ok := f.(*http2.SettingsFrame); ok && !sf.IsAck() {
			if err := fr.WriteSettingsAck(); err != nil {
				t.Fatal(err)
			}
			return conn, fr, sf
		}
	}
	t.Fatal("no SETTINGS frame from the server")
	return nil, nil, nil
}

// serveTCP serves a Server with opts on a loopback port.
func serveTCP(t *testing.T, opts ...Option) (string, *countingListener) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cl := &countingListener{Listener: lis}
	srv := NewServer(limitsAnalyzer(t), opts...)
	go srv.Serve(cl)
	t.Cleanup(func() { srv.Shutdown(time.Second) })
	return lis.Addr().String(), cl
}

type countingListener struct {
	net.Listener
	accepted atomic.Int32
}

func (c *countingListener) Accept() (net.Conn, error) {
	conn, err := c.Listener.Accept()
	if err == nil {
		c.accepted.Add(1)
	}
	return conn, err
}

func TestMaxStreamsPerConnIsAdvertised(t *testing.T) {
	for _, n := range []uint32{DefaultMaxStreamsPerConn, 3} {
		l := DefaultLimits()
		l.MaxStreamsPerConn = n
		addr, _ := serveTCP(t, WithLimits(l))
		_, _, sf := rawConn(t, addr)
		got, ok := sf.Value(http2.SettingMaxConcurrentStreams)
		if !ok || got != n {
			t.Errorf("SETTINGS_MAX_CONCURRENT_STREAMS = %d (sent %v), want %d", got, ok, n)
		}
	}
}

// TestMaxStreamsPerConnIsEnforced opens streams over raw HTTP/2 past the
// advertised limit: the server refuses the extra one with RST_STREAM
// REFUSED_STREAM and keeps the first.
func TestMaxStreamsPerConnIsEnforced(t *testing.T) {
	l := DefaultLimits()
	l.MaxStreamsPerConn = 1
	addr, _ := serveTCP(t, WithLimits(l))
	_, fr, _ := rawConn(t, addr)
	var hb bytes.Buffer
	enc := hpack.NewEncoder(&hb)
	for _, f := range [][2]string{{":method", "POST"}, {":scheme", "http"}, {":path", "/rai.v1.AnalysisService/Analyze"},
		{":authority", addr}, {"content-type", "application/grpc"}, {"te", "trailers"}} {
		enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	for _, id := range []uint32{1, 3} {
		if err := fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: hb.Bytes(), EndHeaders: true}); err != nil {
			t.Fatal(err)
		}
	}
	readUntil(t, fr, "RST_STREAM REFUSED_STREAM on stream 3", func(f http2.Frame) bool {
		r, ok := f.(*http2.RSTStreamFrame)
		if ok && r.StreamID == 1 {
			t.Fatalf("stream 1 reset: %v", r.ErrCode)
		}
		return ok && r.StreamID == 3 && r.ErrCode == http2.ErrCodeRefusedStream
	})
}

// readUntil reads frames until match returns true, or fails.
func readUntil(t *testing.T, fr *http2.Framer, what string, match func(http2.Frame) bool) {
	t.Helper()
	for range 1000 {
		f, err := fr.ReadFrame()
		if err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
		if match(f) {
			return
		}
	}
	t.Fatalf("no %s", what)
}

func TestKeepaliveEnforcement(t *testing.T) {
	l := DefaultLimits()
	l.KeepaliveMinTime = time.Hour
	addr, _ := serveTCP(t, WithLimits(l))
	_, fr, _ := rawConn(t, addr)
	for i := range 5 {
		if err := fr.WritePing(false, [8]byte{byte(i)}); err != nil {
			break // the server may already have closed the connection
		}
	}
	readUntil(t, fr, "GOAWAY ENHANCE_YOUR_CALM", func(f http2.Frame) bool {
		g, ok := f.(*http2.GoAwayFrame)
		return ok && g.ErrCode == http2.ErrCodeEnhanceYourCalm
	})
}

func TestKeepalivePingsSilentConnection(t *testing.T) {
	l := DefaultLimits()
	l.KeepaliveTime = time.Second // grpc-go's minimum
	l.KeepaliveTimeout = 100 * time.Millisecond
	addr, _ := serveTCP(t, WithLimits(l))
	conn, fr, _ := rawConn(t, addr)
	readUntil(t, fr, "server PING", func(f http2.Frame) bool {
		p, ok := f.(*http2.PingFrame)
		return ok && !p.IsAck()
	})
	// Unanswered, the ping makes the server close the connection.
	buf := make([]byte, 4096)
	for range 1000 {
		if _, err := conn.Read(buf); err != nil {
			if errors.Is(err, io.EOF) || !isTimeout(err) {
				return
			}
			t.Fatalf("connection still open: %v", err)
		}
	}
	t.Fatal("connection still open")
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// TestMaxConnectionAge: an aged connection gets GOAWAY, the client's new
// streams go to a new connection, and a stream open on the old one still
// completes within the grace period.
func TestMaxConnectionAge(t *testing.T) {
	l := DefaultLimits()
	l.MaxConnectionAge = 100 * time.Millisecond
	l.MaxConnectionAgeGrace = time.Hour
	addr, cl := serveTCP(t, WithLimits(l))
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c := raiv1.NewAnalysisServiceClient(conn)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	old := openStream(t, ctx, c)
	for cl.accepted.Load() < 2 {
		if ctx.Err() != nil {
			t.Fatal("no second connection after the first one aged")
		}
		s := openStream(t, ctx, c)
		if _, err := finish(s); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := old.Send(chatChunk(0, "Still here. ")); err != nil {
		t.Fatal(err)
	}
	evs, err := finish(old)
	if err != nil || len(evs) == 0 || evs[len(evs)-1].GetCompletion().GetEndReason() != raiv1.EndReason_END_REASON_END_OF_STREAM {
		t.Fatalf("stream on the aged connection: %v, %v", evs, err)
	}
}

// TestMaxConnectionAgeGrace: a stream still open when the grace period after
// GOAWAY ends is cut with UNAVAILABLE.
func TestMaxConnectionAgeGrace(t *testing.T) {
	l := DefaultLimits()
	l.MaxConnectionAge = 50 * time.Millisecond
	l.MaxConnectionAgeGrace = 50 * time.Millisecond
	l.IdleTimeout = 0
	addr, _ := serveTCP(t, WithLimits(l))
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s := openStream(t, ctx, raiv1.NewAnalysisServiceClient(conn))
	ev, err := s.Recv() // the client sends nothing more
	if status.Code(err) != codes.Unavailable {
		t.Fatalf("Recv = %v, %v; want the stream cut with Unavailable", ev, err)
	}
}

func TestLimitsValidate(t *testing.T) {
	if err := DefaultLimits().Validate(); err != nil {
		t.Fatal(err)
	}
	l := DefaultLimits()
	l.IdleTimeout = -time.Second
	if err := l.Validate(); !errors.Is(err, ErrLimits) {
		t.Errorf("negative idle timeout: %v", err)
	}
	l = DefaultLimits()
	l.MaxStreams = -1
	if err := l.Validate(); !errors.Is(err, ErrLimits) {
		t.Errorf("negative max streams: %v", err)
	}
}
