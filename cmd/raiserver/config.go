package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/classifiers"
)

// fileConfig is the optional JSON configuration file. Every field is optional;
// absent fields keep the embedded defaults. Unknown fields are an error.
// See docs/configuration.md.
type fileConfig struct {
	Listen             string                    `json:"listen"`
	LogLevel           string                    `json:"logLevel"`
	DrainTimeout       string                    `json:"drainTimeout"`
	MaxSegmentBytes    *int                      `json:"maxSegmentBytes"`
	ContextBytes       *int                      `json:"contextBytes"`
	MaxPayloadBytes    *int                      `json:"maxPayloadBytes"`
	MaxStreamTextBytes *int                      `json:"maxStreamTextBytes"`
	MaxItems           *int                      `json:"maxItems"`
	Categories         map[string]categoryConfig `json:"categories"`
	Blocklists         []string                  `json:"blocklists"`
}

type categoryConfig struct {
	Enabled *bool  `json:"enabled"`
	BlockAt string `json:"blockAt"`
}

// settings is the validated result of defaults, file, environment and flags.
type settings struct {
	listen       string
	logLevel     string
	drainTimeout time.Duration
	blocklists   []string
	opts         []analyzer.Option
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
	return nil
}

var errUsage = errors.New("usage")
