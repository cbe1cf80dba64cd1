// Command raiserver runs the content-safety analysis service.
//
// It listens for gRPC on --listen (env RAI_LISTEN, default :50051), serves
// rai.v1.AnalysisService, gRPC server reflection and grpc.health.v1, and runs
// on embedded defaults: no configuration file and no network are needed.
// See docs/configuration.md and docs/operations.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/server"
)

const defaultListen = ":50051"

func main() {
	if err := run(context.Background(), os.Args[1:], os.Getenv, os.Stderr, nil); err != nil {
		if !errors.Is(err, errUsage) {
			fmt.Fprintln(os.Stderr, "raiserver:", err)
		}
		os.Exit(2)
	}
}

// run starts the server and blocks until a signal (SIGINT, SIGTERM) or ctx
// ends it. ready, if not nil, receives the bound address once serving.
func run(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer, ready chan<- string) error {
	fs := flag.NewFlagSet("raiserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "", "gRPC listen address HOST:PORT (env RAI_LISTEN; default "+defaultListen+")")
	configPath := fs.String("config", "", "optional JSON configuration file (env RAI_CONFIG)")
	logLevel := fs.String("log-level", "", "log level: debug, info, warn, error (env RAI_LOG_LEVEL; default info)")
	drain := fs.Duration("drain-timeout", 0, "how long open streams may run after SIGTERM (env RAI_DRAIN_TIMEOUT; default 20s)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return errUsage
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "raiserver: unexpected arguments: %s\n", strings.Join(fs.Args(), " "))
		return errUsage
	}

	// Precedence: flags > environment > file > embedded defaults.
	s := settings{listen: defaultListen, logLevel: "info", drainTimeout: 20 * time.Second}
	path := firstNonEmpty(*configPath, getenv("RAI_CONFIG"))
	if path != "" {
		fc, err := loadFile(path)
		if err != nil {
			return err
		}
		if err := fc.apply(&s); err != nil {
			return err
		}
	}
	s.listen = firstNonEmpty(*listen, getenv("RAI_LISTEN"), s.listen)
	s.logLevel = firstNonEmpty(*logLevel, getenv("RAI_LOG_LEVEL"), s.logLevel)
	if *drain > 0 {
		s.drainTimeout = *drain
	} else if v := getenv("RAI_DRAIN_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return fmt.Errorf("RAI_DRAIN_TIMEOUT %q is not a non-negative duration", v)
		}
		s.drainTimeout = d
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(s.logLevel)); err != nil {
		return fmt.Errorf("log level %q: want debug, info, warn or error", s.logLevel)
	}
	log := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: level}))

	cls, err := buildClassifier(s.blocklists)
	if err != nil {
		return err
	}
	a, err := analyzer.New(cls, append(s.opts, analyzer.WithLogger(log))...)
	if err != nil {
		return err
	}

	lis, err := net.Listen("tcp", s.listen)
	if err != nil {
		return err
	}
	srv := server.NewServer(a, server.WithLogger(log))

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(lis) }()
	log.Info("serving", "addr", lis.Addr().String(), "categories", len(a.Enabled()), "drain_timeout", s.drainTimeout)
	if ready != nil {
		ready <- lis.Addr().String()
	}

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down", "drain_timeout", s.drainTimeout)
	srv.Shutdown(s.drainTimeout)
	log.Info("stopped")
	return nil
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
