package tests

import (
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
)

// TestTextlessChunksKeepStreamGoing interleaves valid chunks that carry no
// text (a chat chunk without choices, choices: [], an empty delta, usage-only
// chunks of every API) with text chunks of every API on one stream: the
// stream goes on, every text is watermarked to its end, and it ends with
// END_OF_STREAM and status OK.
func TestTextlessChunksKeepStreamGoing(t *testing.T) {
	ts := startServer(t)
	const (
		chat1, chat2 = "The weather is mild today. ", "We walk along the river."
		legacy       = "Say this is a test."
		rt           = "Sure, I can help."
		image        = "A cute baby sea otter"
	)
	reqs := []*raiv1.AnalyzeRequest{
		req("COMPLETION", "Chatcompletion", `{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""}}],"obfuscation":"x"}`),
		req("COMPLETION", "Chatcompletion", `{"id":"c","object":"chat.completion.chunk","model":"gpt-audio","obfuscation":"r4N7vQ2m"}`),
		req("COMPLETION", "Chatcompletion", chatChunk(0, chat1)),
		req("COMPLETION", "Chatcompletion", `{"id":"c","object":"chat.completion.chunk","choices":[]}`),
		req("COMPLETION", "Chatcompletion", `{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{}}]}`),
		req("COMPLETION", "Completion", `{"choices":[{"index":0,"text":`+jsonString(legacy)+`}]}`),
		req("COMPLETION", "Completion", `{"id":"cmpl-1","object":"text_completion","usage":{"total_tokens":3}}`),
		req("COMPLETION", "Realtime", `{"type":"response.output_text.delta","response_id":"r1","item_id":"i1","content_index":0,"delta":""}`),
		req("COMPLETION", "Realtime", `{"type":"response.output_text.delta","response_id":"r1","item_id":"i1","content_index":0,"delta":`+jsonString(rt)+`}`),
		req("COMPLETION", "Realtime", `{"type":"response.done","response":{"id":"r1","status":"completed"}}`),
		req("PROMPT", "Imagegeneration", `{"prompt":`+jsonString(image)+`}`),
		req("COMPLETION", "Imagegeneration", `{"created":1,"usage":{"total_tokens":10}}`),
		req("COMPLETION", "Chatcompletion", chatChunk(0, chat2)),
		req("COMPLETION", "Chatcompletion", `{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`),
		req("COMPLETION", "Chatcompletion", `{"id":"c","object":"chat.completion.chunk","usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`),
	}
	tr := ts.run(t, reqs...)
	if c := tr.completion(t); c.GetEndReason() != raiv1.EndReason_END_REASON_END_OF_STREAM || tr.err != nil {
		t.Fatalf("completion %v (%q), status %v", c.GetEndReason(), c.GetErrorDescription(), tr.err)
	}
	// The chat choice and the legacy choice share COMPLETION "0"/0: both
	// append to one item, in arrival order (SPEC §2).
	want := map[itemKey]int{
		{raiv1.SourceType_COMPLETION, "0", 0}:      len(chat1) + len(legacy) + len(chat2),
		{raiv1.SourceType_COMPLETION, "2r12i1", 0}: len(rt),
		{raiv1.SourceType_PROMPT, "0", 0}:          len(image),
	}
	tr.checkInvariants(t, want)
	final := map[itemKey]int{}
	for _, ev := range tr.events {
		if w := ev.GetWatermark(); w != nil {
			final[itemKey{w.GetSourceType(), w.GetMessageId(), w.GetContentIndex()}] = int(w.GetOffset())
		}
	}
	for k, n := range want {
		if final[k] != n {
			t.Errorf("final watermark of %v is %d, want %d", k, final[k], n)
		}
	}
	if len(final) != len(want) {
		t.Errorf("watermarks for %d items, want %d", len(final), len(want))
	}
}

// TestWrongShapeStillFails keeps INVALID_ARGUMENT for payloads that are not
// the API's shape, after the tolerant cases above.
func TestWrongShapeStillFails(t *testing.T) {
	ts := startServer(t)
	for _, p := range []string{
		`{"choices":"not an array"}`,
		`{"choices":[{"index":0,"delta":"not an object"}]}`,
		`{"model":"m","prompt":"a completions body sent as chat"}`,
	} {
		tr := ts.run(t, req("COMPLETION", "Chatcompletion", `{"usage":{"total_tokens":1}}`), req("COMPLETION", "Chatcompletion", p))
		c := tr.completion(t)
		if c.GetEndReason() != raiv1.EndReason_END_REASON_INVALID_ARGUMENT || status.Code(tr.err) != codes.InvalidArgument {
			t.Errorf("payload of %d bytes: completion %v, status %v", len(p), c.GetEndReason(), tr.err)
		}
	}
}
