package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/openrai/raiserver/client"
)

// The Agent Chat API, under /agent: POST /agent/chat/response answers with
// the conversation and the bot's message appended, POST /agent/chat/stream
// with SSE new_message events. Errors are {"detail": ...}.

// Agent is one configured agent.
type Agent struct {
	Identifier string `json:"identifier"`
	// SystemPrompt starts every conversation sent to the model.
	SystemPrompt string `json:"system_prompt,omitempty"`
	// Model overrides --model-name for this agent.
	Model string `json:"model,omitempty"`
	// Streamable: the agent answers on /agent/chat/stream (default true).
	Streamable *bool `json:"streamable,omitempty"`
	// Temperature fixes the temperature; when unset, bot_params may set it.
	Temperature *float64 `json:"temperature,omitempty"`
}

func (a *Agent) streamable() bool { return a.Streamable == nil || *a.Streamable }

// validationError is one entry of a 422 body, FastAPI/Pydantic style.
type validationError struct {
	Loc  []any  `json:"loc"`
	Msg  string `json:"msg"`
	Type string `json:"type"`
}

// agentRequest is a validated request.
type agentRequest struct {
	agentID      string
	conversation []json.RawMessage // echoed unchanged
	messages     []chatMessage     // the conversation as model messages
	context      json.RawMessage
	botParams    map[string]json.RawMessage
}

// errDetail is a 400 answer with a plain detail string.
type errDetail string

// parseAgentRequest validates a request body. It returns the request, or a
// 400 detail (malformed body, mutually exclusive fields), or 422 details.
func parseAgentRequest(body []byte) (*agentRequest, errDetail, []validationError) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil || dec.More() {
		return nil, "malformed request body: not a JSON document", nil
	}
	var errs []validationError
	bad := func(msg, typ string, loc ...any) {
		errs = append(errs, validationError{Loc: append([]any{"body"}, loc...), Msg: msg, Type: typ})
	}
	obj, ok := v.(map[string]any)
	if !ok {
		bad("value is not a valid dict", "type_error.dict")
		return nil, "", errs
	}
	req := &agentRequest{}
	switch id := obj["agent_identifier"].(type) {
	case nil:
		bad("field required", "value_error.missing", "agent_identifier")
	case string:
		req.agentID = id
	default:
		bad("str type expected", "type_error.str", "agent_identifier")
	}
	conv, present := obj["conversation"]
	list, isList := conv.([]any)
	switch {
	case !present || conv == nil:
		bad("field required", "value_error.missing", "conversation")
	case !isList:
		bad("value is not a valid list", "type_error.list", "conversation")
	case len(list) == 0:
		bad("ensure this value has at least 1 items", "value_error.list.min_items", "conversation")
	}
	for i, m := range list {
		msg, ok := m.(map[string]any)
		if !ok {
			bad("value is not a valid dict", "type_error.dict", "conversation", i)
			continue
		}
		var cm chatMessage
		switch s := msg["sender"].(type) {
		case nil:
			bad("field required", "value_error.missing", "conversation", i, "sender")
		case string:
			switch s {
			case "user":
				cm.Role = "user"
			case "bot":
				cm.Role = "assistant"
			default:
				bad("value is not a valid enumeration member", "value_error.enum", "conversation", i, "sender")
			}
		default:
			bad("value is not a valid enumeration member", "value_error.enum", "conversation", i, "sender")
		}
		switch c := msg["content"].(type) {
		case nil:
			bad("field required", "value_error.missing", "conversation", i, "content")
		case string:
			cm.Content = c
		default:
			bad("str type expected", "type_error.str", "conversation", i, "content")
		}
		for _, f := range []string{"message_id", "image_uri"} {
			if x, ok := msg[f]; ok && x != nil {
				if _, ok := x.(string); !ok {
					bad("str type expected", "type_error.str", "conversation", i, f)
				}
			}
		}
		for _, f := range []string{"content_parts", "evidences"} {
			if x, ok := msg[f]; ok && x != nil {
				if _, ok := x.([]any); !ok {
					bad("value is not a valid list", "type_error.list", "conversation", i, f)
				}
			}
		}
		if parts, ok := msg["content_parts"].([]any); ok {
			for j, p := range parts {
				po, ok := p.(map[string]any)
				if !ok {
					bad("value is not a valid dict", "type_error.dict", "conversation", i, "content_parts", j)
					continue
				}
				switch po["type"] {
				case "text", "context", "tool", "table":
				case nil:
					bad("field required", "value_error.missing", "conversation", i, "content_parts", j, "type")
				default:
					bad("value is not a valid enumeration member", "value_error.enum", "conversation", i, "content_parts", j, "type")
				}
			}
		}
		req.messages = append(req.messages, cm)
	}
	for _, f := range []string{"conversation_context", "bot_params"} {
		if x, ok := obj[f]; ok && x != nil {
			if _, ok := x.(map[string]any); !ok {
				bad("value is not a valid dict", "type_error.dict", f)
			}
		}
	}
	if len(errs) > 0 {
		return nil, "", errs
	}
	// The conversation and context are echoed as the client sent them.
	var raw struct {
		Conversation []json.RawMessage          `json:"conversation"`
		Context      json.RawMessage            `json:"conversation_context"`
		BotParams    map[string]json.RawMessage `json:"bot_params"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, "malformed request body", nil
	}
	req.conversation, req.context, req.botParams = raw.Conversation, raw.Context, raw.BotParams
	if exclusiveContexts(obj["conversation_context"]) {
		return nil, "document_context and custom_context are mutually exclusive", nil
	}
	for i, m := range list {
		if parts, ok := m.(map[string]any)["content_parts"].([]any); ok {
			for _, p := range parts {
				if exclusiveContexts(p.(map[string]any)["context"]) {
					return nil, errDetail(fmt.Sprintf("conversation[%d]: document_context and custom_context are mutually exclusive", i)), nil
				}
			}
		}
	}
	if req.messages[len(req.messages)-1].Role != "user" {
		return nil, "the conversation must end with a user message", nil
	}
	return req, "", nil
}

// exclusiveContexts reports a ConversationContext that sets both
// document_context and custom_context.
func exclusiveContexts(v any) bool {
	m, ok := v.(map[string]any)
	return ok && m["document_context"] != nil && m["custom_context"] != nil
}

// readAgentRequest reads a request and finds its agent, answering the
// documented errors itself.
func (b *backend) readAgentRequest(w http.ResponseWriter, r *http.Request, stream bool) (*agentRequest, *Agent, bool) {
	body, err := readBody(w, r)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"detail": "malformed request body: " + err.Error()})
		return nil, nil, false
	}
	req, detail, verrs := parseAgentRequest(body)
	switch {
	case len(verrs) > 0:
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"detail": verrs})
		return nil, nil, false
	case detail != "":
		writeJSON(w, http.StatusBadRequest, map[string]string{"detail": string(detail)})
		return nil, nil, false
	}
	agent := b.agents[req.agentID]
	if agent == nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"detail": "unknown agent_identifier"})
		return nil, nil, false
	}
	if stream && !agent.streamable() {
		writeJSON(w, http.StatusBadRequest, map[string]string{"detail": "agent is not streamable"})
		return nil, nil, false
	}
	return req, agent, true
}

// agentBody is the model request for an agent. bot_params may set the
// temperature when the agent's configuration does not; other keys are
// ignored.
func (b *backend) agentBody(a *Agent, req *agentRequest) []byte {
	temp := a.Temperature
	if temp == nil {
		var t float64
		if raw, ok := req.botParams["temperature"]; ok && json.Unmarshal(raw, &t) == nil {
			temp = &t
		}
	}
	body := b.chatModelBody(a.SystemPrompt, req.messages, temp)
	if a.Model != "" {
		body, _ = setJSONField(body, "model", a.Model)
	}
	return body
}

// botMessage is the agent's ChatMessage.
func botMessage(id, content string) orderedObject {
	return orderedObject{
		{"sender", "bot"},
		{"content", content},
		{"message_id", id},
		{"content_parts", []any{orderedObject{{"type", "text"}, {"text", content}}}},
		{"evidences", []any{}},
	}
}

func newMessageID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "msg_" + hex.EncodeToString(b[:])
}

func agentErrors(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]string{"detail": msg})
}

// handleAgentResponse serves POST /agent/chat/response.
func (b *backend) handleAgentResponse(w http.ResponseWriter, r *http.Request) {
	req, agent, ok := b.readAgentRequest(w, r, false)
	if !ok {
		return
	}
	body := b.agentBody(agent, req)
	if _, ok := b.checkPrompt(w, r, body, agentErrors); !ok {
		return
	}
	var text strings.Builder
	res := b.runAnswer(r.Context(), body, nil, func(s string) error { text.WriteString(s); return nil })
	switch {
	case res.err == nil:
	case res.blocked:
		b.log.Info("answer blocked", "path", r.URL.Path, "released_bytes", text.Len(), "block", res.block)
		agentErrors(w, http.StatusBadRequest, client.CompletionBlockedMessage)
		return
	default:
		code, msg := answerFailure(res)
		b.log.Warn("answer failed", "path", r.URL.Path, "err", res.err)
		agentErrors(w, code, msg)
		return
	}
	conv := make([]any, 0, len(req.conversation)+1)
	for _, m := range req.conversation {
		conv = append(conv, m)
	}
	conv = append(conv, botMessage(newMessageID(), text.String()))
	ctx := req.context
	if len(ctx) == 0 {
		ctx = json.RawMessage("null")
	}
	writeJSON(w, http.StatusOK, orderedObject{
		{"agent_identifier", req.agentID},
		{"conversation", conv},
		{"conversation_context", ctx},
		{"function_specs", []any{}},
	})
}

// handleAgentStream serves POST /agent/chat/stream.
func (b *backend) handleAgentStream(w http.ResponseWriter, r *http.Request) {
	req, agent, ok := b.readAgentRequest(w, r, true)
	if !ok {
		return
	}
	body := b.agentBody(agent, req)
	if _, ok := b.checkPrompt(w, r, body, agentErrors); !ok {
		return
	}
	id := newMessageID()
	index := 0
	var text strings.Builder
	send := func() error {
		data, err := json.Marshal(botMessage(id, text.String()))
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(w, "event: new_message\nid: %s:%d\ndata: %s\nretry: 15000\n\n", id, index, data); err != nil {
			return err
		}
		index++
		flush(w)
		return nil
	}
	start := func() error {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Accel-Buffering", "no")
		w.WriteHeader(http.StatusOK)
		flush(w)
		return nil
	}
	res := b.runAnswer(r.Context(), body, start, func(s string) error {
		text.WriteString(s)
		return send()
	})
	if !res.started {
		code, msg := answerFailure(res)
		b.log.Warn("answer failed before it started", "path", r.URL.Path, "err", res.err)
		agentErrors(w, code, msg)
		return
	}
	switch {
	case res.err == nil:
		_ = send() // the final event: the whole message
	case res.blocked:
		b.log.Info("answer blocked", "path", r.URL.Path, "released_bytes", text.Len(), "block", res.block)
		writeSSEError(w, client.CompletionBlockedMessage)
	default:
		_, msg := answerFailure(res)
		b.log.Warn("answer failed", "path", r.URL.Path, "released_bytes", text.Len(), "err", res.err)
		writeSSEError(w, msg)
	}
}

// writeSSEError sends an error event; its data is plain text on one line.
func writeSSEError(w http.ResponseWriter, msg string) {
	_, _ = fmt.Fprintf(w, "event: error\ndata: %s\n\n", strings.ReplaceAll(msg, "\n", " "))
	flush(w)
}
