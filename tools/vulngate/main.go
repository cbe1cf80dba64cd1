// Command vulngate reads govulncheck's JSON output (govulncheck -format json)
// on standard input, prints one line per vulnerability that the code calls,
// and decides CI's verdict:
//
//   - a called vulnerability in a required module fails (exit 1): bump the
//     module to the fixed version;
//   - a called vulnerability in the standard library fails only with
//     -stdlib=fail; by default it is printed as a warning, because the fix is
//     a newer Go toolchain on the build machines, not a change in this
//     repository;
//   - vulnerabilities in imported or required code that is never called are
//     counted, not failed on (govulncheck's own rule).
//
// Imports: the standard library only.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

func main() {
	stdlib := flag.String("stdlib", "warn", "what a called standard-library vulnerability does: warn or fail")
	flag.Parse()
	if *stdlib != "warn" && *stdlib != "fail" {
		fmt.Fprintln(os.Stderr, "vulngate: -stdlib must be warn or fail")
		os.Exit(2)
	}
	r, err := gate(os.Stdin, os.Stdout, *stdlib == "fail")
	if err != nil {
		fmt.Fprintln(os.Stderr, "vulngate:", err)
		os.Exit(2)
	}
	if r.failed {
		os.Exit(1)
	}
}

type frame struct {
	Module   string `json:"module"`
	Version  string `json:"version"`
	Package  string `json:"package"`
	Function string `json:"function"`
	Receiver string `json:"receiver"`
	Position *struct {
		Filename string `json:"filename"`
		Line     int    `json:"line"`
	} `json:"position"`
}

type message struct {
	OSV *struct {
		ID      string `json:"id"`
		Summary string `json:"summary"`
	} `json:"osv"`
	Finding *struct {
		OSV          string  `json:"osv"`
		FixedVersion string  `json:"fixed_version"`
		Trace        []frame `json:"trace"`
	} `json:"finding"`
}

// called is one vulnerability the code reaches: the vulnerable symbol, where
// the code's call path starts, and the version that fixes it.
type called struct {
	id, module, version, fixed, symbol, from string
}

type result struct {
	called    []called
	uncalled  int // reached only at package or module level
	failed    bool
	summaries map[string]string
}

func gate(in io.Reader, out io.Writer, failStdlib bool) (result, error) {
	r := result{summaries: map[string]string{}}
	seen := map[string]bool{}
	levels := map[string]bool{} // osv id -> called
	dec := json.NewDecoder(in)
	for {
		var m message
		if err := dec.Decode(&m); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return r, fmt.Errorf("reading govulncheck output: %w", err)
		}
		if m.OSV != nil {
			r.summaries[m.OSV.ID] = m.OSV.Summary
		}
		f := m.Finding
		if f == nil || len(f.Trace) == 0 {
			continue
		}
		if _, ok := levels[f.OSV]; !ok {
			levels[f.OSV] = false
		}
		v := f.Trace[0]
		if v.Function == "" {
			continue // package or module level: imported or required, not called
		}
		levels[f.OSV] = true
		if seen[f.OSV] {
			continue // one line per vulnerability; govulncheck -show traces has them all
		}
		seen[f.OSV] = true
		c := called{id: f.OSV, module: v.Module, version: v.Version, fixed: f.FixedVersion, symbol: v.Package + "." + v.Function}
		if v.Receiver != "" {
			c.symbol = v.Package + "." + strings.TrimPrefix(v.Receiver, "*") + "." + v.Function
		}
		if last := f.Trace[len(f.Trace)-1]; last.Position != nil {
			c.from = fmt.Sprintf("%s:%d", last.Position.Filename, last.Position.Line)
		}
		r.called = append(r.called, c)
	}
	for _, isCalled := range levels {
		if !isCalled {
			r.uncalled++
		}
	}
	sort.Slice(r.called, func(i, j int) bool { return r.called[i].id < r.called[j].id })
	var stdlibIDs []string
	for _, c := range r.called {
		verdict := "FAIL"
		if c.module == "stdlib" {
			stdlibIDs = append(stdlibIDs, c.id)
			if !failStdlib {
				verdict = "WARN"
			}
		}
		if verdict == "FAIL" {
			r.failed = true
		}
		fixed := c.fixed
		if fixed == "" {
			fixed = "no fix yet"
		}
		fmt.Fprintf(out, "%s %s %s@%s (fixed in %s): %s, called from %s: %s\n",
			verdict, c.id, c.module, c.version, fixed, c.symbol, c.from, r.summaries[c.id])
	}
	if len(stdlibIDs) > 0 && !failStdlib {
		fmt.Fprintf(out, "WARN %d standard-library vulnerabilities are reachable (%s): build with a Go toolchain at or above the fixed versions (go.mod's go line, deploy/Dockerfile's GO_VERSION, the CI machine's Go)\n",
			len(stdlibIDs), strings.Join(stdlibIDs, ", "))
	}
	fmt.Fprintf(out, "vulngate: %d called, %d in imported or required code that is not called\n", len(r.called), r.uncalled)
	return r, nil
}
