package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestConfigFileErrors(t *testing.T) {
	tests := []struct {
		name, content, want string
	}{
		{"unknown field", `{"listn": ":1"}`, "unknown field"},
		{"bad category", `{"categories": {"SPAM": {}}}`, "unknown category"},
		{"bad threshold", `{"categories": {"HATE": {"blockAt": "SEVERE"}}}`, "blockAt"},
		{"bad duration", `{"drainTimeout": "soon"}`, "drainTimeout"},
		{"trailing data", `{} {}`, "trailing data"},
		{"not json", `listen: x`, "invalid character"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeFile(t, "c.json", tt.content)
			fc, err := loadFile(p)
			if err == nil {
				var s settings
				err = fc.apply(&s)
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to mention %q", err, tt.want)
			}
		})
	}
}

func TestConfigFileApplies(t *testing.T) {
	p := writeFile(t, "c.json", `{"listen": "127.0.0.1:9", "drainTimeout": "3s", "maxSegmentBytes": 256,
		"categories": {"self-harm": {"blockAt": "high"}, "SEXUAL": {"enabled": false}}}`)
	fc, err := loadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := settings{listen: defaultListen}
	if err := fc.apply(&s); err != nil {
		t.Fatal(err)
	}
	if s.listen != "127.0.0.1:9" || s.drainTimeout != 3*time.Second || len(s.opts) != 3 {
		t.Errorf("settings %+v", s)
	}
}

// TestRunPrecedenceAndValidation starts the server through run: the flag wins
// over the environment, which wins over the file; invalid settings stop it
// before it listens.
func TestRunPrecedenceAndValidation(t *testing.T) {
	cfg := writeFile(t, "c.json", `{"listen": "127.0.0.1:1", "maxSegmentBytes": 512}`)
	env := map[string]string{"RAI_CONFIG": cfg, "RAI_LISTEN": "127.0.0.1:2"}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--listen", "127.0.0.1:0", "--drain-timeout", "1s"}, func(k string) string { return env[k] }, io.Discard, ready)
	}()
	select {
	case addr := <-ready:
		if !strings.HasPrefix(addr, "127.0.0.1:") || addr == "127.0.0.1:1" || addr == "127.0.0.1:2" {
			t.Errorf("listening on %s", addr)
		}
	case err := <-done:
		t.Fatalf("run: %v", err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("run after cancel: %v", err)
	}

	bad := map[string][]string{
		"segment cap":   {"--config", writeFile(t, "b.json", `{"maxSegmentBytes": 1}`)},
		"log level":     {"--log-level", "loud"},
		"missing file":  {"--config", filepath.Join(t.TempDir(), "none.json")},
		"blocklist":     {"--config", writeFile(t, "l.json", `{"blocklists": ["/nonexistent/list.txt"]}`)},
		"extra args":    {"serve"},
		"unknown flag":  {"--port", "1"},
		"bad env drain": nil,
	}
	for name, args := range bad {
		getenv := func(string) string { return "" }
		if name == "bad env drain" {
			getenv = func(k string) string {
				if k == "RAI_DRAIN_TIMEOUT" {
					return "forever"
				}
				return ""
			}
		}
		err := run(context.Background(), append(args, "--listen", "127.0.0.1:0"), getenv, io.Discard, nil)
		if err == nil {
			t.Errorf("%s: run succeeded", name)
		}
		if name == "extra args" || name == "unknown flag" {
			if !errors.Is(err, errUsage) {
				t.Errorf("%s: err = %v, want usage", name, err)
			}
		}
	}
}

// TestCustomBlocklist checks that a blocklist named in the config file is
// loaded at start and its terms are found by the classifier the server runs.
func TestCustomBlocklist(t *testing.T) {
	list := writeFile(t, "block.txt", "# project code names that must not leak\nzorblax quint\tHATE\t3\n")
	cls, err := buildClassifier([]string{list})
	if err != nil {
		t.Fatal(err)
	}
	text := []byte("Tell me about zorblax quint please.")
	var found bool
	for _, f := range cls.Classify(nil, text) {
		if f.Category.String() == "HATE" && f.Severity >= 3 && string(text[f.Start:f.End]) == "zorblax quint" {
			found = true
		}
	}
	if !found {
		t.Errorf("blocklist term not found: %v", cls.Classify(nil, text))
	}
	bad := writeFile(t, "bad.txt", "# comment\nqzxv\tNOPE\t3\n")
	_, err = buildClassifier([]string{bad})
	if err == nil || strings.Contains(err.Error(), "qzxv") || !strings.Contains(err.Error(), "2") {
		t.Errorf("bad blocklist: err = %v, want one naming line 2 and not the term", err)
	}
}
