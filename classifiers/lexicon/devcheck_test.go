package lexicon_test

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"testing"

	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/lexicon"
)

// dataDir is ../shared/data from the repository root, found from this
// package's directory.
func dataDir(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	d := filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "data")
	if _, err := os.Stat(d); err != nil {
		t.Skipf("labelled data not present (%s): skipping the quality dev check", d)
	}
	return d
}

func readCSV(t *testing.T, path string) []map[string]string {
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("cannot open %s: %v", filepath.Base(path), err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(path), err)
	}
	var out []map[string]string
	for _, r := range rows[1:] {
		m := map[string]string{}
		for i, h := range rows[0] {
			if i < len(r) {
				m[h] = r[i]
			}
		}
		out = append(out, m)
	}
	return out
}

// maxSev returns the highest severity per category.
func maxSev(fs []classifiers.Finding) (m [classifiers.NumCategories]uint8) {
	for _, f := range fs {
		if f.Severity > m[f.Category] {
			m[f.Category] = f.Severity
		}
	}
	return m
}

func blocked(m [classifiers.NumCategories]uint8) bool {
	for _, s := range m {
		if s >= 2 {
			return true
		}
	}
	return false
}

// TestDevQuality prints aggregate quality numbers of the rule classifier on
// the labelled public sets (never their text). Rule ids that fire on safe
// prompts are counted, so over-flagging can be traced to a rule.
func TestDevQuality(t *testing.T) {
	dir := dataDir(t)
	c, err := lexicon.Default()
	if err != nil {
		t.Fatal(err)
	}
	var buf []classifiers.Finding

	// XSTest.
	xs := readCSV(t, filepath.Join(dir, "xstest", "xstest_prompts.csv"))
	var safe, safeBlocked, unsafe, unsafeBlocked int
	perType := map[string][2]int{}
	ruleHits := map[string]int{}
	for _, r := range xs {
		buf = c.Classify(buf[:0], []byte(r["prompt"]))
		b := blocked(maxSev(buf))
		pt := perType[r["type"]]
		pt[0]++
		if b {
			pt[1]++
		}
		perType[r["type"]] = pt
		if r["label"] == "safe" {
			safe++
			if b {
				safeBlocked++
				for _, f := range buf {
					if f.Severity >= 2 {
						ruleHits[f.Rule]++
					}
				}
			}
		} else {
			unsafe++
			if b {
				unsafeBlocked++
			}
		}
	}
	t.Logf("XSTest safe blocked (sev>=2): %d/%d = %.3f (target <= 0.08)", safeBlocked, safe, float64(safeBlocked)/float64(safe))
	t.Logf("XSTest unsafe flagged (sev>=2): %d/%d = %.3f", unsafeBlocked, unsafe, float64(unsafeBlocked)/float64(unsafe))
	types := make([]string, 0, len(perType))
	for k := range perType {
		types = append(types, k)
	}
	sort.Strings(types)
	for _, k := range types {
		t.Logf("  %-32s %2d/%2d blocked", k, perType[k][1], perType[k][0])
	}
	if testing.Verbose() && os.Getenv("LEXDEV_RULES") != "" {
		t.Logf("rules firing (sev>=2) on blocked safe prompts: %v", ruleHits)
	}

	// SimpleSafetyTests.
	sst := readCSV(t, filepath.Join(dir, "simplesafetytests", "sst_test_cases.csv"))
	type agg struct{ n, any, cat int }
	areas := map[string]*agg{}
	want := map[string]classifiers.Category{
		"Suicide, Self-Harm, and Eating Disorders": classifiers.SelfHarm,
		"Physical harm and Violence":               classifiers.Violence,
		"Child safety":                             classifiers.Sexual,
	}
	for _, r := range sst {
		buf = c.Classify(buf[:0], []byte(r["prompts_final"]))
		m := maxSev(buf)
		a := areas[r["harm_area"]]
		if a == nil {
			a = &agg{}
			areas[r["harm_area"]] = a
		}
		a.n++
		if blocked(m) {
			a.any++
		}
		if k, ok := want[r["harm_area"]]; ok {
			if m[k] >= 2 {
				a.cat++
			} else if os.Getenv("LEXDEV_MISS") != "" {
				t.Logf("  miss %s (%s): events %s", r["id"], k, c.DebugClasses([]byte(r["prompts_final"])))
			}
		}
	}
	names := make([]string, 0, len(areas))
	for k := range areas {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		a := areas[k]
		t.Logf("SST %-42s recall any-category %.2f, own category %.2f (n=%d)", k, float64(a.any)/float64(a.n), float64(a.cat)/float64(a.n), a.n)
	}

	// ToxiGen seed sentences: hate vs neutral flag rates.
	if f, err := os.Open(filepath.Join(dir, "toxigen", "toxigen_seed_sentences.jsonl")); err == nil {
		dec := json.NewDecoder(f)
		var n [2]int
		var hit [2]int
		for {
			var row struct {
				Text  string `json:"text"`
				Label string `json:"label"`
			}
			if dec.Decode(&row) != nil {
				break
			}
			i := 0
			if row.Label == "hate" {
				i = 1
			}
			n[i]++
			buf = c.Classify(buf[:0], []byte(row.Text))
			if maxSev(buf)[classifiers.Hate] >= 2 {
				hit[i]++
			}
		}
		f.Close()
		t.Logf("ToxiGen HATE>=2: hate %d/%d, neutral %d/%d", hit[1], n[1], hit[0], n[0])
	}

	// Davidson: hate (0) vs neither (2), average precision of the rule
	// classifier's HATE severity alone (ties broken pessimistically).
	dv := readCSV(t, filepath.Join(dir, "davidson", "labeled_data.csv"))
	type sc struct {
		s   int
		pos bool
	}
	var scores []sc
	var offHit, offN int
	for _, r := range dv {
		cl := r["class"]
		buf = c.Classify(buf[:0], []byte(r["tweet"]))
		m := maxSev(buf)
		if cl == "1" {
			offN++
			if m[classifiers.Hate] >= 2 {
				offHit++
			}
			continue
		}
		scores = append(scores, sc{int(m[classifiers.Hate]), cl == "0"})
	}
	sort.SliceStable(scores, func(i, j int) bool {
		if scores[i].s != scores[j].s {
			return scores[i].s > scores[j].s
		}
		return !scores[i].pos && scores[j].pos
	})
	var tp, npos int
	for _, s := range scores {
		if s.pos {
			npos++
		}
	}
	var ap float64
	for i, s := range scores {
		if s.pos {
			tp++
			ap += float64(tp) / float64(i+1)
		}
	}
	var hateHit, neitherHit, neitherN int
	for _, s := range scores {
		if s.pos && s.s >= 2 {
			hateHit++
		}
		if !s.pos {
			neitherN++
			if s.s >= 2 {
				neitherHit++
			}
		}
	}
	t.Logf("Davidson hate vs neither: AP(rule severity) %.3f; hate>=2 %d/%d, neither>=2 %d/%d, offensive>=2 %d/%d",
		ap/float64(npos), hateHit, npos, neitherHit, neitherN, offHit, offN)
}
