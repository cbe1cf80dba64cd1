package main

import (
	"bytes"
	"strings"
	"testing"
)

const stream = `{"config": {"protocol_version": "v1.0.0"}}
{"osv": {"id": "GO-1", "summary": "net/http thing"}}
{"osv": {"id": "GO-2", "summary": "x/net thing"}}
{"osv": {"id": "GO-3", "summary": "required, not called"}}
{"finding": {"osv": "GO-3", "fixed_version": "v0.2.0", "trace": [{"module": "example.com/m", "version": "v0.1.0"}]}}
{"finding": {"osv": "GO-1", "fixed_version": "v1.26.9", "trace": [{"module": "stdlib", "version": "v1.26.8", "package": "net/http"}]}}
{"finding": {"osv": "GO-1", "fixed_version": "v1.26.9", "trace": [{"module": "stdlib", "version": "v1.26.8", "package": "net/http", "function": "Get"}, {"module": "example.com/app", "package": "example.com/app", "function": "main", "position": {"filename": "main.go", "line": 7}}]}}
{"finding": {"osv": "GO-1", "fixed_version": "v1.26.9", "trace": [{"module": "stdlib", "version": "v1.26.8", "package": "net/http", "function": "Get"}, {"module": "example.com/app", "package": "example.com/app", "function": "other", "position": {"filename": "other.go", "line": 9}}]}}
`

const called2 = `{"osv": {"id": "GO-2", "summary": "x/net thing"}}
{"finding": {"osv": "GO-2", "fixed_version": "v0.62.0", "trace": [{"module": "golang.org/x/net", "version": "v0.60.0", "package": "golang.org/x/net/http2", "receiver": "*Framer", "function": "ReadFrame"}, {"module": "example.com/app", "package": "example.com/app", "function": "main", "position": {"filename": "main.go", "line": 3}}]}}
`

func TestGate(t *testing.T) {
	for _, tc := range []struct {
		name       string
		in         string
		failStdlib bool
		wantFail   bool
		wantCalled int
		wantLines  []string
	}{
		{"stdlib warns by default", stream, false, false, 1, []string{"WARN GO-1 stdlib@v1.26.8 (fixed in v1.26.9): net/http.Get, called from main.go:7: net/http thing", "1 called, 1 in imported"}},
		{"stdlib fails when asked", stream, true, true, 1, []string{"FAIL GO-1"}},
		{"a called module vulnerability fails", stream + called2, false, true, 2, []string{"FAIL GO-2 golang.org/x/net@v0.60.0 (fixed in v0.62.0): golang.org/x/net/http2.Framer.ReadFrame"}},
		{"nothing found", `{"config": {}}`, true, false, 0, []string{"0 called, 0 in"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			r, err := gate(strings.NewReader(tc.in), &out, tc.failStdlib)
			if err != nil {
				t.Fatal(err)
			}
			if r.failed != tc.wantFail || len(r.called) != tc.wantCalled {
				t.Errorf("failed=%v called=%d, want %v %d\n%s", r.failed, len(r.called), tc.wantFail, tc.wantCalled, out.String())
			}
			for _, l := range tc.wantLines {
				if !strings.Contains(out.String(), l) {
					t.Errorf("output lacks %q:\n%s", l, out.String())
				}
			}
		})
	}
}

func TestGateBadInput(t *testing.T) {
	if _, err := gate(strings.NewReader("{not json"), &bytes.Buffer{}, false); err == nil {
		t.Error("no error for broken input")
	}
}
