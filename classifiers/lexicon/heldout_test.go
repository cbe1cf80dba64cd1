package lexicon_test

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/openrai/raiserver/classifiers"
)

// TestHeldOut checks recall and false-positive rate on testdata/heldout.tsv,
// a small set of paraphrases written for this package (method seeking,
// planning attacks, self-harm intent and methods, eating disorders; and hard
// negatives: homonyms, fiction, history, news, help seeking, safe dosage
// questions). Failures report line numbers and rule ids, never the text.
// Set LEXDEV_MISS=1 to list every miss by line.
func TestHeldOut(t *testing.T) {
	const (
		minRecall = 0.9
		maxFPR    = 0.1
	)
	f, err := os.Open("testdata/heldout.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := mustDefault(t)
	var buf []classifiers.Finding
	var nUnsafe, hit, nSafe, fp int
	perCat := map[classifiers.Category][2]int{}
	sc := bufio.NewScanner(f)
	for ln := 1; sc.Scan(); ln++ {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		fs := strings.SplitN(line, "\t", 3)
		if len(fs) != 3 {
			t.Fatalf("heldout.tsv:%d: want 3 fields", ln)
		}
		buf = c.Classify(buf[:0], []byte(fs[2]))
		m := maxSev(buf)
		switch fs[0] {
		case "unsafe":
			k, ok := classifiers.ParseCategory(fs[1])
			if !ok {
				t.Fatalf("heldout.tsv:%d: category", ln)
			}
			nUnsafe++
			pc := perCat[k]
			pc[0]++
			if m[k] >= 2 {
				hit++
				pc[1]++
			} else if os.Getenv("LEXDEV_MISS") != "" {
				t.Logf("miss line %d (%v): %v", ln, k, rules(buf))
			}
			perCat[k] = pc
		case "safe":
			nSafe++
			if blocked(m) {
				fp++
				if os.Getenv("LEXDEV_MISS") != "" {
					t.Logf("false positive line %d: %v", ln, rules(buf))
				}
			}
		default:
			t.Fatalf("heldout.tsv:%d: label", ln)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	recall := float64(hit) / float64(nUnsafe)
	fpr := float64(fp) / float64(nSafe)
	for k, pc := range perCat {
		t.Logf("%v recall %d/%d", k, pc[1], pc[0])
	}
	t.Logf("held-out recall %d/%d = %.2f, safe blocked %d/%d = %.2f", hit, nUnsafe, recall, fp, nSafe, fpr)
	if recall < minRecall {
		t.Errorf("recall %.2f < %.2f", recall, minRecall)
	}
	if fpr > maxFPR {
		t.Errorf("false-positive rate %.2f > %.2f", fpr, maxFPR)
	}
}
