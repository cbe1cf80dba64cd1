package ensemble_test

import (
	"strings"
	"testing"

	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/ensemble"
	"github.com/openrai/raiserver/classifiers/linear/train"
)

// narrationCategory is the category each harmful label of
// testdata/narration_probes.tsv should be blocked in.
var narrationCategory = map[string]classifiers.Category{
	"violence":  classifiers.Violence,
	"sexual":    classifiers.Sexual,
	"self_harm": classifiers.SelfHarm,
	"hate":      classifiers.Hate,
}

// TestDefaultNarrationProbes runs the default ensemble over
// testdata/narration_probes.tsv, a held-out set of harmful and benign
// prose (graphic violence, threats, wishes of harm, glorification,
// explicit sexual narration, solicitation, self-harm intent, hateful
// rants; news, history, medicine, everyday idioms, fiction, romance,
// support and groups), hand-written for this project by an author who saw
// neither the rules nor the training rows (docs/classifiers-model.md).
// Each row is scored as the server scores an item: window by window
// (train.Windows: a segment with the context before it), the worst window
// counting. A harmful row counts as caught when it is blocked (MEDIUM or
// above) in its own category; a benign one as blocked when it is blocked
// in any. The bounds are the shipped stack's result with a little slack,
// so a change that makes either side worse fails here; the counts per
// kind are logged (counts only, never text).
func TestDefaultNarrationProbes(t *testing.T) {
	const (
		maxBenignBlocked = 0.03 // shipped: 1/120
		minHarmCaught    = 0.60 // shipped: 69/110
	)
	var rows []itemRow
	eachLine(t, "testdata/narration_probes.tsv", func(ln int, line string) {
		p := strings.SplitN(line, "\t", 3)
		want, harmful := narrationCategory[p[0]]
		if len(p) != 3 || (!harmful && p[0] != "benign") {
			t.Fatalf("testdata/narration_probes.tsv:%d: want label<TAB>kind<TAB>text", ln)
		}
		r := itemRow{side: "benign", kind: p[0] + "/" + p[1], text: p[2]}
		if harmful {
			r.side, r.cat = "harmful", &want
		}
		rows = append(rows, r)
	})
	total, caught := countBlockedItems(t, rows)
	checkProbeRates(t, total, caught, "harmful", maxBenignBlocked, minHarmCaught)
}

// TestDefaultEverydayProse runs the default ensemble over
// testdata/everyday_prose.tsv, a held-out set of harmless everyday prose
// and chat (romance, dressing, family, bodies, food, feelings, idioms,
// requests for harmless stories) that uses words harmful text also uses,
// hand-written for this project by an author who saw neither the rules
// nor the training rows (docs/classifiers-model.md). Each row is scored
// as the server scores an item; none should be blocked. The bound is the
// shipped stack's result with a little slack; the counts per kind are
// logged (counts only, never text).
func TestDefaultEverydayProse(t *testing.T) {
	const maxBlocked = 0.02 // shipped: 1/200
	var rows []itemRow
	eachLine(t, "testdata/everyday_prose.tsv", func(ln int, line string) {
		kind, text, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("testdata/everyday_prose.tsv:%d: want kind<TAB>text", ln)
		}
		rows = append(rows, itemRow{side: "benign", kind: "benign/" + kind, text: text})
	})
	total, blocked := countBlockedItems(t, rows)
	checkProbeRates(t, total, blocked, "", maxBlocked, 0)
}

// itemRow is one item of a prose probe: its side ("benign" or "harmful"),
// its "label/kind" key, its text, and for a harmful row the category it
// should be blocked in (nil: any).
type itemRow struct {
	side, kind, text string
	cat              *classifiers.Category
}

// countBlockedItems scores each row as the server scores an item (window
// by window, train.Windows: a segment with the context before it; a
// finding that ends in the context belongs to the window before) and
// counts, per side and per kind, the rows and those blocked (MEDIUM or
// above) in the row's category, or in any for a row without one.
func countBlockedItems(t *testing.T, rows []itemRow) (total, blocked map[string]int) {
	t.Helper()
	c, err := ensemble.Default()
	if err != nil {
		t.Fatal(err)
	}
	total, blocked = map[string]int{}, map[string]int{}
	var dst []classifiers.Finding
	var ws []train.Window
	for _, r := range rows {
		text := []byte(r.text)
		hit := false
		ws = train.Windows(ws[:0], text)
		for _, w := range ws {
			dst = c.Classify(dst[:0], text[w.From:w.End])
			for _, f := range dst {
				if w.From+f.End > w.Start && f.Severity >= 2 && (r.cat == nil || f.Category == *r.cat) {
					hit = true
				}
			}
		}
		for _, k := range []string{r.side, r.kind} {
			total[k]++
			if hit {
				blocked[k]++
			}
		}
	}
	return total, blocked
}
