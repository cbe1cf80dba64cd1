package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/metrics"
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

// listening holds the bound addresses; Metrics is empty when metrics are off.
type listening struct {
	GRPC, Metrics string
}

// run starts the server and blocks until a signal (SIGINT, SIGTERM) or ctx
// ends it. ready, if not nil, receives the bound addresses once serving.
func run(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer, ready chan<- listening) error {
	fs := flag.NewFlagSet("raiserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "", "gRPC listen address HOST:PORT (env RAI_LISTEN; default "+defaultListen+")")
	configPath := fs.String("config", "", "optional JSON configuration file (env RAI_CONFIG)")
	logLevel := fs.String("log-level", "", "log level: debug, info, warn, error (env RAI_LOG_LEVEL; default info)")
	drain := fs.Duration("drain-timeout", 0, "how long open streams may run after SIGTERM (env RAI_DRAIN_TIMEOUT; default 20s)")
	s := defaultSettings()
	table := s.table()
	for _, st := range table {
		fs.String(st.flag, "", st.usage+" (env "+st.env+")")
	}
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
	setFlags := map[string]string{}
	fs.Visit(func(f *flag.Flag) { setFlags[f.Name] = f.Value.String() })
	for _, st := range table {
		v, ok := setFlags[st.flag]
		name := "--" + st.flag
		if !ok {
			v, name = getenv(st.env), st.env
		}
		if v == "" && !ok {
			continue
		}
		if err := st.set(v); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	if err := s.limits.Validate(); err != nil {
		return err
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
	aopts := append(s.opts, analyzer.WithLogger(log), analyzer.WithSegmentDeadline(s.deadline, s.failMode))
	sopts := []server.Option{server.WithLogger(log), server.WithLimits(s.limits)}
	var m *metrics.Metrics
	if s.metricsListen != "" {
		m = metrics.New(server.EndCauses)
		aopts = append(aopts, analyzer.WithObserver(m))
		sopts = append(sopts, server.WithObserver(m), server.WithGRPCOptions(m.GRPCOptions()...))
	}
	traceOpt, stopTracing, err := setupTracing(ctx, getenv)
	if err != nil {
		return err
	}
	if traceOpt != nil {
		sopts = append(sopts, server.WithGRPCOptions(traceOpt))
		defer func() {
			sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := stopTracing(sctx); err != nil {
				log.Warn("tracing shutdown", "err", err)
			}
		}()
	}
	a, err := analyzer.New(cls, aopts...)
	if err != nil {
		return err
	}

	lis, err := net.Listen("tcp", s.listen)
	if err != nil {
		return err
	}
	srv := server.NewServer(a, sopts...)
	addrs := listening{GRPC: lis.Addr().String()}
	var serving atomic.Bool
	serving.Store(true)
	if m != nil {
		m.InitGRPC(srv.GRPC)
		mlis, err := net.Listen("tcp", s.metricsListen)
		if err != nil {
			lis.Close()
			return fmt.Errorf("metrics listen: %w", err)
		}
		addrs.Metrics = mlis.Addr().String()
		hs := &http.Server{Handler: m.Handler(serving.Load), ReadHeaderTimeout: 5 * time.Second}
		go hs.Serve(mlis)
		// Metrics stay up through the drain; they stop after the gRPC server.
		defer func() {
			sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			hs.Shutdown(sctx)
		}()
	}

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(lis) }()
	log.Info("serving", "addr", addrs.GRPC, "metrics_addr", addrs.Metrics, "tracing", traceOpt != nil,
		"categories", len(a.Enabled()), "drain_timeout", s.drainTimeout,
		"max_streams", s.limits.MaxStreams, "segment_deadline", s.deadline, "fail_mode", s.failMode.String())
	if ready != nil {
		ready <- addrs
	}

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	serving.Store(false)
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
