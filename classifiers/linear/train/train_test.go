package train

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/openrai/raiserver/classifiers/linear"
	"github.com/openrai/raiserver/classifiers/vectors"
)

func TestAveragePrecision(t *testing.T) {
	tests := []struct {
		name string
		xs   []Scored
		want float64
	}{
		{"perfect", []Scored{{0.9, true}, {0.8, true}, {0.1, false}}, 1},
		{"inverted", []Scored{{0.9, false}, {0.1, true}}, 0.5},
		// Ranking: +, -, +  → (1/1 + 2/3) / 2.
		{"mixed", []Scored{{0.9, true}, {0.5, false}, {0.2, true}}, (1 + 2.0/3) / 2},
		// All tied: one threshold, precision = base rate.
		{"ties", []Scored{{1, true}, {1, false}, {1, false}, {1, true}}, 0.5},
	}
	for _, tc := range tests {
		if got := AveragePrecision(tc.xs); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: AP = %v, want %v", tc.name, got, tc.want)
		}
	}
	if !math.IsNaN(AveragePrecision([]Scored{{1, false}})) {
		t.Error("AP without positives should be NaN")
	}
}

func TestCount(t *testing.T) {
	b := Count([]Scored{{0.9, true}, {0.6, false}, {0.4, true}, {0.1, false}}, 0.5)
	if b != (Binary{TP: 1, FP: 1, FN: 1, TN: 1}) {
		t.Fatalf("Count = %+v", b)
	}
	if b.Precision() != 0.5 || b.Recall() != 0.5 || b.F1() != 0.5 || b.FPR() != 0.5 {
		t.Fatalf("rates of %+v", b)
	}
}

func TestIsDevSplit(t *testing.T) {
	dev := 0
	const total = 20000
	for i := range total {
		id := fmt.Sprintf("set:%d", i)
		if IsDev(id) {
			dev++
		}
	}
	if frac := float64(dev) / total; frac < 0.18 || frac > 0.22 {
		t.Fatalf("dev fraction %.3f, want about 0.2", frac)
	}
	// The split is a pure function of the id: pinned values.
	for id, want := range map[string]bool{"davidson:0": false, "sst:sst_001": false, "xstest:1": false, "davidson:7": true} {
		if IsDev(id) != want {
			t.Fatalf("IsDev(%q) changed", id)
		}
	}
}

// TestSplit: probe rows are in neither split, dev rows of every other set
// calibrate, and only trainable sets give training rows.
func TestSplit(t *testing.T) {
	var exs []Example
	for _, set := range []string{"davidson", "gab_hate", "xstest"} { // trainable, development-only, probe
		for i := range 200 {
			exs = append(exs, Example{Dataset: set, ID: fmt.Sprintf("%s:%d", set, i)})
		}
	}
	tr, dev := Split(exs)
	count := func(rows []Example, isDev bool) map[string]int {
		n := map[string]int{}
		for _, e := range rows {
			n[e.Dataset]++
			if IsDev(e.ID) != isDev {
				t.Errorf("%s is in the wrong split", e.ID)
			}
		}
		return n
	}
	nt, nd := count(tr, false), count(dev, true)
	if nt["gab_hate"] != 0 || nt["xstest"] != 0 || nd["xstest"] != 0 {
		t.Errorf("train %v, dev %v: a development-only set trains or a probe is in a split", nt, nd)
	}
	if nt["davidson"]+nd["davidson"] != 200 || nd["gab_hate"] == 0 || nd["davidson"] == 0 {
		t.Errorf("train %v, dev %v: want every davidson row in one split and dev rows of both sets", nt, nd)
	}
}

// TestAddCalibration: a calibration file's rows are harmless in all four
// categories and all of them are development rows, none a training row,
// whatever their IDs hash to; comments and blank lines are skipped, and a
// row without a kind is an error that adds nothing of its file.
func TestAddCalibration(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cal.tsv")
	var b strings.Builder
	b.WriteString("# comment\n\n")
	for i := range 50 {
		fmt.Fprintf(&b, "advice\tplain row number %d\n", i)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var c Corpus
	if err := c.AddCalibration(path, "calibration/cal.tsv"); err != nil {
		t.Fatal(err)
	}
	if len(c.Examples) != 50 || len(c.Files) != 1 || c.Files[0].Rows != 50 {
		t.Fatalf("%d rows, files %+v; want 50 rows in one file", len(c.Examples), c.Files)
	}
	for _, e := range c.Examples {
		if e.Dataset != "calibration" || !e.Benign() || e.Kind != "advice" {
			t.Fatalf("row %s: set %s, benign %v, kind %s", e.ID, e.Dataset, e.Benign(), e.Kind)
		}
	}
	tr, dev := Split(c.Examples)
	if len(tr) != 0 || len(dev) != 50 {
		t.Errorf("split %d train, %d dev; want every row a development row", len(tr), len(dev))
	}
	bad := filepath.Join(dir, "bad.tsv")
	if err := os.WriteFile(bad, []byte("advice\tfine\nno kind here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := c.AddCalibration(bad, "bad.tsv"); err == nil {
		t.Error("a row without a kind was accepted")
	}
	if len(c.Examples) != 50 || len(c.Files) != 1 {
		t.Errorf("a malformed file added rows or a file: %d rows, %d files", len(c.Examples), len(c.Files))
	}
}

// TestTrainSeparable fits a made-up problem where one word marks each
// category and checks the model ranks and thresholds it.
func TestTrainSeparable(t *testing.T) {
	marks := [N]string{"glorp", "snarfle", "vrennic", "quobble"}
	filler := []string{"teapot garden", "window cloud", "river pencil", "melody bicycle"}
	var exs []Example
	for i := range 400 {
		e := Example{Dataset: "synthetic", ID: fmt.Sprint(i), Text: filler[i%4] + " " + filler[(i/4)%4]}
		e.Target, e.Weight = all(0, 1)
		if c := i % 8; c < N {
			e.Text += " " + marks[c]
			e.Target[c] = 1
		}
		exs = append(exs, e)
	}
	cfg := DefaultConfig()
	cfg.Features = linear.Features{Bits: 12, MinN: 4, MaxN: 4, Words: true, Bigrams: true}
	cfg.MaxIter = 100
	res, err := Train(exs, exs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	rep := Evaluate(res.Model, exs)
	for name, m := range rep.Overall {
		if m.AP < 0.99 || m.Recall < 0.99 {
			t.Errorf("%s: AP %v recall %v", name, m.AP, m.Recall)
		}
	}
	// Same inputs, same model.
	res2, err := Train(exs, exs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	p1, p2 := res.Model.Params(), res2.Model.Params()
	raw1, _ := p1.Encode()
	raw2, _ := p2.Encode()
	if string(raw1) != string(raw2) {
		t.Error("two trainings on the same data differ")
	}
	// With a feature prior the rows are weighed as the model weighs them,
	// and the model file keeps it.
	cfg.Features.Prior = 8
	res3, err := Train(exs, exs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := res3.Model.Params().Features.Prior; got != 8 {
		t.Fatalf("trained with Prior 8, the model has %d", got)
	}
	for name, m := range Evaluate(res3.Model, exs).Overall {
		if m.AP < 0.99 || m.Recall < 0.99 {
			t.Errorf("prior 8, %s: AP %v recall %v", name, m.AP, m.Recall)
		}
	}
}

func TestParseLabelled(t *testing.T) {
	exs, err := parseLabelled([]byte("# comment\n\nnone\tplain words\nhate,violence\tsome words\nnot:sexual,violence\tother words\n"), "synthetic", "x.tsv")
	if err != nil {
		t.Fatal(err)
	}
	if len(exs) != 3 || exs[0].Positive(hate) || !exs[1].Positive(hate) || !exs[1].Positive(violence) || !exs[1].Negative(sexual) {
		t.Fatalf("parsed %+v", exs)
	}
	// "not:" rows are negative for the listed categories and unknown for
	// the others (weight 0: neither positive nor negative).
	if e := exs[2]; !e.Negative(sexual) || !e.Negative(violence) || e.Hard(hate) || e.Hard(selfHarm) {
		t.Fatalf("not: row parsed as %+v", e)
	}
	for _, bad := range []string{"nolabel\n", "unknown\ttext\n", "hate\t \n", "not:unknown\ttext\n", "not:\ttext\n"} {
		if _, err := parseLabelled([]byte(bad), "synthetic", "x.tsv"); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}

// TestReadLabelled reads a user's labelled file as rows of the data set it
// is given, each keyed by the file's base name and line.
func TestReadLabelled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mine.tsv")
	// As a spreadsheet saves it: a byte order mark, CRLF line ends, labels
	// capitalized or with a space after them.
	if err := os.WriteFile(path, []byte("\uFEFFNone \tplain words\r\n# skipped\r\nSexual\tother words\r\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	exs, err := ReadLabelled(path, "rows")
	if err != nil {
		t.Fatal(err)
	}
	if len(exs) != 2 || exs[0].Dataset != "rows" || exs[0].ID != "mine.tsv:1" || exs[1].ID != "mine.tsv:3" || !exs[1].Positive(sexual) || !exs[0].Benign() || exs[1].Text != "other words" {
		t.Fatalf("read %+v", exs)
	}
	if _, err := ReadLabelled(filepath.Join(t.TempDir(), "absent.tsv"), "rows"); err == nil {
		t.Error("absent file: want an error")
	}
}

// TestTrainVectors fits VIOLENCE on a few violent and kitchen words and
// checks that, with word vectors, words the training rows never held
// score by their meaning; without them they score the same.
func TestTrainVectors(t *testing.T) {
	violent := []string{"kill", "murder", "stab", "shoot", "strangle", "assault"}
	benign := []string{"bake", "cook", "stir", "roast", "slice", "boil"}
	objects := []string{"him", "her", "them", "it", "everyone", "the thing"}
	var exs []Example
	for i := range 360 {
		verb, target := benign[i%6], 0.0
		if i%2 == 0 {
			verb, target = violent[(i/2)%6], 1
		}
		e := Example{Dataset: "synthetic", ID: fmt.Sprint(i), Text: "i will " + verb + " " + objects[(i/12)%6]}
		e.Target, e.Weight = all(0, 1)
		e.Target[violence] = float32(target)
		exs = append(exs, e)
	}
	cfg := DefaultConfig()
	cfg.Features = linear.Features{Bits: 12, Words: true}
	cfg.MaxIter = 200
	cfg.SpacedWeight = 0
	cfg.Conv = nil // the vector term alone
	unseen := func(m *linear.Model, w string) float32 {
		var p [N]float32
		m.Scores([]byte("i will "+w+" them"), &p)
		return p[violence]
	}
	for _, vec := range []bool{false, true} {
		cfg.Vectors = vec
		res, err := Train(exs, exs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Model.Params().Vectors != nil; got != vec {
			t.Fatalf("Vectors %v: model has a vector term: %v", vec, got)
		}
		bad := (unseen(res.Model, "slaughter") + unseen(res.Model, "behead") + unseen(res.Model, "torture")) / 3
		good := (unseen(res.Model, "fry") + unseen(res.Model, "grill") + unseen(res.Model, "whisk")) / 3
		t.Logf("vectors %v: unseen violent words %.3f, unseen kitchen words %.3f", vec, bad, good)
		switch {
		case vec && !(bad > good+0.2):
			t.Errorf("with vectors, unseen violent words score %.3f, kitchen words %.3f", bad, good)
		case !vec && bad != good:
			t.Errorf("without vectors, unseen words score differently: %.3f, %.3f", bad, good)
		}
	}
}

// TestTrainConv fits the phrase term where the label depends on the pair
// of words and not on either word, and checks that the term is in the
// model with one of the candidate blends and that training is
// deterministic.
func TestTrainConv(t *testing.T) {
	exs := verbObjectRows([]string{"my arms", "the bread"}, func(v, o int) bool { return v == o })
	cfg := smallConfig()
	cc := *cfg.Conv
	cc.Filters, cc.Epochs = 8, 5
	cfg.Conv = &cc
	var raw [2][]byte
	var fitted *ConvNet
	for k := range raw {
		res, err := Train(exs, exs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		fitted = res.Conv
		p := res.Model.Params()
		if p.Conv == nil || p.Conv.Filters != 8 {
			t.Fatalf("model has phrase term %+v", p.Conv)
		}
		if b := res.ConvBlend[selfHarm]; !slices.Contains(cc.Blends, b) {
			t.Fatalf("blend %v is not a candidate", b)
		}
		if raw[k], err = p.Encode(); err != nil {
			t.Fatal(err)
		}
	}
	if string(raw[0]) != string(raw[1]) {
		t.Error("two trainings with the phrase term differ")
	}
	// The fitted term, written and read back, reused instead of fitting
	// one: the same rows give the same model.
	var buf bytes.Buffer
	if _, err := fitted.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	from, err := ReadConvNet(&buf)
	if err != nil {
		t.Fatal(err)
	}
	reuse := cc
	reuse.From = from
	cfg.Conv = &reuse
	res, err := Train(exs, exs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	p := res.Model.Params()
	got, err := p.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(raw[0]) {
		t.Error("the reused phrase term gives another model than the fitted one")
	}
	reuse.Filters = 16
	if _, err := Train(exs, exs, cfg); err == nil {
		t.Error("a reused term of 8 filters was taken for a configuration of 16")
	}
	if _, err := ReadConvNet(strings.NewReader("not a term")); err == nil {
		t.Error("ReadConvNet took garbage")
	}
}

// TestTrainConvResidual checks that a residual phrase term learns what the
// linear part leaves: where one word already decides the label, which the
// linear part fits, the term fitted on the residual separates the classes
// far less than the term fitted alone. The term fitted alone with its
// weights averaged over the last epoch separates them too.
func TestTrainConvResidual(t *testing.T) {
	exs := verbObjectRows([]string{"my arms", "the bread", "the plates"}, func(v, _ int) bool { return v == 0 })
	cfg := smallConfig()
	cfg.Conv = nil
	res, err := Train(exs, exs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := vectors.Default()
	if err != nil {
		t.Fatal(err)
	}
	gap := func(residual []float64, average bool) float32 {
		cc := *DefaultConfig().Conv
		cc.Filters, cc.Epochs, cc.Residual, cc.Average = 8, 5, residual, average
		c := cfg
		c.Conv = &cc
		n := fitConv(exs, &c, tab, res.Model)
		h, acc := make([]float32, n.F), make([]float32, n.F)
		arg := make([]int32, n.F)
		var sum [2]float32
		var buf []byte
		for i := range exs {
			var ids []int32
			ids, _, buf = tableWords(tab, c.Normalization, buf, exs[i].Text, 0)
			z := n.forward(ids, h, arg, acc)
			sum[i%2] += z[selfHarm] / float32(len(exs)/2)
		}
		return sum[0] - sum[1]
	}
	alone, resid, avg := gap(nil, false), gap([]float64{0, 0, 0, 1}, false), gap(nil, true)
	t.Logf("term's mean gap between the classes: alone %.3f, on the residual %.3f, averaged %.3f", alone, resid, avg)
	if alone < 1 || resid > alone/2 {
		t.Errorf("gap alone %.3f, on the residual %.3f: want the residual term to separate far less", alone, resid)
	}
	if avg < 1 {
		t.Errorf("gap with averaged weights %.3f: want the term to separate the classes", avg)
	}
}

// verbObjectRows returns 480 rows "i will <verb> <object> tonight", the
// verb cut or wash and the object from objects in turn (row i: verb i%2,
// object (i/2)%len(objects)), SELF_HARM positive when harm(verb, object),
// negative for every category otherwise.
func verbObjectRows(objects []string, harm func(v, o int) bool) []Example {
	verbs := []string{"cut", "wash"}
	exs := make([]Example, 0, 480)
	for i := range 480 {
		v, o := i%2, (i/2)%len(objects)
		e := Example{Dataset: "synthetic", ID: fmt.Sprint(i), Text: "i will " + verbs[v] + " " + objects[o] + " tonight"}
		e.Target, e.Weight = all(0, 1)
		if harm(v, o) {
			e.Target[selfHarm] = 1
		}
		exs = append(exs, e)
	}
	return exs
}

// smallConfig is DefaultConfig with a small hashed table, few iterations
// and no letter-spaced twins, for the phrase term's tests.
func smallConfig() Config {
	cfg := DefaultConfig()
	cfg.Features = linear.Features{Bits: 12, Words: true}
	cfg.MaxIter = 50
	cfg.SpacedWeight = 0
	return cfg
}

// TestSetScales: each data set's rows are weighted by (median set size /
// set size)^p, the hand-written set is left alone, and Config.weight
// applies the factor of the category only.
func TestSetScales(t *testing.T) {
	var exs []Example
	for ds, n := range map[string]int{"a": 1, "b": 4, "c": 16, "synthetic": 100} {
		for range n {
			exs = append(exs, Example{Dataset: ds})
		}
	}
	got := setScales(exs, 0.5)
	want := map[string]float64{"a": 2, "b": 1, "c": 0.5}
	if len(got) != len(want) {
		t.Fatalf("setScales = %v, want %v", got, want)
	}
	for ds, w := range want {
		if math.Abs(got[ds]-w) > 1e-12 {
			t.Errorf("setScales[%s] = %v, want %v", ds, got[ds], w)
		}
	}
	cfg := Config{}
	cfg.setScale[1] = got
	e := Example{Dataset: "a"}
	e.Weight = [N]float32{1, 1, 1, 1}
	if w := cfg.weight(&e, 1); w != 2 {
		t.Errorf("weight of category 1 = %v, want 2", w)
	}
	if w := cfg.weight(&e, 0); w != 1 {
		t.Errorf("weight of category 0 = %v, want 1 (no balancing there)", w)
	}
}

// TestWithShort checks the short fragments of ShortNegatives: one per
// example that is a hard negative in every category, 1 to 6 of its words
// in order, weighted by the factor, the same on every run; none for an
// example that is positive or unlabelled in any category.
func TestWithShort(t *testing.T) {
	benign := Example{Dataset: "d", ID: "1", Text: "we will pick the kids up after the game tonight", Weight: [N]float32{1, 1, 1, 1}}
	harmful := benign
	harmful.ID, harmful.Target[2] = "2", 1
	unlabelled := benign
	unlabelled.ID, unlabelled.Weight[3] = "3", 0
	got := withShort([]Example{benign, harmful, unlabelled}, 0.5)
	if len(got) != 4 {
		t.Fatalf("got %d rows, want the 3 examples and 1 fragment", len(got))
	}
	f := got[3]
	words := strings.Fields(f.Text)
	if f.ID != "1#s" || len(words) < 1 || len(words) > 6 || !strings.Contains(benign.Text, f.Text) {
		t.Errorf("fragment %q (%d words): want 1 to 6 consecutive words of example 1", f.ID, len(words))
	}
	for c := range N {
		if f.Weight[c] != 0.5 || !f.Negative(c) {
			t.Errorf("fragment category %d: weight %v, negative %v; want 0.5, true", c, f.Weight[c], f.Negative(c))
		}
	}
	if again := withShort([]Example{benign}, 0.5); again[1].Text != f.Text {
		t.Error("the fragment differs between runs")
	}
}

// TestWithImplied: each implied statement of a HATE-positive example
// becomes a HATE positive row at weight w·(the example's)/√k for k
// statements, unknown in the other categories; an example that is not a
// HATE positive adds none.
func TestWithImplied(t *testing.T) {
	pos := Example{Dataset: "d", ID: "1", Text: "post", Implied: []string{"x are y", "x do z", "x w"}}
	pos.pos(0.5, hate)
	neg := Example{Dataset: "d", ID: "2", Text: "post", Implied: []string{"x are y"}}
	neg.neg(1, hate)
	got := withImplied([]Example{pos, neg}, 2)
	if len(got) != 5 {
		t.Fatalf("got %d rows, want the 2 examples and 3 statements", len(got))
	}
	want := float32(0.5 * 2 / math.Sqrt(3))
	for i, r := range got[2:] {
		if r.Text != pos.Implied[i] || r.ID != fmt.Sprintf("1#i%d", i) || !r.Positive(hate) || math.Abs(float64(r.Weight[hate]-want)) > 1e-6 {
			t.Errorf("row %d: id %s, HATE target %v weight %v; want 1#i%d, 1, %v", i, r.ID, r.Target[hate], r.Weight[hate], i, want)
		}
		for c := 1; c < N; c++ {
			if r.Weight[c] != 0 {
				t.Errorf("row %d: category %d has weight %v, want unknown", i, c, r.Weight[c])
			}
		}
	}
}

// TestSetBias: two data sets whose annotators differ in how much they call
// harmful (set "broad" labels 30 rows positive that hold no harmful word),
// each written in a register of its own (a word on every row of the set).
// Without intercepts per set the register words carry the base rates;
// with them (Config.SetBias) the intercepts do, the register words keep
// under a tenth of their weight, the harmful word keeps its weight's sign
// and most of its size, and rows of other sets get no intercept.
func TestSetBias(t *testing.T) {
	// Columns: 0 the harmful word, 1 the register of "broad", 2 that of
	// "narrow", 3 a word of the hand-written rows.
	var exs []Example
	X := &sparse{rowPtr: []int{0}}
	add := func(ds string, n int, pos bool, cols ...uint32) {
		for range n {
			e := Example{Dataset: ds}
			e.Weight = [N]float32{1, 1, 1, 1}
			if pos {
				e.Target[0] = 1
			}
			exs = append(exs, e)
			for _, c := range cols {
				X.idx = append(X.idx, c)
				X.val = append(X.val, 1)
			}
			X.rowPtr = append(X.rowPtr, len(X.idx))
		}
	}
	add("broad", 50, true, 0, 1)
	add("broad", 30, true, 1)
	add("broad", 70, false, 1)
	add("narrow", 50, true, 0, 2)
	add("narrow", 150, false, 2)
	add("synthetic", 60, false, 3)
	group, groups := setGroups(exs, 0)
	if groups != 2 || group[0] != 0 || group[150] != 1 || group[len(group)-1] != -1 {
		t.Fatalf("setGroups: %d groups, rows 0, 150, last in %d, %d, %d; want 2 groups and 0, 1, -1",
			groups, group[0], group[150], group[len(group)-1])
	}
	if _, n := setGroups(exs, 1); n != 0 {
		t.Errorf("setGroups of a category without positives: %d groups, want 0", n)
	}
	fit := func(bias bool) []float64 {
		y, a := make([]float64, len(exs)), make([]float64, len(exs))
		for i := range exs {
			y[i], a[i] = float64(exs[i].Target[0]), 1
		}
		p := &problem{X: X, y: y, a: a, l2: 1e-3, dim: 4, hashed: 4}
		if bias {
			p.group, p.groups = group, groups
		}
		x, _, _, _ := lbfgs(p, p.dim+1+p.groups, 500, 10, 1e-9)
		return x
	}
	plain, with := fit(false), fit(true)
	if plain[1] <= 0.5 || plain[2] >= -0.5 {
		t.Fatalf("without intercepts the registers weigh %.3f and %.3f; want them to carry the base rates (> 0.5, < -0.5)", plain[1], plain[2])
	}
	for _, j := range []int{1, 2} {
		if math.Abs(with[j]) > math.Abs(plain[j])/10 {
			t.Errorf("register %d weighs %.3f with intercepts, %.3f without; want under a tenth", j, with[j], plain[j])
		}
	}
	if with[0] < plain[0]/2 {
		t.Errorf("the harmful word weighs %.3f with intercepts, %.3f without", with[0], plain[0])
	}
}

// TestConvSetBias is TestSetBias for the phrase term: in data set "broad"
// (every row about the bread) the annotators also called 40% of the rows
// that wash it harmful, in "narrow" (the plates) 10%. Fitted alone, the
// term scores washing the bread well above washing the plates (their
// log-odds differ by about 1.8); with per-set intercepts
// (Config.SetBias) the gap shrinks to under half.
func TestConvSetBias(t *testing.T) {
	var exs []Example
	for i := range 400 {
		v, broad := i%2, i/2%2 == 0
		e := Example{Dataset: "narrow", ID: fmt.Sprint(i), Text: "i will " + []string{"cut", "wash"}[v] + " the plates tonight"}
		if broad {
			e.Dataset, e.Text = "broad", strings.Replace(e.Text, "the plates", "the bread", 1)
		}
		e.Target, e.Weight = all(0, 1)
		if v == 0 || broad && i%5 < 2 || !broad && i%10 == 1 {
			e.Target[selfHarm] = 1
		}
		exs = append(exs, e)
	}
	tab, err := vectors.Default()
	if err != nil {
		t.Fatal(err)
	}
	gap := func(bias bool) float32 {
		cfg := smallConfig()
		cc := *cfg.Conv
		cc.Filters, cc.Epochs = 8, 20
		cfg.Conv = &cc
		cfg.SetBias[selfHarm] = bias
		n := fitConv(exs, &cfg, tab, nil)
		h, acc := make([]float32, n.F), make([]float32, n.F)
		arg := make([]int32, n.F)
		z := func(text string) float32 {
			ids, _, _ := tableWords(tab, cfg.Normalization, nil, text, 0)
			return n.forward(ids, h, arg, acc)[selfHarm]
		}
		return z("i will wash the bread tonight") - z("i will wash the plates tonight")
	}
	plain, with := gap(false), gap(true)
	t.Logf("washing the bread over the plates: %.3f alone, %.3f with intercepts per set", plain, with)
	if plain < 0.5 || with > plain/2 {
		t.Errorf("gap %.3f alone, %.3f with intercepts per set: want the intercepts to take the set's base rate", plain, with)
	}
}
