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
	c, err := ensemble.Default()
	if err != nil {
		t.Fatal(err)
	}
	total, caught := map[string]int{}, map[string]int{}
	var dst []classifiers.Finding
	var ws []train.Window
	eachLine(t, "testdata/narration_probes.tsv", func(ln int, line string) {
		p := strings.SplitN(line, "\t", 3)
		want, harmful := narrationCategory[p[0]]
		if len(p) != 3 || (!harmful && p[0] != "benign") {
			t.Fatalf("testdata/narration_probes.tsv:%d: want label<TAB>kind<TAB>text", ln)
		}
		side := "benign"
		if harmful {
			side = "harmful"
		}
		text := []byte(p[2])
		hit := false
		ws = train.Windows(ws[:0], text)
		for _, w := range ws {
			dst = c.Classify(dst[:0], text[w.From:w.End])
			for _, f := range dst {
				if w.From+f.End > w.Start && f.Severity >= 2 && (!harmful || f.Category == want) {
					hit = true
				}
			}
		}
		for _, k := range []string{side, p[0] + "/" + p[1]} {
			total[k]++
			if hit {
				caught[k]++
			}
		}
	})
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
	c, err := ensemble.Default()
	if err != nil {
		t.Fatal(err)
	}
	total, blocked := map[string]int{}, map[string]int{}
	var dst []classifiers.Finding
	var ws []train.Window
	eachLine(t, "testdata/everyday_prose.tsv", func(ln int, line string) {
		kind, text, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("testdata/everyday_prose.tsv:%d: want kind<TAB>text", ln)
		}
		hit := false
		ws = train.Windows(ws[:0], []byte(text))
		for _, w := range ws {
			dst = c.Classify(dst[:0], []byte(text)[w.From:w.End])
			for _, f := range dst {
				hit = hit || (w.From+f.End > w.Start && f.Severity >= 2)
			}
		}
		for _, k := range []string{"benign", "benign/" + kind} {
			total[k]++
			if hit {
				blocked[k]++
			}
		}
	})
	checkProbeRates(t, total, blocked, "", maxBlocked, 0)
}
