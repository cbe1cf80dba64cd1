package tests

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	reflectpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/classifiers"
	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
)

var update = flag.Bool("update", false, "rewrite golden transcripts in testdata/golden")

func compactJSON(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// jsonString quotes s as a JSON string.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func chatPrompt(text string) string {
	return `{"model":"gpt-4o","messages":[{"role":"user","content":` + jsonString(text) + `}]}`
}

func chatChunk(index int, delta string) string {
	return fmt.Sprintf(`{"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":%d,"delta":{"content":%s},"finish_reason":null}]}`, index, jsonString(delta))
}

const threat = "I am going to kill you and your whole family tonight."

func TestSpecRequestOverTCP(t *testing.T) {
	ts := startServer(t)
	tr := ts.run(t, req("PROMPT", "Chatcompletion", `{"model":"gpt-4o","messages":[{"role":"user","content":"Hello!"}]}`))
	if tr.err != nil {
		t.Fatalf("status %v", tr.err)
	}
	want := []*raiv1.AnalyzeResponse{
		{Event: &raiv1.AnalyzeResponse_Watermark{Watermark: &raiv1.Watermark{
			SourceType: raiv1.SourceType_PROMPT, MessageId: proto.String("0"), ContentIndex: proto.Uint32(0), Offset: proto.Uint32(6)}}},
		{Event: &raiv1.AnalyzeResponse_Completion{Completion: &raiv1.Completion{
			EndReason: raiv1.EndReason_END_REASON_END_OF_STREAM, ErrorDescription: proto.String("")}}},
	}
	if len(tr.events) != len(want) {
		t.Fatalf("got %d events, want %d:\n%s", len(tr.events), len(want), tr.jsonLines(t))
	}
	for i := range want {
		if !proto.Equal(tr.events[i], want[i]) {
			t.Errorf("event %d = %v, want %v", i, tr.events[i], want[i])
		}
	}
}

func TestHealthAndReflection(t *testing.T) {
	ts := startServer(t)
	ctx := testContext(t)
	hc := healthpb.NewHealthClient(ts.conn)
	for _, svc := range []string{"", raiv1.AnalysisService_ServiceDesc.ServiceName} {
		resp, err := hc.Check(ctx, &healthpb.HealthCheckRequest{Service: svc})
		if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
			t.Errorf("health %q: %v %v", svc, resp, err)
		}
	}
	rc, err := reflectpb.NewServerReflectionClient(ts.conn).ServerReflectionInfo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := rc.Send(&reflectpb.ServerReflectionRequest{MessageRequest: &reflectpb.ServerReflectionRequest_ListServices{}}); err != nil {
		t.Fatal(err)
	}
	resp, err := rc.Recv()
	if err != nil {
		t.Fatal(err)
	}
	rc.CloseSend()
	var names []string
	for _, s := range resp.GetListServicesResponse().GetService() {
		names = append(names, s.GetName())
	}
	if !strings.Contains(strings.Join(names, ","), raiv1.AnalysisService_ServiceDesc.ServiceName) {
		t.Errorf("reflection lists %v", names)
	}
}

func TestBlockingPrompt(t *testing.T) {
	ts := startServer(t)
	text := "Hello there. " + threat + " See you."
	tr := ts.run(t, req("PROMPT", "chatcompletion", chatPrompt(text)))
	if c := tr.completion(t); c.GetEndReason() != raiv1.EndReason_END_REASON_END_OF_STREAM || tr.err != nil {
		t.Fatalf("completion %v status %v", c, tr.err)
	}
	tr.checkInvariants(t, map[itemKey]int{{raiv1.SourceType_PROMPT, "0", 0}: len(text)})
	var blocking *raiv1.AnalysisResult
	for _, ev := range tr.events {
		if r := ev.GetAnalysisResult(); r != nil {
			for _, c := range r.GetHarmCategoryTaskResults() {
				if c.GetIsBlocking() && blocking == nil {
					blocking = r
				}
			}
		}
	}
	if blocking == nil {
		t.Fatalf("no blocking result:\n%s", tr.jsonLines(t))
	}
	start := strings.Index(text, threat)
	if got := blocking.GetOffset().GetStartOffset(); int(got) != start {
		t.Errorf("blocking segment starts at %d, want %d", got, start)
	}
	if n := len(blocking.GetHarmCategoryTaskResults()); n != 4 {
		t.Errorf("%d task results, want one per category", n)
	}
	var last uint32
	for _, ev := range tr.events {
		if w := ev.GetWatermark(); w != nil {
			last = w.GetOffset()
		}
	}
	if int(last) != start {
		t.Errorf("final watermark %d, want it stopped at the blocking segment %d", last, start)
	}
}

// TestChunkingInvariance sends the same model output whole, byte by byte and
// in random chunks, and expects the same analysis results.
func TestChunkingInvariance(t *testing.T) {
	ts := startServer(t)
	text := strings.Repeat("The weather is nice today and we walk outside. ", 30) +
		threat + " Ünïcödé text: 日本語のテキスト。絵文字 👩‍👩‍👧 ok.\nNext line " + strings.Repeat("wordy ", 300)
	results := func(chunks []string) string {
		var reqs []*raiv1.AnalyzeRequest
		for _, c := range chunks {
			reqs = append(reqs, req("COMPLETION", "Chatcompletion", chatChunk(0, c)))
		}
		tr := ts.run(t, reqs...)
		tr.completion(t)
		tr.checkInvariants(t, map[itemKey]int{{raiv1.SourceType_COMPLETION, "0", 0}: len(text)})
		var out []string
		for _, ev := range tr.events {
			if r := ev.GetAnalysisResult(); r != nil {
				out = append(out, string(compactJSON(t, mustJSON(t, r))))
			}
		}
		if len(out) == 0 {
			t.Fatalf("no results for %d chunks", len(chunks))
		}
		return strings.Join(out, "\n")
	}
	whole := results([]string{text})
	var bytewise []string
	for i := 0; i < len(text); {
		// One request per byte would cut UTF-8 sequences, which a JSON string
		// cannot carry; cut per rune instead, the smallest a payload can hold.
		_, n := utf8.DecodeRuneInString(text[i:])
		bytewise = append(bytewise, text[i:i+n])
		i += n
	}
	if got := results(bytewise); got != whole {
		t.Errorf("rune by rune differs from whole:\n%s\n---\n%s", got, whole)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 3 {
		var chunks []string
		for i := 0; i < len(text); {
			n := 1 + rng.IntN(40)
			j := min(i+n, len(text))
			for j < len(text) && !utf8.RuneStart(text[j]) {
				j++
			}
			chunks = append(chunks, text[i:j])
			i = j
		}
		if got := results(chunks); got != whole {
			t.Errorf("random chunks (round %d) differ from whole", round)
		}
	}
}

func TestInterleavedChoices(t *testing.T) {
	ts := startServer(t)
	tr := ts.run(t,
		req("COMPLETION", "Chatcompletion", `{"choices":[{"index":1,"delta":{"content":"Second choice. "}},{"index":0,"delta":{"content":"First choice. "}}]}`),
		req("COMPLETION", "Chatcompletion", `{"choices":[]}`),
		req("COMPLETION", "Chatcompletion", `{"choices":[{"index":0,"content_filter_results":{}}]}`),
		req("COMPLETION", "Chatcompletion", `{"choices":[{"index":0,"delta":{"content":"More."},"finish_reason":"stop"},{"index":1,"delta":{},"finish_reason":"stop"}]}`),
	)
	tr.completion(t)
	tr.checkInvariants(t, map[itemKey]int{
		{raiv1.SourceType_COMPLETION, "0", 0}: len("First choice. More."),
		{raiv1.SourceType_COMPLETION, "1", 0}: len("Second choice. "),
	})
	final := map[string]uint32{}
	for _, ev := range tr.events {
		if w := ev.GetWatermark(); w != nil {
			final[w.GetMessageId()] = w.GetOffset()
		}
	}
	if final["0"] != uint32(len("First choice. More.")) || final["1"] != uint32(len("Second choice. ")) {
		t.Errorf("final watermarks %v", final)
	}
}

func TestRealtimeDoneIsNotCountedTwice(t *testing.T) {
	ts := startServer(t)
	events := []string{
		`{"type":"response.output_item.added","response_id":"res_01","output_index":0,"item":{"id":"item_02","type":"message","role":"assistant","content":[]}}`,
		`{"type":"response.output_text.delta","response_id":"res_01","item_id":"item_02","output_index":0,"content_index":0,"delta":"Sure, I can "}`,
		`{"type":"response.output_text.delta","item_id":"item_02","output_index":0,"content_index":0,"delta":"help with that."}`,
		`{"type":"response.output_text.done","response_id":"res_01","item_id":"item_02","output_index":0,"content_index":0,"text":"Sure, I can help with that."}`,
		`{"type":"response.done","response":{"id":"res_01","output":[{"id":"item_02","type":"message","role":"assistant","content":[{"type":"output_text","text":"Sure, I can help with that."}]}]}}`,
	}
	var reqs []*raiv1.AnalyzeRequest
	for _, e := range events {
		reqs = append(reqs, req("COMPLETION", "Realtime", e))
	}
	tr := ts.run(t, reqs...)
	tr.completion(t)
	n := len("Sure, I can help with that.")
	key := itemKey{raiv1.SourceType_COMPLETION, "6res_017item_02", 0}
	tr.checkInvariants(t, map[itemKey]int{key: n})
	var last uint32
	for _, ev := range tr.events {
		if w := ev.GetWatermark(); w != nil {
			if k := (itemKey{w.GetSourceType(), w.GetMessageId(), w.GetContentIndex()}); k != key {
				t.Errorf("unexpected item %v", k)
			}
			last = w.GetOffset()
		}
	}
	if int(last) != n {
		t.Errorf("final watermark %d, want %d", last, n)
	}
}

func TestNoModelContent(t *testing.T) {
	ts := startServer(t)
	payload := `{"model":"gpt-4o","messages":[{"role":"user","content":[{"type":"text","text":"What is in this image?"},{"type":"image_url","image_url":{"url":"https://example.com/a.png"}},{"type":"text","text":"Thanks."}]}]}`
	tr := ts.run(t, req("PROMPT", "Chatcompletion", payload))
	tr.completion(t)
	var noModel []string
	wms := map[string]uint32{}
	for _, ev := range tr.events {
		if r := ev.GetAnalysisResult(); r != nil && r.GetHarmCategoryTaskResults()[0].GetResult() == raiv1.Result_NoModel {
			noModel = append(noModel, fmt.Sprintf("%s/%d", r.GetOffset().GetMessageId(), r.GetOffset().GetContentIndex()))
		}
		if w := ev.GetWatermark(); w != nil {
			wms[fmt.Sprintf("%s/%d", w.GetMessageId(), w.GetContentIndex())] = w.GetOffset()
		}
	}
	if strings.Join(noModel, ",") != "0/1" {
		t.Errorf("NoModel results for %v, want 0/1", noModel)
	}
	if wms["0/0"] != uint32(len("What is in this image?")) || wms["0/2"] != uint32(len("Thanks.")) {
		t.Errorf("watermarks %v", wms)
	}
}

func TestBadInputEndsStreamAfterEarlierResults(t *testing.T) {
	tests := []struct {
		name string
		bad  *raiv1.AnalyzeRequest
		want string
	}{
		{"payload not JSON", req("PROMPT", "Chatcompletion", `{"messages":[`), "request 1: "},
		{"unknown apiName", req("PROMPT", "Embeddings", `{}`), "request 1: "},
		{"unknown sourceType", req("SYSTEM", "Chatcompletion", chatPrompt("hi")), "request 1: "},
		{"wrong shape", req("PROMPT", "Chatcompletion", `{"messages":[{"role":"user","content":42}]}`), "request 1: "},
	}
	ts := startServer(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first := "A first prompt without a sentence end"
			tr := ts.run(t, req("PROMPT", "Chatcompletion", chatPrompt(first)), tt.bad, req("PROMPT", "Chatcompletion", chatPrompt("never analyzed")))
			c := tr.completion(t)
			if c.GetEndReason() != raiv1.EndReason_END_REASON_INVALID_ARGUMENT {
				t.Errorf("end reason %v", c.GetEndReason())
			}
			if !strings.HasPrefix(c.GetErrorDescription(), tt.want) {
				t.Errorf("error description %q lacks %q", c.GetErrorDescription(), tt.want)
			}
			if strings.Contains(c.GetErrorDescription(), "never analyzed") || strings.Contains(c.GetErrorDescription(), first) {
				t.Errorf("error description leaks text")
			}
			if status.Code(tr.err) != codes.InvalidArgument {
				t.Errorf("status %v, want InvalidArgument", tr.err)
			}
			// The first request's text is flushed and watermarked before the error.
			var wm uint32
			for _, ev := range tr.events {
				if w := ev.GetWatermark(); w != nil && w.GetMessageId() == "0" {
					wm = w.GetOffset()
				}
			}
			if int(wm) != len(first) {
				t.Errorf("first request watermark %d, want %d", wm, len(first))
			}
		})
	}
	// The server keeps serving after bad input.
	if tr := ts.run(t, req("PROMPT", "Completion", `{"prompt":"still here"}`)); tr.err != nil {
		t.Errorf("after bad input: %v", tr.err)
	}
}

func TestPayloadOverLimit(t *testing.T) {
	ts := startServer(t, analyzer.WithMaxPayloadBytes(4096))
	big := chatPrompt(strings.Repeat("a", 5000))
	huge := chatPrompt(strings.Repeat("b", 200_000)) // far over it
	for _, p := range []string{big, huge} {
		tr := ts.run(t, req("PROMPT", "Chatcompletion", chatPrompt("ok")), req("PROMPT", "Chatcompletion", p))
		c := tr.completion(t)
		if c.GetEndReason() != raiv1.EndReason_END_REASON_INVALID_ARGUMENT || status.Code(tr.err) != codes.InvalidArgument {
			t.Errorf("%d bytes: completion %v status %v", len(p), c, tr.err)
		}
		if !strings.HasPrefix(c.GetErrorDescription(), "request 1: ") {
			t.Errorf("%d bytes: description %q", len(p), c.GetErrorDescription())
		}
	}
}

func TestManyConcurrentStreams(t *testing.T) {
	ts := startServer(t)
	var wg sync.WaitGroup
	for i := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			text := fmt.Sprintf("Stream %d says hello. ", i) + strings.Repeat("Another calm sentence. ", 20)
			tr := ts.run(t, req("PROMPT", "Completion", `{"prompt":`+jsonString(text)+`}`))
			if tr.err != nil {
				t.Errorf("stream %d: %v", i, tr.err)
				return
			}
			tr.checkInvariants(t, map[itemKey]int{{raiv1.SourceType_PROMPT, "0", 0}: len(text)})
		}()
	}
	wg.Wait()
}

func TestShutdownDrainsOpenStreams(t *testing.T) {
	ts := startServer(t)
	ctx := testContext(t)
	stream, err := ts.client().Analyze(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := stream.Send(req("PROMPT", "Chatcompletion", chatPrompt("Hello. And then"))); err != nil {
		t.Fatal(err)
	}
	// Wait for the stream to be live on the server.
	if _, err := stream.Recv(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { ts.srv.Shutdown(200 * time.Millisecond); close(done) }()
	var last *raiv1.AnalyzeResponse
	for {
		ev, err := stream.Recv()
		if err != nil {
			if status.Code(err) != codes.Unavailable {
				t.Errorf("status %v, want Unavailable", err)
			}
			break
		}
		last = ev
	}
	if last.GetCompletion().GetEndReason() != raiv1.EndReason_END_REASON_SHUTDOWN {
		t.Errorf("last event %v, want a SHUTDOWN completion", last)
	}
	<-done
}

// goldenClassifier makes golden transcripts independent of the tuning of the
// real classifier stack: they pin the protocol (extraction, segments,
// watermarks, events, errors), while TestBlockingPrompt and friends run the
// real stack. It flags "kill" as VIOLENCE 4 and "hate" as HATE 1.
type goldenClassifier struct{}

func (goldenClassifier) Classify(dst []classifiers.Finding, text []byte) []classifiers.Finding {
	for word, f := range map[string]classifiers.Finding{
		"kill": {Category: classifiers.Violence, Severity: 4},
		"hate": {Category: classifiers.Hate, Severity: 1},
	} {
		for i := 0; ; {
			j := bytes.Index(text[i:], []byte(word))
			if j < 0 {
				break
			}
			f.Start, f.End = i+j, i+j+len(word)
			dst = append(dst, f)
			i += j + len(word)
		}
	}
	return dst
}

func TestGoldenTranscripts(t *testing.T) {
	ts := startServerWith(t, goldenClassifier{})
	tests := []struct {
		name string
		reqs []*raiv1.AnalyzeRequest
	}{
		{"spec_request", []*raiv1.AnalyzeRequest{req("PROMPT", "Chatcompletion", `{"model":"gpt-4o","messages":[{"role":"user","content":"Hello!"}]}`)}},
		{"chat_threat_prompt", []*raiv1.AnalyzeRequest{req("PROMPT", "Chatcompletion", chatPrompt("Hi. "+threat+" Bye."))}},
		{"chat_parts_with_image", []*raiv1.AnalyzeRequest{req("PROMPT", "Chatcompletion",
			`{"messages":[{"role":"system","content":"You are terse."},{"role":"user","content":[{"type":"text","text":"I hate mondays. "},{"type":"image_url","image_url":{"url":"https://example.com/a.png"}},{"type":"text","text":"What is this?"}]}]}`)}},
		{"chat_stream_two_choices", []*raiv1.AnalyzeRequest{
			req("COMPLETION", "Chatcompletion", chatChunk(0, "The capital of France ")),
			req("COMPLETION", "Chatcompletion", chatChunk(1, "Paris is ")),
			req("COMPLETION", "Chatcompletion", chatChunk(0, "is Paris. It is lovely.")),
			req("COMPLETION", "Chatcompletion", chatChunk(1, "the capital.")),
		}},
		{"legacy_prompt_array", []*raiv1.AnalyzeRequest{req("PROMPT", "Completion", `{"prompt":["Say this ","is a test."]}`)}},
		{"image_prompt", []*raiv1.AnalyzeRequest{req("PROMPT", "Imagegeneration", `{"prompt":"A cute baby sea otter","n":1}`)}},
		{"realtime_user_and_model", []*raiv1.AnalyzeRequest{
			req("PROMPT", "Realtime", `{"type":"conversation.item.create","item":{"id":"msg_001","type":"message","role":"user","content":[{"type":"input_text","text":"Hello, how are you?"}]}}`),
			req("COMPLETION", "Realtime", `{"type":"response.output_item.added","response_id":"res_01","item":{"id":"item_02","type":"message","role":"assistant"}}`),
			req("COMPLETION", "Realtime", `{"type":"response.output_audio_transcript.delta","response_id":"res_01","item_id":"item_02","content_index":0,"delta":"I am fine. "}`),
			req("COMPLETION", "Realtime", `{"type":"response.output_audio_transcript.done","response_id":"res_01","item_id":"item_02","content_index":0,"transcript":"I am fine. "}`),
		}},
		{"bad_second_request", []*raiv1.AnalyzeRequest{req("PROMPT", "Chatcompletion", chatPrompt("Fine")), req("PROMPT", "Chatcompletion", "not json")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := ts.run(t, tt.reqs...)
			got := tr.jsonLines(t)
			path := filepath.Join("testdata", "golden", tt.name+".jsonl")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("transcript differs from %s (run with -update after checking):\n got:\n%s\nwant:\n%s", path, got, want)
			}
		})
	}
}

func mustJSON(t testing.TB, m proto.Message) []byte {
	t.Helper()
	b, err := protojson.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPhraseAcrossSegments cuts an incitement phrase across a segment border
// (a small size cap forces the cut) and expects the default stack to still
// find it, in the segment that holds the phrase's end.
func TestPhraseAcrossSegments(t *testing.T) {
	ts := startServer(t, analyzer.WithMaxSegmentBytes(24))
	// Segments: "Listen to me carefully. " | "Then they should all be " | "shot for what they did"
	first, second := "Listen to me carefully. ", "Then they should all be "
	text := first + second + "shot for what they did"
	tr := ts.run(t, req("PROMPT", "Completion", `{"prompt":`+jsonString(text)+`}`))
	tr.completion(t)
	tr.checkInvariants(t, map[itemKey]int{{raiv1.SourceType_PROMPT, "0", 0}: len(text)})
	var blockingAt []uint32
	for _, ev := range tr.events {
		if r := ev.GetAnalysisResult(); r != nil {
			for _, c := range r.GetHarmCategoryTaskResults() {
				if c.GetIsBlocking() {
					blockingAt = append(blockingAt, r.GetOffset().GetStartOffset())
				}
			}
		}
	}
	if want := uint32(len(first) + len(second)); len(blockingAt) != 1 || blockingAt[0] != want {
		t.Errorf("blocking results start at %v, want one at %d", blockingAt, want)
	}
}
