package extract_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/openrai/raiserver/extract"
)

// chatRequest builds a chat request of about size bytes: alternating user
// and assistant messages of ~500 bytes of ASCII prose with a few escapes,
// every tenth user message with an image part.
func chatRequest(size int) []byte {
	sentence := `The quick brown fox jumps over the lazy dog, then \"rests\" by the river.\n`
	var b strings.Builder
	b.WriteString(`{"model":"gpt-4o","stream":true,"messages":[{"role":"system","content":"You are a helpful assistant."}`)
	for i := 0; b.Len() < size; i++ {
		text := strings.Repeat(sentence, 6)
		switch {
		case i%2 == 1:
			b.WriteString(`,{"role":"assistant","content":"` + text + `"}`)
		case i%10 == 0:
			b.WriteString(`,{"role":"user","content":[{"type":"text","text":"` + text + `"},{"type":"image_url","image_url":{"url":"https://example.com/` + strconv.Itoa(i) + `.png"}}]}`)
		default:
			b.WriteString(`,{"role":"user","content":"` + text + `"}`)
		}
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

func benchExtract(b *testing.B, api extract.API, src extract.Source, payload []byte) {
	b.Helper()
	s := extract.NewStream()
	var pieces []extract.Piece
	// Warm up: learn Realtime mappings, size the piece buffer.
	pieces, err := s.Extract(pieces[:0], api, src, payload)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(payload)))
	b.ResetTimer()
	for b.Loop() {
		pieces, err = s.Extract(pieces[:0], api, src, payload)
		if err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkChatRequest100K(b *testing.B) {
	benchExtract(b, extract.APIChat, extract.Prompt, chatRequest(100<<10))
}

func BenchmarkChatChunk(b *testing.B) {
	benchExtract(b, extract.APIChat, extract.Completion,
		[]byte(`{"id":"chatcmpl-123","object":"chat.completion.chunk","created":1694268190,"model":"gpt-4o-mini","system_fingerprint":"fp_44709d6fcb","choices":[{"index":0,"delta":{"content":" Hello there,"},"logprobs":null,"finish_reason":null}],"obfuscation":"p9K3xT6w"}`))
}

func BenchmarkRealtimeDelta(b *testing.B) {
	benchExtract(b, extract.APIRealtime, extract.Completion,
		[]byte(`{"event_id":"event_4142","type":"response.output_text.delta","response_id":"resp_001","item_id":"msg_007","output_index":0,"content_index":0,"delta":"Sure, I can h"}`))
}

func BenchmarkRealtimeDeltaNoResponseID(b *testing.B) {
	s := extract.NewStream()
	if _, err := s.Extract(nil, extract.APIRealtime, extract.Completion, []byte(rtItemAdded)); err != nil {
		b.Fatal(err)
	}
	payload := []byte(`{"type":"response.output_audio_transcript.delta","item_id":"item_02","content_index":0,"delta":"Sure"}`)
	b.ReportAllocs()
	b.SetBytes(int64(len(payload)))
	var pieces []extract.Piece
	for b.Loop() {
		var err error
		if pieces, err = s.Extract(pieces[:0], extract.APIRealtime, extract.Completion, payload); err != nil {
			b.Fatal(err)
		}
	}
}
