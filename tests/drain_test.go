package tests

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/openrai/raiserver/analyzer"
	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
)

// TestSIGTERMDeliversEverything runs the real binary, opens streams of three
// kinds, and sends SIGTERM:
//
//   - closers half-close after SIGTERM, inside the drain deadline: they get
//     every result, the final watermarks and END_OF_STREAM, status OK;
//   - readers stay open and read: at the deadline they get every result of
//     every request they sent, then one SHUTDOWN Completion, UNAVAILABLE;
//   - slow readers stay open and read nothing until after the deadline,
//     with far more events than the flow-control window holds, so batches
//     are still queued in the server at the deadline: they too get every
//     result and then one SHUTDOWN Completion.
//
// The process must exit soon after the drain deadline.
func TestSIGTERMDeliversEverything(t *testing.T) {
	const (
		drain   = 3 * time.Second
		perKind = 12 // closers and readers
		nSlow   = 6
	)
	a, err := analyzer.New(defaultClassifier(t))
	if err != nil {
		t.Fatal(err)
	}
	ss, _ := scripts(t, a, 2, 2*perKind)
	// Slow readers' scripts: 12 requests of 400 reported lines each, about
	// 4,800 AnalysisResults (about 500 KB), several windows' worth.
	heavy := make(script, 12)
	for i := range heavy {
		heavy[i] = req("COMPLETION", "Chatcompletion", chatChunk(i%3, strings.Repeat(threat+"\n", 400)))
	}
	wantHeavy, err := expected(a, heavy, false)
	if err != nil {
		t.Fatal(err)
	}
	if results := strings.Count(strings.Join(wantHeavy, "\n"), "R "); results < 4000 {
		t.Fatalf("the heavy script makes only %d results", results)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	// No segment deadline: a segment made late by a busy machine would be
	// reported blocking (fail-closed) and differ from the expected events.
	p := startBinary(t, ctx, "--drain-timeout", drain.String(), "--segment-deadline", "0")
	dial := func(opts ...grpc.DialOption) raiv1.AnalysisServiceClient {
		cc, err := grpc.NewClient(p.addr, append(opts, grpc.WithTransportCredentials(insecure.NewCredentials()))...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cc.Close() })
		return raiv1.NewAnalysisServiceClient(cc)
	}
	fast := dial()
	// A fixed 64 KiB window: the server can send little before it blocks.
	slow := dial(grpc.WithInitialWindowSize(64<<10), grpc.WithInitialConnWindowSize(64<<10))

	type result struct {
		kind string
		i    int
		err  error
	}
	var (
		wg       sync.WaitGroup
		results  = make(chan result, 2*perKind+nSlow)
		ready    sync.WaitGroup // every request sent and, for readers, analyzed
		sigterm  = make(chan struct{})
		readSlow = make(chan struct{})
	)
	// run starts a stream of kind sending s; before SIGTERM, readers and
	// closers wait until they have received ready events (the events of
	// every request they sent).
	run := func(kind string, i int, c raiv1.AnalysisServiceClient, s script, want []string, before int, reason raiv1.EndReason, code codes.Code) {
		ready.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := func() error {
				readyOnce := sync.OnceFunc(ready.Done)
				defer readyOnce()
				st, err := c.Analyze(ctx)
				if err != nil {
					return err
				}
				for _, r := range s {
					if err := st.Send(r); err != nil {
						return fmt.Errorf("send: %w", err)
					}
				}
				var tr transcript
				recv := func() bool {
					ev, err := st.Recv()
					if err != nil {
						if !errors.Is(err, io.EOF) {
							tr.err = err
						}
						return false
					}
					tr.events = append(tr.events, ev)
					return true
				}
				switch kind {
				case "slow":
					readyOnce()
					<-readSlow
				case "closer":
					// Read until every request is analyzed, then wait for SIGTERM.
					for len(tr.events) < before && recv() {
					}
					readyOnce()
					<-sigterm
					if err := st.CloseSend(); err != nil {
						return fmt.Errorf("close send: %w", err)
					}
				case "reader":
					for len(tr.events) < before && recv() {
					}
					readyOnce()
				}
				for recv() {
				}
				return checkTranscript(tr, want, reason, code)
			}()
			results <- result{kind, i, err}
		}()
	}
	for i := range perKind {
		wantFinish, err1 := expected(a, ss[i], true)
		wantBefore, err2 := expected(a, ss[i], false)
		wantOpen, err3 := expected(a, ss[perKind+i], false)
		if err := errors.Join(err1, err2, err3); err != nil {
			t.Fatal(err)
		}
		run("closer", i, fast, ss[i], wantFinish, len(wantBefore), raiv1.EndReason_END_REASON_END_OF_STREAM, codes.OK)
		run("reader", i, fast, ss[perKind+i], wantOpen, len(wantOpen), raiv1.EndReason_END_REASON_SHUTDOWN, codes.Unavailable)
	}
	for i := range nSlow {
		run("slow", i, slow, heavy, wantHeavy, 0, raiv1.EndReason_END_REASON_SHUTDOWN, codes.Unavailable)
	}
	ready.Wait()
	// Let the slow streams' requests reach the server and fill its queues.
	time.Sleep(500 * time.Millisecond)
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	signalled := time.Now()
	close(sigterm)
	// Slow readers start reading after the deadline has fired.
	time.AfterFunc(drain+300*time.Millisecond, func() { close(readSlow) })
	wg.Wait()
	close(results)
	for r := range results {
		if r.err != nil {
			t.Errorf("%s %d: %v", r.kind, r.i, r.err)
		}
	}
	if err := p.wait(); err != nil {
		t.Errorf("exit: %v", err)
	}
	exited := p.at.Sub(signalled)
	t.Logf("process exited %v after SIGTERM (drain deadline %v)", exited, drain)
	if exited > drain+5*time.Second { // the server stops hard 5 s after the deadline
		t.Errorf("process exited %v after SIGTERM, drain deadline %v", exited, drain)
	}
}
