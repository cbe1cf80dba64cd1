package lexicon

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/internal/match"
)

// classifyWhole is the definition the classifier's shortcuts must keep:
// every trigger and context word of the whole text, every rule, no early
// exit.
func (c *Classifier) classifyWhole(text []byte) []classifiers.Finding {
	s := c.everyWord(text)
	c.decide(s)
	c.runRules(s, actModify)
	return c.report(s, nil)
}

// checkWhole fails t when the classifier and classifyWhole disagree on
// text (reporting rule ids and sizes, never the text).
func checkWhole(t *testing.T, c *Classifier, round int, text []byte) []classifiers.Finding {
	t.Helper()
	got := c.Classify(nil, text)
	if want := c.classifyWhole(text); !slices.Equal(got, want) {
		t.Fatalf("round %d (%d bytes): %d findings %v, reading every word gives %d %v",
			round, len(text), len(got), rulesOf(got), len(want), rulesOf(want))
	}
	return got
}

// vocabulary returns the words and phrases of the embedded lexicon: class
// members, terms and the literal words of rules.
func vocabulary(t *testing.T) []string {
	t.Helper()
	classData, _ := dataFS.ReadFile("data/classes.txt")
	classes, err := parseClasses("classes.txt", bytes.NewReader(classData))
	if err != nil {
		t.Fatal(err)
	}
	var words []string
	for _, cd := range classes {
		words = append(words, cd.words...)
	}
	termsData, _ := dataFS.ReadFile("data/terms.tsv")
	terms, err := parseTerms("terms.tsv", bytes.NewReader(termsData), "lex")
	if err != nil {
		t.Fatal(err)
	}
	for _, tm := range terms {
		words = append(words, tm.text)
	}
	ruleData, _ := dataFS.ReadFile("data/rules.txt")
	for _, line := range strings.Split(string(ruleData), "\n") {
		f := strings.Split(line, "\t")
		if len(f) < 5 || strings.HasPrefix(line, "#") {
			continue
		}
		for _, slot := range strings.Fields(f[4]) {
			for _, w := range strings.Split(strings.TrimLeft(slot, "!^"), "|") {
				if w != "" && strings.ToLower(w) == w && !strings.HasPrefix(w, "~") {
					words = append(words, w)
				}
			}
		}
	}
	return words
}

// breaks are the ways the generated texts end or split sentences, and the
// dots that do not end one.
var breaks = []string{". ", "! ", "? ", "; ", "\n", "... ", "!! ", ".", " e.g. ", " 3.5 ", " U.S. ", "?!\n\n", ", ", " - "}

var fillers = strings.Fields("the a it and or but is was to of in on my your this that today process photo game story news please how")

// TestWindowsKeepFindings checks the classifier, which reads context words
// only in the sentences around a trigger and their neighbours only when
// something is found, against reading every word of the text: the same
// findings, in the same order, on texts of many sentences made of the
// lexicon's own words with every kind of sentence break between them.
func TestWindowsKeepFindings(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	words := vocabulary(t)
	r := rand.New(rand.NewPCG(21, 22))
	found := 0
	for round := range 4000 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			for k := range 2 + r.IntN(10) {
				if k > 0 {
					b.WriteString(" ")
				}
				var w string
				switch x := r.IntN(10); {
				case x < 3:
					w = words[r.IntN(len(words))]
				default:
					w = fillers[r.IntN(len(fillers))]
				}
				switch r.IntN(20) {
				case 0:
					w = strings.ReplaceAll(w, "i", "1")
				case 1:
					w = strings.ToUpper(w)
				case 2:
					if n := len(w); n > 1 {
						w = w[:n-1] + strings.Repeat(w[n-1:], 3)
					}
				}
				b.WriteString(w)
			}
			b.WriteString(breaks[r.IntN(len(breaks))])
		}
		if got := checkWhole(t, c, round, []byte(b.String())); len(got) > 0 {
			found++
		}

	}
	// The generated texts must exercise both outcomes.
	if found < 400 || found > 3600 {
		t.Fatalf("%d of 4000 generated texts have findings: the generator no longer tests the windows", found)
	}
}

// TestWindowsKeepFindingsOnData is TestWindowsKeepFindings on texts of
// several rows of the labelled data sets and the held-out file, joined
// with sentence breaks (skipped without ../shared/data, but the held-out
// rows are in testdata).
func TestWindowsKeepFindingsOnData(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	rows := heldoutRows(t)
	for _, p := range []string{"xstest/xstest_prompts.csv", "simplesafetytests/sst_test_cases.csv", "davidson/labeled_data.csv"} {
		rows = append(rows, csvTexts(filepath.Join("..", "..", "..", "shared", "data", p))...)
	}
	if len(rows) == 0 {
		t.Skip("no rows")
	}
	r := rand.New(rand.NewPCG(23, 24))
	n := min(len(rows), 6000)
	for round := range n {
		var b strings.Builder
		for k := range 1 + r.IntN(5) {
			if k > 0 {
				b.WriteString(breaks[r.IntN(len(breaks))])
			}
			b.WriteString(rows[r.IntN(len(rows))])
		}
		checkWhole(t, c, round, []byte(b.String()))
	}
}

// TestAbbreviationDoesNotHideContext: the sentences around a threat are
// read for context modifiers whole, past a dot inside a word, which does
// not end a sentence (the windows once ended at any dot).
func TestAbbreviationDoesNotHideContext(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	base := c.Classify(nil, []byte("I will kill you. It is a line in the video game."))
	for _, text := range []string{
		"I will kill you. It is a line in v2.5 of the video game.",
		"I will kill you. It is a line in the 3.5 edition of the video game.",
		"It is a line in v2.5 of the video game. I will kill you.",
	} {
		got := c.Classify(nil, []byte(text))
		if len(got) == 0 || len(base) == 0 || maxSeverity(got) != maxSeverity(base) {
			t.Errorf("text of %d bytes: severity %d, want %d as without the abbreviation", len(text), maxSeverity(got), maxSeverity(base))
		}
	}
}

func maxSeverity(fs []classifiers.Finding) uint8 {
	var m uint8
	for _, f := range fs {
		m = max(m, f.Severity)
	}
	return m
}

func rulesOf(fs []classifiers.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Rule)
	}
	return out
}

func heldoutRows(t *testing.T) []string {
	f, err := os.Open("testdata/heldout.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if i := strings.LastIndexByte(line, '\t'); i >= 0 {
			out = append(out, line[i+1:])
		}
	}
	return out
}

// csvTexts returns the fields of a CSV file that hold a space (its text
// columns), none when the file is absent.
func csvTexts(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	rd := csv.NewReader(f)
	rd.FieldsPerRecord = -1
	recs, err := rd.ReadAll()
	if err != nil {
		return nil
	}
	var out []string
	for _, rec := range recs[1:] {
		for _, v := range rec {
			if strings.Contains(v, " ") {
				out = append(out, v)
			}
		}
	}
	return out
}

// TestPatternLengths checks the lengths the classifier keeps per pattern
// (to find a match's start without asking the matcher) against the
// matchers', with a blocklist so that its patterns are counted too.
func TestPatternLengths(t *testing.T) {
	c, err := New(WithBlocklist(strings.NewReader("frobnicate the widget violence 3\nzorblax sexual 2\n")))
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []struct {
		m    *match.Matcher
		pats []patRec
	}{{c.m, c.tpats}, {c.cm, c.cpats}} {
		for p, pr := range x.pats {
			if got, want := int(pr.n), x.m.Len(int32(p)); got != want {
				t.Fatalf("pattern %d: length %d, the matcher's %d", p, got, want)
			}
		}
	}
}
