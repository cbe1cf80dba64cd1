package extract_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/openrai/raiserver/extract"
)

const (
	P = extract.Prompt
	C = extract.Completion
)

type extractCase struct {
	name     string
	api      extract.API
	src      extract.Source
	payloads []string // fed in order through one Stream
	want     string   // see helpers_test.go
	opts     []extract.Option
}

func runCases(t *testing.T, cases []extractCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := extract.NewStream(tc.opts...)
			var got []extract.Piece
			for i, p := range tc.payloads {
				var err error
				if got, err = s.Extract(got, tc.api, tc.src, []byte(p)); err != nil {
					t.Fatalf("payload %d: %v", i, err)
				}
			}
			checkPieces(t, got, tc.want)
		})
	}
}

func TestChatPrompt(t *testing.T) {
	runCases(t, []extractCase{
		{name: "string content", api: extract.APIChat, src: P,
			payloads: []string{`{"model":"m","messages":[{"role":"system","content":"Be nice."},{"role":"user","content":"Hello!"}]}`},
			want: `
P 0/0 "Be nice."
P 1/0 "Hello!"`},
		{name: "parts keep their index around an image", api: extract.APIChat, src: P,
			payloads: []string{`{"messages":[{"role":"user","content":[{"type":"text","text":"What is it?"},{"type":"image_url","image_url":{"url":"https://x/a.png"}},{"type":"text","text":"Thanks."}]}]}`},
			want: `
P 0/0 "What is it?"
P 0/1 nomodel
P 0/2 "Thanks."`},
		{name: "audio and file parts are NoModel", api: extract.APIChat, src: P,
			payloads: []string{`{"messages":[{"role":"user","content":[{"type":"input_audio","input_audio":{"data":"AAA","format":"wav"}},{"type":"file","file":{"file_id":"f"}},{"type":"text","text":"Listen."}]}]}`},
			want: `
P 0/0 nomodel
P 0/1 nomodel
P 0/2 "Listen."`},
		{name: "null and absent content yield nothing", api: extract.APIChat, src: P,
			payloads: []string{`{"messages":[{"role":"assistant","content":null},{"role":"assistant"},{"role":"user","content":"Hi"},{"role":"user","content":""},{"role":"user","content":[]}]}`},
			want:     `P 2/0 "Hi"`},
		{name: "assistant history tool calls", api: extract.APIChat, src: P,
			payloads: []string{`{"messages":[{"role":"user","content":"Weather?"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"w","arguments":"{\"city\":\"Oslo\"}"}},{"id":"c2","type":"custom","custom":{"name":"g","input":"free text"}}]},{"role":"tool","tool_call_id":"c1","content":"21 C"}]}`},
			want: `
P 0/0 "Weather?"
P 1/tool+0 "{\"city\":\"Oslo\"}"
P 1/tool+1 "free text"
P 2/0 "21 C"`},
		{name: "assistant history refusal string and refusal part", api: extract.APIChat, src: P,
			payloads: []string{`{"messages":[{"role":"assistant","content":null,"refusal":"I can't."},{"role":"assistant","content":[{"type":"text","text":"Well"},{"type":"refusal","refusal":"No."}]}]}`},
			want: `
P 0/refusal "I can't."
P 1/0 "Well"
P 1/1 "No."`},
		{name: "legacy function_call arguments in history", api: extract.APIChat, src: P,
			payloads: []string{`{"messages":[{"role":"assistant","function_call":{"name":"f","arguments":"{\"a\":1}"}},{"role":"function","name":"f","content":"21.0"}]}`},
			want: `
P 0/func "{\"a\":1}"
P 1/0 "21.0"`},
		{name: "assistant audio reference is NoModel", api: extract.APIChat, src: P,
			payloads: []string{`{"messages":[{"role":"assistant","audio":{"id":"audio_1"}}]}`},
			want:     `P 0/audio nomodel`},
		{name: "escapes are decoded", api: extract.APIChat, src: P,
			payloads: []string{`{"messages":[{"role":"user","content":"a\"b\\c\n\u00e9\ud83d\ude00"}]}`},
			want:     `P 0/0 "a\"b\\c\né😀"`},
		{name: "unknown parts give their text or NoModel", api: extract.APIChat, src: P,
			payloads: []string{`{"messages":[{"role":"user","content":[{"type":"future","text":"T"},{"type":"future"},"plain",null,{"text":"untyped"}]}]}`},
			want: `
P 0/0 "T"
P 0/1 nomodel
P 0/2 "plain"
P 0/4 "untyped"`},
		{name: "names tools and schemas are not analyzed", api: extract.APIChat, src: P,
			payloads: []string{`{"messages":[{"role":"user","name":"bob","content":"x"}],"tools":[{"type":"function","function":{"name":"f","description":"d","parameters":{"type":"object"}}}],"response_format":{"type":"json_schema"}}`},
			want:     `P 0/0 "x"`},
		{name: "many messages", api: extract.APIChat, src: P,
			payloads: []string{`{"messages":[` + strings.Repeat(`{"role":"user","content":"a"},`, 300) + `{"role":"user","content":"last"}]}`},
			want:     manyMessagesWant(300)},
		{name: "response sent as PROMPT is still COMPLETION text", api: extract.APIChat, src: P,
			payloads: []string{`{"choices":[{"index":0,"message":{"role":"assistant","content":"Out"}}]}`},
			want:     `C 0/0 "Out"`},
		{name: "error body yields nothing", api: extract.APIChat, src: P,
			payloads: []string{`{"error":{"message":"filtered","code":"content_filter"}}`},
			want:     ``},
	})
}

func manyMessagesWant(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("P " + strconv.Itoa(i) + "/0 \"a\"\n")
	}
	b.WriteString("P " + strconv.Itoa(n) + "/0 \"last\"")
	return b.String()
}

func TestChatCompletion(t *testing.T) {
	runCases(t, []extractCase{
		{name: "full response", api: extract.APIChat, src: C,
			payloads: []string{`{"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Hello!","refusal":null,"annotations":[]},"finish_reason":"stop"}]}`},
			want:     `C 0/0 "Hello!"`},
		{name: "choice index not array position", api: extract.APIChat, src: C,
			payloads: []string{`{"choices":[{"index":1,"message":{"content":"one"}},{"index":0,"message":{"content":"zero"}}]}`},
			want: `
C 1/0 "one"
C 0/0 "zero"`},
		{name: "index absent falls back to position", api: extract.APIChat, src: C,
			payloads: []string{`{"choices":[{"message":{"content":"a"}},{"message":{"content":"b"}}]}`},
			want: `
C 0/0 "a"
C 1/0 "b"`},
		{name: "stream chunks with interleaved choices", api: extract.APIChat, src: C,
			payloads: []string{
				`{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""}},{"index":1,"delta":{"role":"assistant","content":""}}]}`,
				`{"object":"chat.completion.chunk","choices":[{"index":1,"delta":{"content":"B1"}},{"index":0,"delta":{"content":"A1"}}]}`,
				`{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"A2"}}]}`,
				`{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"},{"index":1,"delta":{},"finish_reason":"stop"}]}`,
			},
			want: `
C 1/0 "B1"
C 0/0 "A1"
C 0/0 "A2"`},
		{name: "empty choices", api: extract.APIChat, src: C,
			payloads: []string{`{"id":"","choices":[],"created":0,"model":"","object":""}`, `{"choices":[],"usage":{"total_tokens":3}}`},
			want:     ``},
		{name: "azure annotation chunk without delta", api: extract.APIChat, src: C,
			payloads: []string{`{"id":"","choices":[{"index":0,"finish_reason":null,"content_filter_results":{"hate":{"filtered":false,"severity":"safe"}},"content_filter_offsets":{"check_offset":1,"start_offset":1,"end_offset":9}}]}`},
			want:     ``},
		{name: "prompt_filter_results only chunk", api: extract.APIChat, src: C,
			payloads: []string{`{"prompt_filter_results":[{"prompt_index":0,"content_filter_results":{}}]}`, `{"prompt_annotations":[{"prompt_index":0}],"choices":[]}`},
			want:     ``},
		{name: "refusal in message and delta", api: extract.APIChat, src: C,
			payloads: []string{
				`{"choices":[{"index":0,"message":{"content":null,"refusal":"I can't help."}}]}`,
				`{"choices":[{"index":1,"delta":{"refusal":"No"}}]}`,
			},
			want: `
C 0/refusal "I can't help."
C 1/refusal "No"`},
		{name: "message tool calls", api: extract.APIChat, src: C,
			payloads: []string{`{"choices":[{"index":0,"message":{"content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}},{"id":"b","type":"function","function":{"name":"g","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`},
			want: `
C 0/tool+0 "{\"x\":1}"
C 0/tool+1 "{}"`},
		{name: "streamed tool calls keyed by their index field", api: extract.APIChat, src: C,
			payloads: []string{
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"f","arguments":""}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"lo"}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{}"}},{"index":0,"function":{"arguments":"c\"}"}}]}}]}`,
			},
			want: `
C 0/tool+0 "{\"lo"
C 0/tool+1 "{}"
C 0/tool+0 "c\"}"`},
		{name: "legacy function_call in message and delta", api: extract.APIChat, src: C,
			payloads: []string{
				`{"choices":[{"index":0,"message":{"function_call":{"name":"f","arguments":"{\"a\":"}}}]}`,
				`{"choices":[{"index":0,"delta":{"function_call":{"arguments":"1}"}}}]}`,
			},
			want: `
C 0/func "{\"a\":"
C 0/func "1}"`},
		{name: "audio transcript in message and deltas", api: extract.APIChat, src: C,
			payloads: []string{
				`{"choices":[{"index":0,"message":{"content":null,"audio":{"id":"a1","data":"UklG","expires_at":1,"transcript":"Hi there"}}}]}`,
				`{"choices":[{"index":1,"delta":{"audio":{"id":"a2","data":"UklG"}}}]}`,
				`{"choices":[{"index":1,"delta":{"audio":{"transcript":"Yo"}}}]}`,
			},
			want: `
C 0/audio "Hi there"
C 1/audio "Yo"`},
		{name: "message audio without transcript is NoModel", api: extract.APIChat, src: C,
			payloads: []string{`{"choices":[{"index":0,"message":{"audio":{"id":"a","data":"UklG"}}}]}`},
			want:     `C 0/audio nomodel`},
		{name: "nulls everywhere", api: extract.APIChat, src: C,
			payloads: []string{`{"choices":[{"index":0,"message":{"content":"x","refusal":null,"function_call":null,"tool_calls":null,"audio":null},"logprobs":null},null]}`},
			want:     `C 0/0 "x"`},
		{name: "request sent as COMPLETION is still PROMPT text", api: extract.APIChat, src: C,
			payloads: []string{`{"messages":[{"role":"user","content":"In"}]}`},
			want:     `P 0/0 "In"`},
		{name: "error body yields nothing", api: extract.APIChat, src: C,
			payloads: []string{`{"error":{"message":"The response was filtered","code":"content_filter","status":400}}`},
			want:     ``},
	})
}

func TestCompletion(t *testing.T) {
	runCases(t, []extractCase{
		{name: "prompt string", api: extract.APICompletion, src: P,
			payloads: []string{`{"model":"m","prompt":"Say this is a test","max_tokens":7}`},
			want:     `P 0/0 "Say this is a test"`},
		{name: "prompt array concatenated in order", api: extract.APICompletion, src: P,
			payloads: []string{`{"prompt":["Say this ","","is a test."]}`},
			want: `
P 0/0 "Say this "
P 0/0 "is a test."`},
		{name: "token array prompt is NoModel", api: extract.APICompletion, src: P,
			payloads: []string{`{"prompt":[1212,318,257,1332]}`},
			want:     `P 0/0 nomodel`},
		{name: "array of token arrays is NoModel", api: extract.APICompletion, src: P,
			payloads: []string{`{"prompt":[[1,2],[3]]}`},
			want:     `P 0/0 nomodel`},
		{name: "suffix", api: extract.APICompletion, src: P,
			payloads: []string{`{"prompt":"def f(","suffix":"return x"}`},
			want: `
P 0/0 "def f("
P 0/suffix "return x"`},
		{name: "response choices by index", api: extract.APICompletion, src: C,
			payloads: []string{`{"object":"text_completion","choices":[{"text":"returned text 1","index":0,"finish_reason":"length"},{"text":"returned text 2","index":1}]}`},
			want: `
C 0/0 "returned text 1"
C 1/0 "returned text 2"`},
		{name: "stream chunks append", api: extract.APICompletion, src: C,
			payloads: []string{`{"choices":[{"text":"Th","index":2}]}`, `{"choices":[{"text":"is","index":2,"finish_reason":null}]}`, `{"choices":[{"text":"","index":2,"finish_reason":"stop"}]}`},
			want: `
C 2/0 "Th"
C 2/0 "is"`},
		{name: "null prompt and error body", api: extract.APICompletion, src: C,
			payloads: []string{`{"prompt":null}`, `{"error":{"message":"x"}}`},
			want:     ``},
	})
}

func TestImage(t *testing.T) {
	runCases(t, []extractCase{
		{name: "prompt", api: extract.APIImage, src: P,
			payloads: []string{`{"model":"gpt-image-1","prompt":"A cute baby sea otter","n":1}`},
			want:     `P 0/0 "A cute baby sea otter"`},
		{name: "edit input images are NoModel", api: extract.APIImage, src: P,
			payloads: []string{`{"prompt":"Add a hat","images":[{"image_url":"data:image/png;base64,AAA"},{"file_id":"f"}],"mask":{"image_url":"m"}}`, `{"prompt":"x","image":"data:image/png;base64,AAA"}`},
			want: `
P 0/0 "Add a hat"
P 0/image+0 nomodel
P 0/image+1 nomodel
P 0/0 "x"
P 0/image+0 nomodel`},
		{name: "response revised prompt and images", api: extract.APIImage, src: C,
			payloads: []string{`{"created":1,"data":[{"url":"https://x/0.png"},{"url":"https://x/1.png","revised_prompt":"A vivid otter."}]}`},
			want: `
C 0/image+0 nomodel
C 0/1 "A vivid otter."
C 0/image+1 nomodel`},
		{name: "response sent as PROMPT is still COMPLETION", api: extract.APIImage, src: P,
			payloads: []string{`{"data":[{"b64_json":"AAAA","revised_prompt":"R"}]}`},
			want: `
C 0/0 "R"
C 0/image+0 nomodel`},
		{name: "stream events are NoModel", api: extract.APIImage, src: C,
			payloads: []string{
				`{"type":"image_generation.partial_image","b64_json":"AAA","partial_image_index":0}`,
				`{"type":"image_edit.completed","b64_json":"AAA"}`,
				`{"type":"error","error":{"message":"x"}}`,
			},
			want: `
C 0/image+0 nomodel
C 0/image+0 nomodel`},
	})
}

// Realtime events used by several cases.
const (
	rtItemAdded = `{"type":"response.output_item.added","response_id":"res_01","output_index":0,"item":{"id":"item_02","object":"realtime.item","type":"message","status":"in_progress","role":"assistant","content":[]}}`
)

func TestRealtime(t *testing.T) {
	runCases(t, []extractCase{
		{name: "id derivation", api: extract.APIRealtime, src: C,
			payloads: []string{`{"type":"response.text.delta","response_id":"res_01","item_id":"item_02","output_index":0,"content_index":0,"delta":"Sure"}`},
			want:     `C 6res_017item_02/0 "Sure"`},
		{name: "id lengths are bytes", api: extract.APIRealtime, src: C,
			payloads: []string{`{"type":"response.output_text.delta","response_id":"r\u00e9","item_id":"i","content_index":0,"delta":"x"}`},
			want:     `C 3ré1i/0 "x"`},
		{name: "beta text deltas and done", api: extract.APIRealtime, src: C,
			payloads: []string{
				rtItemAdded,
				`{"type":"response.content_part.added","response_id":"res_01","item_id":"item_02","output_index":0,"content_index":0,"part":{"type":"text","text":""}}`,
				`{"type":"response.text.delta","response_id":"res_01","item_id":"item_02","output_index":0,"content_index":0,"delta":"Sure, I can h"}`,
				`{"type":"response.text.delta","response_id":"res_01","item_id":"item_02","output_index":0,"content_index":0,"delta":"elp."}`,
				`{"type":"response.text.done","response_id":"res_01","item_id":"item_02","output_index":0,"content_index":0,"text":"Sure, I can help."}`,
				`{"type":"response.content_part.done","response_id":"res_01","item_id":"item_02","output_index":0,"content_index":0,"part":{"type":"text","text":"Sure, I can help."}}`,
				`{"type":"response.output_item.done","response_id":"res_01","output_index":0,"item":{"id":"item_02","type":"message","role":"assistant","content":[{"type":"text","text":"Sure, I can help."}]}}`,
			},
			want: `
C 6res_017item_02/0 "Sure, I can h"
C 6res_017item_02/0 "elp."
C 6res_017item_02/0 full "Sure, I can help."
C 6res_017item_02/0 full "Sure, I can help."
C 6res_017item_02/0 full "Sure, I can help."`},
		{name: "beta audio transcript", api: extract.APIRealtime, src: C,
			payloads: []string{
				`{"type":"response.content_part.added","response_id":"res_01","item_id":"item_02","output_index":0,"content_index":0,"part":{"type":"audio","transcript":""}}`,
				`{"type":"response.audio.delta","response_id":"res_01","item_id":"item_02","output_index":0,"content_index":0,"delta":"UklGRg=="}`,
				`{"type":"response.audio_transcript.delta","response_id":"res_01","item_id":"item_02","output_index":0,"content_index":0,"delta":"Hello"}`,
				`{"type":"response.audio_transcript.done","response_id":"res_01","item_id":"item_02","output_index":0,"content_index":0,"transcript":"Hello"}`,
			},
			want: `
C 6res_017item_02/0 "Hello"
C 6res_017item_02/0 full "Hello"`},
		{name: "GA names and content index", api: extract.APIRealtime, src: C,
			payloads: []string{
				`{"type":"response.output_text.delta","response_id":"res_01","item_id":"item_02","output_index":0,"content_index":1,"delta":"A"}`,
				`{"type":"response.output_text.done","response_id":"res_01","item_id":"item_02","output_index":0,"content_index":1,"text":"AB"}`,
				`{"type":"response.output_audio_transcript.delta","response_id":"res_01","item_id":"item_02","output_index":0,"content_index":0,"delta":"T"}`,
				`{"type":"response.output_audio_transcript.done","response_id":"res_01","item_id":"item_02","output_index":0,"content_index":0,"transcript":"TU"}`,
				`{"type":"response.output_audio.delta","response_id":"res_01","item_id":"item_02","content_index":0,"delta":"UklG"}`,
			},
			want: `
C 6res_017item_02/1 "A"
C 6res_017item_02/1 full "AB"
C 6res_017item_02/0 "T"
C 6res_017item_02/0 full "TU"`},
		{name: "item to response map from output_item.added", api: extract.APIRealtime, src: C,
			payloads: []string{
				rtItemAdded,
				`{"type":"response.output_text.delta","item_id":"item_02","content_index":0,"delta":"mapped"}`,
				`{"type":"conversation.item.added","previous_item_id":null,"item":{"id":"item_02","type":"message","role":"assistant","content":[{"type":"output_text","text":"mapped"}]}}`,
				`{"type":"conversation.item.done","item":{"id":"item_02","type":"message","role":"assistant","status":"completed","content":[{"type":"output_audio","transcript":"mapped"}]}}`,
			},
			want: `
C 6res_017item_02/0 "mapped"
C 6res_017item_02/0 full "mapped"
C 6res_017item_02/0 full "mapped"`},
		{name: "item to response map from deltas", api: extract.APIRealtime, src: C,
			payloads: []string{
				`{"type":"response.audio_transcript.delta","response_id":"resp_9","item_id":"msg_9","content_index":0,"delta":"a"}`,
				`{"type":"conversation.item.retrieved","item":{"id":"msg_9","type":"message","role":"assistant","content":[{"type":"audio","transcript":"ab"}]}}`,
			},
			want: `
C 6resp_95msg_9/0 "a"
C 6resp_95msg_9/0 full "ab"`},
		{name: "unknown mapping uses an empty response id", api: extract.APIRealtime, src: C,
			payloads: []string{`{"type":"response.text.delta","item_id":"item_99","content_index":0,"delta":"orphan"}`},
			want:     `C 07item_99/0 "orphan"`},
		{name: "map eviction forgets the oldest item", api: extract.APIRealtime, src: C,
			opts: []extract.Option{extract.WithMaxRealtimeItems(1)},
			payloads: []string{
				`{"type":"response.output_item.added","response_id":"r1","item":{"id":"i1","role":"assistant"}}`,
				`{"type":"response.output_item.added","response_id":"r2","item":{"id":"i2","role":"assistant"}}`,
				`{"type":"response.text.delta","item_id":"i1","delta":"x"}`,
				`{"type":"response.text.delta","item_id":"i2","delta":"y"}`,
			},
			want: `
C 02i1/0 "x"
C 2r22i2/0 "y"`},
		{name: "an item moved to a later response is remapped", api: extract.APIRealtime, src: C,
			payloads: []string{
				`{"type":"response.output_item.added","response_id":"r1","item":{"id":"i1","role":"assistant"}}`,
				`{"type":"response.output_item.added","response_id":"r2","item":{"id":"i1","role":"assistant"}}`,
				`{"type":"response.text.delta","item_id":"i1","delta":"x"}`,
			},
			want: `C 2r22i1/0 "x"`},
		{name: "response.done output", api: extract.APIRealtime, src: C,
			payloads: []string{
				`{"type":"response.created","response":{"id":"resp_001","object":"realtime.response","status":"in_progress","output":[]}}`,
				`{"type":"response.done","response":{"id":"resp_001","status":"completed","output":[{"id":"msg_006","type":"message","role":"assistant","content":[{"type":"text","text":"Sure."},{"type":"audio","transcript":null}]},{"id":"fc_1","type":"function_call","name":"f","call_id":"c","arguments":"{}"}]}}`,
				`{"type":"conversation.item.retrieved","item":{"id":"msg_006","type":"message","role":"assistant","content":[{"type":"text","text":"Sure."}]}}`,
			},
			want: `
C 8resp_0017msg_006/0 full "Sure."
C 8resp_0017msg_006/1 nomodel
C 8resp_0014fc_1/tool+0 full "{}"
C 8resp_0017msg_006/0 full "Sure."`},
		{name: "function call arguments and output", api: extract.APIRealtime, src: C,
			payloads: []string{
				`{"type":"response.function_call_arguments.delta","response_id":"r","item_id":"fc","output_index":0,"call_id":"c","delta":"{\"a\""}`,
				`{"type":"response.function_call_arguments.done","response_id":"r","item_id":"fc","output_index":0,"call_id":"c","name":"f","arguments":"{\"a\":1}"}`,
				`{"type":"conversation.item.create","item":{"id":"out_1","type":"function_call_output","call_id":"c","output":"{\"t\":21}"}}`,
			},
			want: `
C 1r2fc/tool+0 "{\"a\""
C 1r2fc/tool+0 full "{\"a\":1}"
P out_1/toolout full "{\"t\":21}"`},
		{name: "client item create", api: extract.APIRealtime, src: P,
			payloads: []string{`{"event_id":"event_345","type":"conversation.item.create","previous_item_id":null,"item":{"id":"msg_001","type":"message","role":"user","content":[{"type":"input_text","text":"Hello, how are you?"},{"type":"input_image","image_url":"data:image/png;base64,AA"}]}}`},
			want: `
P msg_001/0 full "Hello, how are you?"
P msg_001/1 nomodel`},
		{name: "client item without id", api: extract.APIRealtime, src: P,
			payloads: []string{
				`{"type":"conversation.item.create","item":{"type":"message","role":"user","content":[{"type":"input_text","text":"One."}]}}`,
				`{"type":"conversation.item.create","item":{"type":"message","role":"user","content":[{"type":"input_text","text":"One."}]}}`,
			},
			want: `
P ""/0 "One."
P ""/0 "One."`},
		{name: "replayed assistant item with unknown id is PROMPT", api: extract.APIRealtime, src: P,
			payloads: []string{`{"type":"conversation.item.create","item":{"id":"old_1","type":"message","role":"assistant","content":[{"type":"text","text":"Earlier answer."}]}}`},
			want:     `P old_1/0 full "Earlier answer."`},
		{name: "user audio then transcription", api: extract.APIRealtime, src: P,
			payloads: []string{
				`{"type":"conversation.item.created","previous_item_id":"msg_002","item":{"id":"msg_003","type":"message","status":"completed","role":"user","content":[{"type":"input_audio","transcript":null}]}}`,
				`{"type":"conversation.item.input_audio_transcription.delta","item_id":"msg_003","content_index":0,"delta":"Hello,"}`,
				`{"type":"conversation.item.input_audio_transcription.delta","item_id":"msg_003","content_index":0,"delta":" how are you?"}`,
				`{"type":"conversation.item.input_audio_transcription.completed","item_id":"msg_003","content_index":0,"transcript":"Hello, how are you?"}`,
				`{"type":"conversation.item.input_audio_transcription.failed","item_id":"msg_003","content_index":0,"error":{"message":"x"}}`,
			},
			want: `
P msg_003/0 nomodel
P msg_003/0 "Hello,"
P msg_003/0 " how are you?"
P msg_003/0 full "Hello, how are you?"`},
		{name: "instructions", api: extract.APIRealtime, src: P,
			payloads: []string{
				`{"type":"session.update","session":{"type":"realtime","instructions":"Be brief.","tools":[{"type":"function","name":"f","description":"d"}]}}`,
				`{"type":"session.updated","session":{"id":"s","instructions":"Be brief."}}`,
				`{"type":"response.create","response":{"instructions":"Please assist the user.","input":[{"type":"item_reference","id":"msg_1"},{"type":"message","role":"user","content":[{"type":"input_text","text":"Oob"}]}]}}`,
			},
			want: `
P instructions/instr full "Be brief."
P instructions/instr full "Be brief."
P instructions/instr full "Please assist the user."
P ""/0 "Oob"`},
		{name: "sourceType does not decide", api: extract.APIRealtime, src: P,
			payloads: []string{`{"type":"response.text.delta","response_id":"a","item_id":"b","content_index":0,"delta":"x"}`},
			want:     `C 1a1b/0 "x"`},
		{name: "events without text", api: extract.APIRealtime, src: C,
			payloads: []string{
				`{"type":"session.created","session":{"id":"s","model":"m"}}`,
				`{"type":"input_audio_buffer.append","audio":"UklGRg=="}`,
				`{"type":"input_audio_buffer.committed","previous_item_id":null,"item_id":"msg_1"}`,
				`{"type":"input_audio_buffer.speech_started","audio_start_ms":1,"item_id":"msg_1"}`,
				`{"type":"rate_limits.updated","rate_limits":[{"name":"requests","limit":1}]}`,
				`{"type":"error","error":{"type":"invalid_request_error","message":"bad"}}`,
				`{"type":"conversation.item.truncated","item_id":"msg_1","content_index":0,"audio_end_ms":1}`,
				`{"type":"response.output_audio.done","response_id":"r","item_id":"i","content_index":0}`,
				`{"type":"some.future.event","text":"ignored"}`,
				`{"type":"conversation.item.created","item":{"id":"msg_003","type":"message","role":"user","content":[]}}`,
			},
			want: ``},
		{name: "unknown part types", api: extract.APIRealtime, src: C,
			payloads: []string{`{"type":"conversation.item.create","item":{"id":"u","role":"user","content":[{"type":"future","text":"t"},{"type":"future"},{"type":"item_reference","id":"x"}]}}`},
			want: `
P u/0 full "t"
P u/1 nomodel`},
	})
}

func TestErrors(t *testing.T) {
	const secret = "SECRETWORD"
	tests := []struct {
		name    string
		api     extract.API
		src     extract.Source
		payload string
		err     error
		msg     string // the message after the sentinel's text
	}{
		{"not json", extract.APIChat, P, `{"messages":[{"content":"SECRETWORD`, extract.ErrInvalidJSON, ""},
		{"empty", extract.APIChat, P, ``, extract.ErrInvalidJSON, ""},
		{"trailing garbage", extract.APIChat, P, `{"messages":[]} x`, extract.ErrInvalidJSON, ""},
		{"too deep", extract.APIChat, P, `{"messages":[{"content":"SECRETWORD","x":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}]}`, extract.ErrInvalidJSON, "nested deeper than 512"},
		{"top level array", extract.APIChat, P, `["SECRETWORD"]`, extract.ErrShape, "payload: want object, got array"},
		{"top level string", extract.APIRealtime, P, `"SECRETWORD"`, extract.ErrShape, "payload: want object, got string"},
		{"messages not array", extract.APIChat, P, `{"messages":{"content":"SECRETWORD"}}`, extract.ErrShape, "messages: want array, got object"},
		{"content number", extract.APIChat, P, `{"messages":[{"content":"SECRETWORD"},{"content":"a"},{"role":"user","content":42}]}`, extract.ErrShape, "messages[2].content: want string or array, got number"},
		{"part text number", extract.APIChat, P, `{"messages":[{"content":[{"type":"text","text":"SECRETWORD"},{"type":"text","text":1}]}]}`, extract.ErrShape, "messages[0].content[1].text: want string, got number"},
		{"message not object", extract.APIChat, P, `{"messages":["SECRETWORD"]}`, extract.ErrShape, "messages[0]: want object, got string"},
		{"tool arguments object", extract.APIChat, C, `{"choices":[{"index":0,"message":{"tool_calls":[{"function":{"arguments":{"q":"SECRETWORD"}}}]}}]}`, extract.ErrShape, "choices[0].message.tool_calls[0].function.arguments: want string, got object"},
		{"choice index string", extract.APIChat, C, `{"choices":[{"index":"0","delta":{"content":"SECRETWORD"}}]}`, extract.ErrShape, "choices[0].index: want integer, got string"},
		{"choice index negative", extract.APIChat, C, `{"choices":[{"index":-1,"delta":{"content":"SECRETWORD"}}]}`, extract.ErrShape, "choices[0].index: want integer in [0, 2147483648)"},
		{"tool call index too large", extract.APIChat, C, `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1000000,"function":{"arguments":"SECRETWORD"}}]}}]}`, extract.ErrShape, "choices[0].delta.tool_calls[0].index: want integer in [0, 1000000)"},
		{"delta content number", extract.APIChat, C, `{"choices":[{"index":0,"delta":{"content":7}}]}`, extract.ErrShape, "choices[0].delta.content: want string or array, got number"},
		{"duplicate key", extract.APIChat, P, `{"messages":[{"role":"user","content":"ok","content":"SECRETWORD"}]}`, extract.ErrShape, `messages[0]: duplicate key "content"`},
		{"duplicate escaped key", extract.APIChat, P, `{"messages":[],"m\u0065ssages":[{"content":"SECRETWORD"}]}`, extract.ErrShape, `payload: duplicate key "messages"`},
		{"chat payload with a completions prompt", extract.APIChat, P, `{"model":"m","prompt":"SECRETWORD"}`, extract.ErrShape, `payload: no messages or choices, but "prompt", a text field of another API (wrong apiName?)`},
		{"chat payload with a responses input", extract.APIChat, C, `{"model":"m","input":[{"role":"user","content":"SECRETWORD"}]}`, extract.ErrShape, `payload: no messages or choices, but "input", a text field of another API (wrong apiName?)`},
		{"chat payload that is a realtime event", extract.APIChat, C, `{"type":"response.text.delta","delta":"SECRETWORD"}`, extract.ErrShape, `payload: no messages or choices, but "delta", a text field of another API (wrong apiName?)`},
		{"chat choices string", extract.APIChat, C, `{"choices":"SECRETWORD"}`, extract.ErrShape, "choices: want array, got string"},
		{"chat choices number", extract.APIChat, C, `{"choices":1}`, extract.ErrShape, "choices: want array, got number"},
		{"chat messages string", extract.APIChat, P, `{"messages":"SECRETWORD"}`, extract.ErrShape, "messages: want array, got string"},
		{"chat delta string", extract.APIChat, C, `{"choices":[{"index":0,"delta":"SECRETWORD"}]}`, extract.ErrShape, "choices[0].delta: want object, got string"},
		{"chat choice number", extract.APIChat, C, `{"choices":[1]}`, extract.ErrShape, "choices[0]: want object, got number"},
		{"prompt object", extract.APICompletion, P, `{"prompt":{"x":"SECRETWORD"}}`, extract.ErrShape, "prompt: want string or array, got object"},
		{"prompt array of objects", extract.APICompletion, P, `{"prompt":["SECRETWORD",{}]}`, extract.ErrShape, "prompt[1]: want string, token or token array, got object"},
		{"prompt nested strings", extract.APICompletion, P, `{"prompt":[["SECRETWORD"]]}`, extract.ErrShape, "prompt[0]: want token array, got an array holding string"},
		{"completion text number", extract.APICompletion, C, `{"choices":[{"index":0,"text":5}]}`, extract.ErrShape, "choices[0].text: want string, got number"},
		{"completion payload with chat messages", extract.APICompletion, C, `{"messages":[{"content":"SECRETWORD"}]}`, extract.ErrShape, `payload: no prompt, suffix or choices, but "messages", a text field of another API (wrong apiName?)`},
		{"completion choices string", extract.APICompletion, C, `{"choices":"SECRETWORD"}`, extract.ErrShape, "choices: want array, got string"},
		{"image prompt array", extract.APIImage, P, `{"prompt":["SECRETWORD"]}`, extract.ErrShape, "prompt: want string, got array"},
		{"image data object", extract.APIImage, C, `{"data":{"revised_prompt":"SECRETWORD"}}`, extract.ErrShape, "data: want array, got object"},
		{"image payload with chat messages", extract.APIImage, P, `{"model":"m","messages":[{"content":"SECRETWORD"}]}`, extract.ErrShape, `payload: no prompt, image, images or data, but "messages", a text field of another API (wrong apiName?)`},
		{"image payload that is a realtime event", extract.APIImage, C, `{"type":"response.output_text.delta","delta":"SECRETWORD"}`, extract.ErrShape, `payload: no prompt, image, images or data, but "delta", a text field of another API (wrong apiName?)`},
		{"image data string", extract.APIImage, C, `{"data":"SECRETWORD"}`, extract.ErrShape, "data: want array, got string"},
		{"realtime empty object", extract.APIRealtime, C, `{}`, extract.ErrShape, "type: want string, got nothing"},
		{"realtime type null", extract.APIRealtime, P, `{"type":null,"delta":"SECRETWORD"}`, extract.ErrShape, "type: want string, got null"},
		{"realtime missing type", extract.APIRealtime, C, `{"delta":"SECRETWORD"}`, extract.ErrShape, "type: want string, got nothing"},
		{"realtime delta number", extract.APIRealtime, C, `{"type":"response.text.delta","response_id":"r","item_id":"i","delta":1}`, extract.ErrShape, "delta: want string, got number"},
		{"realtime content index too large", extract.APIRealtime, C, `{"type":"response.text.delta","response_id":"r","item_id":"i","content_index":1000000,"delta":"SECRETWORD"}`, extract.ErrShape, "content_index: want integer in [0, 1000000)"},
		{"realtime item content not array", extract.APIRealtime, P, `{"type":"conversation.item.create","item":{"id":"x","content":{"text":"SECRETWORD"}}}`, extract.ErrShape, "item.content: want array, got object"},
		{"realtime output part text", extract.APIRealtime, C, `{"type":"response.done","response":{"id":"r","output":[{"id":"a"},{"id":"b","content":[{"type":"text","text":"SECRETWORD"},{"type":"text","text":[]}]}]}}`, extract.ErrShape, "response.output[1].content[1].text: want string, got array"},
		{"realtime instructions number", extract.APIRealtime, P, `{"type":"session.update","session":{"instructions":3}}`, extract.ErrShape, "session.instructions: want string, got number"},
		{"realtime session not object", extract.APIRealtime, P, `{"type":"session.update","session":"SECRETWORD"}`, extract.ErrShape, "session: want object, got string"},
		{"realtime response not object", extract.APIRealtime, C, `{"type":"response.done","response":["SECRETWORD"]}`, extract.ErrShape, "response: want object, got array"},
		{"realtime response.create input not array", extract.APIRealtime, P, `{"type":"response.create","response":{"input":{"content":"SECRETWORD"}}}`, extract.ErrShape, "response.input: want array, got object"},
		{"realtime response.create instructions", extract.APIRealtime, P, `{"type":"response.create","response":{"instructions":true}}`, extract.ErrShape, "response.instructions: want string, got boolean"},
		{"realtime item not object", extract.APIRealtime, P, `{"type":"conversation.item.create","item":"SECRETWORD"}`, extract.ErrShape, "item: want object, got string"},
		{"realtime item id number", extract.APIRealtime, P, `{"type":"conversation.item.create","item":{"id":5,"content":[{"type":"input_text","text":"SECRETWORD"}]}}`, extract.ErrShape, "item.id: want string, got number"},
		{"realtime item role object", extract.APIRealtime, P, `{"type":"conversation.item.created","item":{"id":"a","role":{}}}`, extract.ErrShape, "item.role: want string, got object"},
		{"realtime output item arguments", extract.APIRealtime, C, `{"type":"response.output_item.done","response_id":"r","item":{"id":"a","arguments":{"x":"SECRETWORD"}}}`, extract.ErrShape, "item.arguments: want string, got object"},
		{"realtime part not object", extract.APIRealtime, C, `{"type":"response.content_part.done","response_id":"r","item_id":"i","part":5}`, extract.ErrShape, "part: want object, got number"},
		{"realtime transcription item id", extract.APIRealtime, P, `{"type":"conversation.item.input_audio_transcription.delta","item_id":[],"delta":"SECRETWORD"}`, extract.ErrShape, "item_id: want string, got array"},
		{"realtime response id number", extract.APIRealtime, C, `{"type":"response.text.delta","response_id":1,"item_id":"i","delta":"SECRETWORD"}`, extract.ErrShape, "response_id: want string, got number"},
		{"realtime duplicate type", extract.APIRealtime, C, `{"type":"session.update","type":"response.text.delta","delta":"SECRETWORD"}`, extract.ErrShape, `payload: duplicate key "type"`},
		{"chat audio not object", extract.APIChat, C, `{"choices":[{"message":{"audio":"SECRETWORD"}}]}`, extract.ErrShape, "choices[0].message.audio: want object, got string"},
		{"chat function_call not object", extract.APIChat, P, `{"messages":[{"function_call":"SECRETWORD"}]}`, extract.ErrShape, "messages[0].function_call: want object, got string"},
		{"chat tool_calls not array", extract.APIChat, P, `{"messages":[{"tool_calls":{"function":{"arguments":"SECRETWORD"}}}]}`, extract.ErrShape, "messages[0].tool_calls: want array, got object"},
		{"chat refusal number", extract.APIChat, C, `{"choices":[{"delta":{"refusal":1}}]}`, extract.ErrShape, "choices[0].delta.refusal: want string, got number"},
		{"chat choices object", extract.APIChat, C, `{"choices":{"0":"SECRETWORD"}}`, extract.ErrShape, "choices: want array, got object"},
		{"completion choice not object", extract.APICompletion, C, `{"choices":["SECRETWORD"]}`, extract.ErrShape, "choices[0]: want object, got string"},
		{"completion suffix number", extract.APICompletion, P, `{"prompt":"SECRETWORD","suffix":1}`, extract.ErrShape, "suffix: want string, got number"},
		{"image data element", extract.APIImage, C, `{"data":[{"url":"u"},"SECRETWORD"]}`, extract.ErrShape, "data[1]: want object, got string"},
		{"image revised prompt", extract.APIImage, C, `{"data":[{"revised_prompt":{"t":"SECRETWORD"}}]}`, extract.ErrShape, "data[0].revised_prompt: want string, got object"},
		{"image images object", extract.APIImage, P, `{"prompt":"SECRETWORD","images":{"image_url":"u"}}`, extract.ErrShape, "images: want array, got object"},
		{"image type number", extract.APIImage, C, `{"type":3}`, extract.ErrShape, "type: want string, got number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := extract.NewStream()
			prior := []extract.Piece{{Key: extract.Key{Source: P, MessageID: "k"}, Text: "kept"}}
			got, err := s.Extract(prior, tt.api, tt.src, []byte(tt.payload))
			if !errors.Is(err, tt.err) {
				t.Fatalf("error %v, want %v", err, tt.err)
			}
			if len(got) != 1 || got[0].Text != "kept" {
				t.Errorf("dst changed on error: %d pieces", len(got))
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "extract: ") {
				t.Errorf("error %q is not package-prefixed", msg)
			}
			if strings.Contains(msg, secret) {
				t.Errorf("error message leaks payload text")
			}
			if tt.msg != "" && !strings.HasSuffix(msg, ": "+tt.msg) {
				t.Errorf("error %q, want it to end with %q", msg, tt.msg)
			}
		})
	}
}

func TestBadArguments(t *testing.T) {
	s := extract.NewStream()
	if _, err := s.Extract(nil, 0, P, []byte(`{}`)); !errors.Is(err, extract.ErrArgument) {
		t.Errorf("api 0: %v", err)
	}
	if _, err := s.Extract(nil, extract.APIChat, 9, []byte(`{}`)); !errors.Is(err, extract.ErrArgument) {
		t.Errorf("source 9: %v", err)
	}
}

func TestMaxDepthOption(t *testing.T) {
	p := []byte(`{"messages":[{"content":"x","meta":[[[[1]]]]}]}`)
	if _, err := extract.NewStream(extract.WithMaxDepth(6)).Extract(nil, extract.APIChat, P, p); !errors.Is(err, extract.ErrInvalidJSON) {
		t.Errorf("depth 7 with limit 6: %v", err)
	}
	if _, err := extract.NewStream(extract.WithMaxDepth(7)).Extract(nil, extract.APIChat, P, p); err != nil {
		t.Errorf("depth 7 with limit 7: %v", err)
	}
	// Brackets inside strings do not count.
	q := []byte(`{"messages":[{"content":"[[[[[[[[\"[[[[\\"}]}`)
	if _, err := extract.NewStream(extract.WithMaxDepth(3)).Extract(nil, extract.APIChat, P, q); err != nil {
		t.Errorf("brackets in strings: %v", err)
	}
}

// A failed payload leaves the item→response map as it was.
func TestFailedPayloadLearnsNothing(t *testing.T) {
	s := extract.NewStream()
	bad := `{"type":"response.done","response":{"id":"r1","output":[{"id":"i1","content":[{"type":"text","text":"a"}]},{"id":"i2","content":7}]}}`
	if _, err := s.Extract(nil, extract.APIRealtime, C, []byte(bad)); !errors.Is(err, extract.ErrShape) {
		t.Fatalf("bad payload: %v", err)
	}
	got, err := s.Extract(nil, extract.APIRealtime, C, []byte(`{"type":"response.text.delta","item_id":"i1","delta":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	checkPieces(t, got, `C 02i1/0 "x"`)
}

// Pieces own their ids: a payload buffer reused after Extract does not
// change the keys (the analyzer keeps them in a map).
func TestIDsDoNotAliasPayload(t *testing.T) {
	s := extract.NewStream()
	buf := []byte(`{"type":"conversation.item.input_audio_transcription.delta","item_id":"abc","content_index":0,"delta":"x"}`)
	got, err := s.Extract(nil, extract.APIRealtime, P, buf)
	if err != nil {
		t.Fatal(err)
	}
	buf2 := []byte(`{"type":"response.text.delta","response_id":"r","item_id":"it","content_index":0,"delta":"y"}`)
	got, err = s.Extract(got, extract.APIRealtime, C, buf2)
	if err != nil {
		t.Fatal(err)
	}
	for i := range buf {
		buf[i] = 'z'
	}
	for i := range buf2 {
		buf2[i] = 'z'
	}
	if got[0].Key.MessageID != "abc" || got[1].Key.MessageID != "1r2it" {
		t.Errorf("ids changed with the payload buffer: %q %q", got[0].Key.MessageID, got[1].Key.MessageID)
	}
}

func TestParseNames(t *testing.T) {
	for _, tt := range []struct {
		name string
		api  extract.API
	}{{"Chatcompletion", extract.APIChat}, {"chatcompletion", extract.APIChat}, {"CHATCOMPLETION", extract.APIChat},
		{"Completion", extract.APICompletion}, {"realtime", extract.APIRealtime}, {"ImageGeneration", extract.APIImage}} {
		if a, ok := extract.ParseAPI(tt.name); !ok || a != tt.api || !strings.EqualFold(a.String(), tt.name) {
			t.Errorf("ParseAPI(%q) = %v, %v", tt.name, a, ok)
		}
	}
	for _, bad := range []string{"", "Chat", "Embeddings", "Chatcompletions"} {
		if _, ok := extract.ParseAPI(bad); ok {
			t.Errorf("ParseAPI(%q) accepted", bad)
		}
	}
	for _, tt := range []struct {
		name string
		src  extract.Source
	}{{"PROMPT", P}, {"prompt", P}, {"Completion", C}, {"COMPLETION", C}} {
		if s, ok := extract.ParseSource(tt.name); !ok || s != tt.src || !strings.EqualFold(s.String(), tt.name) {
			t.Errorf("ParseSource(%q) = %v, %v", tt.name, s, ok)
		}
	}
	for _, bad := range []string{"", "SYSTEM", "PROMPTS"} {
		if _, ok := extract.ParseSource(bad); ok {
			t.Errorf("ParseSource(%q) accepted", bad)
		}
	}
	if extract.Prompt != 1 || extract.Completion != 2 {
		t.Errorf("source numbering changed")
	}
}

func TestPieceExtends(t *testing.T) {
	tests := []struct {
		name, have, text string
		full             bool
		want             string
	}{
		{"delta appends", "ab", "cd", false, "cd"},
		{"full extends", "ab", "abcd", true, "cd"},
		{"full repeats", "abcd", "abcd", true, ""},
		{"full is a prefix", "abcd", "ab", true, ""},
		{"full disagrees", "abcd", "xy", true, "xy"},
		{"full on empty item", "", "ab", true, "ab"},
	}
	for _, tc := range tests {
		p := extract.Piece{Text: tc.text, Full: tc.full}
		if got := p.Extends([]byte(tc.have)); got != tc.want {
			t.Errorf("%s: Extends = %q, want %q", tc.name, got, tc.want)
		}
	}
}
