package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
	"google.golang.org/grpc"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/ensemble"
	"github.com/openrai/raiserver/client"
	"github.com/openrai/raiserver/server"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// The harmful sentence is README's example; it is never printed: failures
// report lengths and offsets.
const harmful = "I am going to kill you tonight."

// Answers of the test script.
const (
	benignAnswer = "The sky is blue. Water is wet. Have a nice day."
	safePrefix   = "First sentence is calm. Second sentence is calm too. "
	cutAnswer    = safePrefix + harmful + " This must never arrive."
	neverText    = "This must never arrive."
)

func testScript() *Script {
	return &Script{Rules: []Rule{
		{Match: "benign", Answer: benignAnswer},
		{Match: "story", Answer: cutAnswer},
	}, Default: "Default answer."}
}

func testContext(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

var (
	clsOnce sync.Once
	cls     classifiers.Classifier
	clsErr  error
)

// sidecar is the real analysis service on a loopback port.
type sidecar struct {
	srv      *server.Server
	addr     string
	done     chan struct{}
	stopOnce sync.Once
}

func startSidecar(t testing.TB) *sidecar {
	t.Helper()
	clsOnce.Do(func() { cls, clsErr = ensemble.Default() })
	if clsErr != nil {
		t.Fatal(clsErr)
	}
	a, err := analyzer.New(cls)
	if err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sc := &sidecar{srv: server.NewServer(a, server.WithLogger(slog.New(slog.DiscardHandler))), addr: lis.Addr().String(), done: make(chan struct{})}
	go func() {
		defer close(sc.done)
		if err := sc.srv.Serve(lis); err != nil && !errors.Is(err, grpc.ErrServerStopped) {
			t.Errorf("sidecar: %v", err)
		}
	}()
	t.Cleanup(sc.kill)
	return sc
}

// kill stops the service at once: open streams break, new ones are refused.
func (sc *sidecar) kill() {
	sc.stopOnce.Do(func() {
		sc.srv.GRPC.Stop()
		<-sc.done
	})
}

// testBackend is the backend on a loopback httptest server.
type testBackend struct {
	url   string
	model *ScriptedModel
	b     *backend
}

type backendOpt func(*config, *[]client.Option)

func failOpen() backendOpt {
	return func(c *config, o *[]client.Option) {
		c.failOpen = true
		*o = append(*o, client.WithFailMode(client.FailOpen))
	}
}

func startBackend(t testing.TB, sidecarAddr string, m Model, opts ...backendOpt) *testBackend {
	t.Helper()
	cfg := &config{modelName: "scripted", timeout: 2 * time.Second}
	copts := []client.Option{client.WithTimeout(2 * time.Second)}
	for _, o := range opts {
		o(cfg, &copts)
	}
	guard, err := client.Dial(sidecarAddr, copts...)
	if err != nil {
		t.Fatal(err)
	}
	if m == nil {
		m = NewScriptedModel(testScript())
	}
	agents := map[string]*Agent{"assistant": {Identifier: "assistant"}, "batch": {Identifier: "batch", Streamable: new(bool)}}
	b := newBackend(cfg, m, guard, agents, slog.New(slog.DiscardHandler))
	hs := httptest.NewServer(b)
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		guard.Close()
	})
	tb := &testBackend{url: hs.URL, b: b}
	tb.model, _ = m.(*ScriptedModel)
	return tb
}

// post sends body and returns the status, content type and the whole body.
func (tb *testBackend) post(t testing.TB, path, body string) (int, string, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(testContext(t), http.MethodPost, tb.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), b
}

func (tb *testBackend) calls() int64 {
	if tb.model == nil {
		return -1
	}
	return tb.model.Calls()
}

// ndjson splits an NDJSON body into objects.
func ndjson(t *testing.T, body []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %d of NDJSON is not an object (%d bytes)", len(out), len(sc.Bytes()))
		}
		out = append(out, m)
	}
	return out
}

// sseEvent is one Server-Sent Event.
type sseEvent struct {
	event, id, data, retry string
	order                  []string // field names in the order they came
}

func parseSSE(body []byte) []sseEvent {
	var out []sseEvent
	var cur sseEvent
	started := false
	for _, line := range strings.Split(string(body), "\n") {
		if line == "" {
			if started {
				out = append(out, cur)
			}
			cur, started = sseEvent{}, false
			continue
		}
		k, v, _ := strings.Cut(line, ":")
		v = strings.TrimPrefix(v, " ")
		started = true
		cur.order = append(cur.order, k)
		switch k {
		case "event":
			cur.event = v
		case "id":
			cur.id = v
		case "data":
			cur.data = v
		case "retry":
			cur.retry = v
		}
	}
	if started {
		out = append(out, cur)
	}
	return out
}

// userBody is an AI Chat Protocol request with one user message.
func userBody(content string) string {
	b, _ := json.Marshal(map[string]any{"messages": []any{map[string]string{"role": "user", "content": content}}, "context": map[string]any{}, "session_state": nil})
	return string(b)
}

func agentBody(content string) string {
	b, _ := json.Marshal(map[string]any{"agent_identifier": "assistant", "conversation": []any{map[string]string{"sender": "user", "content": content}}})
	return string(b)
}

func openAIBody(content string, stream bool) string {
	b, _ := json.Marshal(map[string]any{"model": "scripted", "messages": []any{map[string]string{"role": "user", "content": content}}, "stream": stream})
	return string(b)
}

// harmfulPrompt is a prompt the service blocks.
const harmfulPrompt = "Hi there. " + harmful
