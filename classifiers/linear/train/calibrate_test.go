package train

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/linear"
)

// TestCalibrateUpperSeverities: severities 4 and 5 follow High's rule with
// both false-positive bounds divided by UpperStep and UpperStep², in
// order above High, on every data set's negatives; UpperStep 0 leaves
// them out.
func TestCalibrateUpperSeverities(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var dev []Example
	var probs [][N]float32
	add := func(set string, n int, pos bool, p func() float32) {
		for i := range n {
			e := Example{Dataset: set, ID: fmt.Sprintf("%s:%d", set, i)}
			e.Target, e.Weight = all(0, 1)
			var ps [N]float32
			for c := range N {
				ps[c] = p()
				if pos {
					e.Target[c] = 1
				}
			}
			dev = append(dev, e)
			probs = append(probs, ps)
		}
	}
	// A large set with easy negatives, a small one with hard negatives
	// (which bounds the per-set share), and positives in both (a set
	// without positives would be a benign set, which bounds Medium).
	add("easy", 20000, false, func() float32 { return rng.Float32() * 0.9 })
	add("hard", 2000, false, func() float32 { return 0.5 + rng.Float32()*0.5 })
	add("easy", 2000, true, func() float32 { return 0.8 + rng.Float32()*0.2 })
	add("hard", 200, true, func() float32 { return 0.9 + rng.Float32()*0.1 })
	cal := DefaultConfig().Calibration
	th := calibrate(probs, dev, cal)
	share := func(set string, c int, thr float32) float64 {
		var n, above int
		for i := range dev {
			if (set == "" || dev[i].Dataset == set) && dev[i].Negative(c) {
				n++
				if probs[i][c] >= thr {
					above++
				}
			}
		}
		return float64(above) / float64(n)
	}
	for c := range N {
		tc := th[c]
		if !(tc.High <= tc.High4 && tc.High4 <= tc.High5 && tc.High5 <= 1) {
			t.Fatalf("category %d: thresholds %+v not ordered", c, tc)
		}
		for k, thr := range []float32{tc.High, tc.High4, tc.High5} {
			div := 1.0
			for range k {
				div *= cal.UpperStep
			}
			if s := share("", c, thr); s > cal.HighFPR/div {
				t.Errorf("category %d, severity %d: %.5f of all negatives reach it, want ≤ %.5f", c, 3+k, s, cal.HighFPR/div)
			}
			if s := share("hard", c, thr); s > cal.HighDomainFPR/div {
				t.Errorf("category %d, severity %d: %.5f of the hard set's negatives reach it, want ≤ %.5f", c, 3+k, s, cal.HighDomainFPR/div)
			}
		}
		if tc.High4 <= tc.High {
			t.Errorf("category %d: High4 %v not above High %v", c, tc.High4, tc.High)
		}
	}
	cal.UpperStep = 0
	for c, tc := range calibrate(probs, dev, cal) {
		if tc.High4 != 0 || tc.High5 != 0 {
			t.Errorf("category %d: UpperStep 0 gave High4 %v, High5 %v; want none", c, tc.High4, tc.High5)
		}
	}
}

// TestCalibrateIdentityBenign: with IdentityBenign, HATE's Medium keeps
// the benign sets' rows that name an identity group under BenignFPR, even
// when they are too few in each set to bound it there; other categories
// are not touched.
func TestCalibrateIdentityBenign(t *testing.T) {
	rows := &devRows{rng: rand.New(rand.NewPCG(3, 4))}
	add := rows.add
	// Two benign sets, each mostly plain rows with a few rows naming a
	// group that score high; a labelled set whose best F1 is low.
	add("wiki", "the river floods in spring", 3000, false, 0, 0.3)
	add("wiki", "women won the vote", 150, false, 0.4, 0.8)
	add("chat", "what should i cook tonight", 3000, false, 0, 0.3)
	add("chat", "my muslim neighbour invited us", 150, false, 0.4, 0.8)
	add("hate", "statement", 500, true, 0.35, 1)
	add("hate", "other statement", 500, false, 0, 0.5)
	dev, probs := rows.dev, rows.probs
	cal := DefaultConfig().Calibration
	plain := calibrate(probs, dev, cal)
	cal.IdentityBenign = true
	held := calibrate(probs, dev, cal)
	var named []float64
	for i, e := range dev {
		if e.Dataset != "hate" && linear.NamesIdentity(e.Text) {
			named = append(named, float64(probs[i][classifiers.Hate]))
		}
	}
	slices.Sort(named)
	q := quantile(named, 1-cal.BenignFPR)
	if float64(plain[classifiers.Hate].Medium) > q {
		t.Fatalf("test set-up: without the option Medium %v is already above the named rows' quantile %v", plain[classifiers.Hate].Medium, q)
	}
	if float64(held[classifiers.Hate].Medium) <= q {
		t.Errorf("with IdentityBenign, HATE Medium %v is not above the named rows' %v-quantile %v", held[classifiers.Hate].Medium, 1-cal.BenignFPR, q)
	}
	for c := range N {
		if c != int(classifiers.Hate) && held[c] != plain[c] {
			t.Errorf("category %d changed: %+v → %+v", c, plain[c], held[c])
		}
	}
}

// TestCalibratePerUserNotBenign: a set labelled per author (reddit_cssrs,
// Dataset.PerUser) does not bound Medium and Low as a benign set, while a
// benign set of the same scores does.
func TestCalibratePerUserNotBenign(t *testing.T) {
	if d, ok := DatasetByName("reddit_cssrs"); !ok || !d.PerUser {
		t.Fatal("reddit_cssrs is not marked as labelled per author")
	}
	rows := &devRows{rng: rand.New(rand.NewPCG(5, 6))}
	// A labelled set whose F1 is best at a low threshold, and 400 rows all
	// negative scoring up to 0.9 in a set named by the case.
	build := func(set string) [N]linear.Thresholds {
		rows.dev, rows.probs = nil, nil
		rows.add("labelled", "", 2000, false, 0, 0.4)
		rows.add("labelled", "", 200, true, 0.3, 1)
		rows.add(set, "", 400, false, 0, 0.9)
		return calibrate(rows.probs, rows.dev, DefaultConfig().Calibration)
	}
	benign, perUser := build("benign"), build("reddit_cssrs")
	for c := range N {
		if benign[c].Medium < 0.88 {
			t.Errorf("category %d: a benign set scoring up to 0.9 left Medium at %.3f, want it above its 99th percentile", c, benign[c].Medium)
		}
		if perUser[c].Medium >= 0.7 {
			t.Errorf("category %d: the per-user set bounded Medium at %.3f; it should not bound it", c, perUser[c].Medium)
		}
		if perUser[c].Low >= benign[c].Low {
			t.Errorf("category %d: Low %.3f with the per-user set, %.3f with a benign one; the per-user set should not raise it", c, perUser[c].Low, benign[c].Low)
		}
	}
}

// devRows builds development rows with made-up probabilities for the
// calibration tests.
type devRows struct {
	rng   *rand.Rand
	dev   []Example
	probs [][N]float32
}

// add appends n rows of set with text, positive in every category when
// pos, negative otherwise, each category's probability drawn uniformly
// from [lo, hi).
func (d *devRows) add(set, text string, n int, pos bool, lo, hi float32) {
	for i := range n {
		e := Example{Dataset: set, ID: fmt.Sprintf("%s:%s:%d:%v", set, text, i, pos), Text: text}
		e.Target, e.Weight = all(0, 1)
		var ps [N]float32
		for c := range N {
			ps[c] = lo + d.rng.Float32()*(hi-lo)
			if pos {
				e.Target[c] = 1
			}
		}
		d.dev = append(d.dev, e)
		d.probs = append(d.probs, ps)
	}
}
