package tests

import (
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/openrai/raiserver/analyzer"
	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
)

// nested returns a chat payload whose message holds an array nested depth deep.
func nested(depth int) string {
	return `{"messages":[{"role":"user","content":"x","meta":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}]}`
}

// garbage returns n random bytes made valid UTF-8 (a proto string must be):
// control bytes, NULs, brackets, quotes and arbitrary runes.
func garbage(n int) string {
	rng := rand.New(rand.NewPCG(uint64(n), 3))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.IntN(256))
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// TestBadInputTable sends each bad input after a good request on its own
// stream and checks the end it gets: the good request's results, then one
// Completion naming the bad request, and the status; or, for a message over
// the transport limit, grpc-go's RESOURCE_EXHAUSTED. Afterwards the server
// answers health checks and serves a good stream.
func TestBadInputTable(t *testing.T) {
	const (
		okEnd      = raiv1.EndReason_END_REASON_END_OF_STREAM
		invalidEnd = raiv1.EndReason_END_REASON_INVALID_ARGUMENT
		noEnd      = raiv1.EndReason_END_REASON_UNSPECIFIED // no Completion: the transport ended the stream
	)
	tests := []struct {
		name string
		bad  []*raiv1.AnalyzeRequest
		end  raiv1.EndReason
		code codes.Code
	}{
		{"malformed JSON", []*raiv1.AnalyzeRequest{req("PROMPT", "Chatcompletion", `{"messages":[{"role":"user","content":"x"}`)}, invalidEnd, codes.InvalidArgument},
		{"trailing garbage after JSON", []*raiv1.AnalyzeRequest{req("PROMPT", "Chatcompletion", `{"messages":[]}}`)}, invalidEnd, codes.InvalidArgument},
		{"top level array", []*raiv1.AnalyzeRequest{req("PROMPT", "Chatcompletion", `[{"role":"user","content":"x"}]`)}, invalidEnd, codes.InvalidArgument},
		{"messages object", []*raiv1.AnalyzeRequest{req("PROMPT", "Chatcompletion", `{"messages":{"content":"x"}}`)}, invalidEnd, codes.InvalidArgument},
		{"choices string", []*raiv1.AnalyzeRequest{req("COMPLETION", "Chatcompletion", `{"choices":"x"}`)}, invalidEnd, codes.InvalidArgument},
		{"content number", []*raiv1.AnalyzeRequest{req("PROMPT", "Chatcompletion", `{"messages":[{"role":"user","content":42}]}`)}, invalidEnd, codes.InvalidArgument},
		{"realtime event without type", []*raiv1.AnalyzeRequest{req("COMPLETION", "Realtime", `{"delta":"x"}`)}, invalidEnd, codes.InvalidArgument},
		{"another API's body", []*raiv1.AnalyzeRequest{req("PROMPT", "Completion", chatPrompt("x"))}, invalidEnd, codes.InvalidArgument},
		{"arrays nested 100,000 deep", []*raiv1.AnalyzeRequest{req("PROMPT", "Chatcompletion", nested(100_000))}, invalidEnd, codes.InvalidArgument},
		{"objects nested 100,000 deep", []*raiv1.AnalyzeRequest{req("PROMPT", "Chatcompletion", strings.Repeat(`{"a":`, 100_000)+"1"+strings.Repeat("}", 100_000))}, invalidEnd, codes.InvalidArgument},
		{"unclosed nesting 100,000 deep", []*raiv1.AnalyzeRequest{req("PROMPT", "Chatcompletion", strings.Repeat("[", 100_000))}, invalidEnd, codes.InvalidArgument},
		{"payload over the payload limit", []*raiv1.AnalyzeRequest{req("PROMPT", "Chatcompletion", chatPrompt(strings.Repeat("a", analyzer.DefaultMaxPayloadBytes)))}, invalidEnd, codes.InvalidArgument},
		{"64 MiB message", []*raiv1.AnalyzeRequest{req("PROMPT", "Chatcompletion", chatPrompt(strings.Repeat("a", 64<<20)))}, noEnd, codes.ResourceExhausted},
		{"unknown sourceType", []*raiv1.AnalyzeRequest{req("SYSTEM", "Chatcompletion", chatPrompt("x"))}, invalidEnd, codes.InvalidArgument},
		{"unknown apiName", []*raiv1.AnalyzeRequest{req("PROMPT", "Embeddings", `{"input":"x"}`)}, invalidEnd, codes.InvalidArgument},
		{"empty sourceType", []*raiv1.AnalyzeRequest{req("", "Chatcompletion", chatPrompt("x"))}, invalidEnd, codes.InvalidArgument},
		{"empty request", []*raiv1.AnalyzeRequest{{}}, invalidEnd, codes.InvalidArgument},
		{"empty payload", []*raiv1.AnalyzeRequest{req("PROMPT", "Chatcompletion", "")}, invalidEnd, codes.InvalidArgument},
		{"whitespace payload", []*raiv1.AnalyzeRequest{req("PROMPT", "Chatcompletion", " \n\t")}, invalidEnd, codes.InvalidArgument},
		{"malformed escape", []*raiv1.AnalyzeRequest{req("PROMPT", "Chatcompletion", `{"messages":[{"content":"\u12"}]}`)}, invalidEnd, codes.InvalidArgument},
		{"unknown escape", []*raiv1.AnalyzeRequest{req("PROMPT", "Chatcompletion", `{"messages":[{"content":"\x41"}]}`)}, invalidEnd, codes.InvalidArgument},
		{"binary garbage payload", []*raiv1.AnalyzeRequest{req("PROMPT", "Chatcompletion", garbage(4096))}, invalidEnd, codes.InvalidArgument},
		{"NUL bytes payload", []*raiv1.AnalyzeRequest{req("COMPLETION", "Realtime", "\x00\x00\x00\x00")}, invalidEnd, codes.InvalidArgument},

		// Accepted: not errors.
		{"empty object", []*raiv1.AnalyzeRequest{req("PROMPT", "Chatcompletion", `{}`)}, okEnd, codes.OK},
		{"apiName in another letter case", []*raiv1.AnalyzeRequest{req("prompt", "CHATCOMPLETION", chatPrompt("x"))}, okEnd, codes.OK},
		{"unknown Realtime event type", []*raiv1.AnalyzeRequest{req("COMPLETION", "Realtime", `{"type":"response.future_event.delta","delta":"x"}`)}, okEnd, codes.OK},
		{"unknown content part type", []*raiv1.AnalyzeRequest{req("PROMPT", "Chatcompletion", `{"messages":[{"role":"user","content":[{"type":"hologram","data":"x"}]}]}`)}, okEnd, codes.OK},
		{"lone surrogate escapes", []*raiv1.AnalyzeRequest{req("PROMPT", "Chatcompletion", `{"messages":[{"content":"a\ud800b\udc00c\ud800\u0041\udbff"}]}`)}, okEnd, codes.OK},
		{"surrogate pair and NUL escapes", []*raiv1.AnalyzeRequest{req("PROMPT", "Chatcompletion", `{"messages":[{"content":"\ud83d\ude00 \u0000 \uffff"}]}`)}, okEnd, codes.OK},
		{"no requests", nil, okEnd, codes.OK},
	}
	ts := startServer(t)
	const first = "A first prompt without a sentence end"
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reqs := append([]*raiv1.AnalyzeRequest{req("PROMPT", "Chatcompletion", chatPrompt(first))}, tt.bad...)
			reqs = append(reqs, req("PROMPT", "Chatcompletion", chatPrompt("never analyzed after an error")))
			tr := ts.run(t, reqs...)
			if status.Code(tr.err) != tt.code {
				t.Fatalf("status %v, want %v", tr.err, tt.code)
			}
			if tt.end == noEnd {
				for _, ev := range tr.events {
					if ev.GetCompletion() != nil {
						t.Errorf("a Completion from a stream the transport ended")
					}
				}
				return
			}
			c := tr.completion(t)
			if c.GetEndReason() != tt.end {
				t.Fatalf("end reason %v (%q), want %v", c.GetEndReason(), c.GetErrorDescription(), tt.end)
			}
			if tt.end == invalidEnd && !strings.HasPrefix(c.GetErrorDescription(), "request 1: ") {
				t.Errorf("error description %q does not name request 1", c.GetErrorDescription())
			}
			if strings.Contains(c.GetErrorDescription(), "never analyzed") || strings.Contains(c.GetErrorDescription(), first) {
				t.Errorf("error description leaks text")
			}
			for _, e := range tr.invariantErrors(nil) {
				t.Error(e)
			}
			// The good first request is analyzed and watermarked to its end.
			var wm uint32
			for _, ev := range tr.events {
				if w := ev.GetWatermark(); w != nil && w.GetSourceType() == raiv1.SourceType_PROMPT && w.GetMessageId() == "0" && w.GetContentIndex() == 0 {
					wm = w.GetOffset()
				}
			}
			if int(wm) < len(first) {
				t.Errorf("first request watermarked to %d, want %d", wm, len(first))
			}
		})
	}
	checkHealthy(t, ts)
}

// TestMillionOneByteChunks sends a million one-byte chat chunks on one
// stream (100,000 in short mode under the race detector, where a million
// takes minutes): the stream ends normally and the text is watermarked to
// its end.
func TestMillionOneByteChunks(t *testing.T) {
	n := 1_000_000
	if raceEnabled && !*long {
		n = 100_000
	}
	ts := startServerWith(t, goldenClassifier{})
	st, err := ts.client().Analyze(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	const alphabet = "abc de.\nfgh ij"
	sendErr := make(chan error, 1)
	go func() {
		for i := range n {
			if err := st.Send(req("COMPLETION", "Chatcompletion", chatChunk(0, alphabet[i%len(alphabet):i%len(alphabet)+1]))); err != nil {
				sendErr <- err
				return
			}
		}
		sendErr <- st.CloseSend()
	}()
	var last uint32
	var events int
	var end *raiv1.Completion
	for {
		ev, err := st.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("after %d events: %v", events, err)
		}
		events++
		if w := ev.GetWatermark(); w != nil {
			if w.GetOffset() <= last {
				t.Fatalf("watermark went from %d to %d", last, w.GetOffset())
			}
			last = w.GetOffset()
		}
		if c := ev.GetCompletion(); c != nil {
			end = c
		}
	}
	if err := <-sendErr; err != nil {
		t.Fatal(err)
	}
	if end.GetEndReason() != raiv1.EndReason_END_REASON_END_OF_STREAM {
		t.Errorf("end %v", end)
	}
	if int(last) != n {
		t.Errorf("final watermark %d, want %d", last, n)
	}
	t.Logf("%d one-byte chunks, %d events", n, events)
	checkHealthy(t, ts)
}

// rawCodec sends and receives messages as bytes, so a test can send what no
// protobuf encoder would. Its name is "proto": the server decodes with proto.
type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error) { return *(v.(*[]byte)), nil }
func (rawCodec) Unmarshal(b []byte, v any) error {
	*(v.(*[]byte)) = append([]byte(nil), b...)
	return nil
}
func (rawCodec) Name() string { return "proto" }

// TestGarbageMessages sends gRPC messages that are not AnalyzeRequests
// (random bytes; a payload field holding invalid UTF-8) and raw bytes that
// are not HTTP/2: each stream or connection ends with an error status and
// the server stays healthy.
func TestGarbageMessages(t *testing.T) {
	ts := startServer(t)
	good, err := proto.Marshal(req("PROMPT", "Chatcompletion", chatPrompt("Hello there")))
	if err != nil {
		t.Fatal(err)
	}
	// Field 3 (payload), wire type 2, 3 bytes of invalid UTF-8.
	badUTF8 := append(append([]byte{}, good...), 0x1a, 3, 0xff, 0xfe, 0xc0)
	for _, tc := range []struct {
		name string
		msg  []byte
	}{
		{"random bytes", []byte(garbage(512))},
		{"truncated message", good[:len(good)/2]},
		{"invalid UTF-8 in payload", badUTF8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testContext(t)
			st, err := ts.conn.NewStream(ctx, &grpc.StreamDesc{ClientStreams: true, ServerStreams: true},
				"/rai.v1.AnalysisService/Analyze", grpc.ForceCodec(rawCodec{}))
			if err != nil {
				t.Fatal(err)
			}
			if err := st.SendMsg(&good); err != nil {
				t.Fatal(err)
			}
			if err := st.SendMsg(&tc.msg); err != nil && !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
			var events int
			for {
				var b []byte
				err := st.RecvMsg(&b)
				if errors.Is(err, io.EOF) {
					t.Fatalf("stream ended OK after %d events", events)
				}
				if err != nil {
					if c := status.Code(err); c == codes.OK || c == codes.DeadlineExceeded || c == codes.Canceled {
						t.Fatalf("status %v", err)
					}
					t.Logf("status %v after %d events", status.Code(err), events)
					break
				}
				events++
			}
		})
	}
	t.Run("not HTTP/2", func(t *testing.T) {
		c, err := net.DialTimeout("tcp", ts.addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := c.Write([]byte(garbage(64 << 10))); err != nil {
			t.Logf("write: %v", err) // the server may close first
		}
		// The server closes the connection.
		if _, err := io.Copy(io.Discard, c); err != nil && !strings.Contains(err.Error(), "reset") {
			t.Errorf("read: %v", err)
		}
	})
	checkHealthy(t, ts)
}

// checkHealthy asserts that the server answers health checks and serves a
// good stream of every API.
func checkHealthy(t *testing.T, ts *testServer) {
	t.Helper()
	resp, err := healthpb.NewHealthClient(ts.conn).Check(testContext(t), &healthpb.HealthCheckRequest{})
	if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("health: %v %v", resp, err)
	}
	tr := ts.run(t,
		req("PROMPT", "Chatcompletion", chatPrompt("Still serving.")),
		req("COMPLETION", "Completion", `{"choices":[{"index":0,"text":"Still here."}]}`),
		req("COMPLETION", "Realtime", `{"type":"response.output_text.delta","response_id":"r","item_id":"i","delta":"Fine."}`),
		req("PROMPT", "Imagegeneration", `{"prompt":"A calm lake."}`),
	)
	if c := tr.completion(t); c.GetEndReason() != raiv1.EndReason_END_REASON_END_OF_STREAM || tr.err != nil {
		t.Fatalf("good stream after bad input: %v %v", c.GetEndReason(), tr.err)
	}
	// Three items (the chat and image prompts share PROMPT "0"/0): a
	// watermark each, then the Completion.
	if n := len(tr.events); n < 4 {
		t.Errorf("good stream: %d events, want a watermark per item and the Completion", n)
	}
}
