package client

import (
	"context"
	"errors"
	"fmt"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
)

// API names the payload format of a request: SPEC §1's apiName.
type API string

// The four APIs the service reads.
const (
	Chat        API = "Chatcompletion"  // Chat Completions requests, responses and stream chunks
	Completions API = "Completion"      // legacy Completions
	Realtime    API = "Realtime"        // Realtime client and server events
	Images      API = "Imagegeneration" // Image generation and edits
)

// Source says whether text is user input or model output: SPEC §1's sourceType.
type Source string

// The two sources.
const (
	Prompt     Source = "PROMPT"
	Completion Source = "COMPLETION"
)

// FailMode decides what a check or a gate does when the service cannot give
// an answer in time: it is unreachable, too slow (the per-call timeout
// passed), or ended the stream with an error of its own (shutdown, internal
// error).
type FailMode int

const (
	// FailClosed treats an unanswered check as blocked and releases no
	// unanalyzed streamed text. It is the default.
	FailClosed FailMode = iota
	// FailOpen lets an unanswered prompt pass and releases streamed text
	// without analysis, marked as unchecked.
	FailOpen
)

func (m FailMode) String() string {
	switch m {
	case FailClosed:
		return "fail-closed"
	case FailOpen:
		return "fail-open"
	}
	return fmt.Sprintf("FailMode(%d)", int(m))
}

// DefaultTimeout is the default per-call deadline (see WithTimeout).
const DefaultTimeout = 3 * time.Second

// roundRobin is the service config Dial installs: spread streams over every
// address the resolver returns (with a dns:/// target, every A/AAAA record).
const roundRobin = `{"loadBalancingConfig": [{"round_robin": {}}]}`

// Errors. Errors returned by this package wrap one of them (or are a
// *BlockedError), and never contain analyzed text.
var (
	// ErrUnavailable: the service gave no answer in time (unreachable, too
	// slow, or it ended the stream with an error of its own). The fail mode
	// decides what happens next; under FailOpen it is only reported in
	// Verdict.Cause.
	ErrUnavailable = errors.New("client: analysis service unavailable")
	// ErrRejected: the service refused a payload (not JSON, not the API's
	// shape, over a size limit). The fail mode does not apply: the service is
	// up and judged the input.
	ErrRejected = errors.New("client: payload rejected by the analysis service")
	// ErrClosed: the Client or the Gate was closed.
	ErrClosed = errors.New("client: closed")
)

// Option configures a Client. Options are applied in order over the
// defaults; the last one of a kind wins.
type Option interface{ apply(*config) }

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

type config struct {
	failMode FailMode
	timeout  time.Duration
	dialOpts []grpc.DialOption
}

func defaultConfig() config {
	return config{failMode: FailClosed, timeout: DefaultTimeout}
}

// WithFailMode sets what happens when the service cannot answer in time
// (default FailClosed).
func WithFailMode(m FailMode) Option {
	return optionFunc(func(c *config) {
		if m == FailClosed || m == FailOpen {
			c.failMode = m
		}
	})
}

// WithTimeout sets the per-call deadline (default DefaultTimeout; d <= 0
// keeps it). A Check must have its verdict within d. A Gate must have its
// stream open within d, each Send must be accepted by the transport within
// d, and after CloseSend the final watermarks must arrive within d; otherwise
// the service counts as unavailable and the fail mode decides. The caller's
// context still applies on top: when it ends first, the call returns its
// error, and the fail mode does not apply.
func WithTimeout(d time.Duration) Option {
	return optionFunc(func(c *config) {
		if d > 0 {
			c.timeout = d
		}
	})
}

// WithDialOptions adds gRPC dial options for Dial, after its defaults
// (plaintext transport credentials and the round_robin service config), so
// they can override them: pass grpc.WithTransportCredentials for TLS. New
// ignores them.
func WithDialOptions(opts ...grpc.DialOption) Option {
	return optionFunc(func(c *config) { c.dialOpts = append(c.dialOpts, opts...) })
}

// Client checks payloads with the analysis service. It is safe for
// concurrent use; each Check and each Gate is one gRPC stream.
type Client struct {
	cfg  config
	rpc  raiv1.AnalysisServiceClient
	conn *grpc.ClientConn // owned: closed by Close; nil for New
}

// Dial returns a Client for target, a gRPC target such as "localhost:50051"
// or "dns:///raiserver.default.svc:50051". Streams are spread over every
// address the target resolves to (round_robin load balancing), so a
// scaled-out service behind a headless DNS name is used evenly. The
// connection is made lazily, on the first call; Dial fails only for a target
// or option that is invalid. Close the Client when done.
func Dial(target string, opts ...Option) (*Client, error) {
	cfg := defaultConfig()
	for _, o := range opts {
		o.apply(&cfg)
	}
	dopts := append([]grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(roundRobin),
	}, cfg.dialOpts...)
	conn, err := grpc.NewClient(target, dopts...)
	if err != nil {
		return nil, fmt.Errorf("client: dial %q: %w", target, err)
	}
	return &Client{cfg: cfg, rpc: raiv1.NewAnalysisServiceClient(conn), conn: conn}, nil
}

// New returns a Client that uses conn, which the caller owns and closes
// (Close does not). Dial options are ignored.
func New(conn grpc.ClientConnInterface, opts ...Option) *Client {
	cfg := defaultConfig()
	for _, o := range opts {
		o.apply(&cfg)
	}
	return &Client{cfg: cfg, rpc: raiv1.NewAnalysisServiceClient(conn)}
}

// Close closes the connection Dial made. For a Client from New it does
// nothing.
func (c *Client) Close() error {
	if c.conn == nil {
		return nil
	}
	return c.conn.Close()
}

// FailMode returns the Client's fail mode.
func (c *Client) FailMode() FailMode { return c.cfg.failMode }

// Check sends payloads, in order, on one stream as requests of api and
// source, half-closes, and returns the verdict on all of them once the
// service has analyzed every byte.
//
// Typical uses: the body of a chat completions request as Prompt before
// calling the model; a whole (non-streamed) model response as Completion
// before returning it.
//
// When the service cannot answer in time, Check returns a Verdict with
// Unavailable set, Cause wrapping ErrUnavailable, and Blocked decided by the
// fail mode; err is nil. err is non-nil only when ctx ends first (ctx.Err()),
// or when the service rejects a payload (ErrRejected, with the service's
// description: the request index and JSON path, never the text).
func (c *Client) Check(ctx context.Context, api API, source Source, payloads ...[]byte) (*Verdict, error) {
	ours := time.Now().Add(c.cfg.timeout)
	cctx, cancel := context.WithDeadline(ctx, ours)
	defer cancel()
	t := newTally()
	err := c.run(cctx, t, api, source, payloads)
	if err == nil {
		return t.verdict(), nil
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if theirs, ok := ctx.Deadline(); ok && theirs.Before(ours) && status.Code(err) == codes.DeadlineExceeded {
		// The server or the transport saw the caller's deadline pass just
		// before ctx did.
		return nil, context.DeadlineExceeded
	}
	if errors.Is(err, ErrRejected) {
		return nil, err
	}
	v := t.verdict()
	v.unavailable(err, c.cfg.failMode)
	return v, nil
}
