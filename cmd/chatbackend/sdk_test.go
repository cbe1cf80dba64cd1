package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenAINodeSDK runs testdata/openai-sdk/check.mjs, which drives
// /v1/chat/completions with the official openai npm package, unchanged. It
// needs node and a directory with the package installed:
//
//	cd "$(mktemp -d)" && npm install openai@5.23.2 && export OPENAI_SDK_DIR="$PWD"
//
// and skips otherwise (CI does not install it).
func TestOpenAINodeSDK(t *testing.T) {
	dir := os.Getenv("OPENAI_SDK_DIR")
	if dir == "" {
		t.Skip("OPENAI_SDK_DIR not set (a directory with node_modules/openai)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on PATH")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "openai")); err != nil {
		t.Skipf("no openai package under OPENAI_SDK_DIR: %v", err)
	}
	script, err := os.ReadFile(filepath.Join("testdata", "openai-sdk", "check.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	// The script must sit next to node_modules for node to resolve "openai".
	name := filepath.Join(dir, "chatbackend-check.mjs")
	if err := os.WriteFile(name, script, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(name) })

	tb := startBackend(t, startSidecar(t).addr, nil)
	cmd := exec.CommandContext(testContext(t), node, name, tb.url+"/v1")
	cmd.Env = append(os.Environ(), "SDK_BENIGN=a benign question", "SDK_HARMFUL="+harmfulPrompt, "SDK_CUTOFF=tell me a story")
	out, err := cmd.CombinedOutput()
	// The script prints check names and byte counts only.
	t.Logf("node check.mjs:\n%s", out)
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	n := 0
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "ok ") {
			n++
		}
	}
	if n != 7 {
		t.Errorf("%d checks passed, want 7", n)
	}
}
