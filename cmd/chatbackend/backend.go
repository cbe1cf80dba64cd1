package main

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"github.com/openrai/raiserver/client"
)

// backend serves every endpoint on one mux.
type backend struct {
	cfg    *config
	model  Model
	guard  *client.Client
	agents map[string]*Agent
	log    *slog.Logger
	mux    *http.ServeMux
}

func newBackend(cfg *config, model Model, guard *client.Client, agents map[string]*Agent, log *slog.Logger) *backend {
	b := &backend{cfg: cfg, model: model, guard: guard, agents: agents, log: log, mux: http.NewServeMux()}
	b.mux.HandleFunc("POST /chat", b.handleChat)
	b.mux.HandleFunc("POST /chat/stream", b.handleChatStream)
	b.mux.HandleFunc("POST /agent/chat/response", b.handleAgentResponse)
	b.mux.HandleFunc("POST /agent/chat/stream", b.handleAgentStream)
	b.mux.HandleFunc("POST /v1/chat/completions", b.handleCompletions)
	b.mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	b.mux.Handle("GET /{$}", webHandler())
	return b
}

// ServeHTTP recovers from a panic in a handler with a 500, so that one bad
// request never takes the backend down.
func (b *backend) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			b.log.Error("handler panic", "path", r.URL.Path, "panic", p)
			http.Error(w, `{"error":"internal error"}`, http.StatusInternalServerError)
		}
	}()
	if b.cors(w, r) {
		return
	}
	b.mux.ServeHTTP(w, r)
}

// cors allows --allow-origin's pages to call the endpoints: it sets the
// CORS headers for a matching Origin and answers preflight requests
// itself (returning true).
func (b *backend) cors(w http.ResponseWriter, r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if b.cfg.allowOrigin == "" || origin == "" || (b.cfg.allowOrigin != "*" && origin != b.cfg.allowOrigin) {
		return false
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Add("Vary", "Origin")
	if r.Method != http.MethodOptions || r.Header.Get("Access-Control-Request-Method") == "" {
		return false
	}
	h.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
	h.Set("Access-Control-Allow-Headers", "Content-Type, Authorization")
	h.Set("Access-Control-Max-Age", "600")
	w.WriteHeader(http.StatusNoContent)
	return true
}

// errWriter writes a protocol's error body.
type errWriter func(w http.ResponseWriter, code int, msg string)

// checkPrompt moderates a Chat Completions request body before the model
// is called. On a refusal it answers itself, in the protocol's error form:
// 400 for a blocked prompt, 500 when the analysis service could not answer
// and the fail mode is fail-closed.
func (b *backend) checkPrompt(w http.ResponseWriter, r *http.Request, body []byte, errw errWriter) (*client.Verdict, bool) {
	v, err := b.guard.Check(r.Context(), client.Chat, client.Prompt, body)
	if err != nil {
		if errors.Is(err, client.ErrRejected) {
			b.log.Warn("prompt rejected by the analysis service", "path", r.URL.Path, "err", err)
			errw(w, http.StatusBadRequest, "Bad request: the analysis service could not read the prompt.")
		} else {
			b.log.Info("client gone before the prompt check", "path", r.URL.Path, "err", err)
		}
		return nil, false
	}
	if v.Unavailable {
		b.log.Warn("analysis service unavailable for a prompt", "path", r.URL.Path, "fail_mode", b.guard.FailMode().String(), "err", v.Cause)
	}
	switch v.HTTPStatus() {
	case http.StatusOK:
		return v, true
	case http.StatusBadRequest:
		b.log.Info("prompt blocked", "path", r.URL.Path, "block", blockString(v.Block))
		errw(w, http.StatusBadRequest, client.PromptBlockedMessage)
	default:
		errw(w, http.StatusInternalServerError, client.UnavailableMessage)
	}
	return nil, false
}

func blockString(b *client.Block) string {
	if b == nil {
		return ""
	}
	return b.String()
}

var errClientGone = errors.New("the client went away")

// answerFailure is the status and message for an answer that failed for a
// reason other than a block.
func answerFailure(res answerResult) (int, string) {
	var up *errUpstream
	switch {
	case errors.Is(res.err, client.ErrUnavailable):
		return http.StatusInternalServerError, client.UnavailableMessage
	case errors.As(res.err, &up), errors.Is(res.err, errModel):
		return http.StatusBadGateway, msgModelFailed
	case errors.Is(res.err, context.Canceled), errors.Is(res.err, errClientGone):
		return http.StatusInternalServerError, msgInternal
	}
	return http.StatusInternalServerError, msgInternal
}
