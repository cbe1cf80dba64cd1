package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/openrai/raiserver/client"
)

// TestSidecarDown: the service is gone before the request. Fail-closed (the
// default) refuses with 500 in each protocol's error form, without calling
// the model; fail-open answers, marked as unchecked.
func TestSidecarDown(t *testing.T) {
	sc := startSidecar(t)
	closed := startBackend(t, sc.addr, nil)
	open := startBackend(t, sc.addr, nil, failOpen())
	sc.kill()

	t.Run("fail-closed", func(t *testing.T) {
		tests := []struct {
			name, path, body string
			check            func(*testing.T, map[string]any)
		}{
			{"chat", "/chat", userBody("benign"), wantChatError(client.UnavailableMessage)},
			{"chat stream", "/chat/stream", userBody("benign"), wantChatError(client.UnavailableMessage)},
			{"agent response", "/agent/chat/response", agentBody("benign"), wantDetail(client.UnavailableMessage)},
			{"agent stream", "/agent/chat/stream", agentBody("benign"), wantDetail(client.UnavailableMessage)},
			{"openai", "/v1/chat/completions", openAIBody("benign", false), wantAzureUnavailable},
			{"openai stream", "/v1/chat/completions", openAIBody("benign", true), wantAzureUnavailable},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				before := closed.calls()
				code, _, raw := closed.post(t, tt.path, tt.body)
				if code != http.StatusInternalServerError {
					t.Fatalf("status %d: %s", code, raw)
				}
				var body map[string]any
				if err := json.Unmarshal(raw, &body); err != nil {
					t.Fatal(err)
				}
				tt.check(t, body)
				if closed.calls() != before {
					t.Error("the model was called")
				}
			})
		}
	})

	t.Run("fail-open", func(t *testing.T) {
		code, _, raw := open.post(t, "/chat", userBody("benign"))
		var resp map[string]any
		_ = json.Unmarshal(raw, &resp)
		if msg, _ := resp["message"].(map[string]any); code != http.StatusOK || msg["content"] != benignAnswer {
			t.Errorf("status %d body %s", code, raw)
		}
		code, _, raw = open.post(t, "/v1/chat/completions", openAIBody("benign", true))
		if code != http.StatusOK {
			t.Fatalf("status %d", code)
		}
		chunks, _ := openAIChunks(t, raw)
		text, finish, _ := streamedText(chunks)
		if text != benignAnswer || finish != "stop" {
			t.Errorf("text %q finish %q", text, finish)
		}
		if !strings.Contains(string(raw), `"code":"content_filter_error"`) {
			t.Error("the unchecked text is not marked with content_filter_results.error")
		}
	})
}

func wantAzureUnavailable(t *testing.T, body map[string]any) {
	t.Helper()
	e, _ := body["error"].(map[string]any)
	if e["code"] != "content_filter_error" || e["status"] != float64(500) || e["message"] != client.UnavailableMessage {
		t.Errorf("body = %v, want Azure's error form with code content_filter_error", body)
	}
}

// pausingModel streams its answer up to pauseAfter chunks, then waits until
// resume is closed, so that a test can act while an answer is in flight.
type pausingModel struct {
	*ScriptedModel
	pauseAfter int
	resume     chan struct{}
}

func (m *pausingModel) Stream(ctx context.Context, body []byte) (ChunkStream, error) {
	s, err := m.ScriptedModel.Stream(ctx, body)
	if err != nil {
		return nil, err
	}
	return &pausingStream{ChunkStream: s, m: m, ctx: ctx}, nil
}

type pausingStream struct {
	ChunkStream
	m   *pausingModel
	ctx context.Context
	n   int
}

func (s *pausingStream) Next() ([]byte, error) {
	if s.n == s.m.pauseAfter {
		select {
		case <-s.m.resume:
		case <-s.ctx.Done():
			return nil, s.ctx.Err()
		}
	}
	s.n++
	return s.ChunkStream.Next()
}

// TestSidecarKilledMidStream: the service dies while an answer streams. Only
// text it cleared before was released; fail-closed then ends with the
// error chunk, fail-open releases the rest.
func TestSidecarKilledMidStream(t *testing.T) {
	const cleared = "The sky is blue. Water is wet. "
	for _, mode := range []string{"fail-closed", "fail-open"} {
		t.Run(mode, func(t *testing.T) {
			sc := startSidecar(t)
			// Role chunk, then words: "The", " sky", " is", " blue.", " Water",
			// " is", " wet.", " Have": after it, both sentences are complete.
			m := &pausingModel{ScriptedModel: NewScriptedModel(testScript()), pauseAfter: 9, resume: make(chan struct{})}
			var opts []backendOpt
			if mode == "fail-open" {
				opts = append(opts, failOpen())
			}
			tb := startBackend(t, sc.addr, m, opts...)
			req, _ := http.NewRequestWithContext(testContext(t), http.MethodPost, tb.url+"/chat/stream", strings.NewReader(userBody("benign")))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			lines := bufio.NewScanner(resp.Body)
			var text strings.Builder
			for text.String() != cleared && lines.Scan() {
				var c map[string]any
				if err := json.Unmarshal(lines.Bytes(), &c); err != nil || c["error"] != nil {
					t.Fatalf("unexpected line (%d bytes) before the kill", len(lines.Bytes()))
				}
				if d, ok := c["delta"].(map[string]any); ok {
					s, _ := d["content"].(string)
					text.WriteString(s)
				}
			}
			if text.String() != cleared {
				t.Fatalf("before the kill: %q, want %q", text.String(), cleared)
			}
			sc.kill()
			close(m.resume)
			var last map[string]any
			for lines.Scan() {
				last = nil
				if err := json.Unmarshal(lines.Bytes(), &last); err != nil {
					t.Fatal(err)
				}
				if d, ok := last["delta"].(map[string]any); ok {
					s, _ := d["content"].(string)
					text.WriteString(s)
				}
			}
			if mode == "fail-closed" {
				if text.String() != cleared || last["error"] != client.UnavailableMessage {
					t.Errorf("text %q, last chunk %v: want only the cleared text, then the unavailable error", text.String(), last)
				}
				return
			}
			if text.String() != benignAnswer || last["error"] != nil {
				t.Errorf("text %q, last chunk %v: want the whole answer", text.String(), last)
			}
		})
	}
}

// TestMalformedRequests: bad bodies get 400 or 422 in the documented shape,
// and the backend keeps serving.
func TestMalformedRequests(t *testing.T) {
	tb := startBackend(t, startSidecar(t).addr, nil)
	chatErr := func(t *testing.T, b map[string]any) {
		if s, ok := b["error"].(string); !ok || s == "" || len(b) != 1 {
			t.Errorf("body = %v, want {\"error\": string}", b)
		}
	}
	detail := func(t *testing.T, b map[string]any) {
		if s, ok := b["detail"].(string); !ok || s == "" || len(b) != 1 {
			t.Errorf("body = %v, want {\"detail\": string}", b)
		}
	}
	validation := func(locs ...string) func(*testing.T, map[string]any) {
		return func(t *testing.T, b map[string]any) {
			list, ok := b["detail"].([]any)
			if !ok || len(list) != len(locs) {
				t.Fatalf("body = %v, want %d validation errors", b, len(locs))
			}
			for i, x := range list {
				e := x.(map[string]any)
				loc, _ := json.Marshal(e["loc"])
				if string(loc) != locs[i] || e["msg"] == "" || e["type"] == "" {
					t.Errorf("error %d = %v, want loc %s with msg and type", i, e, locs[i])
				}
			}
		}
	}
	openAIErr := func(t *testing.T, b map[string]any) {
		e, _ := b["error"].(map[string]any)
		if e["type"] != "invalid_request_error" || e["message"] == "" {
			t.Errorf("body = %v, want OpenAI's invalid_request_error", b)
		}
	}
	big := `{"messages":[{"role":"user","content":"` + strings.Repeat("a", maxRequestBody) + `"}]}`
	tests := []struct {
		name, path, body string
		code             int
		check            func(*testing.T, map[string]any)
	}{
		{"chat not json", "/chat", "hello", 400, chatErr},
		{"chat empty body", "/chat", "", 400, chatErr},
		{"chat array", "/chat", "[]", 400, chatErr},
		{"chat no messages", "/chat", "{}", 400, chatErr},
		{"chat messages not array", "/chat", `{"messages":"hi"}`, 400, chatErr},
		{"chat no message", "/chat", `{"messages":[]}`, 400, chatErr},
		{"chat bad role", "/chat", `{"messages":[{"role":"robot","content":"x"}]}`, 400, chatErr},
		{"chat content not string", "/chat", `{"messages":[{"role":"user","content":5}]}`, 400, chatErr},
		{"chat ends with assistant", "/chat", `{"messages":[{"role":"user","content":"x"},{"role":"assistant","content":"y"}]}`, 400, chatErr},
		{"chat too big", "/chat", big, 400, chatErr},
		{"chat stream flag not bool", "/chat", `{"messages":[{"role":"user","content":"x"}],"stream":"yes"}`, 400, chatErr},
		{"chat stream not json", "/chat/stream", "{", 400, chatErr},
		{"chat stream null message", "/chat/stream", `{"messages":[null]}`, 400, chatErr},
		{"agent not json", "/agent/chat/response", "{", 400, detail},
		{"agent too big", "/agent/chat/response", big, 400, detail},
		{"agent not object", "/agent/chat/response", "[]", 422, validation(`["body"]`)},
		{"agent missing fields", "/agent/chat/response", "{}", 422, validation(`["body","agent_identifier"]`, `["body","conversation"]`)},
		{"agent bad sender", "/agent/chat/stream", `{"agent_identifier":"assistant","conversation":[{"sender":"robot","content":"x"}]}`, 422,
			validation(`["body","conversation",0,"sender"]`)},
		{"agent bad types", "/agent/chat/response", `{"agent_identifier":1,"conversation":[{"sender":"user"},"x"],"bot_params":[]}`, 422,
			validation(`["body","agent_identifier"]`, `["body","conversation",0,"content"]`, `["body","conversation",1]`, `["body","bot_params"]`)},
		{"agent empty conversation", "/agent/chat/response", `{"agent_identifier":"assistant","conversation":[]}`, 422, validation(`["body","conversation"]`)},
		{"agent bad content part", "/agent/chat/response", `{"agent_identifier":"assistant","conversation":[{"sender":"user","content":"x","content_parts":[{"type":"video"}]}]}`, 422,
			validation(`["body","conversation",0,"content_parts",0,"type"]`)},
		{"agent unknown", "/agent/chat/response", `{"agent_identifier":"nobody","conversation":[{"sender":"user","content":"x"}]}`, 400, detail},
		{"agent unknown stream", "/agent/chat/stream", `{"agent_identifier":"nobody","conversation":[{"sender":"user","content":"x"}]}`, 400, detail},
		{"agent not streamable", "/agent/chat/stream", `{"agent_identifier":"batch","conversation":[{"sender":"user","content":"x"}]}`, 400, detail},
		{"agent exclusive contexts", "/agent/chat/response", `{"agent_identifier":"assistant","conversation":[{"sender":"user","content":"x"}],` +
			`"conversation_context":{"document_context":{"document_ids":["d"]},"custom_context":{"items":[]}}}`, 400, detail},
		{"agent ends with bot", "/agent/chat/response", `{"agent_identifier":"assistant","conversation":[{"sender":"user","content":"x"},{"sender":"bot","content":"y"}]}`, 400, detail},
		{"openai not json", "/v1/chat/completions", "nope", 400, openAIErr},
		{"openai no messages", "/v1/chat/completions", `{"model":"m"}`, 400, openAIErr},
		{"openai messages not array", "/v1/chat/completions", `{"messages":{"role":"user"}}`, 400, openAIErr},
		{"openai bad message shape", "/v1/chat/completions", `{"messages":[{"role":"user","content":{"x":1}}]}`, 400, openAIErr},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := tb.calls()
			code, ct, raw := tb.post(t, tt.path, tt.body)
			if code != tt.code || !strings.HasPrefix(ct, "application/json") {
				t.Fatalf("status %d (%q), want %d JSON; body %.200s", code, ct, tt.code, raw)
			}
			var b map[string]any
			if err := json.Unmarshal(raw, &b); err != nil {
				t.Fatalf("body is not a JSON object: %v", err)
			}
			tt.check(t, b)
			if tb.calls() != before {
				t.Error("the model was called")
			}
		})
	}
	t.Run("still serving", func(t *testing.T) {
		resp, err := http.Get(tb.url + "/chat")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("GET /chat: %d, want 405", resp.StatusCode)
		}
		code, _, _ := tb.post(t, "/chat", userBody("benign"))
		if code != http.StatusOK {
			t.Errorf("a good request after the bad ones: %d", code)
		}
	})
}
