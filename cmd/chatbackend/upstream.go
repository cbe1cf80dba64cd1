package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// maxUpstreamBody caps what is read of one upstream answer or SSE line.
const maxUpstreamBody = 8 << 20

// UpstreamModel calls any OpenAI-compatible Chat Completions endpoint.
type UpstreamModel struct {
	url    string
	key    string
	header string // "Authorization" (Bearer) or "api-key" (Azure OpenAI)
	client *http.Client
}

// NewUpstreamModel returns a model at endpoint. endpoint is the full chat
// completions URL; a base URL ending in /v1 (or any URL without
// /chat/completions) gets /chat/completions appended. Azure OpenAI hosts
// (*.openai.azure.com) get the key in the api-key header, others as a Bearer
// token. An empty key sends no credentials (local servers).
func NewUpstreamModel(endpoint, key string, client *http.Client) (*UpstreamModel, error) {
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--upstream %q: want an http(s) URL", endpoint)
	}
	if !strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/chat/completions") {
		u.Path = strings.TrimRight(u.Path, "/") + "/chat/completions"
	}
	header := "Authorization"
	if strings.HasSuffix(u.Hostname(), ".openai.azure.com") {
		header = "api-key"
	}
	if client == nil {
		client = http.DefaultClient
	}
	return &UpstreamModel{url: u.String(), key: key, header: header, client: client}, nil
}

func (m *UpstreamModel) post(ctx context.Context, body []byte, stream bool) (*http.Response, error) {
	body, err := setJSONField(body, "stream", stream)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, m.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if stream {
		req.Header.Set("Accept", "text/event-stream")
	}
	if m.key != "" {
		if m.header == "api-key" {
			req.Header.Set("api-key", m.key)
		} else {
			req.Header.Set("Authorization", "Bearer "+m.key)
		}
	}
	resp, err := m.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("upstream model: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		return nil, &errUpstream{Status: resp.StatusCode, Body: b}
	}
	return resp, nil
}

// Complete sends body with "stream": false and returns the answer's JSON.
func (m *UpstreamModel) Complete(ctx context.Context, body []byte) ([]byte, error) {
	resp, err := m.post(ctx, body, false)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxUpstreamBody))
	if err != nil {
		return nil, fmt.Errorf("upstream model: %w", err)
	}
	return b, nil
}

// Stream sends body with "stream": true and reads the SSE answer.
func (m *UpstreamModel) Stream(ctx context.Context, body []byte) (ChunkStream, error) {
	resp, err := m.post(ctx, body, true)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), maxUpstreamBody)
	return &sseStream{body: resp.Body, sc: sc}, nil
}

// sseStream reads the data lines of an OpenAI SSE stream until [DONE].
type sseStream struct {
	body io.ReadCloser
	sc   *bufio.Scanner
	done bool
}

func (s *sseStream) Next() ([]byte, error) {
	for !s.done && s.sc.Scan() {
		line := s.sc.Bytes()
		data, ok := bytes.CutPrefix(line, []byte("data:"))
		if !ok {
			continue // comments, event:, id:, blank lines
		}
		data = bytes.TrimSpace(data)
		if string(data) == "[DONE]" {
			s.done = true
			break
		}
		if len(data) == 0 {
			continue
		}
		if !json.Valid(data) {
			return nil, fmt.Errorf("upstream model: a stream event is not JSON (%d bytes)", len(data))
		}
		return bytes.Clone(data), nil
	}
	if err := s.sc.Err(); err != nil {
		return nil, fmt.Errorf("upstream model: %w", err)
	}
	return nil, io.EOF
}

func (s *sseStream) Close() error { return s.body.Close() }

// setJSONField sets a top-level field of a JSON object, keeping the others.
func setJSONField(body []byte, key string, value any) ([]byte, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil {
		return nil, fmt.Errorf("request body: %w", err)
	}
	v, err := json.Marshal(value)
	if err != nil {
		return nil, err
	}
	obj[key] = v
	return json.Marshal(obj)
}
