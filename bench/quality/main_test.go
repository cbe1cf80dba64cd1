package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/classifiers/linear/train"
)

func TestMissingDataSkips(t *testing.T) {
	err := run([]string{"-data", filepath.Join(t.TempDir(), "absent")}, new(bytes.Buffer))
	if !errors.Is(err, train.ErrNoData) {
		t.Fatalf("run = %v, want ErrNoData", err)
	}
}

// TestRunOnPlaceholderData runs the whole report on the made-up rows that
// cmd/rai-train's tests use (same layout as ../shared/data).
func TestRunOnPlaceholderData(t *testing.T) {
	var out bytes.Buffer
	err := run([]string{"-data", "../../cmd/rai-train/testdata/data", "-classifier", "linear,goaway,ensemble", "-leaks"}, &out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"== linear", "== goaway", "== ensemble", "XSTest safe prompts blocked", "obfuscation robustness", "cross-category leaks", "== summary"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// TestContextFlag checks that -context scores with the analyzer's context
// setting and refuses what the analyzer refuses.
func TestContextFlag(t *testing.T) {
	defer func() { contextBytes = analyzer.DefaultContextBytes }()
	var out bytes.Buffer
	if err := run([]string{"-data", "../../cmd/rai-train/testdata/data", "-no-obfuscation", "-context", "0"}, &out); err != nil {
		t.Fatal(err)
	}
	if contextBytes != 0 || !strings.Contains(out.String(), "== ensemble") {
		t.Fatalf("-context 0: contextBytes %d, report %d bytes", contextBytes, out.Len())
	}
	for _, bad := range []string{"-1", "4097"} {
		if err := run([]string{"-data", "../../cmd/rai-train/testdata/data", "-context", bad}, new(bytes.Buffer)); err == nil {
			t.Errorf("-context %s: no error", bad)
		}
	}
}

func TestLoadMaskList(t *testing.T) {
	if l, err := loadMaskList(filepath.Join(t.TempDir(), "absent.csv")); l != nil || err != nil {
		t.Errorf("absent file: %v, %v; want an empty list and no error", l, err)
	}
	p := filepath.Join(t.TempDir(), "list.csv")
	csv := "text,canonical_form_1,canonical_form_2,canonical_form_3,category_1\nZorp,zorp,,,x\nzo rp,zorp2,,,x\nab,ab,,,x\n"
	if err := os.WriteFile(p, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := loadMaskList(p)
	if err != nil || len(l) != 1 || !l["zorp"] {
		t.Errorf("loadMaskList: %v, %v; want just zorp", l, err)
	}
}

func TestObfuscationShapes(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"separator-dot", "ab cd", "a.b c.d"},
		{"separator-space", "ab, cd", "a b, c d"},
		{"zero-width", "ab", "a\u200bb"},
		{"leetspeak", "test", "7357"},
		{"stretched", "cat", "caaat"},
		{"fullwidth", "a!", "ａ！"},
	}
	defer func(l map[string]bool) { maskList = l }(maskList)
	maskList = map[string]bool{"kill": true, "psst": true}
	tests = append(tests, []struct{ name, in, want string }{
		{"masked-profanity", "Kill them, skill", "K*ll them, skill"},
		{"masked-profanity", "psst", "p*st"},
		{"broken-profanity", "Kill them, skill", "Ki.ll them, skill"},
		{"broken-profanity", "psst", "ps.st"},
		{"swapped-profanity", "Kill them, skill", "Klil them, skill"},
		{"swapped-profanity", "psst", "psst"},
	}...)
	byName := map[string]func(string) string{}
	for _, o := range obfuscations {
		byName[o.name] = o.fn
	}
	for _, tc := range tests {
		if got := byName[tc.name](tc.in); got != tc.want {
			t.Errorf("%s(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}

// TestRows scores a labelled file of the user's kind: the report gives
// every blockAt per category, counts the rows, and names wrong rows by
// file and line, never by their text.
func TestRows(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"-rows", "testdata/rows.tsv", "-classifier", "ensemble,goaway"}, &out); err != nil {
		t.Fatal(err)
	}
	report := out.String()
	for _, want := range []string{"== ensemble on rows.tsv", "== goaway on rows.tsv", "11 rows",
		"MEDIUM (default)", "HIGH", "benign in all four blocked in any category 0 of 5 (", "go-away"} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	// Five harmful rows, one per category (violence twice), blunt enough
	// that the default stack blocks each in its category; go-away, a
	// word list, misses most.
	stack, goaway, _ := strings.Cut(report, "== goaway")
	if !strings.Contains(stack, "labelled category 5 of 5") || !strings.Contains(stack, "rows wrong at the default blockAt: none") {
		t.Errorf("the stack's report:\n%s", stack)
	}
	if !strings.Contains(goaway, "not blocked though labelled yes: rows.tsv:") {
		t.Errorf("go-away's report lists no missed row:\n%s", goaway)
	}
	rows, err := train.ReadLabelled("testdata/rows.tsv", "rows")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range rows {
		if strings.Contains(report, e.Text) {
			t.Fatalf("the report prints the text of %s", e.ID)
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.tsv")
	if err := os.WriteFile(bad, []byte("none\tfine\nunknown\tnot a label\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"-rows", bad}, new(bytes.Buffer)); err == nil || !strings.Contains(err.Error(), "bad.tsv:2") {
		t.Errorf("a bad label: error %v, want one naming bad.tsv:2", err)
	}
}

// TestRowsBlocklist scores rows with a custom blocklist, as a server with
// the blocklists setting: a made-up term the embedded rules do not know
// blocks only with the list.
func TestRowsBlocklist(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "list.txt")
	rows := filepath.Join(dir, "rows.tsv")
	if err := os.WriteFile(list, []byte("# made up\nzorblaxian hate 3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rows, []byte("hate\tthey are zorblaxian, all of them\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "labelled category 0 of 1"},
		{[]string{"-blocklist", list}, "labelled category 1 of 1"},
	} {
		var out bytes.Buffer
		if err := run(append([]string{"-rows", rows}, tt.args...), &out); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), tt.want) {
			t.Errorf("%v: report lacks %q:\n%s", tt.args, tt.want, out.String())
		}
	}
	if err := run([]string{"-rows", rows, "-blocklist", filepath.Join(dir, "absent.txt")}, new(bytes.Buffer)); err == nil {
		t.Error("an absent blocklist: no error")
	}
}
