package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/openrai/raiserver/client"
)

const (
	defaultListen  = "127.0.0.1:8080"
	defaultSidecar = "localhost:50051"
)

var errUsage = errors.New("usage")

func main() {
	if err := run(context.Background(), os.Args[1:], os.Getenv, os.Stderr, nil); err != nil {
		if !errors.Is(err, errUsage) {
			fmt.Fprintln(os.Stderr, "chatbackend:", err)
		}
		os.Exit(2)
	}
}

// config is the backend's validated configuration.
type config struct {
	listen       string
	sidecar      string // gRPC target; "" with embedded
	embedded     bool   // run the analysis service in this process
	upstream     string
	apiKeyEnv    string
	modelKind    string // "scripted" or "" (upstream)
	scriptPath   string
	modelName    string
	systemPrompt string
	agentsPath   string
	failOpen     bool
	timeout      time.Duration
	logLevel     string
	allowOrigin  string // CORS: a web origin (or "*") whose pages may call the backend
}

// parseFlags reads the command line.
func parseFlags(args []string, stderr io.Writer) (*config, error) {
	fs := flag.NewFlagSet("chatbackend", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := &config{}
	fs.StringVar(&c.listen, "listen", defaultListen, "HTTP listen address HOST:PORT")
	fs.StringVar(&c.sidecar, "sidecar", defaultSidecar, "raiserver gRPC target (host:port, or dns:///name:port for a scaled-out service)")
	fs.BoolVar(&c.embedded, "sidecar-embedded", false, "run the analysis service inside this process (on a loopback port) instead of dialing --sidecar")
	fs.StringVar(&c.upstream, "upstream", "", "OpenAI-compatible chat completions URL, e.g. https://api.openai.com/v1 (key from the environment, see --api-key-env)")
	fs.StringVar(&c.apiKeyEnv, "api-key-env", "OPENAI_API_KEY", "environment variable that holds the upstream API key")
	fs.StringVar(&c.modelKind, "model", "", `"scripted" for the offline model (the default when --upstream is not set)`)
	fs.StringVar(&c.scriptPath, "script", "", "JSON script of the scripted model (default: the embedded script)")
	fs.StringVar(&c.modelName, "model-name", "", "model name sent upstream by /chat and /agent (default gpt-4o-mini, or \"scripted\")")
	fs.StringVar(&c.systemPrompt, "system-prompt", "", "system message that starts every /chat conversation")
	fs.StringVar(&c.agentsPath, "agents", "", `JSON file of Agent Chat API agents: {"agents": [{"identifier": "...", "system_prompt": "..."}]} (default: one agent "assistant")`)
	fs.BoolVar(&c.failOpen, "fail-open", false, "when the analysis service cannot answer in time, let content pass unchecked (default: fail closed, refuse)")
	fs.DurationVar(&c.timeout, "sidecar-timeout", client.DefaultTimeout, "deadline for each answer of the analysis service")
	fs.StringVar(&c.logLevel, "log-level", "info", "log level: debug, info, warn, error")
	fs.StringVar(&c.allowOrigin, "allow-origin", "", `web origin allowed to call the endpoints from a browser (CORS), e.g. https://chat.example.com, or "*" (default: same origin only)`)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, errUsage
		}
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "chatbackend: unexpected arguments: %s\n", strings.Join(fs.Args(), " "))
		return nil, errUsage
	}
	switch {
	case c.modelKind == "" && c.upstream == "":
		c.modelKind = "scripted"
	case c.modelKind == "scripted" && c.upstream != "":
		return nil, errors.New("--model scripted and --upstream exclude each other")
	case c.modelKind != "" && c.modelKind != "scripted":
		return nil, fmt.Errorf("--model %q: the only model kind is \"scripted\" (use --upstream URL for a real model)", c.modelKind)
	}
	if c.scriptPath != "" && c.modelKind != "scripted" {
		return nil, errors.New("--script needs --model scripted")
	}
	if c.modelName == "" {
		c.modelName = "gpt-4o-mini"
		if c.modelKind == "scripted" {
			c.modelName = "scripted"
		}
	}
	if c.timeout <= 0 {
		return nil, errors.New("--sidecar-timeout must be positive")
	}
	return c, nil
}

// modelLabel names the model in logs: "scripted", or the upstream's scheme,
// host and path (never its query, which may carry a key).
func modelLabel(cfg *config) string {
	if cfg.modelKind == "scripted" {
		return "scripted"
	}
	u, err := url.Parse(cfg.upstream)
	if err != nil {
		return "upstream"
	}
	return u.Scheme + "://" + u.Host + u.Path
}

// loadAgents reads the agents file, or returns the default agent.
func loadAgents(path string) (map[string]*Agent, error) {
	if path == "" {
		return map[string]*Agent{"assistant": {Identifier: "assistant"}}, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("agents: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f struct {
		Agents []*Agent `json:"agents"`
	}
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("agents %s: %w", path, err)
	}
	if len(f.Agents) == 0 {
		return nil, fmt.Errorf("agents %s: no agents", path)
	}
	out := make(map[string]*Agent, len(f.Agents))
	for i, a := range f.Agents {
		if a == nil || a.Identifier == "" {
			return nil, fmt.Errorf("agents %s: agents[%d] has no identifier", path, i)
		}
		if out[a.Identifier] != nil {
			return nil, fmt.Errorf("agents %s: identifier %q appears twice", path, a.Identifier)
		}
		out[a.Identifier] = a
	}
	return out, nil
}

// run starts the backend and blocks until a signal or ctx ends it. ready, if
// not nil, receives the HTTP address once serving.
func run(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer, ready chan<- string) error {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(cfg.logLevel)); err != nil {
		return fmt.Errorf("--log-level %q: want debug, info, warn or error", cfg.logLevel)
	}
	log := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: level}))

	var model Model
	if cfg.modelKind == "scripted" {
		s, err := loadScript(cfg.scriptPath)
		if err != nil {
			return err
		}
		model = NewScriptedModel(s)
	} else {
		key := getenv(cfg.apiKeyEnv)
		if key == "" {
			log.Warn("no upstream API key in the environment; sending requests without one", "env", cfg.apiKeyEnv)
		}
		if model, err = NewUpstreamModel(cfg.upstream, key, nil); err != nil {
			return err
		}
	}
	agents, err := loadAgents(cfg.agentsPath)
	if err != nil {
		return err
	}

	target := cfg.sidecar
	if cfg.embedded {
		addr, stop, err := startEmbedded(log)
		if err != nil {
			return err
		}
		defer stop()
		target = addr
	}
	mode := client.FailClosed
	if cfg.failOpen {
		mode = client.FailOpen
	}
	guard, err := client.Dial(target, client.WithFailMode(mode), client.WithTimeout(cfg.timeout))
	if err != nil {
		return err
	}
	defer guard.Close()

	b := newBackend(cfg, model, guard, agents, log)
	lis, err := net.Listen("tcp", cfg.listen)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: b, ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(lis) }()
	log.Info("serving", "addr", lis.Addr().String(), "sidecar", target, "embedded", cfg.embedded,
		"model", modelLabel(cfg), "fail_mode", mode.String(), "agents", len(agents))
	if ready != nil {
		ready <- lis.Addr().String()
	}
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		log.Warn("shutdown", "err", err)
	}
	return nil
}
