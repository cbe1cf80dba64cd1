package tests

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
)

// TestCancelFreesStream cancels a stream that holds 8 MiB of received text
// (eight Realtime items of 1 MiB: an item keeps its current version, which
// its done event would repeat; a chat answer would hold only its last
// segment) and expects its goroutines (server handler and receive loop, client
// stream) gone within 100 ms, and its buffers collectable. The machine may
// be busy (CI runs with -race on two shared cores), so the bound must hold
// in one of three tries; the goroutines must be gone and the heap back to
// its baseline after every try.
func TestCancelFreesStream(t *testing.T) {
	ts := startServerWith(t, goldenClassifier{})
	// A complete stream first, so the connection's own goroutines exist
	// before the snapshot.
	if tr := ts.run(t, req("PROMPT", "Completion", `{"prompt":"warm up"}`)); tr.err != nil {
		t.Fatal(tr.err)
	}
	var times []time.Duration
	for try := range 3 {
		freed := cancelOnce(t, ts)
		times = append(times, freed)
		t.Logf("try %d: goroutines gone %v after cancel", try, freed)
		if freed <= 100*time.Millisecond {
			return
		}
	}
	t.Errorf("goroutines gone %v after cancel, want within 100ms", times)
}

// cancelOnce opens a stream, gives it 8 MiB of text, cancels it and returns
// how long its goroutines took to go.
func cancelOnce(t *testing.T, ts *testServer) time.Duration {
	before := goleak.IgnoreCurrent()
	n0 := runtime.NumGoroutine()
	heap0 := liveHeap()

	ctx, cancel := context.WithCancel(testContext(t))
	defer cancel()
	st, err := ts.client().Analyze(ctx)
	if err != nil {
		t.Fatal(err)
	}
	const chunk, items = 1 << 20, 8
	const total = chunk * items
	line := strings.Repeat("calm words in a row ", chunk/20)
	for i := range items {
		delta := fmt.Sprintf(`{"type":"response.text.delta","response_id":"r1","item_id":"i%d","content_index":0,"delta":%q}`, i, line)
		if err := st.Send(req("COMPLETION", "Realtime", delta)); err != nil {
			t.Fatal(err)
		}
	}
	// Wait until the server has taken all of it: each item's watermark
	// trails its text by at most one segment.
	done := map[string]bool{}
	for len(done) < items {
		ev, err := st.Recv()
		if err != nil {
			t.Fatalf("recv: %v", err)
		}
		if w := ev.GetWatermark(); w != nil && int(w.GetOffset()) >= len(line)-2048 {
			done[w.GetMessageId()] = true
		}
	}
	heapOpen := liveHeap()
	cancel()
	cancelled := time.Now()
	// Poll cheaply, then confirm with goleak (which returns at once when clean).
	for runtime.NumGoroutine() > n0 && time.Since(cancelled) < time.Second {
		time.Sleep(time.Millisecond)
	}
	if err := goleak.Find(before); err != nil {
		t.Fatalf("goroutines left after cancel: %v", err)
	}
	freed := time.Since(cancelled)
	heapAfter := liveHeap()
	t.Logf("live heap %s before the stream, %s with it open, %s after", mib(heap0), mib(heapOpen), mib(heapAfter))
	// The items hold a little under total bytes (whole repeats of the
	// line), and the live heap moves with what else the process holds:
	// half of it above the baseline proves the hold.
	if heapOpen < heap0+total/2 {
		t.Errorf("live heap with the stream open %s, baseline %s: the test did not hold the text", mib(heapOpen), mib(heap0))
	}
	if heapAfter > heap0+2<<20 {
		t.Errorf("live heap %s after cancel, baseline %s: the stream's buffers are retained", mib(heapAfter), mib(heap0))
	}
	// Events the client had already received before the cancel may still
	// be handed out; after them the stream must end as cancelled.
	for range 1 << 16 {
		if _, err = st.Recv(); err != nil {
			break
		}
	}
	if status.Code(err) != codes.Canceled {
		t.Errorf("recv after cancel: %v", err)
	}
	return freed
}

// TestSlowReaderMemoryIsBounded sends requests that each produce about 200
// AnalysisResults and never reads: back-pressure must stop the server from
// reading more, so the client's sends stall and the live heap stays bounded,
// although the requests would make hundreds of MiB of events.
func TestSlowReaderMemoryIsBounded(t *testing.T) {
	ts := startServerWith(t, goldenClassifier{})
	// A fixed 64 KiB window: the client buffers at most that much unread.
	cc, err := grpc.NewClient(ts.addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithInitialWindowSize(64<<10), grpc.WithInitialConnWindowSize(64<<10))
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	heap0 := liveHeap()
	ctx, cancel := context.WithCancel(testContext(t))
	defer cancel()
	st, err := raiv1.NewAnalysisServiceClient(cc).Analyze(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// 200 segments a request, each reported (HATE 1 from the golden classifier).
	payload := chatChunk(0, strings.Repeat("I hate this.\n", 200))
	const maxRequests = 20_000 // about 53 MB of payload, 4 million results
	var sent atomic.Int64
	sendDone := make(chan struct{})
	go func() {
		defer close(sendDone)
		for range maxRequests {
			if st.Send(req("COMPLETION", "Chatcompletion", payload)) != nil {
				return
			}
			sent.Add(1)
		}
	}()
	// Wait for the sends to stall: no progress for 500 ms.
	last, stalled := int64(-1), time.Now()
	for time.Since(stalled) < 500*time.Millisecond {
		select {
		case <-sendDone:
			t.Fatalf("all %d requests were sent to a client that reads nothing: no back-pressure", sent.Load())
		case <-time.After(50 * time.Millisecond):
		}
		if n := sent.Load(); n != last {
			last, stalled = n, time.Now()
		}
	}
	heapStalled := liveHeap()
	t.Logf("sends stalled after %d of %d requests; live heap %s before, %s stalled", last, maxRequests, mib(heap0), mib(heapStalled))
	if heapStalled > heap0+32<<20 {
		t.Errorf("live heap grew by %s for a reader that reads nothing", mib(heapStalled-heap0))
	}
	cancel()
	<-sendDone
	// The server is still healthy.
	if tr := ts.run(t, req("PROMPT", "Chatcompletion", chatPrompt("Still here."))); tr.err != nil {
		t.Errorf("after a slow reader: %v", tr.err)
	}
}
