package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadScript(t *testing.T) {
	s, err := loadScript("")
	if err != nil || len(s.Rules) == 0 || s.Default == "" {
		t.Fatalf("embedded script: %v", err)
	}
	bad := []struct{ name, content, want string }{
		{"unknown field", `{"rules": [], "defualt": "x"}`, "unknown field"},
		{"empty", `{"rules": []}`, "no rules"},
		{"negative delay", `{"default": "x", "delay_ms": -1}`, "delay_ms"},
		{"trailing", `{"default": "x"} {}`, "trailing"},
		{"not json", `rules: []`, "invalid character"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadScript(writeFile(t, "s.json", tt.content))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to mention %q", err, tt.want)
			}
		})
	}
	if _, err := loadScript(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("a missing file gives no error")
	}
}

func TestScriptedModelRules(t *testing.T) {
	m := NewScriptedModel(&Script{Rules: []Rule{{Match: "tea", Answer: "first"}, {Match: "tea time", Answer: "second"}, {Match: "", Answer: "catch-all"}}})
	tests := []struct{ name, body, want string }{
		{"first match wins", `{"messages":[{"role":"user","content":"tea time"}]}`, "first"},
		{"last user message", `{"messages":[{"role":"user","content":"tea"},{"role":"assistant","content":"x"},{"role":"user","content":"coffee"}]}`, "catch-all"},
		{"text parts", `{"messages":[{"role":"user","content":[{"type":"text","text":"te"},{"type":"image_url","image_url":{"url":"u"}},{"type":"text","text":"a"}]}]}`, "first"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, got, err := m.answer([]byte(tt.body))
			if err != nil || got != tt.want {
				t.Errorf("answer = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	ctx := testContext(t)
	s, err := m.Stream(ctx, []byte(`{"messages":[{"role":"user","content":"tea"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		_, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 3 || m.Calls() != 1 {
		t.Errorf("%d chunks (want role, one word, finish), %d calls", n, m.Calls())
	}
}

func TestSplitWords(t *testing.T) {
	for _, s := range []string{"", "a", "a b", "  lead", "trail  ", "a  b   c", "Hello, world. Bye."} {
		parts := splitWords(s)
		if strings.Join(parts, "") != s {
			t.Errorf("%q: parts %q do not join to the text", s, parts)
		}
		for i, p := range parts[min(1, len(parts)):] {
			if !strings.HasPrefix(p, " ") {
				t.Errorf("%q: part %d %q does not start with its space", s, i+1, p)
			}
		}
	}
}

func TestLoadAgents(t *testing.T) {
	def, err := loadAgents("")
	if err != nil || def["assistant"] == nil || len(def) != 1 {
		t.Fatalf("default agents: %v %v", def, err)
	}
	p := writeFile(t, "a.json", `{"agents": [{"identifier": "support", "system_prompt": "Be brief.", "streamable": false}, {"identifier": "x"}]}`)
	got, err := loadAgents(p)
	if err != nil || got["support"] == nil || got["support"].streamable() || !got["x"].streamable() {
		t.Fatalf("agents: %v %v", got, err)
	}
	for _, bad := range []string{`{"agents": []}`, `{"agents": [{"identifier": ""}]}`, `{"agents": [{"identifier": "a"}, {"identifier": "a"}]}`, `{"agents": [{"id": "a"}]}`} {
		if _, err := loadAgents(writeFile(t, "b.json", bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

func TestParseFlags(t *testing.T) {
	bad := [][]string{
		{"--model", "gpt"},
		{"--model", "scripted", "--upstream", "http://x/v1"},
		{"--upstream", "http://x/v1", "--script", "s.json"},
		{"--sidecar-timeout", "0s"},
		{"extra"},
	}
	for _, args := range bad {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
	c, err := parseFlags(nil, io.Discard)
	if err != nil || c.modelKind != "scripted" || c.modelName != "scripted" || c.sidecar != defaultSidecar {
		t.Errorf("defaults: %+v %v", c, err)
	}
}

// TestRunEmbedded starts the command as `chatbackend --sidecar-embedded`
// does: the analysis service in-process, the backend on a loopback port.
func TestRunEmbedded(t *testing.T) {
	ctx, cancel := context.WithCancel(testContext(t))
	defer cancel()
	script := writeFile(t, "s.json", `{"rules": [{"match": "benign", "answer": "`+benignAnswer+`"}], "default": "d"}`)
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--sidecar-embedded", "--listen", "127.0.0.1:0", "--model", "scripted", "--script", script, "--log-level", "error"},
			func(string) string { return "" }, io.Discard, ready)
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("run: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("not serving after 30s")
	}
	tb := &testBackend{url: "http://" + addr}
	code, _, raw := tb.post(t, "/chat", userBody("benign"))
	var resp map[string]any
	_ = json.Unmarshal(raw, &resp)
	if msg, _ := resp["message"].(map[string]any); code != http.StatusOK || msg["content"] != benignAnswer {
		t.Errorf("benign: status %d body %s", code, raw)
	}
	if code, _, _ := tb.post(t, "/chat", userBody(harmfulPrompt)); code != http.StatusBadRequest {
		t.Errorf("harmful: status %d, want 400", code)
	}
	resp2, err := http.Get(tb.url + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp2.Body)
	resp2.Body.Close()
	if resp2.StatusCode != http.StatusOK || !strings.Contains(string(page), "chat/stream") {
		t.Errorf("GET /: %d", resp2.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("run: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no shutdown after 30s")
	}
}
