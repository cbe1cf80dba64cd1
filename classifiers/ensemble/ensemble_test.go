package ensemble_test

import (
	"bytes"
	"slices"
	"sync"
	"testing"

	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/ensemble"
	"github.com/openrai/raiserver/classifiers/linear"
)

// fakeRules returns fixed findings.
type fakeRules []classifiers.Finding

func (r fakeRules) Classify(dst []classifiers.Finding, _ []byte) []classifiers.Finding {
	return append(dst, r...)
}

// fakeModel returns fixed probabilities with fixed thresholds.
type fakeModel [ensemble.N]float32

var thr = linear.Thresholds{Veto: 0.05, Low: 0.3, Medium: 0.6, High: 0.9, High4: 0.97, High5: 0.99}

func (m *fakeModel) Scores(_ []byte, out *[ensemble.N]float32) { *out = *m }
func (m *fakeModel) Thresholds(classifiers.Category) linear.Thresholds {
	return thr
}

const (
	pAbsent    = 0.01
	pUnsure    = 0.2
	pWeak      = 0.4
	pConfident = 0.7
	pSure      = 0.95
	pSurer     = 0.98
	pSurest    = 0.995
)

func rule(c classifiers.Category, sev uint8) classifiers.Finding {
	return classifiers.Finding{Category: c, Severity: sev, Start: 3, End: 7, Rule: "fake"}
}

func TestCombination(t *testing.T) {
	v := classifiers.Violence
	tests := []struct {
		name  string
		rules fakeRules
		p     float32
		opts  []ensemble.Option
		want  uint8 // resulting VIOLENCE severity; 0 = no finding
		span  bool  // the finding keeps the rule span
	}{
		{"nothing", nil, pUnsure, nil, 0, false},
		{"model weak alone", nil, pWeak, nil, 1, false},
		{"model weak alone, LOW off", nil, pWeak, []ensemble.Option{ensemble.WithModelAloneLow(false)}, 0, false},
		{"model confident alone", nil, pConfident, nil, 2, false},
		{"model sure alone", nil, pSure, nil, 3, false},
		{"model sure alone, max 2", nil, pSure, []ensemble.Option{ensemble.WithModelAloneMax(2)}, 2, false},
		{"model at High4 alone", nil, pSurer, nil, 4, false},
		{"model at High5 alone", nil, pSurest, nil, 5, false},
		{"model at High5 alone, max 3", nil, pSurest, []ensemble.Option{ensemble.WithModelAloneMax(3)}, 3, false},
		{"model at High5 alone, max 1", nil, pSurest, []ensemble.Option{ensemble.WithModelAloneMax(1)}, 1, false},
		{"no High4 or High5 calibrated", nil, pSurest, []ensemble.Option{ensemble.WithThresholds(v, linear.Thresholds{Veto: 0.05, Low: 0.3, Medium: 0.6, High: 0.9})}, 3, false},
		{"model confident alone, max 1", nil, pConfident, []ensemble.Option{ensemble.WithModelAloneMax(1)}, 1, false},
		{"model alone off", nil, pSure, []ensemble.Option{ensemble.WithModelAlone(false)}, 0, false},
		{"low vetoed", fakeRules{rule(v, 1)}, pAbsent, nil, 0, false},
		{"low veto off", fakeRules{rule(v, 1)}, pAbsent, []ensemble.Option{ensemble.WithVeto(false)}, 1, true},
		{"low kept", fakeRules{rule(v, 1)}, pUnsure, nil, 1, true},
		{"low stays low when confident", fakeRules{rule(v, 1)}, pConfident, nil, 1, true},
		{"low raised when confident, hold off", fakeRules{rule(v, 1)}, pConfident, []ensemble.Option{ensemble.WithLowRuleHolds(v, false)}, 2, true},
		{"low raised when weak, hold off", fakeRules{rule(v, 1)}, pWeak, []ensemble.Option{ensemble.WithLowRuleHolds(v, false)}, 2, true},
		{"low kept when unsure, hold off", fakeRules{rule(v, 1)}, pUnsure, []ensemble.Option{ensemble.WithLowRuleHolds(v, false)}, 1, true},
		{"low kept when weak", fakeRules{rule(v, 1)}, pWeak, nil, 1, true},
		{"low raised when sure", fakeRules{rule(v, 1)}, pSure, nil, 2, true},
		{"low raised to medium only at High5", fakeRules{rule(v, 1)}, pSurest, nil, 2, true},
		{"medium kept when absent", fakeRules{rule(v, 2)}, pAbsent, nil, 2, true},
		{"medium lowered when absent", fakeRules{rule(v, 2)}, pAbsent, []ensemble.Option{ensemble.WithLowerMedium(true)}, 1, true},
		{"medium raised", fakeRules{rule(v, 2)}, pConfident, nil, 3, true},
		{"medium raised to the model's level", fakeRules{rule(v, 2)}, pSurest, nil, 5, true},
		{"rule HIGH raised by one, as high as the model alone", fakeRules{rule(v, 3)}, pSurer, nil, 4, true},
		{"medium raised, model alone capped", fakeRules{rule(v, 2)}, pSurest, []ensemble.Option{ensemble.WithModelAloneMax(2)}, 3, true},
		{"high kept", fakeRules{rule(v, 4)}, pWeak, nil, 4, true},
		{"high raised", fakeRules{rule(v, 4)}, pSure, nil, 5, true},
		{"max capped", fakeRules{rule(v, 5)}, pSure, nil, 5, true},
		{"model sure alone, under the floor", nil, pSure, []ensemble.Option{ensemble.WithModelAloneFloor(0.97)}, 0, false},
		{"override thresholds", nil, pWeak, []ensemble.Option{ensemble.WithModelAloneMax(2), ensemble.WithModelAloneFloor(0), ensemble.WithThresholds(v, linear.Thresholds{Low: 0.1, Medium: 0.2, High: 0.3})}, 2, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var m fakeModel
			m[v] = tc.p
			e := ensemble.New(tc.rules, &m, tc.opts...)
			text := []byte("0123456789")
			fs := e.Classify(nil, text)
			var got []classifiers.Finding
			for _, f := range fs {
				if f.Category != v {
					t.Fatalf("unexpected finding %+v", f)
				}
				got = append(got, f)
			}
			if tc.want == 0 {
				if len(got) != 0 {
					t.Fatalf("got %+v, want nothing", got)
				}
				return
			}
			if len(got) != 1 || got[0].Severity != tc.want {
				t.Fatalf("got %+v, want severity %d", got, tc.want)
			}
			if tc.span && (got[0].Start != 3 || got[0].End != 7 || got[0].Rule != "fake") {
				t.Errorf("rule span or name lost: %+v", got[0])
			}
			if !tc.span && (got[0].Start != 0 || got[0].End != len(text)) {
				t.Errorf("model finding should span the text: %+v", got[0])
			}
		})
	}
}

// TestHoldStaysLow: a hold finding (classifiers.HoldPrefix) stays LOW
// however sure the model is and keeps the model alone from reporting its
// category; another rule finding of the category is combined as usual.
func TestHoldStaysLow(t *testing.T) {
	h := classifiers.Hate
	hold := classifiers.Finding{Category: h, Severity: 1, Start: 0, End: 4, Rule: classifiers.HoldPrefix + "x"}
	for _, p := range []float32{pWeak, pConfident, pSure, pSurest} {
		var m fakeModel
		m[h] = p
		fs := ensemble.New(fakeRules{hold}, &m).Classify(nil, []byte("0123456789"))
		if len(fs) != 1 || fs[0].Rule != hold.Rule || fs[0].Severity != 1 {
			t.Errorf("p %v: got %+v, want only the hold at LOW", p, fs)
		}
		fs = ensemble.New(fakeRules{hold, rule(h, 2)}, &m).Classify(nil, []byte("0123456789"))
		var other uint8
		for _, f := range fs {
			if f.Rule == "fake" {
				other = f.Severity
			}
		}
		want := uint8(3) // raised by a confident or sure model
		if p == pWeak {
			want = 2
		}
		if other < want {
			t.Errorf("p %v: the other rule finding got severity %d, want >= %d", p, other, want)
		}
	}
}

// TestLowRuleHoldsDefault: by default a LOW rule hit holds a confident
// model to LOW in SEXUAL, VIOLENCE and SELF_HARM, not in HATE.
func TestLowRuleHoldsDefault(t *testing.T) {
	for c := range classifiers.Category(ensemble.N) {
		var m fakeModel
		m[c] = pConfident
		want := uint8(1)
		if c == classifiers.Hate {
			want = 2
		}
		for _, opts := range [][]ensemble.Option{nil, {ensemble.WithLowRuleHolds(c, c != classifiers.Hate)}} {
			fs := ensemble.New(fakeRules{rule(c, 1)}, &m, opts...).Classify(nil, []byte("0123456789"))
			if len(fs) != 1 || fs[0].Category != c || fs[0].Severity != want || fs[0].Rule != "fake" {
				t.Errorf("%v: got %+v, want the rule finding at severity %d", c, fs, want)
			}
		}
		fs := ensemble.New(fakeRules{rule(c, 1)}, &m, ensemble.WithLowRuleHolds(c, c == classifiers.Hate)).Classify(nil, []byte("0123456789"))
		if len(fs) != 1 || fs[0].Severity != 3-want {
			t.Errorf("%v with the option flipped: got %+v, want severity %d", c, fs, 3-want)
		}
	}
}

func TestCategoriesIndependent(t *testing.T) {
	m := fakeModel{classifiers.Hate: pAbsent, classifiers.Sexual: pSure, classifiers.Violence: pConfident, classifiers.SelfHarm: pUnsure}
	rules := fakeRules{rule(classifiers.Hate, 1), rule(classifiers.Violence, 2), rule(classifiers.Violence, 1), rule(classifiers.SelfHarm, 3)}
	e := ensemble.New(rules, &m)
	dst := []classifiers.Finding{{Category: classifiers.Hate, Severity: 5, Rule: "earlier"}}
	fs := e.Classify(dst, []byte("text"))
	if fs[0].Rule != "earlier" || fs[0].Severity != 5 {
		t.Fatalf("findings before dst's length were touched: %+v", fs[0])
	}
	type key struct {
		c   classifiers.Category
		sev uint8
	}
	var got []key
	for _, f := range fs[1:] {
		got = append(got, key{f.Category, f.Severity})
	}
	want := []key{
		// HATE LOW vetoed; VIOLENCE 2 → 3, VIOLENCE 1 stays 1 (confident
		// is not sure); SELF_HARM 3 unchanged; SEXUAL HIGH (3) from the
		// model alone (sure).
		{classifiers.Violence, 3}, {classifiers.Violence, 1}, {classifiers.SelfHarm, 3}, {classifiers.Sexual, 3},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestNilSides(t *testing.T) {
	rules := fakeRules{rule(classifiers.Hate, 1)}
	if fs := ensemble.New(rules, nil).Classify(nil, []byte("x")); len(fs) != 1 || fs[0].Severity != 1 {
		t.Fatalf("rules alone: %+v", fs)
	}
	m := fakeModel{classifiers.Hate: pSure}
	if fs := ensemble.New(nil, &m).Classify(nil, []byte("x")); len(fs) != 1 || fs[0].Severity != 3 {
		t.Fatalf("model alone: %+v", fs)
	}
}

func TestZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	m := fakeModel{classifiers.Hate: pSure, classifiers.Violence: pAbsent}
	e := ensemble.New(fakeRules{rule(classifiers.Violence, 1), rule(classifiers.SelfHarm, 2)}, &m)
	dst := make([]classifiers.Finding, 0, 16)
	text := []byte("some text")
	if a := testing.AllocsPerRun(100, func() { dst = e.Classify(dst[:0], text) }); a != 0 {
		t.Fatalf("Classify allocates %.1f times per call", a)
	}
}

func TestConcurrent(t *testing.T) {
	m := fakeModel{classifiers.Hate: pConfident}
	e := ensemble.New(fakeRules{rule(classifiers.Hate, 2)}, &m)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var dst []classifiers.Finding
			for range 100 {
				dst = e.Classify(dst[:0], []byte("abc"))
				if len(dst) != 1 || dst[0].Severity != 3 {
					t.Errorf("got %+v", dst)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestEvasive(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"plain words only", false},
		{"k i l l", true},
		{"please b.a.k.e it", true},
		{"x-y-z-w", true},
		{"a b c", false}, // three letters: a list, not a word
		{"U.S.A. is big", false},
		{"th1s", true},
		{"h4te", true},
		{"covid 19 and mp3", false},
		{"", false},
		{"I a m", false},
		{"k  i  l  l", true},    // whitespace runs collapse first
		{"sh!t", true},          // a leet symbol inside a word
		{"\u043a1ll", true},     // a look-alike letter, then leet
		{"4ss and hat3", false}, // leet at a word's edge only
		{"diiiie", false},       // stretched, not spelled
	}
	for _, tc := range tests {
		if got := ensemble.Evasive([]byte(tc.text)); got != tc.want {
			t.Errorf("Evasive(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestEvasionRaisesLogOdds: evasive spelling raises the model's log-odds
// by a fixed amount before its level is read, so a score just under a
// threshold crosses it and one far under it does not; plain text is read
// as scored.
func TestEvasionRaisesLogOdds(t *testing.T) {
	const (
		underMedium = 0.55 // weak; log-odds +1 gives 0.77: confident
		underHigh   = 0.85 // confident; +1 gives 0.94: sure
		farUnder    = 0.35 // weak; +1 gives 0.59: still weak
		farUnsure   = 0.12 // unsure; +1 gives 0.27: still unsure
	)
	const v = classifiers.Violence
	tests := []struct {
		name string
		p    float32
		text string
		opts []ensemble.Option
		want uint8
	}{
		{"weak, plain", underMedium, "plain text", nil, 1},
		{"weak, letter-spaced", underMedium, "b a k e it", nil, 2},
		{"weak, leet", underMedium, "h4te", nil, 2},
		{"far under, letter-spaced", farUnder, "b a k e it", nil, 1},
		{"confident, plain", underHigh, "plain text", nil, 2},
		{"confident, letter-spaced", underHigh, "b a k e it", nil, 3},
		{"evasion off", underMedium, "b a k e it", []ensemble.Option{ensemble.WithEvasion(false)}, 1},
		{"sure and evasive, max 1", pSure, "b a k e it", []ensemble.Option{ensemble.WithModelAloneMax(1)}, 2},
		{"unsure, letter-spaced", farUnsure, "b a k e it", nil, 0},
	}
	for _, tc := range tests {
		m := fakeModel{v: tc.p}
		fs := ensemble.New(nil, &m, tc.opts...).Classify(nil, []byte(tc.text))
		var got uint8
		for _, f := range fs {
			if f.Category == v {
				got = max(got, f.Severity)
			}
		}
		if got != tc.want {
			t.Errorf("%s: severity %d, want %d (%+v)", tc.name, got, tc.want, fs)
		}
	}
}

// keyModel is sure of HATE when the text holds key, else absent.
type keyModel struct{ key string }

func (m keyModel) Scores(text []byte, out *[ensemble.N]float32) {
	*out = [ensemble.N]float32{pAbsent, pAbsent, pAbsent, pAbsent}
	if bytes.Contains(text, []byte(m.key)) {
		out[classifiers.Hate] = pSure
	}
}
func (keyModel) Thresholds(classifiers.Category) linear.Thresholds { return thr }

// TestHoldCoversItsSentenceOnly: a hold keeps the model from reporting
// its own sentence, not the rest of the text: the model scores the text
// without the held sentence, and reports the rest when that is harmful
// (the finding spans the rest, so the analyzer gives it to the segment
// that holds its end).
func TestHoldCoversItsSentenceOnly(t *testing.T) {
	h := classifiers.Hate
	tests := []struct {
		name     string
		text     string
		hold     [2]int // the hold's span
		wantSpan [2]int // the model's finding; {0, 0}: none
	}{
		{"harm after the held sentence", "Held one. BAD two.", [2]int{0, 4}, [2]int{9, 18}},
		{"harm before the held sentence", "BAD one. Held two.", [2]int{9, 13}, [2]int{0, 8}},
		{"harm only in the held sentence", "Held BAD one.", [2]int{0, 4}, [2]int{}},
		{"nothing harmful around", "Held one. Fine two.", [2]int{0, 4}, [2]int{}},
		{"nothing around", "  Held one.  ", [2]int{2, 6}, [2]int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hold := classifiers.Finding{Category: h, Severity: 1, Start: tt.hold[0], End: tt.hold[1], Rule: classifiers.HoldPrefix + "x"}
			fs := ensemble.New(fakeRules{hold}, keyModel{"BAD"}).Classify(nil, []byte(tt.text))
			var got [2]int
			for _, f := range fs {
				switch {
				case f.Rule == hold.Rule:
					if f.Severity != 1 {
						t.Errorf("hold severity %d, want 1", f.Severity)
					}
				case f.Category == h:
					if f.Severity < 2 {
						t.Errorf("model finding severity %d, want >= 2", f.Severity)
					}
					got = [2]int{f.Start, f.End}
				}
			}
			if got != tt.wantSpan {
				t.Errorf("model finding span %v, want %v (findings %+v)", got, tt.wantSpan, fs)
			}
		})
	}
}
