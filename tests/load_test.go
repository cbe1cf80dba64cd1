package tests

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/openrai/raiserver/analyzer"
	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
)

// TestLoadMixedAPIs runs 1,000 concurrent streams mixing every API against
// one server for 10 s (60 s with -long): each worker opens stream after
// stream until the time is up. Every transcript must equal the analyzer's
// own events for its requests (no lost, duplicated or reordered event),
// hold SPEC's invariants and end with exactly one END_OF_STREAM Completion.
// After the load, the live heap must be back near its baseline.
func TestLoadMixedAPIs(t *testing.T) {
	const workers, conns = 1000, 4
	dur := 10 * time.Second
	if *long {
		dur = 60 * time.Second
	}
	a, err := analyzer.New(defaultClassifier(t))
	if err != nil {
		t.Fatal(err)
	}
	ss, want := scripts(t, a, 1, 256)
	ts := startServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), dur+90*time.Second)
	defer cancel()
	clients := make([]raiv1.AnalysisServiceClient, conns)
	for i := range clients {
		cc, err := grpc.NewClient(ts.addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			t.Fatal(err)
		}
		defer cc.Close()
		clients[i] = raiv1.NewAnalysisServiceClient(cc)
	}
	// Warm up every connection and every API once, so that the baseline
	// holds the connections and the classifier's lazily built state.
	for i, c := range clients {
		for j := range 8 {
			k := (i*8 + j) % len(ss)
			tr, err := stream(ctx, c, ss[k], true)
			if err == nil {
				err = checkTranscript(tr, want[k], raiv1.EndReason_END_REASON_END_OF_STREAM, codes.OK)
			}
			if err != nil {
				t.Fatalf("warm-up script %d: %v", k, err)
			}
		}
	}
	base := liveHeap()

	var (
		nStreams, nEvents, nFailed atomic.Int64
		mu                         sync.Mutex
		failures                   []string
		peak                       atomic.Uint64
	)
	stopSampling := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stopSampling:
				return
			case <-tick.C:
				metrics.Read(s)
				if v := s[0].Value.Uint64(); v > peak.Load() {
					peak.Store(v)
				}
			}
		}
	}()
	deadline := time.Now().Add(dur)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			c := clients[w%conns]
			for time.Now().Before(deadline) && ctx.Err() == nil {
				k := rng.IntN(len(ss))
				tr, err := stream(ctx, c, ss[k], true)
				if err == nil {
					err = checkTranscript(tr, want[k], raiv1.EndReason_END_REASON_END_OF_STREAM, codes.OK)
				}
				nStreams.Add(1)
				nEvents.Add(int64(len(tr.events)))
				if err != nil {
					nFailed.Add(1)
					mu.Lock()
					if len(failures) < 5 {
						failures = append(failures, fmt.Sprintf("worker %d, script %d: %v", w, k, err))
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	close(stopSampling)
	<-sampled
	for _, f := range failures {
		t.Error(f)
	}
	if n := nFailed.Load(); n > 0 {
		t.Errorf("%d of %d streams failed", n, nStreams.Load())
	}
	after := liveHeap()
	t.Logf("%d workers, %v: %d streams, %d events; live heap baseline %s, peak %s, after %s",
		workers, dur, nStreams.Load(), nEvents.Load(), mib(base), mib(peak.Load()), mib(after))
	if nStreams.Load() < workers {
		t.Errorf("only %d streams ran", nStreams.Load())
	}
	// The connections' buffers stay; every stream's state must be gone.
	if tolerance := uint64(16 << 20); after > base+tolerance {
		t.Errorf("live heap %s after the load, baseline %s: more than %s retained", mib(after), mib(base), mib(tolerance))
	}
}
