package main

import (
	"bytes"
	"encoding/json"
	"testing"
)

// The request parsers and the proxy's chunk stripping take untrusted JSON:
// they must never panic, and what they accept must hold their promises.

func FuzzParseChatRequest(f *testing.F) {
	for _, s := range []string{
		`{"messages":[{"role":"user","content":"hi"}],"context":{},"session_state":null}`,
		`{"messages":[{"role":"user","content":"hi"}],"sessionState":{"a":1},"stream":true}`,
		`{"messages":[{"role":"assistant","content":"x"}]}`,
		`{"messages":[null,{"role":1}]}`, `[]`, `null`, `{"stream":"x"}`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := parseChatRequest(body)
		if err != nil {
			if req != nil {
				t.Fatal("a request and an error")
			}
			return
		}
		if len(req.messages) == 0 || req.messages[len(req.messages)-1].Role != "user" {
			t.Fatal("accepted a request that does not end with a user message")
		}
		if req.stateKey != "session_state" && req.stateKey != "sessionState" {
			t.Fatalf("state key %q", req.stateKey)
		}
		if !json.Valid(req.stateValue()) {
			t.Fatal("the session state to echo is not JSON")
		}
	})
}

func FuzzParseAgentRequest(f *testing.F) {
	for _, s := range []string{
		`{"agent_identifier":"assistant","conversation":[{"sender":"user","content":"hi"}]}`,
		`{"agent_identifier":"a","conversation":[{"sender":"user","content":"x","content_parts":[{"type":"context","context":{"document_context":{},"custom_context":{}}}]}]}`,
		`{"agent_identifier":1,"conversation":[{"sender":"bot"},"x",null],"bot_params":[]}`,
		`{"conversation_context":{"document_context":{},"custom_context":{}}}`, `[]`, `1e999`, `{`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, detail, verrs := parseAgentRequest(body)
		set := 0
		for _, ok := range []bool{req != nil, detail != "", len(verrs) > 0} {
			if ok {
				set++
			}
		}
		if set != 1 {
			t.Fatalf("request %v, detail %q, %d validation errors: want exactly one", req != nil, detail, len(verrs))
		}
		for _, e := range verrs {
			if len(e.Loc) == 0 || e.Loc[0] != "body" || e.Msg == "" || e.Type == "" {
				t.Fatalf("validation error %+v", e)
			}
		}
		if req != nil && (len(req.messages) == 0 || req.messages[len(req.messages)-1].Role != "user" || len(req.conversation) != len(req.messages)) {
			t.Fatal("accepted a conversation that does not end with a user message")
		}
	})
}

func FuzzProxyStrip(f *testing.F) {
	for _, s := range []string{
		`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"hi"},"finish_reason":null}]}`,
		`{"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call","type":"function","function":{"name":"f","arguments":"{}"}}]}}]}`,
		`{"id":"c","choices":[{"index":1,"delta":{"refusal":"no"},"finish_reason":"stop"}],"usage":{"total_tokens":1}}`,
		`{"choices":[null,1,{"delta":null,"index":"x"}],"usage":null}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var c map[string]any
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if dec.Decode(&c) != nil || c == nil {
			return
		}
		st := &proxyState{finish: map[int]any{}}
		out := st.strip(c)
		if out == nil {
			return
		}
		b, err := json.Marshal(out)
		if err != nil {
			t.Fatalf("the stripped chunk does not encode: %v", err)
		}
		// Maps, not structs: encoding/json matches struct fields without
		// regard to case, and a client reads the exact keys.
		// json.Number keeps numbers a float64 cannot hold (333e333), as
		// the proxy passes them through.
		var back map[string]any
		bd := json.NewDecoder(bytes.NewReader(b))
		bd.UseNumber()
		if err := bd.Decode(&back); err != nil {
			t.Fatal(err)
		}
		if _, ok := back["usage"]; ok {
			t.Fatal("usage passed through before the end")
		}
		choices, _ := back["choices"].([]any)
		for _, x := range choices {
			ch, _ := x.(map[string]any)
			delta, _ := ch["delta"].(map[string]any)
			if _, ok := delta["content"]; ok {
				t.Fatal("text passed through ungated")
			}
			if _, ok := delta["refusal"]; ok {
				t.Fatal("a refusal passed through ungated")
			}
			if ch["finish_reason"] != nil {
				t.Fatal("a finish reason passed through before the text")
			}
		}
	})
}
