package tests

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	"github.com/openrai/raiserver/analyzer"
	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
	"github.com/openrai/raiserver/server"
)

// Fuzz input format: requests separated by a NUL byte, each a header byte
// and the payload. The header's low 3 bits pick the apiName (fuzzAPIs), the
// next 2 bits the sourceType (fuzzSources); encodeFuzz sets the high bit,
// so a header is never the separator.
var (
	fuzzAPIs    = [8]string{"Chatcompletion", "Completion", "Realtime", "Imagegeneration", "chatCOMPLETION", "Embeddings", "", "realtime"}
	fuzzSources = [4]string{"PROMPT", "COMPLETION", "completion", "SYSTEM"}
)

const fuzzMaxRequests = 64

func decodeFuzz(b []byte) script {
	var s script
	for rec := range bytes.SplitSeq(b, []byte{0}) {
		if len(rec) == 0 || len(s) == fuzzMaxRequests {
			continue
		}
		h := rec[0]
		s = append(s, req(fuzzSources[h>>3&3], fuzzAPIs[h&7], strings.ToValidUTF8(string(rec[1:]), "\uFFFD")))
	}
	return s
}

func encodeFuzz(s script) []byte {
	var b []byte
	for _, r := range s {
		h := byte(0x80)
		for i, a := range fuzzAPIs {
			if a == r.GetApiName() {
				h |= byte(i)
			}
		}
		for i, src := range fuzzSources {
			if src == r.GetSourceType() {
				h |= byte(i) << 3
			}
		}
		b = append(b, h)
		b = append(b, r.GetPayload()...)
		b = append(b, 0)
	}
	return b
}

// expectedRun is what a server must send for s: the analyzer's events for
// the requests up to the first that fails, the final analysis, and the end
// reason that failure (or none) calls for.
func expectedRun(a *analyzer.Analyzer, s script) ([]string, raiv1.EndReason, codes.Code) {
	ok := len(s)
	reason := raiv1.EndReason_END_REASON_END_OF_STREAM
	code := codes.OK
	probe := a.NewSession()
	for i, r := range s {
		if _, err := probe.Process(nil, r.GetApiName(), r.GetSourceType(), []byte(r.GetPayload())); err != nil {
			ok = i
			reason, code = raiv1.EndReason_END_REASON_INVALID_ARGUMENT, codes.InvalidArgument
			if errors.Is(err, analyzer.ErrLimit) {
				reason, code = raiv1.EndReason_END_REASON_RESOURCE_EXHAUSTED, codes.ResourceExhausted
			}
			break
		}
	}
	want, err := expected(a, s[:ok], true)
	if err != nil {
		panic(err) // the same requests passed above
	}
	return want, reason, code
}

// FuzzStream drives the stream state machine (receive loop, analyzer
// session, extraction of every API, send loop, end of stream and errors)
// with sequences of requests over an in-memory gRPC connection. Every
// transcript must equal the analyzer's own events for the requests up to
// the first bad one, hold SPEC's invariants, and end with exactly one
// Completion whose reason matches the status. Small limits put the
// payload, item and stream-text limits in reach.
func FuzzStream(f *testing.F) {
	a, err := analyzer.New(goldenClassifier{},
		analyzer.WithMaxPayloadBytes(64<<10), analyzer.WithMaxItems(32),
		analyzer.WithMaxStreamTextBytes(256<<10), analyzer.WithMaxSegmentBytes(64))
	if err != nil {
		f.Fatal(err)
	}
	lis := bufconn.Listen(1 << 20)
	srv := server.NewServer(a)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(lis) }()
	cc, err := grpc.NewClient("passthrough:///bufconn",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() {
		cc.Close()
		srv.Shutdown(5 * time.Second)
		<-served
	})
	client := raiv1.NewAnalysisServiceClient(cc)

	rng := rand.New(rand.NewPCG(5, 5))
	for range 8 {
		f.Add(encodeFuzz(randomScript(rng)))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		s := decodeFuzz(in)
		want, reason, code := expectedRun(a, s)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		tr, err := stream(ctx, client, s, true)
		if err != nil {
			t.Fatalf("stream: %v", err)
		}
		if err := checkTranscript(tr, want, reason, code); err != nil {
			t.Fatalf("%d requests: %v", len(s), err)
		}
		if reason == raiv1.EndReason_END_REASON_INVALID_ARGUMENT {
			desc := tr.events[len(tr.events)-1].GetCompletion().GetErrorDescription()
			if !strings.HasPrefix(desc, "request ") {
				t.Errorf("error description %q names no request", desc)
			}
		}
	})
}

// TestFuzzEncoding keeps the fuzz input format invertible for the scripts
// the seeds come from.
func TestFuzzEncoding(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for i := range 20 {
		s := randomScript(rng)
		got := decodeFuzz(encodeFuzz(s))
		if len(got) != min(len(s), fuzzMaxRequests) {
			t.Fatalf("script %d: %d requests back, want %d", i, len(got), len(s))
		}
		for j := range got {
			if got[j].GetApiName() != s[j].GetApiName() || got[j].GetSourceType() != s[j].GetSourceType() || got[j].GetPayload() != s[j].GetPayload() {
				t.Fatalf("script %d request %d differs after a round trip", i, j)
			}
		}
	}
}
