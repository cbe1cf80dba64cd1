package tests

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/ensemble"
	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
	"github.com/openrai/raiserver/server"
)

func TestMain(m *testing.M) {
	flag.Parse()
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		removeBinary()
		os.Exit(code)
	}))
}

var (
	defaultClsOnce sync.Once
	defaultCls     classifiers.Classifier
	defaultClsErr  error
)

// defaultClassifier is the classifier stack the server runs on its embedded defaults.
func defaultClassifier(t testing.TB) classifiers.Classifier {
	t.Helper()
	defaultClsOnce.Do(func() { defaultCls, defaultClsErr = ensemble.Default() })
	if defaultClsErr != nil {
		t.Fatalf("default classifier: %v", defaultClsErr)
	}
	return defaultCls
}

// testServer is a real server on a loopback TCP port.
type testServer struct {
	srv  *server.Server
	conn *grpc.ClientConn
	addr string
	done chan error
}

// startServer starts a server with the default classifier and the given
// analyzer options, and a client connected to it. Both stop at test cleanup.
func startServer(t *testing.T, opts ...analyzer.Option) *testServer {
	t.Helper()
	return startServerWith(t, defaultClassifier(t), opts...)
}

func startServerWith(t *testing.T, cls classifiers.Classifier, opts ...analyzer.Option) *testServer {
	t.Helper()
	a, err := analyzer.New(cls, opts...)
	if err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{srv: server.NewServer(a), addr: lis.Addr().String(), done: make(chan error, 1)}
	go func() { ts.done <- ts.srv.Serve(lis) }()
	ts.conn, err = grpc.NewClient(ts.addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ts.conn.Close()
		ts.srv.Shutdown(5 * time.Second)
		if err := <-ts.done; err != nil && !errors.Is(err, grpc.ErrServerStopped) {
			t.Errorf("serve: %v", err)
		}
	})
	return ts
}

func (ts *testServer) client() raiv1.AnalysisServiceClient {
	return raiv1.NewAnalysisServiceClient(ts.conn)
}

// req builds a request from its SPEC JSON parts.
func req(source, api, payload string) *raiv1.AnalyzeRequest {
	return &raiv1.AnalyzeRequest{SourceType: source, ApiName: api, Payload: payload}
}

// transcript is everything a stream returned: events in order and the final status.
type transcript struct {
	events []*raiv1.AnalyzeResponse
	err    error
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// run sends reqs on one stream, half-closes and collects every event. Sending
// and receiving run concurrently, as a real client would do them.
func (ts *testServer) run(t *testing.T, reqs ...*raiv1.AnalyzeRequest) transcript {
	t.Helper()
	stream, err := ts.client().Analyze(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	sendErr := make(chan error, 1)
	go func() {
		for _, r := range reqs {
			if err := stream.Send(r); err != nil {
				// The server ended the stream early (a bad request); the
				// reason comes with Recv.
				sendErr <- nil
				return
			}
		}
		sendErr <- stream.CloseSend()
	}()
	var tr transcript
	for {
		ev, err := stream.Recv()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				tr.err = err
			}
			break
		}
		tr.events = append(tr.events, ev)
	}
	if err := <-sendErr; err != nil {
		t.Fatalf("close send: %v", err)
	}
	return tr
}

// completion returns the stream's Completion, checking it is the last event and the only one.
func (tr transcript) completion(t *testing.T) *raiv1.Completion {
	t.Helper()
	var c *raiv1.Completion
	for i, ev := range tr.events {
		if ev.GetCompletion() != nil {
			if c != nil {
				t.Fatalf("second Completion at event %d", i)
			}
			if i != len(tr.events)-1 {
				t.Fatalf("Completion at event %d of %d: not last", i, len(tr.events))
			}
			c = ev.GetCompletion()
		}
	}
	if c == nil {
		t.Fatalf("no Completion in %d events (status %v)", len(tr.events), tr.err)
	}
	return c
}

// itemKey identifies an item in test assertions.
type itemKey struct {
	source raiv1.SourceType
	id     string
	index  uint32
}

// checkInvariants asserts SPEC §3's rules on a transcript: watermarks only
// grow per item, never pass the start of a blocking segment, and every result
// comes before any watermark that covers it. received, if not nil, bounds
// watermarks by the text length of each item.
func (tr transcript) checkInvariants(t *testing.T, received map[itemKey]int) {
	t.Helper()
	for _, e := range tr.invariantErrors(received) {
		t.Error(e)
	}
}

// invariantErrors is checkInvariants for any goroutine: it returns the
// violations instead of reporting them.
func (tr transcript) invariantErrors(received map[itemKey]int) []string {
	var errs []string
	errorf := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	wm := map[itemKey]uint32{}
	blockAt := map[itemKey]uint32{}
	for i, ev := range tr.events {
		switch {
		case ev.GetWatermark() != nil:
			w := ev.GetWatermark()
			k := itemKey{w.GetSourceType(), w.GetMessageId(), w.GetContentIndex()}
			if prev, ok := wm[k]; ok && w.GetOffset() <= prev {
				errorf("event %d: watermark %v went from %d to %d", i, k, prev, w.GetOffset())
			}
			if b, ok := blockAt[k]; ok && w.GetOffset() > b {
				errorf("event %d: watermark %v at %d passes blocking segment at %d", i, k, w.GetOffset(), b)
			}
			if received != nil {
				if n, ok := received[k]; !ok || int(w.GetOffset()) > n {
					errorf("event %d: watermark %v at %d passes received text %d", i, k, w.GetOffset(), n)
				}
			}
			wm[k] = w.GetOffset()
		case ev.GetAnalysisResult() != nil:
			r := ev.GetAnalysisResult()
			o := r.GetOffset()
			k := itemKey{o.GetSourceType(), o.GetMessageId(), o.GetContentIndex()}
			if o.GetStartOffset() > o.GetEndOffset() {
				errorf("event %d: result range [%d,%d)", i, o.GetStartOffset(), o.GetEndOffset())
			}
			if w, ok := wm[k]; ok && o.GetEndOffset() > o.GetStartOffset() && w > o.GetStartOffset() {
				errorf("event %d: result [%d,%d) of %v after watermark %d covered it", i, o.GetStartOffset(), o.GetEndOffset(), k, w)
			}
			for _, tr := range r.GetHarmCategoryTaskResults() {
				if tr.GetIsBlocking() {
					if _, ok := blockAt[k]; !ok {
						blockAt[k] = o.GetStartOffset()
					}
				}
			}
		case ev.GetCompletion() != nil:
			if i != len(tr.events)-1 {
				errorf("event %d: Completion before the last event", i)
			}
		}
	}
	return errs
}

// jsonLines renders a transcript as protojson lines, for golden files.
func (tr transcript) jsonLines(t *testing.T) []byte {
	t.Helper()
	var out []byte
	opts := protojson.MarshalOptions{}
	for _, ev := range tr.events {
		b, err := opts.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, compactJSON(t, b)...)
		out = append(out, '\n')
	}
	if tr.err != nil {
		out = append(out, []byte("status: "+status.Code(tr.err).String()+"\n")...)
	} else {
		out = append(out, []byte("status: OK\n")...)
	}
	return out
}
