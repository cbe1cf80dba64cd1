package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sync"
	"testing"
	"testing/synctest"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/classifiers"
	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
)

// wordClassifier flags the made-up word "zap" as HATE severity 3 and, when
// hold is set, blocks inside Classify on a segment that holds "hold" until
// hold is closed: a stand-in for analysis still running when the drain
// deadline passes.
type wordClassifier struct {
	hold chan struct{}
}

func (c wordClassifier) Classify(dst []classifiers.Finding, text []byte) []classifiers.Finding {
	if c.hold != nil && bytes.Contains(text, []byte("hold")) {
		<-c.hold
	}
	if i := bytes.Index(text, []byte("zap")); i >= 0 {
		dst = append(dst, classifiers.Finding{Category: classifiers.Hate, Severity: 3, Start: i, End: i + 3})
	}
	return dst
}

// fakeStream is an Analyze stream driven by the test: Recv returns reqs in
// order, then io.EOF if eof is set or blocks until the stream's context ends;
// the first Send blocks until gate is closed, so the receive loop can queue
// batches behind it.
type fakeStream struct {
	grpc.ServerStream
	ctx  context.Context
	reqs []*raiv1.AnalyzeRequest
	eof  bool
	gate chan struct{}

	mu   sync.Mutex
	sent []*raiv1.AnalyzeResponse
}

func (f *fakeStream) Context() context.Context     { return f.ctx }
func (f *fakeStream) SetHeader(metadata.MD) error  { return nil }
func (f *fakeStream) SendHeader(metadata.MD) error { return nil }
func (f *fakeStream) SetTrailer(metadata.MD)       {}

func (f *fakeStream) Recv() (*raiv1.AnalyzeRequest, error) {
	if len(f.reqs) > 0 {
		r := f.reqs[0]
		f.reqs = f.reqs[1:]
		return r, nil
	}
	if f.eof {
		return nil, io.EOF
	}
	<-f.ctx.Done()
	return nil, status.FromContextError(f.ctx.Err()).Err()
}

func (f *fakeStream) Send(ev *raiv1.AnalyzeResponse) error {
	f.mu.Lock()
	first := len(f.sent) == 0
	f.sent = append(f.sent, ev)
	f.mu.Unlock()
	if first {
		select {
		case <-f.gate:
		case <-f.ctx.Done():
			return f.ctx.Err()
		}
	}
	return nil
}

// drainRequests returns n chat completion chunks, each for its own choice:
// each yields a watermark or a blocking result, so that each request queues
// one batch.
func drainRequests(n int) []*raiv1.AnalyzeRequest {
	reqs := make([]*raiv1.AnalyzeRequest, n)
	for i := range reqs {
		word := "fine"
		if i%2 == 1 {
			word = "zap"
		}
		reqs[i] = &raiv1.AnalyzeRequest{SourceType: "COMPLETION", ApiName: "Chatcompletion",
			Payload: fmt.Sprintf(`{"choices":[{"index":%d,"delta":{"content":"Choice %d is %s. "}}]}`, i, i, word)}
	}
	return reqs
}

// wantEvents runs reqs through a Session directly: the events a stream must
// deliver for them, without the Completion (and with Finish when eof).
func wantEvents(t *testing.T, a *analyzer.Analyzer, reqs []*raiv1.AnalyzeRequest, eof bool) []*raiv1.AnalyzeResponse {
	t.Helper()
	sess := a.NewSession()
	var out []*raiv1.AnalyzeResponse
	for _, r := range reqs {
		evs, err := sess.Process(nil, r.GetApiName(), r.GetSourceType(), []byte(r.GetPayload()))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, toProto(a, evs)...)
	}
	if eof {
		out = append(out, toProto(a, sess.Finish(nil))...)
	}
	return out
}

// checkTranscript checks that got is want followed by exactly one
// Completion with the given end reason.
func checkTranscript(t *testing.T, got, want []*raiv1.AnalyzeResponse, reason raiv1.EndReason) {
	t.Helper()
	completions := 0
	for _, ev := range got {
		if ev.GetCompletion() != nil {
			completions++
		}
	}
	if completions != 1 {
		t.Fatalf("%d Completions in %d events, want exactly 1", completions, len(got))
	}
	last := got[len(got)-1].GetCompletion()
	if last == nil || last.GetEndReason() != reason {
		t.Fatalf("last event %v, want a Completion %v", got[len(got)-1], reason)
	}
	got = got[:len(got)-1]
	if len(got) != len(want) {
		t.Fatalf("%d events before the Completion, want %d: queued events were lost", len(got), len(want))
	}
	for i := range want {
		if !proto.Equal(got[i], want[i]) {
			t.Fatalf("event %d = %v, want %v", i, got[i], want[i])
		}
	}
}

// TestDrainDeliversQueuedBatches makes the drain race deterministic: the
// send loop is held in its first Send while the receive loop queues every
// batch (and, with eof, the END_OF_STREAM end); then the drain deadline
// passes and the send loop is let go. Everything queued must be delivered
// before the one Completion, and an end already decided must win over
// SHUTDOWN. Each case runs several times because the bug it guards against
// was a random select choice.
func TestDrainDeliversQueuedBatches(t *testing.T) {
	a, err := analyzer.New(wordClassifier{})
	if err != nil {
		t.Fatal(err)
	}
	reqs := drainRequests(8)
	tests := []struct {
		name   string
		eof    bool
		reason raiv1.EndReason
		code   codes.Code
	}{
		{"open stream ends with SHUTDOWN after its queued events", false, raiv1.EndReason_END_REASON_SHUTDOWN, codes.Unavailable},
		{"half-closed stream keeps END_OF_STREAM", true, raiv1.EndReason_END_REASON_END_OF_STREAM, codes.OK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := wantEvents(t, a, reqs, tt.eof)
			for range 6 {
				synctest.Test(t, func(t *testing.T) {
					svc := New(a, WithQueueDepth(32))
					ctx, cancel := context.WithCancel(context.Background())
					defer cancel()
					fs := &fakeStream{ctx: ctx, reqs: reqs, eof: tt.eof, gate: make(chan struct{})}
					done := make(chan error, 1)
					go func() { done <- svc.Analyze(fs) }()
					synctest.Wait() // the send loop waits in Send; every batch is queued
					svc.Drain()
					close(fs.gate)
					err := <-done
					cancel()
					if status.Code(err) != tt.code {
						t.Errorf("status %v, want %v", err, tt.code)
					}
					checkTranscript(t, fs.sent, want, tt.reason)
				})
			}
		})
	}
}

// TestDrainWaitsForRequestInAnalysis: a request the receive loop has already
// read is analyzed and delivered before the SHUTDOWN Completion, even when
// the drain deadline passes while its analysis is still running.
func TestDrainWaitsForRequestInAnalysis(t *testing.T) {
	hold := make(chan struct{})
	a, err := analyzer.New(wordClassifier{hold: hold})
	if err != nil {
		t.Fatal(err)
	}
	reqs := append(drainRequests(3), &raiv1.AnalyzeRequest{SourceType: "COMPLETION", ApiName: "Chatcompletion",
		Payload: `{"choices":[{"index":9,"delta":{"content":"Please hold this zap. "}}]}`})
	close(hold)
	want := wantEvents(t, a, reqs, false)

	synctest.Test(t, func(t *testing.T) {
		hold := make(chan struct{})
		a, err := analyzer.New(wordClassifier{hold: hold})
		if err != nil {
			t.Fatal(err)
		}
		svc := New(a)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		fs := &fakeStream{ctx: ctx, reqs: reqs, gate: make(chan struct{})}
		done := make(chan error, 1)
		go func() { done <- svc.Analyze(fs) }()
		synctest.Wait() // Send is held; the last request is inside Classify
		svc.Drain()
		close(fs.gate)
		synctest.Wait() // the send loop has sent what was queued
		close(hold)
		err = <-done
		cancel()
		if status.Code(err) != codes.Unavailable {
			t.Errorf("status %v, want Unavailable", err)
		}
		checkTranscript(t, fs.sent, want, raiv1.EndReason_END_REASON_SHUTDOWN)
	})
}
