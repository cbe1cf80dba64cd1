package analyzer

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/extract"
)

// Risk is a risk level (SPEC §4). RiskNone is severity 0.
type Risk uint8

// Risk levels, in increasing order. RiskNever is only a blocking threshold: a
// category whose threshold is RiskNever reports but never blocks.
const (
	RiskNone Risk = iota
	RiskLow
	RiskMedium
	RiskHigh
	RiskNever
)

var riskNames = [...]string{"NONE", "LOW", "MEDIUM", "HIGH", "NEVER"}

func (r Risk) String() string {
	if int(r) < len(riskNames) {
		return riskNames[r]
	}
	return fmt.Sprintf("Risk(%d)", uint8(r))
}

// ParseRisk parses a risk name (any letter case): LOW, MEDIUM, HIGH or NEVER.
func ParseRisk(s string) (Risk, bool) {
	for i, n := range riskNames {
		if i != int(RiskNone) && strings.EqualFold(s, n) {
			return Risk(i), true
		}
	}
	return 0, false
}

// RiskOf maps a severity to its risk level: 0 none, 1 LOW, 2 MEDIUM, 3 and up HIGH.
func RiskOf(severity uint8) Risk {
	switch {
	case severity == 0:
		return RiskNone
	case severity == 1:
		return RiskLow
	case severity == 2:
		return RiskMedium
	default:
		return RiskHigh
	}
}

// Defaults. See docs/configuration.md.
const (
	DefaultMaxSegmentBytes    = 1024
	DefaultMinSegmentBytes    = 0
	DefaultContextBytes       = 64
	DefaultMaxPayloadBytes    = 4 << 20
	DefaultMaxStreamTextBytes = 64 << 20
	DefaultMaxItems           = 65536
)

// MaxContextBytes is the largest context WithContextBytes accepts.
const MaxContextBytes = 4096

// CategoryConfig is the policy for one harm category.
type CategoryConfig struct {
	// Enabled categories are classified and reported.
	Enabled bool
	// BlockAt is the blocking threshold: a result blocks when its risk level
	// is at least BlockAt. RiskNever disables blocking for the category. It
	// is ignored, and may be zero, when the category is disabled.
	BlockAt Risk
}

// config holds an Analyzer's settings. Options write it; validate checks it once.
type config struct {
	categories         [classifiers.NumCategories]CategoryConfig
	maxSegmentBytes    int
	minSegmentBytes    int
	contextBytes       int
	maxPayloadBytes    int
	maxStreamTextBytes int
	maxItems           int
	segmentDeadline    time.Duration
	failMode           FailMode
	observer           Observer
	logger             *slog.Logger
}

func defaultConfig() config {
	c := config{
		maxSegmentBytes:    DefaultMaxSegmentBytes,
		minSegmentBytes:    DefaultMinSegmentBytes,
		contextBytes:       DefaultContextBytes,
		maxPayloadBytes:    DefaultMaxPayloadBytes,
		maxStreamTextBytes: DefaultMaxStreamTextBytes,
		maxItems:           DefaultMaxItems,
		logger:             slog.New(slog.DiscardHandler),
	}
	for i := range c.categories {
		c.categories[i] = CategoryConfig{Enabled: true, BlockAt: RiskMedium}
	}
	return c
}

// ErrConfig is wrapped by every configuration error.
var ErrConfig = errors.New("analyzer: invalid configuration")

func (c *config) validate() error {
	if c.maxSegmentBytes < 16 || c.maxSegmentBytes > 1<<20 {
		return fmt.Errorf("%w: max segment bytes %d not in [16, 1048576]", ErrConfig, c.maxSegmentBytes)
	}
	if c.minSegmentBytes < 0 || c.minSegmentBytes > c.maxSegmentBytes {
		return fmt.Errorf("%w: min segment bytes %d not in [0, max segment bytes %d]", ErrConfig, c.minSegmentBytes, c.maxSegmentBytes)
	}
	if c.contextBytes < 0 || c.contextBytes > MaxContextBytes {
		return fmt.Errorf("%w: context bytes %d not in [0, %d]", ErrConfig, c.contextBytes, MaxContextBytes)
	}
	if c.maxPayloadBytes < 1024 {
		return fmt.Errorf("%w: max payload bytes %d below 1024", ErrConfig, c.maxPayloadBytes)
	}
	if c.maxStreamTextBytes < c.maxSegmentBytes {
		return fmt.Errorf("%w: max stream text bytes %d below the segment cap", ErrConfig, c.maxStreamTextBytes)
	}
	if c.segmentDeadline < 0 {
		return fmt.Errorf("%w: segment deadline %v is negative", ErrConfig, c.segmentDeadline)
	}
	if c.failMode > FailOpen {
		return fmt.Errorf("%w: fail mode %d", ErrConfig, c.failMode)
	}
	if c.maxItems < 1 {
		return fmt.Errorf("%w: max items %d below 1", ErrConfig, c.maxItems)
	}
	any := false
	for i, cc := range c.categories {
		if cc.Enabled && (cc.BlockAt < RiskLow || cc.BlockAt > RiskNever) {
			return fmt.Errorf("%w: %s blocking threshold %s", ErrConfig, classifiers.Category(i), cc.BlockAt)
		}
		any = any || cc.Enabled
	}
	if !any {
		return fmt.Errorf("%w: no category enabled", ErrConfig)
	}
	return nil
}

// Option configures an Analyzer.
type Option func(*config)

// WithCategory sets the policy of one category.
func WithCategory(c classifiers.Category, cc CategoryConfig) Option {
	return func(cfg *config) {
		if c < classifiers.NumCategories {
			cfg.categories[c] = cc
		}
	}
}

// WithMaxSegmentBytes sets the segment size cap (default 1024).
func WithMaxSegmentBytes(n int) Option { return func(c *config) { c.maxSegmentBytes = n } }

// WithMinSegmentBytes sets the least length of a segment that a line break
// or a sentence end ends (default 0: every one ends a segment). Shorter
// pieces join the next, so each classification reads more new text and
// less context again: short lines (code, tables, lists) cost several times
// less, while the watermark moves in steps of at least n bytes and a
// blocking segment withholds up to n bytes of harmless text before the
// harm (segmenter.NewMinMax; docs/configuration.md gives the measured
// trade-off). It must not exceed the cap.
func WithMinSegmentBytes(n int) Option { return func(c *config) { c.minSegmentBytes = n } }

// WithContextBytes sets how many bytes before a segment are classified with
// it, so that a phrase split across a segment border is still found (default 64).
func WithContextBytes(n int) Option { return func(c *config) { c.contextBytes = n } }

// WithMaxPayloadBytes caps the size of one request payload (default 4 MiB).
func WithMaxPayloadBytes(n int) Option { return func(c *config) { c.maxPayloadBytes = n } }

// WithMaxStreamTextBytes caps the text one stream may receive over all its
// items (default 64 MiB): the text analyzed, not the text held, which is a
// few KiB per item (extract.Text).
func WithMaxStreamTextBytes(n int) Option { return func(c *config) { c.maxStreamTextBytes = n } }

// WithMaxItems caps the number of distinct items in one stream (default 65536).
func WithMaxItems(n int) Option { return func(c *config) { c.maxItems = n } }

// WithLogger sets the logger for debug explanations of findings (rule ids,
// offsets, lengths; never text). The default discards.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.logger = l
		}
	}
}

// FailMode says how a segment whose classification overran the segment
// deadline is reported.
type FailMode uint8

// Fail modes.
const (
	// FailClosed reports the segment blocking in every enabled category
	// (isBlocking true; severity and isDetected stay what the classifier
	// found), so the item's watermark stops before it. The default.
	FailClosed FailMode = iota
	// FailOpen reports the classifier's own result for the segment.
	FailOpen
)

func (m FailMode) String() string {
	switch m {
	case FailClosed:
		return "closed"
	case FailOpen:
		return "open"
	}
	return fmt.Sprintf("FailMode(%d)", uint8(m))
}

// ParseFailMode parses "closed" or "open" (any letter case, with or without
// a "fail-" prefix).
func ParseFailMode(s string) (FailMode, bool) {
	s = strings.TrimPrefix(strings.ToLower(s), "fail-")
	switch s {
	case "closed":
		return FailClosed, true
	case "open":
		return FailOpen, true
	}
	return 0, false
}

// WithSegmentDeadline sets the wall-time budget of one segment's
// classification and what happens when it is overrun (default: no deadline).
//
// The classifier is synchronous CPU work with no cancellation point, bounded
// by the segment cap plus the context bytes; it is not interrupted. The
// deadline is checked when it returns, and a late segment is reported as
// mode says (see FailMode), logged at warn level and counted by the
// Observer. Wall time includes time the goroutine waited for a CPU, so an
// overloaded server overruns the deadline sooner.
func WithSegmentDeadline(d time.Duration, mode FailMode) Option {
	return func(c *config) { c.segmentDeadline, c.failMode = d, mode }
}

// SegmentStats describes the classification of one segment, for metrics: no
// text and no ids.
type SegmentStats struct {
	Source extract.Source
	// Bytes is the segment's length; context bytes classified with it are not counted.
	Bytes int
	// Took is the wall time of cutting and classifying the segment, from the
	// end of the previous segment's analysis (or from the start of the
	// request's analysis of the item, for its first segment).
	Took time.Duration
	// Late is set when Took overran the segment deadline; FailMode is the
	// deadline's fail mode.
	Late     bool
	FailMode FailMode
}

// Observer is told about every classified segment. SegmentAnalyzed is called
// from every stream's Session at once: it must be safe for concurrent use and
// quick (a counter and a histogram, not I/O).
type Observer interface {
	SegmentAnalyzed(SegmentStats)
}

// WithObserver sets the Observer (default none).
func WithObserver(o Observer) Option { return func(c *config) { c.observer = o } }
