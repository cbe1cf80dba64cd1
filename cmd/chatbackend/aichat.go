package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/openrai/raiserver/client"
)

// The AI Chat Protocol ("HTTP protocol for AI chat apps", now the Microsoft
// AI Chat Protocol): POST /chat answers with one JSON object, POST
// /chat/stream with NDJSON chunks.

// chatRequest is an AI Chat Protocol request.
type chatRequest struct {
	messages []chatMessage
	context  json.RawMessage // echoed nowhere; overrides.temperature is honoured
	state    json.RawMessage // session state, echoed back
	stateKey string          // "session_state" or "sessionState", as the request spelled it
	stream   bool            // "stream": true (the 2024-01-28 protocol's flag)
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// parseChatRequest reads a request body. Errors say where the body is wrong,
// never what the text was.
func parseChatRequest(body []byte) (*chatRequest, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil || raw == nil {
		return nil, errors.New("the request body must be a JSON object")
	}
	req := &chatRequest{stateKey: "session_state", context: raw["context"]}
	if s, ok := raw["session_state"]; ok {
		req.state = s
	} else if s, ok := raw["sessionState"]; ok {
		req.state, req.stateKey = s, "sessionState"
	}
	if s, ok := raw["stream"]; ok && json.Unmarshal(s, &req.stream) != nil && string(s) != "null" {
		return nil, errors.New(`"stream" must be a boolean`)
	}
	msgs, ok := raw["messages"]
	if !ok {
		return nil, errors.New(`"messages" is required`)
	}
	var list []json.RawMessage
	if err := json.Unmarshal(msgs, &list); err != nil {
		return nil, errors.New(`"messages" must be an array`)
	}
	if len(list) == 0 {
		return nil, errors.New(`"messages" must hold at least one message`)
	}
	for i, m := range list {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(m, &fields); err != nil || fields == nil {
			return nil, fmt.Errorf("messages[%d] must be an object", i)
		}
		var msg chatMessage
		if err := json.Unmarshal(fields["role"], &msg.Role); err != nil {
			return nil, fmt.Errorf("messages[%d].role must be a string", i)
		}
		switch msg.Role {
		case "user", "assistant", "system":
		default:
			return nil, fmt.Errorf(`messages[%d].role must be "user", "assistant" or "system"`, i)
		}
		if err := json.Unmarshal(fields["content"], &msg.Content); err != nil {
			return nil, fmt.Errorf("messages[%d].content must be a string", i)
		}
		req.messages = append(req.messages, msg)
	}
	if req.messages[len(req.messages)-1].Role != "user" {
		return nil, errors.New("the last message must be a user message")
	}
	return req, nil
}

// temperature returns context.overrides.temperature when it is a number.
func (r *chatRequest) temperature() *float64 {
	var ctx struct {
		Overrides struct {
			Temperature *float64 `json:"temperature"`
		} `json:"overrides"`
	}
	if len(r.context) == 0 || json.Unmarshal(r.context, &ctx) != nil {
		return nil
	}
	return ctx.Overrides.Temperature
}

// stateValue is the session state to echo: the request's, or null.
func (r *chatRequest) stateValue() json.RawMessage {
	if len(r.state) == 0 {
		return json.RawMessage("null")
	}
	return r.state
}

// modelBody is the Chat Completions request the backend sends to the model.
func (b *backend) chatModelBody(system string, msgs []chatMessage, temperature *float64) []byte {
	all := make([]chatMessage, 0, len(msgs)+1)
	if system != "" {
		all = append(all, chatMessage{Role: "system", Content: system})
	}
	all = append(all, msgs...)
	req := map[string]any{"model": b.cfg.modelName, "messages": all}
	if temperature != nil {
		req["temperature"] = *temperature
	}
	body, _ := json.Marshal(req)
	return body
}

// orderedObject writes a JSON object with keys in the given order.
type orderedObject []kv

type kv struct {
	k string
	v any
}

func (o orderedObject) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, _ := json.Marshal(f.k)
		buf.Write(k)
		buf.WriteByte(':')
		v, err := json.Marshal(f.v)
		if err != nil {
			return nil, err
		}
		buf.Write(v)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// handleChat serves POST /chat. A request with "stream": true is answered
// as /chat/stream answers, for clients of the protocol's first version,
// which chose streaming with that flag.
func (b *backend) handleChat(w http.ResponseWriter, r *http.Request) {
	req, ok := b.readChatRequest(w, r)
	if !ok {
		return
	}
	if req.stream {
		b.serveChatStream(w, r, req)
		return
	}
	body := b.chatModelBody(b.cfg.systemPrompt, req.messages, req.temperature())
	prompt, ok := b.checkPrompt(w, r, body, chatErrors)
	if !ok {
		return
	}
	var text bytes.Buffer
	res := b.runAnswer(r.Context(), body, nil, func(s string) error { text.WriteString(s); return nil })
	switch {
	case res.err == nil:
	case res.blocked:
		b.log.Info("answer blocked", "path", r.URL.Path, "released_bytes", text.Len(), "block", res.block)
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": client.CompletionBlockedMessage})
		return
	default:
		code, msg := answerFailure(res)
		b.log.Warn("answer failed", "path", r.URL.Path, "err", res.err)
		writeJSON(w, code, map[string]string{"error": msg})
		return
	}
	writeJSON(w, http.StatusOK, orderedObject{
		{"message", map[string]string{"role": "assistant", "content": text.String()}},
		{"context", b.chatContext(prompt, &res)},
		{req.stateKey, req.stateValue()},
	})
}

// handleChatStream serves POST /chat/stream.
func (b *backend) handleChatStream(w http.ResponseWriter, r *http.Request) {
	if req, ok := b.readChatRequest(w, r); ok {
		b.serveChatStream(w, r, req)
	}
}

// serveChatStream answers req with NDJSON chunks: the role with the context
// and session state, the answer's text as the content filter releases it,
// and a last chunk with the answer's filter results, or an error chunk.
func (b *backend) serveChatStream(w http.ResponseWriter, r *http.Request, req *chatRequest) {
	body := b.chatModelBody(b.cfg.systemPrompt, req.messages, req.temperature())
	prompt, ok := b.checkPrompt(w, r, body, chatErrors)
	if !ok {
		return
	}
	enc := json.NewEncoder(w)
	write := func(v any) error {
		if err := enc.Encode(v); err != nil {
			return err
		}
		flush(w)
		return nil
	}
	start := func() error {
		w.Header().Set("Content-Type", "application/json-lines")
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Accel-Buffering", "no")
		w.WriteHeader(http.StatusOK)
		return write(orderedObject{
			{"delta", map[string]string{"role": "assistant"}},
			{"context", b.chatContext(prompt, nil)},
			{req.stateKey, req.stateValue()},
		})
	}
	released := 0
	res := b.runAnswer(r.Context(), body, start, func(s string) error {
		released += len(s)
		return write(map[string]any{"delta": map[string]string{"content": s}})
	})
	if !res.started {
		code, msg := answerFailure(res)
		b.log.Warn("answer failed before it started", "path", r.URL.Path, "err", res.err)
		chatErrors(w, code, msg)
		return
	}
	switch {
	case res.err == nil:
		_ = write(orderedObject{
			{"delta", map[string]any{}},
			{"context", b.chatContext(prompt, &res)},
		})
	case res.blocked:
		b.log.Info("answer blocked", "path", r.URL.Path, "released_bytes", released, "block", res.block)
		_ = write(map[string]string{"error": client.CompletionBlockedMessage})
	default:
		_, msg := answerFailure(res)
		b.log.Warn("answer failed", "path", r.URL.Path, "released_bytes", released, "err", res.err)
		_ = write(map[string]string{"error": msg})
	}
}

// readChatRequest reads and parses an AI Chat Protocol request, answering
// 400 {"error": ...} itself when it is malformed.
func (b *backend) readChatRequest(w http.ResponseWriter, r *http.Request) (*chatRequest, bool) {
	raw, err := readBody(w, r)
	if err == nil {
		var req *chatRequest
		if req, err = parseChatRequest(raw); err == nil {
			return req, true
		}
	}
	writeJSON(w, http.StatusBadRequest, map[string]string{"error": "Bad request: " + err.Error()})
	return nil, false
}

// chatErrors writes the AI Chat Protocol's error body.
func chatErrors(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]string{"error": msg})
}

// chatContext is the response context: the content filter's results on
// the prompt and, once known, on the answer.
func (b *backend) chatContext(prompt *client.Verdict, res *answerResult) map[string]any {
	ctx := map[string]any{"prompt_filter_results": prompt.PromptFilterResults()}
	if res != nil {
		ctx["content_filter_results"] = res.filterResults()
	}
	return ctx
}
