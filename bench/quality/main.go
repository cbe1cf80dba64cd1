package main

import (
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/linear/train"
)

const n = int(classifiers.NumCategories)

// blockAt is the severity at which a finding blocks (MEDIUM).
const blockAt = 2

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		if errors.Is(err, train.ErrNoData) {
			fmt.Println("quality: skipped:", err)
			return
		}
		fmt.Fprintln(os.Stderr, "quality:", err)
		os.Exit(1)
	}
}

func run(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("quality", flag.ContinueOnError)
	blocklists = nil
	which := fs.String("classifier", "ensemble", "comma-separated: "+strings.Join(classifierNames(), ", "))
	data := fs.String("data", filepath.Join(train.RepoRoot(), "..", "shared", "data"), "folder of the public data sets")
	noObf := fs.Bool("no-obfuscation", false, "skip the obfuscation robustness runs")
	fs.StringVar(&modelPath, "model", "", "weights file for linear and ensemble instead of the shipped model (e.g. one trained by rai-train -exclude=sst,xstest)")
	leaks := fs.Bool("leaks", false, "also print the cross-category leak matrix (rows positive for A and negative for B, share blocked for B)")
	fs.IntVar(&contextBytes, "context", analyzer.DefaultContextBytes, "score with this many bytes of context before each segment (the server's contextBytes setting)")
	fs.IntVar(&minSegmentBytes, "min-segment", analyzer.DefaultMinSegmentBytes, "score with segments of at least this many bytes (the server's minSegmentBytes setting)")
	lodoDir := fs.String("lodo", "", "folder of leave-one-dataset-out models (rai-train -lodo -lodo-out DIR): score each left-out set with its model, beside go-away")
	fs.Func("blocklist", "a custom blocklist file the rules load, as the server's blocklists setting (repeat for several)", func(p string) error {
		blocklists = append(blocklists, p)
		return nil
	})
	rows := fs.String("rows", "", "score your own labelled rows instead of the public data: a file of labels<TAB>text lines (labels: none, or a comma-separated list of hate, sexual, violence, self_harm, or not: and such a list; see docs/benchmarks.md)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if contextBytes < 0 || contextBytes > analyzer.MaxContextBytes {
		return fmt.Errorf("-context %d not in [0, %d]", contextBytes, analyzer.MaxContextBytes)
	}
	if minSegmentBytes < 0 || minSegmentBytes > analyzer.DefaultMaxSegmentBytes {
		return fmt.Errorf("-min-segment %d not in [0, %d]", minSegmentBytes, analyzer.DefaultMaxSegmentBytes)
	}
	if *rows != "" {
		return scoreRows(w, *rows, *which)
	}
	corpus, err := train.LoadShared(*data)
	if err != nil {
		return err
	}
	if maskList, err = loadMaskList(filepath.Join(*data, "surge_profanity", "profanity_en.csv")); err != nil {
		return err
	}
	var results []*result
	for _, name := range strings.Split(*which, ",") {
		sc, err := newScorer(strings.TrimSpace(name))
		if err != nil {
			return err
		}
		r := evaluate(sc, corpus.Examples, !*noObf)
		r.print(w)
		if *leaks {
			r.printLeaks(w)
		}
		results = append(results, r)
	}
	if len(results) > 1 {
		summary(w, results)
	}
	if *lodoDir != "" {
		return lodo(w, *lodoDir, corpus.Examples)
	}
	return nil
}

// scoreRows prints the report of -rows for each classifier in which.
func scoreRows(w io.Writer, path, which string) error {
	exs, err := train.ReadLabelled(path, "rows")
	if err != nil {
		return err
	}
	if len(exs) == 0 {
		return fmt.Errorf("%s: no labelled rows", path)
	}
	for _, name := range strings.Split(which, ",") {
		sc, err := newScorer(strings.TrimSpace(name))
		if err != nil {
			return err
		}
		r := &result{name: sc.name, describe: sc.describe, rows: len(exs), exs: exs, v: make([]verdict, len(exs))}
		for i := range exs {
			r.v[i] = sc.score([]byte(exs[i].Text))
		}
		r.printRows(w, filepath.Base(path))
	}
	return nil
}

// verdict is what a classifier says about one text: the severity per
// category and a score for ranking (average precision).
type verdict struct {
	sev   [n]uint8
	score [n]float64
}

// anyAt reports whether v reaches severity level in any category: blocked
// in some category when level is the blockAt.
func (v verdict) anyAt(level uint8) bool { return slices.Max(v.sev[:]) >= level }

type scorer struct {
	name     string
	describe string
	score    func(text []byte) verdict
}

// split names: eval is what the shipped model never trained on (see the
// package comment), all is every row.
const (
	splitDev   = "eval"
	splitTrain = "trained"
	splitAll   = "all"
)

var splits = []string{splitDev, splitTrain, splitAll}

func inSplit(e *train.Example, split string) bool {
	switch split {
	case splitDev:
		return isEval(e)
	case splitTrain:
		return !isEval(e)
	}
	return true
}

// isEval reports whether the shipped model never trained on e.
func isEval(e *train.Example) bool {
	d, _ := train.DatasetByName(e.Dataset)
	switch {
	case d.Probe:
		return true
	case d.Trainable:
		return train.IsDev(e.ID)
	}
	return !train.IsDev(e.ID)
}

type result struct {
	name, describe string
	rows           int
	perCat         map[string][n]catStats // by split
	probes         []probe
	obf            []obfStat
	obfRows        int
	cleanRecall    float64
	negRows        int
	cleanFP        float64
	exs            []train.Example
	v              []verdict
}

type catStats struct {
	b       train.Binary
	ap      float64 // ranked by severity, as a client of the service sees it
	apScore float64 // ranked by the scorer's score (severity, ties broken by the model)
}

// apPair collects one category's rows for both average precisions: by
// severity, the only ranking a client of the service sees (ties between
// equal severities count as one threshold), and by score, where the
// model's probability breaks those ties (not visible through the API).
type apPair struct{ sev, sc []train.Scored }

func (a *apPair) add(v verdict, c int, pos bool) {
	a.sev = append(a.sev, train.Scored{Score: float64(v.sev[c]), Positive: pos})
	a.sc = append(a.sc, train.Scored{Score: v.score[c], Positive: pos})
}

func (a *apPair) severity() float64 { return train.AveragePrecision(a.sev) }
func (a *apPair) score() float64    { return train.AveragePrecision(a.sc) }

type probe struct {
	name   string
	target string
	value  map[string]string // by split
	num    map[string]float64
}

type obfStat struct {
	name     string
	recall   float64
	relative float64
	fp       float64 // negatives blocked under this obfuscation
}

func evaluate(sc *scorer, exs []train.Example, obf bool) *result {
	v := make([]verdict, len(exs))
	for i := range exs {
		v[i] = sc.score([]byte(exs[i].Text))
	}
	r := &result{name: sc.name, describe: sc.describe, rows: len(exs), perCat: map[string][n]catStats{}, exs: exs, v: v}
	for _, split := range splits {
		var cs [n]catStats
		for c := range n {
			var a apPair
			for i := range exs {
				if inSplit(&exs[i], split) && exs[i].Hard(c) {
					a.add(v[i], c, exs[i].Positive(c))
				}
			}
			cs[c] = catStats{b: countSev(exs, v, split, c), ap: a.severity(), apScore: a.score()}
		}
		r.perCat[split] = cs
	}

	anyBlocked := func(i int) bool { return v[i].anyAt(blockAt) }
	// XSTest safe prompts: share blocked in any category.
	r.addProbe("XSTest safe prompts blocked (any category)", "<= 0.05", exs, func(e *train.Example) bool {
		return e.Dataset == "xstest" && strings.HasPrefix(e.Kind, "safe/")
	}, anyBlocked)
	// The same if every category blocked at LOW (categories.X.blockAt).
	r.addProbe("XSTest safe prompts at LOW or more (blocked if blockAt is LOW)", "", exs, func(e *train.Example) bool {
		return e.Dataset == "xstest" && strings.HasPrefix(e.Kind, "safe/")
	}, func(i int) bool { return v[i].anyAt(1) })
	// The same by XSTest's prompt type (homonyms, figurative language,
	// safe targets, …): where the false positives come from.
	byXSTestType := func(prefix string) {
		var types []string
		for i := range exs {
			if e := &exs[i]; e.Dataset == "xstest" && strings.HasPrefix(e.Kind, prefix) && !slices.Contains(types, e.Kind) {
				types = append(types, e.Kind)
			}
		}
		slices.Sort(types)
		for _, kind := range types {
			r.addProbe("  of them "+strings.TrimPrefix(kind, prefix), "", exs, func(e *train.Example) bool {
				return e.Dataset == "xstest" && e.Kind == kind
			}, anyBlocked)
		}
	}
	byXSTestType("safe/")
	// Benign text that names an identity group (women, Muslims, gay
	// people, …): the rows of the sets with no HATE positive that name
	// one (train.BenignNamingIdentity), and how many of them HATE blocks.
	namesIdentity := map[*train.Example]bool{}
	for i, ok := range train.BenignNamingIdentity(exs) {
		if ok {
			namesIdentity[&exs[i]] = true
		}
	}
	r.addProbe("Benign rows naming an identity group: HATE blocked", "", exs, func(e *train.Example) bool {
		return namesIdentity[e]
	}, func(i int) bool { return v[i].sev[classifiers.Hate] >= blockAt })
	// Short texts (one to six words: chat turns, word-list entries, short
	// posts), where each word weighs most in the model (see "Short texts"
	// in docs/classifiers-experiments.md): benign rows blocked, and positive
	// rows blocked in a category they are positive for.
	short := func(e *train.Example) bool { return len(strings.Fields(e.Text)) <= maxShortWords }
	r.addProbe("Short rows (1-6 words), benign in all four: blocked (any category)", "", exs, func(e *train.Example) bool {
		return short(e) && e.Benign()
	}, anyBlocked)
	r.addProbe("Short rows (1-6 words), positive: blocked in a positive category", "", exs, func(e *train.Example) bool {
		return short(e) && e.Harmful()
	}, func(i int) bool { return blocksLabel(&exs[i], v[i]) })
	r.addProbe("XSTest unsafe prompts blocked (any category)", "", exs, func(e *train.Example) bool {
		return e.Dataset == "xstest" && strings.HasPrefix(e.Kind, "unsafe/")
	}, anyBlocked)
	// The same by type: which kinds of harmful request go through.
	byXSTestType("unsafe/")
	for _, p := range []struct {
		kind, label string
		c           int
	}{
		{"self-harm", "SST self-harm recall (SELF_HARM blocked)", int(classifiers.SelfHarm)},
		{"violence", "SST violence recall (VIOLENCE blocked)", int(classifiers.Violence)},
	} {
		r.addProbe(p.label, ">= 0.9", exs, func(e *train.Example) bool {
			return e.Dataset == "sst" && e.Kind == p.kind
		}, func(i int) bool { return v[i].sev[p.c] >= blockAt })
	}
	r.addProbe("SST self-harm+violence recall (any category blocked)", "", exs, func(e *train.Example) bool {
		return e.Dataset == "sst" && (e.Kind == "self-harm" || e.Kind == "violence")
	}, anyBlocked)
	r.addProbe("SST child safety, sexual cue: SEXUAL recall", "", exs, func(e *train.Example) bool {
		return e.Dataset == "sst" && e.Kind == "child-safety" && e.Positive(int(classifiers.Sexual))
	}, func(i int) bool { return v[i].sev[classifiers.Sexual] >= blockAt })
	r.addProbe("Davidson offensive, no hate votes: HATE blocked (profanity FP)", "", exs, func(e *train.Example) bool {
		return e.Dataset == "davidson" && e.Kind == "class1" && e.Target[classifiers.Hate] == 0
	}, func(i int) bool { return v[i].sev[classifiers.Hate] >= blockAt })
	r.addAP("Davidson hate vs neither AP (HATE score)", ">= 0.8", exs, v, int(classifiers.Hate), func(e *train.Example) bool {
		return e.Dataset == "davidson" && (e.Kind == "class0" || e.Kind == "class2")
	})
	r.addAP("ToxiGen hate vs neutral AP (HATE score)", "", exs, v, int(classifiers.Hate), func(e *train.Example) bool {
		return e.Dataset == "toxigen"
	})
	if obf {
		r.obfuscation(sc, exs, v)
	}
	return r
}

// maxShortWords is the most words a row of the short-text probes has.
const maxShortWords = 6

// blocksLabel reports whether verdict v blocks e in a category e is
// positive for.
func blocksLabel(e *train.Example, v verdict) bool {
	for c := range n {
		if e.Positive(c) && v.sev[c] >= blockAt {
			return true
		}
	}
	return false
}

func countSev(exs []train.Example, v []verdict, split string, c int) train.Binary {
	var b train.Binary
	for i := range exs {
		e := &exs[i]
		if !inSplit(e, split) || !e.Hard(c) {
			continue
		}
		pred := v[i].sev[c] >= blockAt
		switch {
		case pred && e.Positive(c):
			b.TP++
		case pred:
			b.FP++
		case e.Positive(c):
			b.FN++
		default:
			b.TN++
		}
	}
	return b
}

func (r *result) addProbe(name, target string, exs []train.Example, sel func(*train.Example) bool, hit func(int) bool) {
	p := probe{name: name, target: target, value: map[string]string{}, num: map[string]float64{}}
	for _, split := range splits {
		k, m := 0, 0
		for i := range exs {
			if inSplit(&exs[i], split) && sel(&exs[i]) {
				m++
				if hit(i) {
					k++
				}
			}
		}
		p.num[split] = ratio(k, m)
		p.value[split] = fmt.Sprintf("%s (%d/%d)", f3(ratio(k, m)), k, m)
	}
	r.probes = append(r.probes, p)
}

func (r *result) addAP(name, target string, exs []train.Example, v []verdict, c int, sel func(*train.Example) bool) {
	p := probe{name: name, target: target, value: map[string]string{}, num: map[string]float64{}}
	for _, split := range splits {
		var xs []train.Scored
		for i := range exs {
			if inSplit(&exs[i], split) && sel(&exs[i]) && exs[i].Hard(c) {
				xs = append(xs, train.Scored{Score: v[i].score[c], Positive: exs[i].Positive(c)})
			}
		}
		ap := train.AveragePrecision(xs)
		p.num[split] = ap
		p.value[split] = fmt.Sprintf("%s (n=%d)", f3(ap), len(xs))
	}
	r.probes = append(r.probes, p)
}

// obfuscation measures recall on the dev split's positives (and all SST
// and XSTest positives, which are few) under each obfuscation, relative to
// the clean recall: a row counts when a gold category is blocked.
func (r *result) obfuscation(sc *scorer, exs []train.Example, v []verdict) {
	var rows []int
	for i := range exs {
		e := &exs[i]
		if !isEval(e) || !sampled(e) {
			continue
		}
		if e.Harmful() {
			rows = append(rows, i)
		}
	}
	clean := 0
	for _, i := range rows {
		if blocksLabel(&exs[i], v[i]) {
			clean++
		}
	}
	r.obfRows = len(rows)
	r.cleanRecall = ratio(clean, len(rows))
	// The other side: dev-split rows negative in every category (and all
	// XSTest safe prompts), blocked in any category, clean and obfuscated.
	var negs []int
	for i := range exs {
		e := &exs[i]
		if !isEval(e) || !sampled(e) {
			continue
		}
		if e.Benign() {
			negs = append(negs, i)
		}
	}
	blocked := func(vv verdict) bool {
		for c := range n {
			if vv.sev[c] >= blockAt {
				return true
			}
		}
		return false
	}
	fp := 0
	for _, i := range negs {
		if blocked(v[i]) {
			fp++
		}
	}
	r.negRows, r.cleanFP = len(negs), ratio(fp, len(negs))
	for _, o := range obfuscations {
		if strings.HasSuffix(o.name, "-profanity") && len(maskList) == 0 {
			continue
		}
		k := 0
		for _, i := range rows {
			if blocksLabel(&exs[i], sc.score([]byte(o.fn(exs[i].Text)))) {
				k++
			}
		}
		f := 0
		for _, i := range negs {
			if blocked(sc.score([]byte(o.fn(exs[i].Text)))) {
				f++
			}
		}
		rec := ratio(k, len(rows))
		r.obf = append(r.obf, obfStat{name: o.name, recall: rec, relative: rec / r.cleanRecall, fp: ratio(f, len(negs))})
	}
}

func ratio(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

func f3(x float64) string {
	if math.IsNaN(x) {
		return "n/a"
	}
	return fmt.Sprintf("%.3f", x)
}

func (r *result) print(w io.Writer) {
	fmt.Fprintf(w, "== %s: %s\n", r.name, r.describe)
	fmt.Fprintf(w, "rows %d; blocked = severity >= %d; eval = rows the model never trained on; AP ranks by severity, AP score by the scorer's score (see go doc ./bench/quality)\n\n", r.rows, blockAt)
	r.printDatasets(w)
	for _, split := range []string{splitDev} {
		fmt.Fprintf(w, "per category, %s split (rows with a hard label for the category):\n", split)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "category\tpos\tneg\tprecision\trecall\tF1\tAP\tAP score\t")
		for c := range n {
			s := r.perCat[split][c]
			fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t\n", classifiers.Category(c), s.b.TP+s.b.FN, s.b.FP+s.b.TN,
				f3(s.b.Precision()), f3(s.b.Recall()), f3(s.b.F1()), f3(s.ap), f3(s.apScore))
		}
		tw.Flush()
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "per category and blockAt (categories.X.blockAt), eval rows:")
	printOperatingPoints(w, r.exs, r.v, isEval)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "probes:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "probe\ttarget\teval\ttrained\tall\t")
	for _, p := range r.probes {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t\n", p.name, p.target, p.value[splitDev], p.value[splitTrain], p.value[splitAll])
	}
	tw.Flush()
	if r.obf != nil {
		fmt.Fprintf(w, "\nobfuscation robustness (%d positive rows: a fixed quarter of the eval rows, all of the probes; clean recall %s; target relative >= 0.95;\n"+
			"  and %d negative rows of the same sample, blocked in any category: clean %s):\n",
			r.obfRows, f3(r.cleanRecall), r.negRows, f3(r.cleanFP))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "obfuscation\trecall\trelative\tnegatives blocked\t")
		for _, o := range r.obf {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", o.name, f3(o.recall), f3(o.relative), f3(o.fp))
		}
		tw.Flush()
	}
	fmt.Fprintln(w)
}

func summary(w io.Writer, rs []*result) {
	fmt.Fprintln(w, "== summary (eval rows unless marked all)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "metric\ttarget\t")
	for _, r := range rs {
		fmt.Fprintf(tw, "%s\t", r.name)
	}
	fmt.Fprintln(tw)
	row := func(name, target string, get func(*result) float64) {
		fmt.Fprintf(tw, "%s\t%s\t", name, target)
		for _, r := range rs {
			fmt.Fprintf(tw, "%s\t", f3(get(r)))
		}
		fmt.Fprintln(tw)
	}
	for c := range n {
		row(classifiers.Category(c).String()+" F1", "", func(r *result) float64 { return r.perCat[splitDev][c].b.F1() })
		row(classifiers.Category(c).String()+" AP", "", func(r *result) float64 { return r.perCat[splitDev][c].ap })
		row(classifiers.Category(c).String()+" AP score", "", func(r *result) float64 { return r.perCat[splitDev][c].apScore })
	}
	for i, p := range rs[0].probes {
		split := splitDev
		if strings.HasPrefix(p.name, "SST") || strings.HasPrefix(p.name, "XSTest") {
			split = splitAll
		}
		row(p.name+" ["+split+"]", p.target, func(r *result) float64 { return r.probes[i].num[split] })
	}
	row("obfuscation: worst relative recall", ">= 0.95", func(r *result) float64 {
		if r.obf == nil {
			return math.NaN()
		}
		m := math.Inf(1)
		for _, o := range r.obf {
			m = math.Min(m, o.relative)
		}
		return m
	})
	row("obfuscation: worst negatives blocked", "", func(r *result) float64 {
		if r.obf == nil {
			return math.NaN()
		}
		m := r.cleanFP
		for _, o := range r.obf {
			m = math.Max(m, o.fp)
		}
		return m
	})
	tw.Flush()
}

// sampled keeps a fixed quarter of the rows of the large sets, and every
// row of the probes and of sets under 2,000 rows, for the obfuscation runs.
func sampled(e *train.Example) bool {
	d, _ := train.DatasetByName(e.Dataset)
	if d.Probe {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(e.ID))
	return h.Sum32()%4 == 0
}

// printDatasets prints precision, recall, F1 and average precision per
// data set and category on the eval rows, for every category the set has
// positives and negatives of.
func (r *result) printDatasets(w io.Writer) {
	fmt.Fprintln(w, "per data set and category, eval rows:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "data set\ttrained on\tcategory\tpos\tneg\tprecision\trecall\tF1\tAP\tAP score\t")
	for _, d := range train.Datasets {
		for c := range n {
			var b, low train.Binary
			var a apPair
			for i := range r.exs {
				e := &r.exs[i]
				if e.Dataset != d.Name || !isEval(e) || !e.Hard(c) {
					continue
				}
				b.Add(r.v[i].sev[c] >= blockAt, e.Positive(c))
				low.Add(r.v[i].sev[c] >= 1, e.Positive(c))
				a.add(r.v[i], c, e.Positive(c))
			}
			switch {
			case b.TP+b.FN == 0 && b.FP+b.TN == 0:
				continue
			case b.TP+b.FN == 0: // a benign set: the share blocked, and the share tagged LOW or more
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\tblocked %s\tLOW+ %s\t\t\t\t\n", d.Name, trainedOn(d), classifiers.Category(c), 0, b.FP+b.TN, f3(b.FPR()), f3(low.FPR()))
				continue
			case b.FP+b.TN == 0: // positives only
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t\trecall %s\t\t\t\t\n", d.Name, trainedOn(d), classifiers.Category(c), b.TP+b.FN, 0, f3(b.Recall()))
				continue
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t\n", d.Name, trainedOn(d), classifiers.Category(c), b.TP+b.FN, b.FP+b.TN,
				f3(b.Precision()), f3(b.Recall()), f3(b.F1()), f3(a.severity()), f3(a.score()))
		}
	}
	tw.Flush()
	fmt.Fprintln(w)
}

func trainedOn(d train.Dataset) string {
	switch {
	case d.Probe:
		return "probe"
	case d.Trainable:
		return "yes"
	}
	return "no"
}

// lodo scores every trainable set with the model trained without it
// (dir/<set>.bin.gz), through the same ensemble as the server, beside
// go-away on the same rows.
func lodo(w io.Writer, dir string, exs []train.Example) error {
	ga, err := newScorer("goaway")
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "== leave-one-dataset-out: each set scored whole by the stack with the model trained without it")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "data set\tcategory\tpos\tneg\tprecision\trecall\tF1\tAP\tAP score\tgo-away F1\tF1 - go-away\t")
	for _, d := range train.Datasets {
		path := filepath.Join(dir, d.Name+".bin.gz")
		if _, err := os.Stat(path); err != nil {
			continue
		}
		modelPath = path
		sc, err := ensembleScorer("ensemble", "")
		if err != nil {
			return err
		}
		var rows []int
		for i := range exs {
			if exs[i].Dataset == d.Name {
				rows = append(rows, i)
			}
		}
		v := make([]verdict, len(exs))
		gv := make([]verdict, len(exs))
		for _, i := range rows {
			v[i] = sc.score([]byte(exs[i].Text))
			gv[i] = ga.score([]byte(exs[i].Text))
		}
		for c := range n {
			var b, g train.Binary
			var a apPair
			for _, i := range rows {
				e := &exs[i]
				if !e.Hard(c) {
					continue
				}
				b.Add(v[i].sev[c] >= blockAt, e.Positive(c))
				g.Add(gv[i].sev[c] >= blockAt, e.Positive(c))
				a.add(v[i], c, e.Positive(c))
			}
			if b.TP+b.FN == 0 || b.FP+b.TN == 0 {
				continue
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%+.3f\t\n", d.Name, classifiers.Category(c), b.TP+b.FN, b.FP+b.TN,
				f3(b.Precision()), f3(b.Recall()), f3(b.F1()), f3(a.severity()), f3(a.score()), f3(g.F1()), b.F1()-g.F1())
		}
	}
	modelPath = ""
	tw.Flush()
	fmt.Fprintln(w)
	return nil
}
