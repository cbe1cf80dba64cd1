package extract_test

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/openrai/raiserver/extract"
)

// fixtureWant lists, per shared fixture file, the pieces of the whole file
// (every payload fed through one Stream), or "error:shape". Long texts are
// given by length. *.sse files must give the same pieces as the *.json next
// to them.
var fixtureWant = map[string]string{
	// Azure error bodies are not chat payloads but carry no text either.
	"azure_content_filter/error_400_custom_blocklist.json":                   ``,
	"azure_content_filter/error_400_innererror_doc2023.json":                 ``,
	"azure_content_filter/error_400_minimal_doc.json":                        ``,
	"azure_content_filter/response_annotations_protected_material_code.json": `C 0/0 "Example model response will be returned "`,
	// finish_reason content_filter, message without content.
	"azure_content_filter/response_chat_blocklist_finish_content_filter.json": ``,
	"azure_content_filter/response_chat_o1_with_filters.json":                 `C 0/0 len=374`,

	"chat/request_assistant_tool_calls_with_tools.json": `
P 0/0 "What is the weather in San Francisco?"
P 1/tool+0 "{\"location\": \"San Francisco, USA\", \"format\": \"celsius\"}"`,
	"chat/request_azure_system_user.json": `
P 0/0 "you are a helpful assistant that talks like a pirate"
P 1/0 "can you tell me how to care for a parrot?"`,
	"chat/request_developer_user.json": `
P 0/0 "You are a helpful assistant."
P 1/0 "Hello!"`,
	"chat/request_function_role_legacy.json": `
P 0/0 "What is the weather in San Francisco?"
P 1/func "{\"location\": \"San Francisco, USA\", \"format\": \"celsius\"}"
P 2/0 "21.0"
P 3/0 "It is 21 degrees celsius in San Francisco, CA"`,
	"chat/request_image_url_parts.json": `
P 0/0 "What is in this image?"
P 0/1 nomodel`,
	"chat/request_logprobs.json": `P 0/0 "Hello!"`,
	"chat/request_stream.json": `
P 0/0 "You are a helpful assistant."
P 1/0 "Hello!"`,
	"chat/request_tool_roundtrip_messages.json": `
P 0/0 "What is the weather in San Francisco?"
P 1/tool+0 "{\"location\": \"San Francisco, USA\", \"format\": \"celsius\"}"
P 2/0 "21.0"
P 3/0 "It is 21 degrees celsius in San Francisco, CA"`,
	"chat/request_tools.json":         `P 0/0 "What is the weather like in Boston today?"`,
	"chat/response_azure_pirate.json": `C 0/0 len=2061`,
	"chat/response_default.json":      `C 0/0 "Hello! How can I assist you today?"`,
	"chat/response_image_input.json":  `C 0/0 len=235`,
	"chat/response_logprobs.json":     `C 0/0 "Hello! How can I assist you today?"`,
	"chat/response_tool_calls.json":   `C 0/tool+0 "{\n\"location\": \"Boston, MA\"\n}"`,

	"chat_stream/azure_async_filter_blocked.json": `
C 0/0 "Hey"
C 0/0 " Jude"
C 0/0 ","
C 0/0 " better"`,
	"chat_stream/azure_async_filter_blocked.sse":          "same as json",
	"chat_stream/azure_async_filter_blocked_request.json": `P 0/0 "Tell me the lyrics to \"Hey Jude\"."`,
	"chat_stream/azure_async_filter_pass.json": `
C 0/0 "Color"
C 0/0 " is"
C 0/0 " a"`,
	"chat_stream/azure_async_filter_pass.sse":                    "same as json",
	"chat_stream/azure_async_filter_request.json":                `P 0/0 "What is color?"`,
	"chat_stream/azure_default_first_chunk_prompt_filter.json":   ``,
	"chat_stream/openai_spec_chunk_object_with_obfuscation.json": `C 0/0 "Hello"`,
	"chat_stream/openai_spec_chunks.json":                        `C 0/0 "Hello"`,

	"completions/request_azure_doc_filtered_prompt.json": `P 0/0 "Content that triggered the filtering model"`,
	"completions/request_azure_doc_n3.json":              `P 0/0 "Text example"`,
	"completions/request_azure_doc_n3_stream.json":       `P 0/0 "Text example"`,
	"completions/request_azure_spec_inline.json":         `P 0/0 len=96`,
	"completions/request_prompt_array_azure.json":        `P 0/0 "tell me a joke about mango"`,
	"completions/request_prompt_string.json":             `P 0/0 "Say this is a test"`,
	"completions/request_prompt_string_stream.json":      `P 0/0 "Say this is a test"`,
	"completions/response_azure_doc_filter_error.json":   `C 0/0 "generated text"`,
	"completions/response_azure_doc_n2_one_content_filter.json": `
C 0/0 "returned text 1"
C 1/0 "returned text 2"`,
	"completions/response_azure_doc_stream_chunk_content_filter.json": `C 2/0 "Last part of generated text streamed back"`,
	"completions/response_azure_doc_stream_chunk_stop.json":           `C 2/0 "last part of generation"`,
	"completions/response_azure_mango.json":                           `C 0/0 len=62`,
	"completions/response_azure_spec_inline.json":                     `C 0/0 "The price for bubblegum decreased on thursday."`,
	"completions/response_openai.json":                                `C 0/0 "\n\nThis is indeed a test"`,
	"completions/response_stream_chunk_openai.json":                   `C 0/0 "This"`,

	"images/request_azure_dalle3.json":     `P 0/0 "In the style of WordArt, Microsoft Clippy wearing a cowboy hat."`,
	"images/request_gpt_image.json":        `P 0/0 "A cute baby sea otter"`,
	"images/request_gpt_image_stream.json": `P 0/0 "A cute baby sea otter"`,
	"images/response_azure_dalle3_filters.json": `
C 0/0 "A vivid, natural representation of Microsoft Clippy wearing a cowboy hat."
C 0/image+0 nomodel`,
	"images/response_azure_preview_revised_prompt.json": `
C 0/image+0 nomodel
C 0/1 "A vivid, natural representation of Microsoft Clippy wearing a cowboy hat."
C 0/image+1 nomodel`,
	"images/response_gpt_image_b64.json":      `C 0/image+0 nomodel`,
	"images/response_images_object_full.json": `C 0/image+0 nomodel`,
	"images/stream_events.json": `
C 0/image+0 nomodel
C 0/image+0 nomodel`,

	"realtime/beta/client_conversation_item_create.json":               `P msg_001/0 full "Hello, how are you?"`,
	"realtime/beta/client_response_create.json":                        `P instructions/instr full "Please assist the user."`,
	"realtime/beta/server_conversation_item_created.json":              ``,
	"realtime/beta/server_conversation_item_retrieved_user_audio.json": `P msg_003/0 full "hello how are you"`,
	"realtime/beta/server_input_audio_transcription_completed.json":    `P msg_003/0 full "Hello, how are you?"`,
	"realtime/beta/server_input_audio_transcription_delta.json":        `P item_001/0 "Hello"`,
	"realtime/beta/server_response_audio_transcript_delta.json":        `C 8resp_0017msg_008/0 "Hello, how can I a"`,
	"realtime/beta/server_response_audio_transcript_done.json":         `C 8resp_0017msg_008/0 full "Hello, how can I assist you today?"`,
	"realtime/beta/server_response_content_part_added.json":            ``,
	"realtime/beta/server_response_content_part_done.json":             `C 8resp_0017msg_007/0 full "Sure, I can help with that."`,
	"realtime/beta/server_response_created.json":                       ``,
	"realtime/beta/server_response_done.json":                          `C 8resp_0017msg_006/0 full "Sure, how can I assist you today?"`,
	"realtime/beta/server_response_output_item_added.json":             ``,
	"realtime/beta/server_response_output_item_done.json":              `C 8resp_0017msg_007/0 full "Sure, I can help with that."`,
	"realtime/beta/server_response_text_delta.json":                    `C 8resp_0017msg_007/0 "Sure, I can h"`,
	"realtime/beta/server_response_text_done.json":                     `C 8resp_0017msg_007/0 full "Sure, I can help with that."`,
}

// repoRoot returns the directory holding go.mod, above the working directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test's directory")
		}
		dir = parent
	}
}

// sharedFixtures returns ../shared/fixtures/payloads from the repository
// root, or skips the test when it is absent (a fresh clone).
func sharedFixtures(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(repoRoot(t), "..", "shared", "fixtures", "payloads")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared fixtures not found at %s; skipping", dir)
	}
	return dir
}

// fixtureKind tells a fixture's API from its folder and its sourceType from
// its name: requests and client events are PROMPT, responses and server
// events COMPLETION, except server events about user items.
func fixtureKind(rel string) (extract.API, extract.Source, bool) {
	dir, name := filepath.ToSlash(filepath.Dir(rel)), filepath.Base(rel)
	var api extract.API
	switch {
	case dir == "chat" || dir == "chat_stream" || dir == "azure_content_filter":
		api = extract.APIChat
	case dir == "completions":
		api = extract.APICompletion
	case dir == "images":
		api = extract.APIImage
	case dir == "realtime" || strings.HasPrefix(dir, "realtime/"):
		api = extract.APIRealtime
	default:
		return 0, 0, false
	}
	src := extract.Completion
	if strings.HasPrefix(name, "request") || strings.Contains(name, "_request") || strings.HasPrefix(name, "client_") ||
		strings.HasPrefix(name, "server_conversation_item") || strings.HasPrefix(name, "server_input_audio") {
		src = extract.Prompt
	}
	return api, src, true
}

// fixturePayloads splits a fixture file into payloads: a *.json array is a
// stream of payloads, any other *.json one payload, a *.sse file its data:
// lines without [DONE].
func fixturePayloads(t *testing.T, path string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	if strings.HasSuffix(path, ".sse") {
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			data, ok := bytes.CutPrefix(sc.Bytes(), []byte("data:"))
			if !ok {
				continue
			}
			data = bytes.TrimSpace(data)
			if string(data) == "[DONE]" || len(data) == 0 {
				continue
			}
			out = append(out, bytes.Clone(data))
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	if r := gjson.ParseBytes(b); r.IsArray() {
		r.ForEach(func(_, v gjson.Result) bool {
			out = append(out, []byte(v.Raw))
			return true
		})
		return out
	}
	return [][]byte{b}
}

func extractFile(t *testing.T, root, rel string) ([]extract.Piece, error) {
	t.Helper()
	api, src, ok := fixtureKind(rel)
	if !ok {
		t.Skipf("no API known for %s", rel)
	}
	s := extract.NewStream()
	var pieces []extract.Piece
	for _, p := range fixturePayloads(t, filepath.Join(root, rel)) {
		var err error
		if pieces, err = s.Extract(pieces, api, src, p); err != nil {
			return pieces, err
		}
	}
	return pieces, nil
}

func TestSharedFixtures(t *testing.T) {
	root := sharedFixtures(t)
	var files []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".sse")) {
			rel, _ := filepath.Rel(root, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no fixtures found")
	}
	for _, rel := range files {
		t.Run(rel, func(t *testing.T) {
			got, err := extractFile(t, root, rel)
			spec, ok := fixtureWant[rel]
			switch {
			case !ok:
				// A fixture added after this table: it must at least extract.
				if err != nil {
					t.Errorf("error %v", err)
				}
				t.Logf("no expectation for this fixture; %d pieces", len(got))
			case spec == "error:shape":
				if !errors.Is(err, extract.ErrShape) {
					t.Errorf("error %v, want ErrShape", err)
				}
			case err != nil:
				t.Errorf("error %v", err)
			case spec == "same as json":
				want, err := extractFile(t, root, strings.TrimSuffix(rel, ".sse")+".json")
				if err != nil {
					t.Fatalf("json sibling: %v", err)
				}
				if !slices.Equal(got, want) {
					t.Errorf("%d pieces from the SSE file, %d from its JSON sibling, or they differ", len(got), len(want))
				}
			default:
				checkPieces(t, got, spec)
			}
		})
	}
	for rel := range fixtureWant {
		if !slices.Contains(files, rel) {
			t.Errorf("expectation for missing fixture %s", rel)
		}
	}
}
