package ensemble_test

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/ensemble"
)

// leakRow is one sentence of testdata/leaks.tsv: the categories it must
// block and those it must never block. Only its id and line are ever
// printed.
type leakRow struct {
	id         string
	line       int
	block, not [classifiers.NumCategories]bool
	text       string
}

// group is the row's section: its id without the trailing digits.
func (r *leakRow) group() string { return strings.TrimRight(r.id, "0123456789") }

func readLeaks(t *testing.T) []leakRow {
	t.Helper()
	f, err := os.Open("testdata/leaks.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cats := func(s string, line int) (m [classifiers.NumCategories]bool) {
		if s == "-" {
			return m
		}
		for _, name := range strings.Split(s, ",") {
			c, ok := classifiers.ParseCategory(name)
			if !ok {
				t.Fatalf("leaks.tsv:%d: unknown category %q", line, name)
			}
			m[c] = true
		}
		return m
	}
	var rows []leakRow
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		s := sc.Text()
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		fs := strings.Split(s, "\t")
		if len(fs) != 4 || fs[3] == "" {
			t.Fatalf("leaks.tsv:%d: want 4 tab-separated fields, got %d", line, len(fs))
		}
		r := leakRow{id: fs[0], line: line, block: cats(fs[1], line), not: cats(fs[2], line), text: fs[3]}
		if seen[r.id] {
			t.Fatalf("leaks.tsv:%d: duplicate id %s", line, r.id)
		}
		seen[r.id] = true
		for c := range r.block {
			if r.block[c] && r.not[c] {
				t.Fatalf("leaks.tsv:%d: %s both must and must not block", line, classifiers.Category(c))
			}
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// worst returns, per category, the highest severity and the rule that gave
// it.
func worst(fs []classifiers.Finding) (sev [classifiers.NumCategories]uint8, rule [classifiers.NumCategories]string) {
	for _, f := range fs {
		if f.Category < classifiers.NumCategories && f.Severity > sev[f.Category] {
			sev[f.Category], rule[f.Category] = f.Severity, f.Rule
		}
	}
	return sev, rule
}

// maxModelLeaks bounds the leaks of the model alone (a "model/…"
// finding with no rule behind it): the rules and the combination cannot
// veto the model alone, and which rows it leaks on changes with every
// retraining, so they are counted and logged by id, not listed. A rule
// leak always fails.
const maxModelLeaks = 8

// TestCrossCategoryLeaks runs every sentence of testdata/leaks.tsv through
// ensemble.Default as one window: a category the row must not block never
// reaches MEDIUM (a rule leak fails the test; the model alone may leak on
// at most maxModelLeaks pairs), and the
// recall of the categories rows must block is reported per section and
// held to a floor. The policy the rows follow is in
// docs/classifiers-model.md ("Cross-category leaks").
func TestCrossCategoryLeaks(t *testing.T) {
	rows := readLeaks(t)
	if len(rows) < 150 {
		t.Fatalf("leaks.tsv: %d rows, want at least 150", len(rows))
	}
	cl, err := ensemble.Default()
	if err != nil {
		t.Fatal(err)
	}
	const blockAt = 2
	type tally struct{ hit, want int }
	recall := map[string]*[classifiers.NumCategories]tally{}
	var total tally
	leaks, modelLeaks := 0, 0
	var dst []classifiers.Finding
	for i := range rows {
		r := &rows[i]
		dst = cl.Classify(dst[:0], []byte(r.text))
		sev, rule := worst(dst)
		for c := range classifiers.NumCategories {
			switch {
			case !r.not[c] || sev[c] < blockAt:
			case strings.HasPrefix(rule[c], "model/"):
				modelLeaks++
				t.Logf("%s (leaks.tsv:%d): the model alone blocks %s at severity %d; must not block", r.id, r.line, c, sev[c])
			default:
				leaks++
				t.Errorf("%s (leaks.tsv:%d): %s blocked at severity %d by %s; must not block", r.id, r.line, c, sev[c], rule[c])
			}
		}
		g := recall[r.group()]
		if g == nil {
			g = new([classifiers.NumCategories]tally)
			recall[r.group()] = g
		}
		for c := range classifiers.NumCategories {
			if !r.block[c] {
				continue
			}
			g[c].want++
			total.want++
			if sev[c] >= blockAt {
				g[c].hit++
				total.hit++
			} else if testing.Verbose() {
				t.Logf("%s (leaks.tsv:%d): %s missed (severity %d)", r.id, r.line, c, sev[c])
			}
		}
	}
	groups := make([]string, 0, len(recall))
	for g := range recall {
		groups = append(groups, g)
	}
	sort.Strings(groups)
	var b strings.Builder
	fmt.Fprintf(&b, "must-block recall per section (blocked/rows):\n")
	for _, g := range groups {
		if *recall[g] == ([classifiers.NumCategories]tally{}) {
			continue // benign rows: nothing to block
		}
		fmt.Fprintf(&b, "  %-6s", g)
		for c := range classifiers.NumCategories {
			if x := recall[g][c]; x.want > 0 {
				fmt.Fprintf(&b, "  %s %d/%d", c, x.hit, x.want)
			}
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "  all     %d/%d = %.3f; rule leaks %d, leaks of the model alone %d", total.hit, total.want,
		float64(total.hit)/float64(total.want), leaks, modelLeaks)
	t.Log(b.String())
	// The floor is a regression guard a little under the recall measured
	// when the audit was written (docs/classifiers-model.md).
	if modelLeaks > maxModelLeaks {
		t.Errorf("the model alone leaks on %d (row, category) pairs, want at most %d", modelLeaks, maxModelLeaks)
	}
	const minRecall = 0.90
	if got := float64(total.hit) / float64(total.want); got < minRecall {
		t.Errorf("must-block recall %.3f, want at least %.2f", got, minRecall)
	}
}
