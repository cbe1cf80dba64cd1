package extract_test

import (
	"testing"

	"github.com/openrai/raiserver/extract"
)

// TestTextlessPayloads feeds payloads that are valid for their API and carry
// no text: they yield no pieces and no error, whatever the sourceType, so a
// stream that carries them goes on. Live streams send such chunks between
// text chunks (usage-only and obfuscation-only chunks, role-only and
// finish-only deltas, Azure annotation chunks).
func TestTextlessPayloads(t *testing.T) {
	tests := []struct {
		name    string
		api     extract.API
		payload string
	}{
		// Chat Completions.
		{"chat usage-only chunk without choices", extract.APIChat, `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-audio","service_tier":"default","system_fingerprint":"fp_1","usage":{"prompt_tokens":10,"completion_tokens":20,"total_tokens":30,"completion_tokens_details":{"audio_tokens":15}}}`},
		{"chat obfuscation-only chunk without choices", extract.APIChat, `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-audio","obfuscation":"r4N7vQ2m"}`},
		{"chat usage chunk with empty choices", extract.APIChat, `{"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[],"usage":{"total_tokens":3},"obfuscation":""}`},
		{"chat empty delta", extract.APIChat, `{"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}]}`},
		{"chat role-only delta", extract.APIChat, `{"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}`},
		{"chat null delta and content", extract.APIChat, `{"choices":[{"index":0,"delta":null},{"index":1,"delta":{"content":null,"refusal":null,"tool_calls":null,"audio":null}}]}`},
		{"chat audio data delta without transcript", extract.APIChat, `{"choices":[{"index":0,"delta":{"audio":{"id":"audio_1","data":"UklGRg==","expires_at":1}}}]}`},
		{"chat tool call delta without arguments", extract.APIChat, `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":""}}]}}]}`},
		{"chat choice without message or delta", extract.APIChat, `{"choices":[{"index":0,"finish_reason":"content_filter","content_filter_results":{"hate":{"filtered":true,"severity":"high"}}}]}`},
		{"chat null choice", extract.APIChat, `{"choices":[null]}`},
		{"chat null choices and messages", extract.APIChat, `{"choices":null,"messages":null}`},
		{"chat empty message", extract.APIChat, `{"choices":[{"index":0,"message":{"role":"assistant","content":null}}]}`},
		{"chat empty messages", extract.APIChat, `{"model":"m","messages":[]}`},
		{"chat prompt filter results only", extract.APIChat, `{"choices":[],"prompt_filter_results":[{"prompt_index":0,"content_filter_results":{}}]}`},
		{"chat error body", extract.APIChat, `{"error":{"code":"content_filter","message":"m"}}`},
		{"chat request without messages", extract.APIChat, `{"model":"gpt-4o","stream":true}`},
		{"chat empty object", extract.APIChat, `{}`},

		// Legacy Completions.
		{"completion usage-only chunk without choices", extract.APICompletion, `{"id":"cmpl-1","object":"text_completion","created":1,"model":"gpt-3.5-turbo-instruct","usage":{"total_tokens":3}}`},
		{"completion empty choices", extract.APICompletion, `{"id":"cmpl-1","object":"text_completion","choices":[],"usage":{"total_tokens":3}}`},
		{"completion empty text", extract.APICompletion, `{"choices":[{"index":0,"text":"","logprobs":null,"finish_reason":"stop"}]}`},
		{"completion choice without text", extract.APICompletion, `{"choices":[{"index":2,"finish_reason":"content_filter","content_filter_results":{}}]}`},
		{"completion null choice", extract.APICompletion, `{"choices":[null]}`},
		{"completion empty prompt", extract.APICompletion, `{"model":"m","prompt":""}`},
		{"completion empty prompt array", extract.APICompletion, `{"model":"m","prompt":[]}`},
		{"completion null prompt", extract.APICompletion, `{"model":"m","prompt":null}`},
		{"completion error body", extract.APICompletion, `{"error":{"code":"content_filter"}}`},
		{"completion empty object", extract.APICompletion, `{}`},

		// Image generation.
		{"image created-only response", extract.APIImage, `{"created":1}`},
		{"image usage-only response", extract.APIImage, `{"created":1,"usage":{"total_tokens":100}}`},
		{"image empty data", extract.APIImage, `{"created":1,"data":[]}`},
		{"image data element without image or revised prompt", extract.APIImage, `{"data":[{},null]}`},
		{"image empty prompt", extract.APIImage, `{"prompt":"","n":1}`},
		{"image unknown stream event", extract.APIImage, `{"type":"image_generation.started","created_at":1}`},
		{"image error body", extract.APIImage, `{"error":{"code":"content_policy_violation"}}`},
		{"image empty object", extract.APIImage, `{}`},

		// Realtime (every event has a type; the rest is optional).
		{"realtime empty delta", extract.APIRealtime, `{"type":"response.output_text.delta","response_id":"r","item_id":"i","content_index":0,"delta":""}`},
		{"realtime delta without delta", extract.APIRealtime, `{"type":"response.text.delta","response_id":"r","item_id":"i"}`},
		{"realtime transcript delta without ids", extract.APIRealtime, `{"type":"response.output_audio_transcript.delta"}`},
		{"realtime response.done without output", extract.APIRealtime, `{"type":"response.done","response":{"id":"r","status":"completed","usage":{"total_tokens":1}}}`},
		{"realtime response.done with empty output", extract.APIRealtime, `{"type":"response.done","response":{"id":"r","output":[]}}`},
		{"realtime response.done without response", extract.APIRealtime, `{"type":"response.done"}`},
		{"realtime item without content", extract.APIRealtime, `{"type":"conversation.item.created","item":{"id":"x","type":"message","role":"user"}}`},
		{"realtime output item with empty content", extract.APIRealtime, `{"type":"response.output_item.added","response_id":"r","item":{"id":"i","type":"message","role":"assistant","content":[]}}`},
		{"realtime audio part with empty transcript", extract.APIRealtime, `{"type":"response.content_part.added","response_id":"r","item_id":"i","content_index":0,"part":{"type":"audio","transcript":""}}`},
		{"realtime session without instructions", extract.APIRealtime, `{"type":"session.updated","session":{"voice":"alloy"}}`},
		{"realtime response.create without response", extract.APIRealtime, `{"type":"response.create"}`},
		{"realtime transcription delta without delta", extract.APIRealtime, `{"type":"conversation.item.input_audio_transcription.delta","item_id":"x","content_index":0}`},
		{"realtime unknown event", extract.APIRealtime, `{"type":"output_audio_buffer.started","response_id":"r"}`},
	}
	for _, tt := range tests {
		for _, src := range []extract.Source{P, C} {
			t.Run(tt.name+"/"+src.String(), func(t *testing.T) {
				s := extract.NewStream()
				got, err := s.Extract(nil, tt.api, src, []byte(tt.payload))
				if err != nil {
					t.Fatalf("error %v", err)
				}
				checkPieces(t, got, ``)
			})
		}
	}
}

// TestTextlessChunksBetweenText checks that text-free chunks between text
// chunks neither end the stream nor change the pieces of the text around them.
func TestTextlessChunksBetweenText(t *testing.T) {
	runCases(t, []extractCase{
		{name: "chat stream with usage and obfuscation chunks", api: extract.APIChat, src: C,
			payloads: []string{
				`{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}`,
				`{"id":"c","object":"chat.completion.chunk","obfuscation":"ab12"}`,
				`{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hello"}}]}`,
				`{"id":"c","object":"chat.completion.chunk","choices":[]}`,
				`{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"audio":{"transcript":" there"}}}]}`,
				`{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
				`{"id":"c","object":"chat.completion.chunk","usage":{"total_tokens":3}}`,
			},
			want: `
C 0/0 "Hello"
C 0/audio " there"`},
		{name: "completions stream with a usage chunk", api: extract.APICompletion, src: C,
			payloads: []string{
				`{"choices":[{"index":0,"text":"One"}]}`,
				`{"id":"cmpl-1","usage":{"total_tokens":3}}`,
				`{"choices":[{"index":0,"text":" two"}]}`,
			},
			want: `
C 0/0 "One"
C 0/0 " two"`},
	})
}
