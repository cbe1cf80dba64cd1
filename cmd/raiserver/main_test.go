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

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/server"
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
	p := writeFile(t, "c.json", `{"listen": "127.0.0.1:9", "drainTimeout": "3s", "maxSegmentBytes": 256, "minSegmentBytes": 128,
		"categories": {"self-harm": {"blockAt": "high"}, "SEXUAL": {"enabled": false}}}`)
	fc, err := loadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := settings{listen: defaultListen}
	if err := fc.apply(&s); err != nil {
		t.Fatal(err)
	}
	if s.listen != "127.0.0.1:9" || s.drainTimeout != 3*time.Second || len(s.opts) != 4 {
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
	ready := make(chan listening, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--listen", "127.0.0.1:0", "--drain-timeout", "1s"}, func(k string) string { return env[k] }, io.Discard, ready)
	}()
	select {
	case la := <-ready:
		addr := la.GRPC
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
		"segment min":   {"--config", writeFile(t, "m.json", `{"maxSegmentBytes": 64, "minSegmentBytes": 65}`)},
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

// TestLimitSettings checks the limit, deadline and metrics settings through
// every layer: file < environment < flag, and an error naming the setting
// for a bad value in each layer.
func TestLimitSettings(t *testing.T) {
	cfg := writeFile(t, "c.json", `{"maxStreams": 10, "maxStreamsPerConn": 5, "idleTimeout": "1m",
		"keepaliveMinTime": "3s", "keepalivePermitWithoutStream": false, "keepaliveTime": "2m",
		"keepaliveTimeout": "7s", "maxConnectionAge": "1h", "maxConnectionAgeGrace": "4m",
		"segmentDeadline": "250ms", "failMode": "open", "metricsListen": "127.0.0.1:9"}`)
	fc, err := loadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := defaultSettings()
	if err := fc.apply(&s); err != nil {
		t.Fatal(err)
	}
	l := s.limits
	if l.MaxStreams != 10 || l.MaxStreamsPerConn != 5 || l.IdleTimeout != time.Minute || l.KeepaliveMinTime != 3*time.Second ||
		l.KeepalivePermitWithoutStream || l.KeepaliveTime != 2*time.Minute || l.KeepaliveTimeout != 7*time.Second ||
		l.MaxConnectionAge != time.Hour || l.MaxConnectionAgeGrace != 4*time.Minute ||
		s.deadline != 250*time.Millisecond || s.failMode != analyzer.FailOpen || s.metricsListen != "127.0.0.1:9" {
		t.Errorf("file settings not applied: %+v", s)
	}

	d := defaultSettings()
	if d.limits != server.DefaultLimits() || d.deadline != 2*time.Second || d.failMode != analyzer.FailClosed || d.metricsListen != "" {
		t.Errorf("defaults %+v", d)
	}

	// The environment wins over the file, a flag over the environment; the
	// server starts with them (max streams 0 = no limit is valid).
	env := map[string]string{"RAI_CONFIG": cfg, "RAI_MAX_STREAMS": "0", "RAI_FAIL_MODE": "closed", "RAI_METRICS_LISTEN": "127.0.0.1:0"}
	la := startRun(t, []string{"--idle-timeout", "0", "--metrics-listen", "127.0.0.1:0"}, env)
	if la.Metrics == "" || la.Metrics == "127.0.0.1:9" {
		t.Errorf("metrics address %q", la.Metrics)
	}

	bad := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"flag duration", []string{"--idle-timeout", "soon"}, nil, "--idle-timeout"},
		{"flag negative", []string{"--segment-deadline", "-1s"}, nil, "--segment-deadline"},
		{"env int", nil, map[string]string{"RAI_MAX_STREAMS": "-3"}, "RAI_MAX_STREAMS"},
		{"env bool", nil, map[string]string{"RAI_KEEPALIVE_PERMIT_WITHOUT_STREAM": "maybe"}, "RAI_KEEPALIVE_PERMIT_WITHOUT_STREAM"},
		{"env fail mode", nil, map[string]string{"RAI_FAIL_MODE": "ajar"}, "RAI_FAIL_MODE"},
		{"file duration", []string{"--config", writeFile(t, "d.json", `{"maxConnectionAge": "old"}`)}, nil, "maxConnectionAge"},
		{"file fail mode", []string{"--config", writeFile(t, "f.json", `{"failMode": "sometimes"}`)}, nil, "failMode"},
		{"metrics address", []string{"--metrics-listen", "not an address"}, nil, "metrics listen"},
	}
	for _, tt := range bad {
		err := run(context.Background(), append(tt.args, "--listen", "127.0.0.1:0"), func(k string) string { return tt.env[k] }, io.Discard, nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want it to name %s", tt.name, err, tt.want)
		}
	}
}
