package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/server"
)

// defaultSegmentDeadline is the per-segment analysis deadline of the server.
const defaultSegmentDeadline = 2 * time.Second

// fileConfig is the optional JSON configuration file. Every field is optional;
// absent fields keep the embedded defaults. Unknown fields are an error.
// See docs/configuration.md.
type fileConfig struct {
	Listen             string                    `json:"listen"`
	LogLevel           string                    `json:"logLevel"`
	DrainTimeout       string                    `json:"drainTimeout"`
	MaxSegmentBytes    *int                      `json:"maxSegmentBytes"`
	MinSegmentBytes    *int                      `json:"minSegmentBytes"`
	ContextBytes       *int                      `json:"contextBytes"`
	MaxPayloadBytes    *int                      `json:"maxPayloadBytes"`
	MaxStreamTextBytes *int                      `json:"maxStreamTextBytes"`
	MaxItems           *int                      `json:"maxItems"`
	Categories         map[string]categoryConfig `json:"categories"`
	Blocklists         []string                  `json:"blocklists"`

	MetricsListen                string `json:"metricsListen"`
	MaxStreams                   *int   `json:"maxStreams"`
	MaxStreamsPerConn            *int   `json:"maxStreamsPerConn"`
	IdleTimeout                  string `json:"idleTimeout"`
	KeepaliveMinTime             string `json:"keepaliveMinTime"`
	KeepalivePermitWithoutStream *bool  `json:"keepalivePermitWithoutStream"`
	KeepaliveTime                string `json:"keepaliveTime"`
	KeepaliveTimeout             string `json:"keepaliveTimeout"`
	MaxConnectionAge             string `json:"maxConnectionAge"`
	MaxConnectionAgeGrace        string `json:"maxConnectionAgeGrace"`
	SegmentDeadline              string `json:"segmentDeadline"`
	FailMode                     string `json:"failMode"`
}

type categoryConfig struct {
	Enabled *bool  `json:"enabled"`
	BlockAt string `json:"blockAt"`
}

// settings is the validated result of defaults, file, environment and flags.
type settings struct {
	listen        string
	logLevel      string
	drainTimeout  time.Duration
	metricsListen string
	limits        server.Limits
	deadline      time.Duration
	failMode      analyzer.FailMode
	blocklists    []string
	opts          []analyzer.Option
}

func defaultSettings() settings {
	return settings{
		listen:       defaultListen,
		logLevel:     "info",
		drainTimeout: 20 * time.Second,
		limits:       server.DefaultLimits(),
		deadline:     defaultSegmentDeadline,
		failMode:     analyzer.FailClosed,
	}
}

// A setting that the file, the environment and a flag may all give, as
// text: set parses and stores a value. Flags win over the environment, which
// wins over the file.
type setting struct {
	flag, env, file, usage string
	set                    func(string) error
}

// settingsTable lists the settings that follow the common pattern.
func (s *settings) table() []setting {
	dur := func(p *time.Duration) func(string) error {
		return func(v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 {
				return fmt.Errorf("%q is not a non-negative duration", v)
			}
			*p = d
			return nil
		}
	}
	nonNeg := func(v string, limit int) (int, error) {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > limit {
			return 0, fmt.Errorf("%q is not an integer in [0, %d]", v, limit)
		}
		return n, nil
	}
	l := &s.limits
	return []setting{
		{"metrics-listen", "RAI_METRICS_LISTEN", "metricsListen", "metrics HTTP listen address HOST:PORT for /metrics and /healthz (default off)", func(v string) error { s.metricsListen = v; return nil }},
		{"max-streams", "RAI_MAX_STREAMS", "maxStreams", "streams open at once on the server; over it RESOURCE_EXHAUSTED at stream start, 0 = no limit (default 4096)", func(v string) error {
			n, err := nonNeg(v, 1<<30)
			l.MaxStreams = n
			return err
		}},
		{"max-streams-per-conn", "RAI_MAX_STREAMS_PER_CONN", "maxStreamsPerConn", "HTTP/2 concurrent streams per connection, 0 = no limit (default 1024)", func(v string) error {
			n, err := nonNeg(v, 1<<30)
			l.MaxStreamsPerConn = uint32(n)
			return err
		}},
		{"idle-timeout", "RAI_IDLE_TIMEOUT", "idleTimeout", "end a stream with no request for this long, 0 = never (default 5m)", dur(&l.IdleTimeout)},
		{"keepalive-min-time", "RAI_KEEPALIVE_MIN_TIME", "keepaliveMinTime", "shortest client ping interval allowed (default 10s)", dur(&l.KeepaliveMinTime)},
		{"keepalive-permit-without-stream", "RAI_KEEPALIVE_PERMIT_WITHOUT_STREAM", "keepalivePermitWithoutStream", "allow client pings on connections without streams (default true)", func(v string) error {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return fmt.Errorf("%q is not true or false", v)
			}
			l.KeepalivePermitWithoutStream = b
			return nil
		}},
		{"keepalive-time", "RAI_KEEPALIVE_TIME", "keepaliveTime", "ping a connection silent for this long (default 1m)", dur(&l.KeepaliveTime)},
		{"keepalive-timeout", "RAI_KEEPALIVE_TIMEOUT", "keepaliveTimeout", "close a connection whose ping is unanswered this long (default 20s)", dur(&l.KeepaliveTimeout)},
		{"max-connection-age", "RAI_MAX_CONNECTION_AGE", "maxConnectionAge", "send GOAWAY to connections this old, 0 = never (default 30m)", dur(&l.MaxConnectionAge)},
		{"max-connection-age-grace", "RAI_MAX_CONNECTION_AGE_GRACE", "maxConnectionAgeGrace", "then let their streams run this long, 0 = forever (default 10m)", dur(&l.MaxConnectionAgeGrace)},
		{"segment-deadline", "RAI_SEGMENT_DEADLINE", "segmentDeadline", "wall-time budget of one segment's classification, 0 = none (default 2s)", dur(&s.deadline)},
		{"fail-mode", "RAI_FAIL_MODE", "failMode", "a segment over the deadline: closed (reported blocking) or open (default closed)", func(v string) error {
			m, ok := analyzer.ParseFailMode(v)
			if !ok {
				return fmt.Errorf("%q: want closed or open", v)
			}
			s.failMode = m
			return nil
		}},
	}
}

// fileValues returns the file's values of the common settings, as text,
// keyed by their file name; absent fields are left out.
func (fc *fileConfig) fileValues() map[string]string {
	m := map[string]string{}
	str := func(k, v string) {
		if v != "" {
			m[k] = v
		}
	}
	str("metricsListen", fc.MetricsListen)
	str("idleTimeout", fc.IdleTimeout)
	str("keepaliveMinTime", fc.KeepaliveMinTime)
	str("keepaliveTime", fc.KeepaliveTime)
	str("keepaliveTimeout", fc.KeepaliveTimeout)
	str("maxConnectionAge", fc.MaxConnectionAge)
	str("maxConnectionAgeGrace", fc.MaxConnectionAgeGrace)
	str("segmentDeadline", fc.SegmentDeadline)
	str("failMode", fc.FailMode)
	if fc.MaxStreams != nil {
		m["maxStreams"] = strconv.Itoa(*fc.MaxStreams)
	}
	if fc.MaxStreamsPerConn != nil {
		m["maxStreamsPerConn"] = strconv.Itoa(*fc.MaxStreamsPerConn)
	}
	if fc.KeepalivePermitWithoutStream != nil {
		m["keepalivePermitWithoutStream"] = strconv.FormatBool(*fc.KeepalivePermitWithoutStream)
	}
	return m
}

func loadFile(path string) (*fileConfig, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var fc fileConfig
	if err := dec.Decode(&fc); err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("config %s: trailing data after the JSON object", path)
	}
	return &fc, nil
}

// apply turns a file config into settings; fields it leaves empty keep s's values.
func (fc *fileConfig) apply(s *settings) error {
	if fc.Listen != "" {
		s.listen = fc.Listen
	}
	if fc.LogLevel != "" {
		s.logLevel = fc.LogLevel
	}
	if fc.DrainTimeout != "" {
		d, err := time.ParseDuration(fc.DrainTimeout)
		if err != nil || d < 0 {
			return fmt.Errorf("config: drainTimeout %q is not a non-negative duration", fc.DrainTimeout)
		}
		s.drainTimeout = d
	}
	intOpt := func(p *int, f func(int) analyzer.Option) {
		if p != nil {
			s.opts = append(s.opts, f(*p))
		}
	}
	intOpt(fc.MaxSegmentBytes, analyzer.WithMaxSegmentBytes)
	intOpt(fc.MinSegmentBytes, analyzer.WithMinSegmentBytes)
	intOpt(fc.ContextBytes, analyzer.WithContextBytes)
	intOpt(fc.MaxPayloadBytes, analyzer.WithMaxPayloadBytes)
	intOpt(fc.MaxStreamTextBytes, analyzer.WithMaxStreamTextBytes)
	intOpt(fc.MaxItems, analyzer.WithMaxItems)
	for name, cc := range fc.Categories {
		c, ok := classifiers.ParseCategory(name)
		if !ok {
			return fmt.Errorf("config: unknown category %q (want HATE, SEXUAL, VIOLENCE or SELF_HARM)", name)
		}
		pol := analyzer.CategoryConfig{Enabled: true, BlockAt: analyzer.RiskMedium}
		if cc.Enabled != nil {
			pol.Enabled = *cc.Enabled
		}
		if cc.BlockAt != "" {
			r, ok := analyzer.ParseRisk(cc.BlockAt)
			if !ok {
				return fmt.Errorf("config: category %s: blockAt %q (want LOW, MEDIUM, HIGH or NEVER)", name, cc.BlockAt)
			}
			pol.BlockAt = r
		}
		s.opts = append(s.opts, analyzer.WithCategory(c, pol))
	}
	s.blocklists = append(s.blocklists, fc.Blocklists...)
	vals := fc.fileValues()
	for _, st := range s.table() {
		if v, ok := vals[st.file]; ok {
			if err := st.set(v); err != nil {
				return fmt.Errorf("config: %s: %w", st.file, err)
			}
		}
	}
	return nil
}

var errUsage = errors.New("usage")
