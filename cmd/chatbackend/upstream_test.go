package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// fakeOpenAI is an OpenAI-compatible upstream on loopback. It streams a
// fixed answer, or a tool call when the request has tools, and answers 429
// for the model "busy".
type fakeOpenAI struct {
	srv   *httptest.Server
	calls atomic.Int64
	auth  atomic.Value // the last Authorization header
}

const upstreamAnswer = "Upstream says hi. It is a fine day."

var toolArgs = `{"city": "Paris", "unit": "celsius"}`

func startFakeOpenAI(t *testing.T) *fakeOpenAI {
	f := &fakeOpenAI{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.calls.Add(1)
		f.auth.Store(r.Header.Get("Authorization"))
		if r.URL.Path != "/v1/chat/completions" {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		var req struct {
			Model  string            `json:"model"`
			Stream bool              `json:"stream"`
			Tools  []json.RawMessage `json:"tools"`
		}
		body, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		if req.Model == "busy" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"error":{"message":"Rate limit reached","type":"requests","param":null,"code":"rate_limit_exceeded"}}`)
			return
		}
		if !req.Stream {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"id":"chatcmpl-up","object":"chat.completion","created":1,"model":%q,"choices":[{"index":0,"message":{"role":"assistant","content":%q,"refusal":null},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3},"service_tier":"default"}`, req.Model, upstreamAnswer)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := func(choice string) {
			fmt.Fprintf(w, "data: {\"id\":\"chatcmpl-up\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":%q,\"system_fingerprint\":\"fp_x\",\"choices\":[%s]}\n\n", req.Model, choice)
			w.(http.Flusher).Flush()
		}
		if len(req.Tools) > 0 {
			chunk(`{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":""}}]},"finish_reason":null}`)
			for _, part := range []string{toolArgs[:10], toolArgs[10:21], toolArgs[21:]} {
				b, _ := json.Marshal(part)
				chunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":` + string(b) + `}}]},"finish_reason":null}`)
			}
			chunk(`{"index":0,"delta":{},"finish_reason":"tool_calls"}`)
		} else {
			chunk(`{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"finish_reason":null}`)
			for _, w := range splitWords(upstreamAnswer) {
				b, _ := json.Marshal(w)
				chunk(`{"index":0,"delta":{"content":` + string(b) + `},"finish_reason":null}`)
			}
			chunk(`{"index":0,"delta":{},"finish_reason":"stop"}`)
		}
		fmt.Fprint(w, "data: {\"id\":\"chatcmpl-up\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":2,\"total_tokens\":3}}\n\n")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func TestUpstreamModel(t *testing.T) {
	up := startFakeOpenAI(t)
	m, err := NewUpstreamModel(up.srv.URL+"/v1", "test-key", nil)
	if err != nil {
		t.Fatal(err)
	}
	tb := startBackend(t, startSidecar(t).addr, m)

	t.Run("chat stream", func(t *testing.T) {
		code, _, raw := tb.post(t, "/chat/stream", userBody("hello"))
		if code != http.StatusOK {
			t.Fatalf("status %d", code)
		}
		var text strings.Builder
		for _, c := range ndjson(t, raw) {
			if c["error"] != nil {
				t.Fatalf("error chunk: %v", c)
			}
			if d, ok := c["delta"].(map[string]any); ok {
				s, _ := d["content"].(string)
				text.WriteString(s)
			}
		}
		if text.String() != upstreamAnswer {
			t.Errorf("text %q, want %q", text.String(), upstreamAnswer)
		}
		if got := up.auth.Load(); got != "Bearer test-key" {
			t.Errorf("Authorization %q", got)
		}
	})

	t.Run("proxy keeps unknown fields", func(t *testing.T) {
		code, _, raw := tb.post(t, "/v1/chat/completions", openAIBody("hello", false))
		var resp map[string]any
		if err := json.Unmarshal(raw, &resp); code != http.StatusOK || err != nil {
			t.Fatalf("status %d: %v", code, err)
		}
		if resp["service_tier"] != "default" || resp["prompt_filter_results"] == nil {
			t.Errorf("response = %s", raw)
		}
	})

	t.Run("proxy streams tool calls and usage", func(t *testing.T) {
		body := `{"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"weather?"}],` +
			`"tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object"}}}]}`
		code, _, raw := tb.post(t, "/v1/chat/completions", body)
		if code != http.StatusOK {
			t.Fatalf("status %d", code)
		}
		chunks, done := openAIChunks(t, raw)
		var args strings.Builder
		id, name, finish := "", "", ""
		for _, c := range chunks {
			choices, _ := c["choices"].([]any)
			for _, x := range choices {
				ch := x.(map[string]any)
				d, _ := ch["delta"].(map[string]any)
				calls, _ := d["tool_calls"].([]any)
				for _, tc := range calls {
					m := tc.(map[string]any)
					if s, _ := m["id"].(string); s != "" {
						id = s
					}
					fn, _ := m["function"].(map[string]any)
					if s, _ := fn["name"].(string); s != "" {
						name = s
					}
					s, _ := fn["arguments"].(string)
					args.WriteString(s)
				}
				if f, _ := ch["finish_reason"].(string); f != "" {
					finish = f
				}
			}
		}
		if id != "call_1" || name != "get_weather" || args.String() != toolArgs || finish != "tool_calls" || !done {
			t.Errorf("id %q name %q args %q finish %q done %v", id, name, args.String(), finish, done)
		}
		last := chunks[len(chunks)-1]
		if last["usage"] == nil {
			t.Errorf("the last chunk has no usage: %v", last)
		}
	})

	t.Run("upstream error", func(t *testing.T) {
		before := up.calls.Load()
		code, _, raw := tb.post(t, "/v1/chat/completions", `{"model":"busy","messages":[{"role":"user","content":"hi"}]}`)
		if code != http.StatusTooManyRequests || !strings.Contains(string(raw), "rate_limit_exceeded") {
			t.Errorf("proxy: status %d body %s, want the upstream's 429 unchanged", code, raw)
		}
		if up.calls.Load() != before+1 {
			t.Error("the upstream was not called once")
		}
	})
}

func TestUpstreamErrorBeforeStream(t *testing.T) {
	up := startFakeOpenAI(t)
	m, err := NewUpstreamModel(up.srv.URL+"/v1", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	tb := startBackend(t, startSidecar(t).addr, m)
	tb.b.cfg.modelName = "busy"
	for _, path := range []string{"/chat", "/chat/stream"} {
		code, _, raw := tb.post(t, path, userBody("hello"))
		var body map[string]any
		_ = json.Unmarshal(raw, &body)
		if code != http.StatusBadGateway || body["error"] != msgModelFailed {
			t.Errorf("%s: status %d body %s, want 502 with the error body", path, code, raw)
		}
	}
	for _, path := range []string{"/agent/chat/response", "/agent/chat/stream"} {
		code, _, raw := tb.post(t, path, agentBody("hello"))
		var body map[string]any
		_ = json.Unmarshal(raw, &body)
		if code != http.StatusBadGateway || body["detail"] != msgModelFailed {
			t.Errorf("%s: status %d body %s, want 502 with the detail body", path, code, raw)
		}
	}
	if got := up.auth.Load(); got != "" {
		t.Errorf("Authorization %q sent without a key", got)
	}
}

func TestNewUpstreamModel(t *testing.T) {
	tests := []struct {
		in, url, header string
	}{
		{"https://api.openai.com/v1", "https://api.openai.com/v1/chat/completions", "Authorization"},
		{"http://127.0.0.1:11434/v1/", "http://127.0.0.1:11434/v1/chat/completions", "Authorization"},
		{"https://x.openai.azure.com/openai/deployments/d/chat/completions?api-version=2024-10-21",
			"https://x.openai.azure.com/openai/deployments/d/chat/completions?api-version=2024-10-21", "api-key"},
	}
	for _, tt := range tests {
		m, err := NewUpstreamModel(tt.in, "k", nil)
		if err != nil || m.url != tt.url || m.header != tt.header {
			t.Errorf("%s: url %q header %q err %v", tt.in, m.url, m.header, err)
		}
	}
	for _, bad := range []string{"", "ftp://x/v1", "localhost:8000", "http://"} {
		if _, err := NewUpstreamModel(bad, "", nil); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
