package main

import (
	"net/http"
	"testing"
)

// BenchmarkChatStream is one /chat/stream request end to end over loopback:
// the prompt check, the scripted model's answer (10 words, 3 sentences)
// through a Gate, and the NDJSON response, against the real analysis
// service in this process.
func BenchmarkChatStream(b *testing.B) {
	benchEndpoint(b, "/chat/stream", userBody("benign"))
}

// BenchmarkOpenAIStream is the same request through the OpenAI-compatible
// proxy (SSE, annotated chunks).
func BenchmarkOpenAIStream(b *testing.B) {
	benchEndpoint(b, "/v1/chat/completions", openAIBody("benign", true))
}

func benchEndpoint(b *testing.B, path, body string) {
	tb := startBackend(b, startSidecar(b).addr, nil)
	b.ReportAllocs()
	for b.Loop() {
		if code, _, _ := tb.post(b, path, body); code != http.StatusOK {
			b.Fatalf("status %d", code)
		}
	}
}
