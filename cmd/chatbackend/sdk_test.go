package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNodeClients drives the backend with official client libraries,
// unchanged: the openai npm package against /v1/chat/completions
// (testdata/openai-sdk/check.mjs) and Microsoft's AI Chat Protocol client
// against /chat and /chat/stream (testdata/ai-chat-protocol/check.mjs). It
// needs node and a directory where both packages are installed:
//
//	cd "$(mktemp -d)" && npm install openai@5.23.2 @microsoft/ai-chat-protocol@1.0.0-beta.20240814.1
//	CHATBACKEND_NODE_DIR="$PWD" go test -run TestNodeClients ./cmd/chatbackend
//
// and skips otherwise (CI does not install them).
func TestNodeClients(t *testing.T) {
	dir := os.Getenv("CHATBACKEND_NODE_DIR")
	if dir == "" {
		t.Skip("CHATBACKEND_NODE_DIR not set (a directory with node_modules/openai and node_modules/@microsoft/ai-chat-protocol)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on PATH")
	}
	tb := startBackend(t, startSidecar(t).addr, nil)
	tests := []struct {
		name, pkg, script, path string
		checks                  int
	}{
		{"openai", "openai", "openai-sdk", "/v1", 7},
		{"ai-chat-protocol", "@microsoft/ai-chat-protocol", "ai-chat-protocol", "/chat", 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := os.Stat(filepath.Join(dir, "node_modules", tt.pkg)); err != nil {
				t.Skipf("%s is not installed under CHATBACKEND_NODE_DIR", tt.pkg)
			}
			script, err := os.ReadFile(filepath.Join("testdata", tt.script, "check.mjs"))
			if err != nil {
				t.Fatal(err)
			}
			// The script must sit next to node_modules for node to resolve the package.
			name := filepath.Join(dir, "chatbackend-"+tt.script+".mjs")
			if err := os.WriteFile(name, script, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Remove(name) })
			cmd := exec.CommandContext(testContext(t), node, name, tb.url+tt.path)
			cmd.Env = append(os.Environ(), "SDK_BENIGN=a benign question", "SDK_HARMFUL="+harmfulPrompt, "SDK_CUTOFF=tell me a story")
			out, err := cmd.CombinedOutput()
			// The scripts print check names and byte counts only.
			t.Logf("node %s:\n%s", filepath.Base(name), out)
			if err != nil {
				t.Fatalf("node: %v", err)
			}
			n := 0
			for _, line := range strings.Split(string(out), "\n") {
				if strings.HasPrefix(line, "ok ") {
					n++
				}
			}
			if n != tt.checks {
				t.Errorf("%d checks passed, want %d", n, tt.checks)
			}
		})
	}
}
