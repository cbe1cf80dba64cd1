package main

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/openrai/raiserver/client"
)

// These tests start the real analysis service on a loopback port and the
// backend on another, and drive every endpoint over HTTP.

func TestChatBenign(t *testing.T) {
	tb := startBackend(t, startSidecar(t).addr, nil)
	tests := []struct {
		name, body, stateKey string
		state                any
	}{
		{"snake session_state", `{"messages":[{"role":"user","content":"a benign question"}],"context":{},"session_state":{"id":"s1"}}`, "session_state", map[string]any{"id": "s1"}},
		{"camel sessionState", `{"messages":[{"role":"user","content":"a benign question"}],"sessionState":"s2"}`, "sessionState", "s2"},
		{"no state", `{"messages":[{"role":"user","content":"a benign question"}]}`, "session_state", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, ct, body := tb.post(t, "/chat", tt.body)
			if code != http.StatusOK || !strings.HasPrefix(ct, "application/json") {
				t.Fatalf("status %d, content type %q", code, ct)
			}
			var resp map[string]any
			if err := json.Unmarshal(body, &resp); err != nil {
				t.Fatal(err)
			}
			msg, _ := resp["message"].(map[string]any)
			if msg["role"] != "assistant" || msg["content"] != benignAnswer {
				t.Errorf("message = %v, want the whole answer", msg)
			}
			state, ok := resp[tt.stateKey]
			if !ok || !equalJSON(state, tt.state) {
				t.Errorf("%s = %v (present %v), want %v", tt.stateKey, state, ok, tt.state)
			}
			other := map[string]string{"session_state": "sessionState", "sessionState": "session_state"}[tt.stateKey]
			if _, ok := resp[other]; ok {
				t.Errorf("the response also has %s", other)
			}
			ctx, _ := resp["context"].(map[string]any)
			if ctx["prompt_filter_results"] == nil || ctx["content_filter_results"] == nil {
				t.Errorf("context = %v, want the filter results", ctx)
			}
		})
	}
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func TestChatStreamBenign(t *testing.T) {
	tb := startBackend(t, startSidecar(t).addr, nil)
	for _, key := range []string{"session_state", "sessionState"} {
		t.Run(key, func(t *testing.T) {
			body := `{"messages":[{"role":"user","content":"benign"}],"context":{},"` + key + `":{"n":1}}`
			code, ct, raw := tb.post(t, "/chat/stream", body)
			if code != http.StatusOK || ct != "application/json-lines" {
				t.Fatalf("status %d, content type %q", code, ct)
			}
			chunks := ndjson(t, raw)
			if len(chunks) < 3 {
				t.Fatalf("%d chunks, want a first chunk, text and a last chunk", len(chunks))
			}
			first := chunks[0]
			if d, _ := first["delta"].(map[string]any); d["role"] != "assistant" {
				t.Errorf("first chunk delta = %v, want the role", first["delta"])
			}
			if first["context"] == nil || !equalJSON(first[key], map[string]any{"n": 1}) {
				t.Errorf("first chunk has context %v and %s %v", first["context"], key, first[key])
			}
			var text strings.Builder
			for i, c := range chunks {
				if c["error"] != nil {
					t.Fatalf("chunk %d is an error", i)
				}
				if d, ok := c["delta"].(map[string]any); ok {
					s, _ := d["content"].(string)
					text.WriteString(s)
				}
			}
			if text.String() != benignAnswer {
				t.Errorf("streamed text = %q, want %q", text.String(), benignAnswer)
			}
			last := chunks[len(chunks)-1]
			if ctx, _ := last["context"].(map[string]any); ctx["content_filter_results"] == nil {
				t.Errorf("last chunk has no content_filter_results")
			}
		})
	}
}

// TestChatStreamFlag: the protocol's first version chose streaming with
// "stream": true on /chat.
func TestChatStreamFlag(t *testing.T) {
	tb := startBackend(t, startSidecar(t).addr, nil)
	code, ct, raw := tb.post(t, "/chat", `{"messages":[{"role":"user","content":"benign"}],"stream":true}`)
	if code != http.StatusOK || ct != "application/json-lines" {
		t.Fatalf("status %d, content type %q", code, ct)
	}
	var text strings.Builder
	for _, c := range ndjson(t, raw) {
		if d, ok := c["delta"].(map[string]any); ok {
			s, _ := d["content"].(string)
			text.WriteString(s)
		}
	}
	if text.String() != benignAnswer {
		t.Errorf("streamed text = %q", text.String())
	}
}

func TestCORS(t *testing.T) {
	tb := startBackend(t, startSidecar(t).addr, nil)
	tb.b.cfg.allowOrigin = "https://chat.example"
	tests := []struct {
		name, method, origin string
		code                 int
		allowed              bool
	}{
		{"preflight", http.MethodOptions, "https://chat.example", http.StatusNoContent, true},
		{"post", http.MethodPost, "https://chat.example", http.StatusOK, true},
		{"other origin", http.MethodOptions, "https://evil.example", http.StatusMethodNotAllowed, false},
		{"no origin", http.MethodPost, "", http.StatusOK, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequestWithContext(testContext(t), tt.method, tb.url+"/chat", strings.NewReader(userBody("benign")))
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			if tt.method == http.MethodOptions {
				req.Header.Set("Access-Control-Request-Method", "POST")
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			got := resp.Header.Get("Access-Control-Allow-Origin")
			if resp.StatusCode != tt.code || (got != "") != tt.allowed || (tt.allowed && got != tt.origin) {
				t.Errorf("status %d, Access-Control-Allow-Origin %q", resp.StatusCode, got)
			}
		})
	}
}

func TestAgentResponse(t *testing.T) {
	tb := startBackend(t, startSidecar(t).addr, nil)
	req := `{"agent_identifier":"assistant","conversation":[{"sender":"user","content":"hi","message_id":"u1","extra":true},` +
		`{"sender":"bot","content":"hello"},{"sender":"user","content":"benign please"}],"conversation_context":{"tag_context":{"tag_ids":["t"]}},"bot_params":{"temperature":0.2}}`
	code, _, raw := tb.post(t, "/agent/chat/response", req)
	if code != http.StatusOK {
		t.Fatalf("status %d: %s", code, raw)
	}
	var resp struct {
		AgentID      string           `json:"agent_identifier"`
		Conversation []map[string]any `json:"conversation"`
		Context      map[string]any   `json:"conversation_context"`
		FunctionSpec []any            `json:"function_specs"`
	}
	if err := json.Unmarshal(raw, &resp); err != nil {
		t.Fatal(err)
	}
	if resp.AgentID != "assistant" || len(resp.Conversation) != 4 || resp.Context["tag_context"] == nil {
		t.Fatalf("response = %s", raw)
	}
	if resp.Conversation[0]["extra"] != true || resp.Conversation[0]["message_id"] != "u1" {
		t.Errorf("the first message is not echoed unchanged: %v", resp.Conversation[0])
	}
	bot := resp.Conversation[3]
	if bot["sender"] != "bot" || bot["content"] != benignAnswer || bot["message_id"] == "" {
		t.Errorf("bot message = %v", bot)
	}
}

func TestAgentStream(t *testing.T) {
	tb := startBackend(t, startSidecar(t).addr, nil)
	code, ct, raw := tb.post(t, "/agent/chat/stream", agentBody("benign"))
	if code != http.StatusOK || ct != "text/event-stream" {
		t.Fatalf("status %d, content type %q", code, ct)
	}
	events := parseSSE(raw)
	if len(events) < 2 {
		t.Fatalf("%d events", len(events))
	}
	msgID := ""
	prev := ""
	for i, ev := range events {
		if ev.event != "new_message" || ev.retry != "15000" || strings.Join(ev.order, ",") != "event,id,data,retry" {
			t.Fatalf("event %d: %q fields %v retry %q", i, ev.event, ev.order, ev.retry)
		}
		id, idx, ok := strings.Cut(ev.id, ":")
		if !ok || idx != strconv.Itoa(i) {
			t.Errorf("event %d id %q, want {message_id}:%d", i, ev.id, i)
		}
		if msgID == "" {
			msgID = id
		} else if id != msgID {
			t.Errorf("event %d message id %q, want %q", i, id, msgID)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(ev.data), &m); err != nil {
			t.Fatalf("event %d data: %v", i, err)
		}
		content, _ := m["content"].(string)
		if m["sender"] != "bot" || m["message_id"] != msgID || !strings.HasPrefix(content, prev) {
			t.Errorf("event %d: %v (does not grow from the previous event)", i, m)
		}
		prev = content
	}
	if prev != benignAnswer {
		t.Errorf("final content %q, want %q", prev, benignAnswer)
	}
}

func TestOpenAIProxyBenign(t *testing.T) {
	tb := startBackend(t, startSidecar(t).addr, nil)
	t.Run("non-streaming", func(t *testing.T) {
		code, _, raw := tb.post(t, "/v1/chat/completions", openAIBody("benign", false))
		if code != http.StatusOK {
			t.Fatalf("status %d: %s", code, raw)
		}
		var resp struct {
			Object  string `json:"object"`
			Choices []struct {
				Message      struct{ Role, Content string }
				FinishReason string                      `json:"finish_reason"`
				CFR          client.ContentFilterResults `json:"content_filter_results"`
			}
			PFR []client.PromptFilterResult `json:"prompt_filter_results"`
		}
		if err := json.Unmarshal(raw, &resp); err != nil {
			t.Fatal(err)
		}
		if resp.Object != "chat.completion" || len(resp.Choices) != 1 || resp.Choices[0].Message.Content != benignAnswer ||
			resp.Choices[0].FinishReason != "stop" || resp.Choices[0].CFR.Violence == nil || len(resp.PFR) != 1 {
			t.Errorf("response = %s", raw)
		}
	})
	t.Run("streaming", func(t *testing.T) {
		code, ct, raw := tb.post(t, "/v1/chat/completions", openAIBody("benign", true))
		if code != http.StatusOK || ct != "text/event-stream" {
			t.Fatalf("status %d, content type %q", code, ct)
		}
		chunks, done := openAIChunks(t, raw)
		if !done {
			t.Error("no [DONE]")
		}
		if chunks[0]["prompt_filter_results"] == nil {
			t.Error("the first chunk has no prompt_filter_results")
		}
		text, finish, annotated := streamedText(chunks)
		if text != benignAnswer || finish != "stop" || !annotated {
			t.Errorf("text %q finish %q annotated %v", text, finish, annotated)
		}
	})
}

// openAIChunks parses an OpenAI SSE body.
func openAIChunks(t *testing.T, raw []byte) (chunks []map[string]any, done bool) {
	t.Helper()
	for i, ev := range parseSSE(raw) {
		if ev.data == "[DONE]" {
			done = true
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(ev.data), &m); err != nil {
			t.Fatalf("event %d is not JSON (%d bytes)", i, len(ev.data))
		}
		chunks = append(chunks, m)
	}
	if len(chunks) == 0 {
		t.Fatal("no chunks")
	}
	return chunks, done
}

// streamedText joins the content of choice 0 and returns its finish reason,
// and whether every text chunk carried content_filter_results.
func streamedText(chunks []map[string]any) (string, string, bool) {
	var text strings.Builder
	finish := ""
	annotated := true
	for _, c := range chunks {
		choices, _ := c["choices"].([]any)
		for _, x := range choices {
			ch := x.(map[string]any)
			d, _ := ch["delta"].(map[string]any)
			if s, _ := d["content"].(string); s != "" {
				text.WriteString(s)
				if ch["content_filter_results"] == nil {
					annotated = false
				}
			}
			if f, _ := ch["finish_reason"].(string); f != "" {
				finish = f
			}
		}
	}
	return text.String(), finish, annotated
}

// TestPromptBlocked: a harmful prompt is refused with 400 in every
// protocol's form, and the model is never called.
func TestPromptBlocked(t *testing.T) {
	tb := startBackend(t, startSidecar(t).addr, nil)
	tests := []struct {
		name, path, body string
		check            func(t *testing.T, body map[string]any)
	}{
		{"chat", "/chat", userBody(harmfulPrompt), wantChatError(client.PromptBlockedMessage)},
		{"chat stream", "/chat/stream", userBody(harmfulPrompt), wantChatError(client.PromptBlockedMessage)},
		{"agent response", "/agent/chat/response", agentBody(harmfulPrompt), wantDetail(client.PromptBlockedMessage)},
		{"agent stream", "/agent/chat/stream", agentBody(harmfulPrompt), wantDetail(client.PromptBlockedMessage)},
		{"openai", "/v1/chat/completions", openAIBody(harmfulPrompt, false), wantAzureFilter},
		{"openai stream", "/v1/chat/completions", openAIBody(harmfulPrompt, true), wantAzureFilter},
		{"earlier turn", "/chat", `{"messages":[{"role":"user","content":"` + harmfulPrompt + `"},{"role":"assistant","content":"ok"},{"role":"user","content":"benign"}]}`,
			wantChatError(client.PromptBlockedMessage)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := tb.calls()
			code, ct, raw := tb.post(t, tt.path, tt.body)
			if code != http.StatusBadRequest || !strings.HasPrefix(ct, "application/json") {
				t.Fatalf("status %d, content type %q, want 400 JSON", code, ct)
			}
			var body map[string]any
			if err := json.Unmarshal(raw, &body); err != nil {
				t.Fatal(err)
			}
			tt.check(t, body)
			if got := tb.calls(); got != before {
				t.Errorf("the model was called %d times", got-before)
			}
			if strings.Contains(string(raw), "kill") {
				t.Errorf("the error body quotes the prompt")
			}
		})
	}
}

func wantChatError(msg string) func(*testing.T, map[string]any) {
	return func(t *testing.T, body map[string]any) {
		t.Helper()
		if len(body) != 1 || body["error"] != msg {
			t.Errorf("body = %v, want {\"error\": %q}", body, msg)
		}
	}
}

func wantDetail(msg string) func(*testing.T, map[string]any) {
	return func(t *testing.T, body map[string]any) {
		t.Helper()
		if len(body) != 1 || body["detail"] != msg {
			t.Errorf("body = %v, want {\"detail\": %q}", body, msg)
		}
	}
}

func wantAzureFilter(t *testing.T, body map[string]any) {
	t.Helper()
	e, _ := body["error"].(map[string]any)
	inner, _ := e["innererror"].(map[string]any)
	cfr, _ := inner["content_filter_result"].(map[string]any)
	v, _ := cfr["violence"].(map[string]any)
	if e["code"] != "content_filter" || e["status"] != float64(400) || e["param"] != "prompt" || e["type"] != nil ||
		inner["code"] != "ResponsibleAIPolicyViolation" || v["filtered"] != true || v["severity"] == "safe" {
		t.Errorf("body = %v, want Azure's content_filter error with violence filtered", body)
	}
}

// TestCompletionBlocked: a harmful sentence in the model's answer: only
// the text before it reaches the client, then the protocol's error.
func TestCompletionBlocked(t *testing.T) {
	tb := startBackend(t, startSidecar(t).addr, nil)
	check := func(t *testing.T, got string) {
		t.Helper()
		if got != safePrefix {
			t.Errorf("released %d bytes, want the %d bytes before the harmful sentence", len(got), len(safePrefix))
		}
	}
	t.Run("chat stream", func(t *testing.T) {
		code, _, raw := tb.post(t, "/chat/stream", userBody("a story"))
		if code != http.StatusOK {
			t.Fatalf("status %d", code)
		}
		assertNoHarm(t, raw)
		chunks := ndjson(t, raw)
		var text strings.Builder
		for _, c := range chunks[:len(chunks)-1] {
			if c["error"] != nil {
				t.Fatal("an error chunk before the last chunk")
			}
			if d, ok := c["delta"].(map[string]any); ok {
				s, _ := d["content"].(string)
				text.WriteString(s)
			}
		}
		check(t, text.String())
		if last := chunks[len(chunks)-1]; len(last) != 1 || last["error"] != client.CompletionBlockedMessage {
			t.Errorf("last chunk = %v, want the error chunk", last)
		}
	})
	t.Run("chat", func(t *testing.T) {
		code, _, raw := tb.post(t, "/chat", userBody("a story"))
		assertNoHarm(t, raw)
		var body map[string]any
		_ = json.Unmarshal(raw, &body)
		if code != http.StatusBadRequest || body["error"] != client.CompletionBlockedMessage {
			t.Errorf("status %d body %v", code, body)
		}
	})
	t.Run("agent stream", func(t *testing.T) {
		code, _, raw := tb.post(t, "/agent/chat/stream", agentBody("a story"))
		if code != http.StatusOK {
			t.Fatalf("status %d", code)
		}
		assertNoHarm(t, raw)
		events := parseSSE(raw)
		last := events[len(events)-1]
		if last.event != "error" || last.data != client.CompletionBlockedMessage || json.Valid([]byte(last.data)) {
			t.Errorf("last event %q data %q, want a plain-text error event", last.event, last.data)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(events[len(events)-2].data), &m); err != nil {
			t.Fatal(err)
		}
		got, _ := m["content"].(string)
		check(t, got)
	})
	t.Run("agent response", func(t *testing.T) {
		code, _, raw := tb.post(t, "/agent/chat/response", agentBody("a story"))
		assertNoHarm(t, raw)
		var body map[string]any
		_ = json.Unmarshal(raw, &body)
		if code != http.StatusBadRequest || body["detail"] != client.CompletionBlockedMessage {
			t.Errorf("status %d body %v", code, body)
		}
	})
	t.Run("openai stream", func(t *testing.T) {
		code, _, raw := tb.post(t, "/v1/chat/completions", openAIBody("a story", true))
		if code != http.StatusOK {
			t.Fatalf("status %d", code)
		}
		assertNoHarm(t, raw)
		chunks, done := openAIChunks(t, raw)
		text, finish, _ := streamedText(chunks)
		check(t, text)
		if finish != "content_filter" || !done {
			t.Errorf("finish_reason %q, [DONE] %v", finish, done)
		}
		last := chunks[len(chunks)-1]["choices"].([]any)[0].(map[string]any)
		cfr, _ := last["content_filter_results"].(map[string]any)
		if v, _ := cfr["violence"].(map[string]any); v["filtered"] != true {
			t.Errorf("last chunk content_filter_results = %v, want violence filtered", cfr)
		}
	})
	t.Run("openai", func(t *testing.T) {
		code, _, raw := tb.post(t, "/v1/chat/completions", openAIBody("a story", false))
		if code != http.StatusOK {
			t.Fatalf("status %d", code)
		}
		assertNoHarm(t, raw)
		var resp struct {
			Choices []struct {
				Message      struct{ Content string }
				FinishReason string `json:"finish_reason"`
			}
		}
		if err := json.Unmarshal(raw, &resp); err != nil {
			t.Fatal(err)
		}
		check(t, resp.Choices[0].Message.Content)
		if resp.Choices[0].FinishReason != "content_filter" {
			t.Errorf("finish_reason %q", resp.Choices[0].FinishReason)
		}
	})
}

// assertNoHarm fails when a response carries any of the blocked sentence or
// what followed it.
func assertNoHarm(t *testing.T, raw []byte) {
	t.Helper()
	if strings.Contains(string(raw), "kill") || strings.Contains(string(raw), neverText) {
		t.Fatalf("the response (%d bytes) carries text from or after the blocked segment", len(raw))
	}
}
