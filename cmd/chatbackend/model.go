package main

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"time"
)

// Model answers an OpenAI Chat Completions request body. Complete returns a
// chat.completion object; Stream returns chat.completion.chunk objects one by
// one. Both take the request body as the client (or the backend) wrote it.
type Model interface {
	Complete(ctx context.Context, body []byte) ([]byte, error)
	Stream(ctx context.Context, body []byte) (ChunkStream, error)
}

// ChunkStream yields the raw JSON of chat.completion.chunk objects; Next
// returns io.EOF after the last one. Close releases the stream early.
type ChunkStream interface {
	Next() ([]byte, error)
	Close() error
}

// errUpstream is an answer of the upstream model that is not a success. It
// carries the upstream's status and body so that the OpenAI proxy can pass
// them through unchanged.
type errUpstream struct {
	Status int
	Body   []byte
}

func (e *errUpstream) Error() string { return fmt.Sprintf("upstream model: HTTP %d", e.Status) }

// Script is the offline model's configuration: the first rule whose Match is
// a substring of the last user message gives the answer. A rule with an empty
// Match matches everything.
type Script struct {
	Rules []Rule `json:"rules"`
	// Default answers when no rule matches.
	Default string `json:"default,omitempty"`
	// DelayMS waits between streamed chunks, so that a demo shows text arriving.
	DelayMS int `json:"delay_ms,omitempty"`
}

// Rule is one entry of a Script.
type Rule struct {
	Match  string `json:"match"`
	Answer string `json:"answer"`
}

//go:embed default_script.json
var defaultScript []byte

// loadScript reads a script file, or the embedded default when path is empty.
// Unknown fields are an error: a typo must not silently change the answers.
func loadScript(path string) (*Script, error) {
	data := defaultScript
	if path != "" {
		var err error
		if data, err = os.ReadFile(path); err != nil {
			return nil, fmt.Errorf("script: %w", err)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Script
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("script %s: %w", path, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("script %s: trailing data", path)
	}
	if len(s.Rules) == 0 && s.Default == "" {
		return nil, fmt.Errorf("script %s: no rules and no default answer", path)
	}
	if s.DelayMS < 0 {
		return nil, fmt.Errorf("script %s: delay_ms must not be negative", path)
	}
	return &s, nil
}

// ScriptedModel is the offline model. It counts its calls, so tests can show
// that a refused prompt never reached the model.
type ScriptedModel struct {
	script *Script
	calls  atomic.Int64
	now    func() time.Time
}

// NewScriptedModel returns a model that answers from s.
func NewScriptedModel(s *Script) *ScriptedModel {
	return &ScriptedModel{script: s, now: time.Now}
}

// Calls is how many times the model was asked for an answer.
func (m *ScriptedModel) Calls() int64 { return m.calls.Load() }

// answer picks the reply for a request body.
func (m *ScriptedModel) answer(body []byte) (model, text string, err error) {
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return "", "", fmt.Errorf("scripted model: request: %w", err)
	}
	last := ""
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == "user" {
			last = contentText(req.Messages[i].Content)
			break
		}
	}
	model = req.Model
	if model == "" {
		model = "scripted"
	}
	for _, r := range m.script.Rules {
		if strings.Contains(last, r.Match) {
			return model, r.Answer, nil
		}
	}
	return model, m.script.Default, nil
}

// contentText is the text of a message content: a string, or the text parts
// of an array of parts joined without a separator.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// Complete answers with one chat.completion object.
func (m *ScriptedModel) Complete(ctx context.Context, body []byte) ([]byte, error) {
	m.calls.Add(1)
	model, text, err := m.answer(body)
	if err != nil {
		return nil, err
	}
	resp := map[string]any{
		"id":      fmt.Sprintf("chatcmpl-scripted-%d", m.calls.Load()),
		"object":  "chat.completion",
		"created": m.now().Unix(),
		"model":   model,
		"choices": []any{map[string]any{
			"index":         0,
			"message":       map[string]any{"role": "assistant", "content": text},
			"finish_reason": "stop",
			"logprobs":      nil,
		}},
		"usage": usage(body, text),
	}
	return json.Marshal(resp)
}

// usage is a rough token count (words), so that clients that read usage see numbers.
func usage(prompt []byte, answer string) map[string]int {
	p, c := len(strings.Fields(string(prompt))), len(strings.Fields(answer))
	return map[string]int{"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}
}

// Stream answers with chat.completion.chunk objects: a role chunk, one chunk
// per word (with its leading space), and a finish chunk.
func (m *ScriptedModel) Stream(ctx context.Context, body []byte) (ChunkStream, error) {
	m.calls.Add(1)
	model, text, err := m.answer(body)
	if err != nil {
		return nil, err
	}
	id := fmt.Sprintf("chatcmpl-scripted-%d", m.calls.Load())
	created := m.now().Unix()
	chunk := func(delta map[string]any, finish any) []byte {
		b, _ := json.Marshal(map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created, "model": model,
			"system_fingerprint": nil,
			"choices":            []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": nil}},
		})
		return b
	}
	chunks := [][]byte{chunk(map[string]any{"role": "assistant", "content": ""}, nil)}
	for _, w := range splitWords(text) {
		chunks = append(chunks, chunk(map[string]any{"content": w}, nil))
	}
	chunks = append(chunks, chunk(map[string]any{}, "stop"))
	return &sliceStream{ctx: ctx, chunks: chunks, delay: time.Duration(m.script.DelayMS) * time.Millisecond}, nil
}

// splitWords cuts text before each space run, so that the pieces concatenate
// to text: "a b  c" → "a", " b", "  c".
func splitWords(text string) []string {
	var out []string
	start := 0
	for i := 1; i < len(text); i++ {
		if text[i] == ' ' && text[i-1] != ' ' {
			out = append(out, text[start:i])
			start = i
		}
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}

type sliceStream struct {
	ctx    context.Context
	chunks [][]byte
	next   int
	delay  time.Duration
}

func (s *sliceStream) Next() ([]byte, error) {
	if err := s.ctx.Err(); err != nil {
		return nil, err
	}
	if s.next >= len(s.chunks) {
		return nil, io.EOF
	}
	if s.delay > 0 && s.next > 0 {
		t := time.NewTimer(s.delay)
		select {
		case <-t.C:
		case <-s.ctx.Done():
			t.Stop()
			return nil, s.ctx.Err()
		}
	}
	c := s.chunks[s.next]
	s.next++
	return c, nil
}

func (s *sliceStream) Close() error {
	s.next = len(s.chunks)
	return nil
}
