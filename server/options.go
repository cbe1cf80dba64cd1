package server

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"google.golang.org/grpc"
)

// Defaults of the stream and connection limits (DefaultLimits). See
// docs/configuration.md.
const (
	DefaultMaxStreams            = 4096
	DefaultMaxStreamsPerConn     = 1024
	DefaultIdleTimeout           = 5 * time.Minute
	DefaultKeepaliveMinTime      = 10 * time.Second
	DefaultKeepaliveTime         = time.Minute
	DefaultKeepaliveTimeout      = 20 * time.Second
	DefaultMaxConnectionAge      = 30 * time.Minute
	DefaultMaxConnectionAgeGrace = 10 * time.Minute
)

// Limits bound what clients may hold open. A zero field means no limit (or,
// for the keepalive and connection-age fields, grpc-go's own default).
type Limits struct {
	// MaxStreams caps the streams open at once on the server. A stream over
	// it ends at once, before reading a request, with a Completion
	// END_REASON_RESOURCE_EXHAUSTED and status RESOURCE_EXHAUSTED.
	MaxStreams int
	// MaxStreamsPerConn is HTTP/2's SETTINGS_MAX_CONCURRENT_STREAMS
	// (grpc.MaxConcurrentStreams): further streams on one connection wait in
	// the client until one ends.
	MaxStreamsPerConn uint32
	// IdleTimeout ends a stream that has sent no request for this long: what
	// was analyzed is delivered, then a Completion
	// END_REASON_RESOURCE_EXHAUSTED and status RESOURCE_EXHAUSTED.
	IdleTimeout time.Duration
	// KeepaliveMinTime is the shortest interval between client pings the
	// server accepts; a client pinging faster is sent GOAWAY
	// (ENHANCE_YOUR_CALM). KeepalivePermitWithoutStream allows pings on a
	// connection with no open stream.
	KeepaliveMinTime             time.Duration
	KeepalivePermitWithoutStream bool
	// KeepaliveTime is how long a connection may be silent before the server
	// pings it; KeepaliveTimeout how long it then waits for the answer before
	// closing the connection.
	KeepaliveTime    time.Duration
	KeepaliveTimeout time.Duration
	// MaxConnectionAge sends GOAWAY to a connection this old (grpc-go adds
	// ±10% jitter), so clients reconnect and new replicas receive load.
	// Streams open then may run for MaxConnectionAgeGrace more before the
	// connection is closed under them.
	MaxConnectionAge      time.Duration
	MaxConnectionAgeGrace time.Duration
}

// DefaultLimits returns the documented defaults.
func DefaultLimits() Limits {
	return Limits{
		MaxStreams:                   DefaultMaxStreams,
		MaxStreamsPerConn:            DefaultMaxStreamsPerConn,
		IdleTimeout:                  DefaultIdleTimeout,
		KeepaliveMinTime:             DefaultKeepaliveMinTime,
		KeepalivePermitWithoutStream: true,
		KeepaliveTime:                DefaultKeepaliveTime,
		KeepaliveTimeout:             DefaultKeepaliveTimeout,
		MaxConnectionAge:             DefaultMaxConnectionAge,
		MaxConnectionAgeGrace:        DefaultMaxConnectionAgeGrace,
	}
}

// ErrLimits is wrapped by the errors of Limits.Validate.
var ErrLimits = errors.New("server: invalid limits")

// Validate reports a negative limit.
func (l Limits) Validate() error {
	if l.MaxStreams < 0 {
		return fmt.Errorf("%w: max streams %d is negative", ErrLimits, l.MaxStreams)
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{
		{"idle timeout", l.IdleTimeout}, {"keepalive min time", l.KeepaliveMinTime},
		{"keepalive time", l.KeepaliveTime}, {"keepalive timeout", l.KeepaliveTimeout},
		{"max connection age", l.MaxConnectionAge}, {"max connection age grace", l.MaxConnectionAgeGrace},
	} {
		if d.v < 0 {
			return fmt.Errorf("%w: %s %v is negative", ErrLimits, d.name, d.v)
		}
	}
	return nil
}

// options are what Option sets; New and NewServer apply the defaults first.
type options struct {
	log      *slog.Logger
	depth    int
	limits   Limits
	observer Observer
	grpcOpts []grpc.ServerOption
}

func defaultOptions() options {
	return options{log: slog.New(slog.DiscardHandler), depth: 16, limits: DefaultLimits()}
}

// Option configures a Service or a Server.
type Option func(*options)

// WithLogger sets the logger (default: discard). Log lines carry stream ids,
// request indexes, counts and lengths, never analyzed text.
func WithLogger(l *slog.Logger) Option {
	return func(o *options) {
		if l != nil {
			o.log = l
		}
	}
}

// WithQueueDepth sets how many event batches may wait between a stream's
// receive and send loops (default 16).
func WithQueueDepth(n int) Option {
	return func(o *options) {
		if n > 0 {
			o.depth = n
		}
	}
}

// WithLimits sets the stream and connection limits (default DefaultLimits()).
// The connection fields apply to NewServer only.
func WithLimits(l Limits) Option { return func(o *options) { o.limits = l } }

// WithObserver sets the Observer told about streams and sent events (default none).
func WithObserver(obs Observer) Option { return func(o *options) { o.observer = obs } }

// WithGRPCOptions adds grpc.ServerOptions to the ones NewServer sets: stats
// handlers and interceptors for metrics and tracing.
func WithGRPCOptions(opts ...grpc.ServerOption) Option {
	return func(o *options) { o.grpcOpts = append(o.grpcOpts, opts...) }
}
