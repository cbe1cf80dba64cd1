package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"

	"github.com/openrai/raiserver/client"
	"github.com/openrai/raiserver/extract"
)

// The OpenAI-compatible moderating proxy: POST /v1/chat/completions, which
// behaves like Azure OpenAI's content filter in front of the model.

// openAIError writes OpenAI's error body.
func openAIError(w http.ResponseWriter, code int, typ, msg string) {
	writeJSON(w, code, map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": nil}})
}

// proxyRequest is what the proxy reads of a request body; the body itself
// goes to the model unchanged (with the model name filled in when missing).
type proxyRequest struct {
	Model    *string           `json:"model"`
	Messages []json.RawMessage `json:"messages"`
	Stream   bool              `json:"stream"`
}

// handleCompletions serves POST /v1/chat/completions.
func (b *backend) handleCompletions(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(w, r)
	if err != nil {
		openAIError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	var req proxyRequest
	var obj map[string]json.RawMessage
	if json.Unmarshal(body, &obj) != nil || obj == nil {
		openAIError(w, http.StatusBadRequest, "invalid_request_error", "The request body must be a JSON object.")
		return
	}
	if err := json.Unmarshal(body, &req); err != nil {
		openAIError(w, http.StatusBadRequest, "invalid_request_error", "Invalid request: "+jsonErrorPlace(err))
		return
	}
	if len(req.Messages) == 0 {
		openAIError(w, http.StatusBadRequest, "invalid_request_error", "'messages' must be a non-empty array.")
		return
	}
	if req.Model == nil || *req.Model == "" {
		body, _ = setJSONField(body, "model", b.cfg.modelName)
	}
	v, err := b.guard.Check(r.Context(), client.Chat, client.Prompt, body)
	if err != nil {
		if errors.Is(err, client.ErrRejected) {
			b.log.Info("prompt rejected by the analysis service", "path", r.URL.Path, "err", err)
			openAIError(w, http.StatusBadRequest, "invalid_request_error", "Invalid request: the messages are not in the Chat Completions shape.")
		}
		return
	}
	if v.Unavailable {
		b.log.Warn("analysis service unavailable for a prompt", "path", r.URL.Path, "fail_mode", b.guard.FailMode().String(), "err", v.Cause)
	}
	if code := v.HTTPStatus(); code != http.StatusOK {
		if code == http.StatusBadRequest {
			b.log.Info("prompt blocked", "path", r.URL.Path, "block", blockString(v.Block))
		}
		writeJSON(w, code, v.AzureError())
		return
	}
	if req.Stream {
		b.proxyStream(w, r, body, v)
		return
	}
	b.proxyComplete(w, r, body, v)
}

// jsonErrorPlace describes a JSON type error by its field, not its value.
func jsonErrorPlace(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("'%s' has the wrong type (want %s).", te.Field, te.Type)
	}
	return "the body is not valid JSON."
}

// modelFailure answers a model error: an upstream error is passed through
// unchanged (status and body), anything else is a 502.
func (b *backend) modelFailure(w http.ResponseWriter, r *http.Request, err error) {
	var up *errUpstream
	if errors.As(err, &up) {
		b.log.Warn("upstream error", "path", r.URL.Path, "status", up.Status)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(up.Status)
		_, _ = w.Write(up.Body)
		return
	}
	b.log.Warn("model failed", "path", r.URL.Path, "err", err)
	openAIError(w, http.StatusBadGateway, "server_error", msgModelFailed)
}

// proxyComplete answers a non-streaming request: the model's whole answer
// is checked as COMPLETION, and each choice is annotated; a blocked choice
// keeps only its text before the blocking segment and finishes with
// "content_filter", as Azure OpenAI does.
func (b *backend) proxyComplete(w http.ResponseWriter, r *http.Request, body []byte, prompt *client.Verdict) {
	resp, err := b.model.Complete(r.Context(), body)
	if err != nil {
		b.modelFailure(w, r, err)
		return
	}
	var obj map[string]any
	dec := json.NewDecoder(bytes.NewReader(resp))
	dec.UseNumber()
	if err := dec.Decode(&obj); err != nil {
		b.modelFailure(w, r, fmt.Errorf("%w: the answer is not a JSON object", errModel))
		return
	}
	v, err := b.guard.Check(r.Context(), client.Chat, client.Completion, resp)
	if err != nil {
		if errors.Is(err, client.ErrRejected) {
			b.modelFailure(w, r, fmt.Errorf("%w: %w", errModel, err))
		}
		return
	}
	if v.Unavailable {
		b.log.Warn("analysis service unavailable for an answer", "path", r.URL.Path, "fail_mode", b.guard.FailMode().String(), "err", v.Cause)
		if v.Blocked {
			writeJSON(w, http.StatusInternalServerError, v.AzureError())
			return
		}
	}
	choices, _ := obj["choices"].([]any)
	for _, c := range choices {
		choice, ok := c.(map[string]any)
		if !ok {
			continue
		}
		idx := 0
		if n, ok := choice["index"].(json.Number); ok {
			if i, err := strconv.Atoi(n.String()); err == nil {
				idx = i
			}
		}
		cv := v.Choice(idx)
		choice["content_filter_results"] = cv.ContentFilterResults()
		if !cv.Blocked || cv.Block == nil {
			continue
		}
		b.log.Info("answer blocked", "path", r.URL.Path, "choice", idx, "block", cv.Block.String())
		choice["finish_reason"] = client.FinishReasonContentFilter
		msg, _ := choice["message"].(map[string]any)
		if msg == nil {
			continue
		}
		cutMessage(msg, cv.Block)
	}
	obj["prompt_filter_results"] = prompt.PromptFilterResults()
	writeJSON(w, http.StatusOK, obj)
}

// cutMessage removes what a block covers from a chat message: content is cut
// at the start of the blocking segment; a blocked refusal or tool call is
// dropped, with everything after it.
func cutMessage(msg map[string]any, blk *client.Block) {
	switch ci := blk.Item.ContentIndex; {
	case ci == 0:
		if s, ok := msg["content"].(string); ok && blk.Start <= len(s) {
			msg["content"] = s[:blk.Start]
		}
		delete(msg, "refusal")
		delete(msg, "tool_calls")
		delete(msg, "function_call")
	case ci == extract.IndexRefusal:
		delete(msg, "refusal")
		delete(msg, "tool_calls")
		delete(msg, "function_call")
	default:
		delete(msg, "tool_calls")
		delete(msg, "function_call")
	}
}

// sseWriter writes OpenAI's SSE stream; the model goroutine and the release
// loop both write, so writes are serialized.
type sseWriter struct {
	mu  sync.Mutex
	w   http.ResponseWriter
	err error
}

func (s *sseWriter) data(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return s.raw(b)
}

func (s *sseWriter) raw(b []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	if _, s.err = fmt.Fprintf(s.w, "data: %s\n\n", b); s.err == nil {
		flush(s.w)
	}
	return s.err
}

// chunkMeta is what release chunks copy from the model's chunks.
type chunkMeta struct {
	ID                string
	Object            string
	Created           json.Number
	Model             string
	SystemFingerprint any
}

// proxyState is what the stream remembers of the model's chunks.
type proxyState struct {
	mu      sync.Mutex
	meta    chunkMeta
	finish  map[int]any // finish_reason per choice, held until its text is released
	order   []int       // choices in the order they appeared
	usage   any         // a usage chunk's usage, held for the end
	hasMeta bool
}

func (p *proxyState) choice(i int) {
	if _, ok := p.finish[i]; !ok {
		p.finish[i] = nil
		p.order = append(p.order, i)
	}
}

func (p *proxyState) chunk(choices ...any) map[string]any {
	p.mu.Lock()
	defer p.mu.Unlock()
	m := p.meta
	if !p.hasMeta {
		m = chunkMeta{Object: "chat.completion.chunk", Created: "0"}
	}
	return map[string]any{
		"id": m.ID, "object": m.Object, "created": m.Created, "model": m.Model,
		"system_fingerprint": m.SystemFingerprint, "choices": choices,
	}
}

// proxyStream answers a streaming request. The first event carries the
// prompt_filter_results (as Azure's does); the model's chunks pass through
// with their text taken out, and the text follows in release chunks as the
// content filter clears it, each annotated with content_filter_results. A
// choice's finish chunk waits until its text is out; a blocked answer ends
// with finish_reason "content_filter".
func (b *backend) proxyStream(w http.ResponseWriter, r *http.Request, body []byte, prompt *client.Verdict) {
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	stream, err := b.model.Stream(ctx, body)
	if err != nil {
		b.modelFailure(w, r, err)
		return
	}
	g, err := b.guard.NewGate(ctx, client.Chat)
	if err != nil {
		stream.Close()
		return // the client went away
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	out := &sseWriter{w: w}
	_ = out.data(map[string]any{
		"id": "", "object": "", "created": 0, "model": "",
		"prompt_filter_results": prompt.PromptFilterResults(), "choices": []any{},
	})
	st := &proxyState{finish: map[int]any{}}
	modelErr := make(chan error, 1)
	go func() { modelErr <- proxyFeed(stream, g, st, out) }()
	defer func() {
		cancel()
		g.Close()
		<-modelErr
	}()

	for {
		rel, err := g.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			var be *client.BlockedError
			if errors.As(err, &be) {
				b.log.Info("answer blocked", "path", r.URL.Path, "block", be.Block.String())
				v := g.Verdict()
				st.mu.Lock()
				idx := append([]int(nil), st.order...)
				st.mu.Unlock()
				if len(idx) == 0 {
					idx = []int{0}
				}
				var cs []any
				for _, i := range idx {
					cs = append(cs, map[string]any{
						"index": i, "delta": map[string]any{}, "finish_reason": client.FinishReasonContentFilter,
						"content_filter_results": v.Choice(i).ContentFilterResults(),
					})
				}
				_ = out.data(st.chunk(cs...))
				_ = out.raw([]byte("[DONE]"))
				return
			}
			b.log.Warn("answer failed", "path", r.URL.Path, "err", err)
			msg := client.UnavailableMessage
			if !errors.Is(err, client.ErrUnavailable) {
				msg = msgInternal
			}
			_ = out.data(map[string]any{"error": map[string]any{"message": msg, "type": "server_error", "param": nil, "code": "content_filter_error"}})
			return
		}
		i, _ := strconv.Atoi(rel.Item.MessageID)
		var delta map[string]any
		switch ci := rel.Item.ContentIndex; {
		case ci == 0:
			delta = map[string]any{"content": rel.Text}
		case ci == extract.IndexRefusal:
			delta = map[string]any{"refusal": rel.Text}
		case ci >= extract.IndexToolCall && ci < extract.IndexToolCall+extract.IndexLimit:
			delta = map[string]any{"tool_calls": []any{map[string]any{
				"index": ci - extract.IndexToolCall, "function": map[string]any{"arguments": rel.Text},
			}}}
		case ci == extract.IndexFunctionCall:
			delta = map[string]any{"function_call": map[string]any{"arguments": rel.Text}}
		default:
			continue
		}
		v := g.Verdict()
		res := v.Choice(i).ContentFilterResults()
		if rel.Unchecked {
			res = client.ContentFilterResults{Error: &client.ContentFilterError{Code: "content_filter_error", Message: client.AzureNotFilteredMessage}}
		}
		if out.data(st.chunk(map[string]any{"index": i, "delta": delta, "finish_reason": nil, "content_filter_results": res})) != nil {
			return
		}
	}
	if err := <-modelErr; err != nil {
		modelErr <- err
		b.log.Warn("model failed mid-stream", "path", r.URL.Path, "err", err)
		_ = out.data(map[string]any{"error": map[string]any{"message": msgModelFailed, "type": "server_error", "param": nil, "code": nil}})
		return
	}
	modelErr <- nil
	v := g.Verdict()
	st.mu.Lock()
	order, finish, usage := st.order, st.finish, st.usage
	st.mu.Unlock()
	for _, i := range order {
		if finish[i] == nil {
			continue
		}
		_ = out.data(st.chunk(map[string]any{"index": i, "delta": map[string]any{}, "finish_reason": finish[i],
			"content_filter_results": v.Choice(i).ContentFilterResults()}))
	}
	if usage != nil {
		c := st.chunk()
		c["usage"] = usage
		_ = out.data(c)
	}
	_ = out.raw([]byte("[DONE]"))
}

// proxyFeed reads the model's chunks: each goes to the gate (which keeps its
// text for release) and, with its text taken out, to the client at once when
// anything else is left in it (the role, tool call ids and names). Finish
// reasons and usage are held for the end.
func proxyFeed(stream ChunkStream, g *client.Gate, st *proxyState, out *sseWriter) error {
	defer stream.Close()
	defer g.CloseSend()
	for {
		raw, err := stream.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: %w", errModel, err)
		}
		if upstreamError(raw) {
			return fmt.Errorf("%w: an error event in the stream", errModel)
		}
		var c map[string]any
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if dec.Decode(&c) != nil {
			return fmt.Errorf("%w: a chunk is not a JSON object", errModel)
		}
		rest := st.strip(c)
		if rest != nil {
			if err := out.data(rest); err != nil {
				return nil // the client went away
			}
		}
		if err := g.Send(raw); err != nil && !errors.Is(err, client.ErrRejected) {
			return nil // stopped: Recv says why
		}
	}
}

// strip records a chunk's metadata, finish reasons and usage, and returns
// the chunk without its text, or nil when nothing is left to send now.
func (st *proxyState) strip(c map[string]any) map[string]any {
	st.mu.Lock()
	defer st.mu.Unlock()
	if id, _ := c["id"].(string); id != "" {
		st.meta = chunkMeta{ID: id, Model: str(c["model"]), Object: str(c["object"]), SystemFingerprint: c["system_fingerprint"]}
		if n, ok := c["created"].(json.Number); ok {
			st.meta.Created = n
		} else {
			st.meta.Created = "0"
		}
		st.hasMeta = true
	}
	if u, ok := c["usage"]; ok && u != nil {
		st.usage = u
		delete(c, "usage")
	}
	choices, _ := c["choices"].([]any)
	var keep []any
	for _, x := range choices {
		ch, ok := x.(map[string]any)
		if !ok {
			continue
		}
		i := 0
		if n, ok := ch["index"].(json.Number); ok {
			i, _ = strconv.Atoi(n.String())
		}
		st.choice(i)
		if f, ok := ch["finish_reason"]; ok && f != nil {
			st.finish[i] = f
			ch["finish_reason"] = nil
		}
		delta, _ := ch["delta"].(map[string]any)
		if delta == nil {
			continue
		}
		meaningful := false
		for k, v := range delta {
			switch k {
			case "content", "refusal":
				delete(delta, k)
			case "role":
				meaningful = meaningful || v != nil
			case "tool_calls":
				calls, _ := v.([]any)
				for _, tc := range calls {
					m, _ := tc.(map[string]any)
					if m == nil {
						continue
					}
					if fn, _ := m["function"].(map[string]any); fn != nil {
						if _, ok := fn["arguments"]; ok {
							fn["arguments"] = ""
						}
						if fn["name"] != nil {
							meaningful = true
						}
					}
					if m["id"] != nil {
						meaningful = true
					}
				}
			case "function_call":
				if fn, _ := v.(map[string]any); fn != nil {
					if _, ok := fn["arguments"]; ok {
						fn["arguments"] = ""
					}
					meaningful = meaningful || fn["name"] != nil
				}
			default:
				meaningful = meaningful || v != nil
			}
		}
		if meaningful {
			keep = append(keep, ch)
		}
	}
	if len(keep) == 0 {
		return nil
	}
	c["choices"] = keep
	return c
}

func str(v any) string {
	s, _ := v.(string)
	return s
}
