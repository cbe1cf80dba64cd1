package linear_test

// The second-stage experiment of issue 15, item 3 (docs/classifiers-experiments.md,
// "A second stage over the model's parts"): does a small learned model over
// the parts of the shipped model's log-odds, trained on rows the first stage
// did not see, rank unseen data sets better than the first stage's own sum?
//
//	RAI_STACK_EXPERIMENT=1 go test ./classifiers/linear -run StackExperiment -v -timeout 30m
//
// It needs ../shared/data and takes about two minutes. It prints counts and
// average precision only.

import (
	"bytes"
	"encoding/json"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/openrai/raiserver/classifiers/linear"
	"github.com/openrai/raiserver/classifiers/linear/train"
)

// stackInputs is the width of a window's input: the three parts' log-odds
// per category, 64 filter activations, log(1+words) and the coverage.
const stackInputs = 3*linear.N + 64 + 2

type stackWindow struct {
	item int
	x    [stackInputs]float32
	sum  [linear.N]float32 // the first stage's log-odds: the three parts added
}

// stackWindows appends the server's windows of e (train.Windows) scored by m.
func stackWindows(dst []stackWindow, m *linear.Model, e *train.Example, item int) []stackWindow {
	text := []byte(e.Text)
	for _, w := range train.Windows(nil, text) {
		zng, zv, zc, h, words, cov := linear.StackParts(m, text[w.From:w.End])
		x := stackWindow{item: item}
		for c := range linear.N {
			x.x[c], x.x[linear.N+c], x.x[2*linear.N+c] = zng[c], zv[c], zc[c]
			x.sum[c] = zng[c] + zv[c] + zc[c]
		}
		copy(x.x[3*linear.N:3*linear.N+64], h)
		x.x[stackInputs-2] = float32(math.Log1p(float64(words)))
		x.x[stackInputs-1] = cov
		dst = append(dst, x)
	}
	return dst
}

// topWindows keeps each item's window with the highest first-stage
// log-odds in any category: the window that decides the item.
func topWindows(ws []stackWindow) []stackWindow {
	top := map[int]int{}
	for i, w := range ws {
		if j, ok := top[w.item]; !ok || slices.Max(w.sum[:]) > slices.Max(ws[j].sum[:]) {
			top[w.item] = i
		}
	}
	out := make([]stackWindow, 0, len(top))
	for _, i := range top {
		out = append(out, ws[i])
	}
	slices.SortFunc(out, func(a, b stackWindow) int { return a.item - b.item })
	return out
}

// stackNet is logistic regression (hidden 0) or a one-layer ReLU network
// over the standardized inputs, one output per category.
type stackNet struct {
	hidden  int
	mask    [stackInputs]bool // inputs left out
	w1, b1  []float64
	w2, b2  []float64
	mu, sd  [stackInputs]float64
	xs, hid []float64 // scratch
	out     [linear.N]float64
}

func (n *stackNet) in() int {
	if n.hidden == 0 {
		return stackInputs
	}
	return n.hidden
}

func (n *stackNet) forward(x *[stackInputs]float32) {
	for j := range stackInputs {
		n.xs[j] = 0
		if !n.mask[j] {
			n.xs[j] = (float64(x[j]) - n.mu[j]) / n.sd[j]
		}
	}
	a := n.xs
	if n.hidden > 0 {
		for h := range n.hidden {
			s := n.b1[h]
			for j, v := range n.xs {
				s += n.w1[h*stackInputs+j] * v
			}
			n.hid[h] = max(0, s)
		}
		a = n.hid
	}
	for c := range linear.N {
		s := n.b2[c]
		for j, v := range a {
			s += n.w2[c*len(a)+j] * v
		}
		n.out[c] = s
	}
}

// fitStack fits n on ws (items of exs, hard labels only) by Adam on the
// summed log loss: learning rate 1e-3, batch 128, L2 1e-4, 10 epochs.
func fitStack(n *stackNet, ws []stackWindow, exs []train.Example, seed uint64) {
	for j := range stackInputs {
		var s, s2 float64
		for i := range ws {
			v := float64(ws[i].x[j])
			s, s2 = s+v, s2+v*v
		}
		k := float64(len(ws))
		n.mu[j] = s / k
		n.sd[j] = math.Sqrt(max(s2/k-n.mu[j]*n.mu[j], 1e-8))
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	n.xs, n.hid = make([]float64, stackInputs), make([]float64, n.hidden)
	if n.hidden > 0 {
		n.w1, n.b1 = make([]float64, n.hidden*stackInputs), make([]float64, n.hidden)
		for i := range n.w1 {
			n.w1[i] = rng.NormFloat64() * math.Sqrt(2/float64(stackInputs))
		}
	}
	n.w2, n.b2 = make([]float64, linear.N*n.in()), make([]float64, linear.N)
	for i := range n.w2 {
		n.w2[i] = rng.NormFloat64() * math.Sqrt(1/float64(n.in()))
	}
	params := [][]float64{n.w1, n.b1, n.w2, n.b2}
	var grad, m1, m2 [4][]float64
	for k, p := range params {
		grad[k], m1[k], m2[k] = make([]float64, len(p)), make([]float64, len(p)), make([]float64, len(p))
	}
	order := make([]int, len(ws))
	for i := range order {
		order[i] = i
	}
	const batch, lr, l2 = 128, 1e-3, 1e-4
	step := 0
	for range 10 {
		rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		for b := 0; b < len(order); b += batch {
			for k := range grad {
				clear(grad[k])
			}
			for _, i := range order[b:min(b+batch, len(order))] {
				e := &exs[ws[i].item]
				n.forward(&ws[i].x)
				var d [linear.N]float64
				for c := range linear.N {
					if e.Positive(c) || e.Negative(c) {
						y := 0.0
						if e.Positive(c) {
							y = 1
						}
						d[c] = 1/(1+math.Exp(-n.out[c])) - y
					}
				}
				a := n.xs
				if n.hidden > 0 {
					a = n.hid
				}
				for c := range linear.N {
					grad[3][c] += d[c]
					for j, v := range a {
						grad[2][c*len(a)+j] += d[c] * v
					}
				}
				for h := range n.hidden {
					if n.hid[h] <= 0 {
						continue
					}
					var g float64
					for c := range linear.N {
						g += d[c] * n.w2[c*n.hidden+h]
					}
					grad[1][h] += g
					for j, v := range n.xs {
						grad[0][h*stackInputs+j] += g * v
					}
				}
			}
			step++
			bc1, bc2 := 1-math.Pow(0.9, float64(step)), 1-math.Pow(0.999, float64(step))
			for k, p := range params {
				for i := range p {
					g := grad[k][i]/batch + l2*p[i]
					m1[k][i] = 0.9*m1[k][i] + 0.1*g
					m2[k][i] = 0.999*m2[k][i] + 0.001*g*g
					p[i] -= lr * (m1[k][i] / bc1) / (math.Sqrt(m2[k][i]/bc2) + 1e-8)
				}
			}
		}
	}
}

func TestStackExperiment(t *testing.T) {
	if os.Getenv("RAI_STACK_EXPERIMENT") == "" {
		t.Skip("set RAI_STACK_EXPERIMENT=1 to run the second-stage experiment (about two minutes)")
	}
	root := train.RepoRoot()
	c, err := train.LoadShared(root + "/../shared/data")
	if err != nil || len(c.Examples) == 0 {
		t.Skip("../shared/data is absent")
	}
	for _, f := range []string{"synthetic.tsv", "synthetic-sexual-context.tsv", "synthetic-prose-violence.tsv", "synthetic-prose-sexual.tsv", "synthetic-prose-everyday.tsv"} {
		if err := c.AddSynthetic(root+"/cmd/rai-train/"+f, "synthetic/"+f); err != nil {
			t.Fatal(err)
		}
	}
	// The splits of rai-train.
	tr, dev := train.Split(c.Examples)
	half := func(e *train.Example) int {
		h := fnv.New64a()
		h.Write([]byte(e.ID))
		return int(h.Sum64() / 5 % 2) // not IsDev's residue
	}
	// Cross-fitting: the first stage (the shipped configuration, its
	// per-category L2 from the manifest, and phrase term) trained on each
	// half scores the other half's rows.
	cfg := train.DefaultConfig()
	manifest, err := os.ReadFile(root + "/classifiers/linear/model/MANIFEST.json")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Config struct {
			L2Category [linear.N]float64 `json:"l2_category"`
		} `json:"config"`
	}
	if err := json.Unmarshal(manifest, &m); err != nil {
		t.Fatal(err)
	}
	cfg.L2Category = m.Config.L2Category
	raw, err := os.ReadFile(root + "/classifiers/linear/model/phrase-term.gob")
	if err != nil {
		t.Fatal(err)
	}
	cc := *cfg.Conv
	if cc.From, err = train.ReadConvNet(bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	cc.Fixed = []float64{1, 0, 0.5, 0}
	cfg.Conv = &cc
	var halves [2]*linear.Model
	for k := range halves {
		var part []train.Example
		for i := range tr {
			if half(&tr[i]) == k {
				part = append(part, tr[i])
			}
		}
		r, err := train.Train(part, dev, cfg)
		if err != nil {
			t.Fatal(err)
		}
		halves[k] = r.Model
	}
	var trw []stackWindow
	for i := range tr {
		trw = append(trw, topWindows(stackWindows(nil, halves[1-half(&tr[i])], &tr[i], i))...)
	}
	full, err := linear.Default()
	if err != nil {
		t.Fatal(err)
	}
	var dw []stackWindow
	for i := range dev {
		dw = stackWindows(dw, full, &dev[i], i)
	}
	t.Logf("training items %d, dev items %d (%d windows)", len(trw), len(dev), len(dw))
	trainable := func(e *train.Example) bool {
		d, _ := train.DatasetByName(e.Dataset)
		return d.Trainable
	}
	for _, v := range []struct {
		hidden  int
		filters bool
	}{{0, false}, {0, true}, {16, false}, {16, true}} {
		n := &stackNet{hidden: v.hidden}
		if !v.filters {
			for j := 3 * linear.N; j < 3*linear.N+64; j++ {
				n.mask[j] = true
			}
		}
		fitStack(n, trw, tr, 1)
		base := make([][linear.N]float64, len(dev))
		stacked := make([][linear.N]float64, len(dev))
		for i := range dev {
			for c := range linear.N {
				base[i][c], stacked[i][c] = math.Inf(-1), math.Inf(-1)
			}
		}
		for i := range dw {
			w := &dw[i]
			n.forward(&w.x)
			for c := range linear.N {
				base[w.item][c] = max(base[w.item][c], float64(w.sum[c]))
				stacked[w.item][c] = max(stacked[w.item][c], n.out[c])
			}
		}
		for _, group := range []string{"trainable sets", "dev-only sets"} {
			for c := range linear.N {
				var sb, ss []train.Scored
				npos := 0
				for i := range dev {
					e := &dev[i]
					if trainable(e) != (group == "trainable sets") || !e.Positive(c) && !e.Negative(c) {
						continue
					}
					sb = append(sb, train.Scored{Score: base[i][c], Positive: e.Positive(c)})
					ss = append(ss, train.Scored{Score: stacked[i][c], Positive: e.Positive(c)})
					if e.Positive(c) {
						npos++
					}
				}
				if npos < 20 {
					continue
				}
				t.Logf("hidden %2d, filters %-5v  %-14s  category %d  rows %5d  positives %4d  AP first stage %.3f  second stage %.3f",
					v.hidden, v.filters, group, c, len(sb), npos, train.AveragePrecision(sb), train.AveragePrecision(ss))
			}
		}
	}
}
