package train

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/openrai/raiserver/classifiers/linear"
	"github.com/openrai/raiserver/classifiers/vectors"
)

// ConvConfig sets the phrase term (linear.ConvTerm) of a training run.
type ConvConfig struct {
	Width   int `json:"width"`
	Filters int `json:"filters"`
	// Epochs of Adam (learning rate LR, L2 penalty L2 on every weight)
	// over the training rows in mini-batches of Batch, in an order fixed by
	// Seed.
	Epochs int     `json:"epochs"`
	LR     float64 `json:"lr"`
	L2     float64 `json:"l2"`
	Batch  int     `json:"batch"`
	Seed   uint64  `json:"seed"`
	// MaxWords keeps the first MaxWords table words of a training row
	// (long posts; the server reads sentence-sized windows).
	MaxWords int `json:"max_words"`
	// Blends are the candidate weights of the term in the log-odds; for
	// each category the one with the best calibration objective on the
	// development items (chooseBlends) is kept, 0 included.
	Blends []float64 `json:"blends"`
	// Fixed, when set, is the blend of each category (HATE, SEXUAL,
	// VIOLENCE, SELF_HARM) instead of a choice among Blends: for comparing
	// training data at the same blends, whose choice alone moves the
	// operating points.
	Fixed []float64 `json:"fixed,omitempty"`
	// Residual, per category (HATE, SEXUAL, VIOLENCE, SELF_HARM; any other
	// length: 0 for all), fits the term on what the linear part leaves: the loss
	// of a row in category c is that of Residual[c] × (the linear part's
	// log-odds of the row) + the term, the linear part held fixed
	// (boosting), so the term learns what the n-grams miss instead of what
	// they already know. 0 fits the term alone.
	Residual []float64 `json:"residual,omitempty"`
	// Average, when true, keeps the mean of the weights over the last
	// epoch's steps (Polyak averaging) instead of the last step's, which
	// damps the noise of the final mini-batches.
	Average bool `json:"average,omitempty"`
	// From, when not nil, is a fitted term (ReadConvNet) to reuse instead
	// of fitting one: the blends and Absent are still chosen on the
	// development rows. With it a change to the training rows is measured
	// without the draw of a new term, which alone moves the operating
	// points as much as many such changes (docs/classifiers-model.md).
	From *ConvNet `json:"-"`
}

// ConvNet is a fitted phrase term before quantization, as Result.Conv
// returns it and ConvConfig.From takes it.
type ConvNet struct{ n *convNet }

// convNetFile is the serialized form of a ConvNet (WriteTo, ReadConvNet).
type convNetFile struct {
	Magic   string
	W, F, D int
	K, B    []float32
	V, C    []float32
}

const convNetMagic = "RAICONV1"

// WriteTo writes the term's float weights (gob).
func (c *ConvNet) WriteTo(w io.Writer) (int64, error) {
	n := c.n
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(convNetFile{Magic: convNetMagic, W: n.W, F: n.F, D: n.D, K: n.K, B: n.B, V: n.V, C: n.C}); err != nil {
		return 0, err
	}
	return buf.WriteTo(w)
}

// ReadConvNet reads a term written by WriteTo and checks its shapes.
func ReadConvNet(r io.Reader) (*ConvNet, error) {
	var f convNetFile
	if err := gob.NewDecoder(r).Decode(&f); err != nil {
		return nil, fmt.Errorf("train: phrase term: %w", err)
	}
	if f.Magic != convNetMagic || f.W < 1 || f.F < 1 || f.D < 1 ||
		len(f.K) != f.F*f.W*f.D || len(f.B) != f.F || len(f.V) != N*f.F || len(f.C) != N {
		return nil, errors.New("train: phrase term: not a phrase term file, or its shapes do not agree")
	}
	return &ConvNet{n: &convNet{W: f.W, F: f.F, D: f.D, K: f.K, B: f.B, V: f.V, C: f.C}}, nil
}

// convWorkers is the fixed number of gradient workers: each sums the
// gradient of the same rows of a batch in the same order whatever
// GOMAXPROCS is, so training is deterministic.
const convWorkers = 2

// convRow is one training row: its table words and, per category, the
// target and the loss weight.
type convRow struct {
	ids []int32
	r   float32 // linear.Coverage
	y   [N]float32
	a   [N]float32
	off [N]float32 // Residual × the linear part's log-odds
	set [N]int32   // the row's per-set intercept in category c (Config.SetBias), or -1
}

// convNet is the phrase term being fitted, over dequantized vectors.
type convNet struct {
	W, F, D int
	K       []float32 // F × W × D
	B       []float32 // F
	V       []float32 // N × F
	C       []float32 // N
	vec     [][]float32
}

func (n *convNet) vector(id int32) []float32 { return n.vec[id] }

// forward returns the read-out of the words ids (without any blend) and
// fills h (per filter, after the ReLU and the maximum) and arg (the
// position of each filter's maximum, -1 when the ReLU cut it).
func (n *convNet) forward(ids []int32, h []float32, arg []int32, acc []float32) (z [N]float32) {
	T := len(ids)
	P := max(T+n.W-1, 1)
	for f := range n.F {
		h[f], arg[f] = 0, -1
	}
	for p := range P {
		copy(acc, n.B)
		for k := range n.W {
			j := p - (n.W - 1) + k
			if j < 0 || j >= T {
				continue
			}
			x := n.vector(ids[j])
			for f := range n.F {
				w := n.K[(f*n.W+k)*n.D : (f*n.W+k+1)*n.D]
				var s float32
				for d, xv := range x {
					s += w[d] * xv
				}
				acc[f] += s
			}
		}
		for f, a := range acc {
			if a > h[f] {
				h[f], arg[f] = a, int32(p)
			}
		}
	}
	for c := range N {
		s := n.C[c]
		for f := range n.F {
			s += n.V[c*n.F+f] * h[f]
		}
		z[c] = s
	}
	return z
}

// convGrad accumulates one worker's gradient.
type convGrad struct{ K, B, V, C, S []float32 }

// newGrad returns a zero gradient of the net and of sets per-set
// intercepts.
func (n *convNet) newGrad(sets int) *convGrad {
	return &convGrad{K: make([]float32, len(n.K)), B: make([]float32, n.F), V: make([]float32, len(n.V)), C: make([]float32, N), S: make([]float32, sets)}
}

func (g *convGrad) zero() { clear(g.K); clear(g.B); clear(g.V); clear(g.C); clear(g.S) }

// backward adds the gradient of a row with log-odds gradient dz.
func (n *convNet) backward(ids []int32, h []float32, arg []int32, dz [N]float32, g *convGrad) {
	for c := range N {
		g.C[c] += dz[c]
		for f := range n.F {
			g.V[c*n.F+f] += dz[c] * h[f]
		}
	}
	T := len(ids)
	for f := range n.F {
		if arg[f] < 0 {
			continue
		}
		var dh float32
		for c := range N {
			dh += dz[c] * n.V[c*n.F+f]
		}
		if dh == 0 {
			continue
		}
		g.B[f] += dh
		p := int(arg[f])
		for k := range n.W {
			j := p - (n.W - 1) + k
			if j < 0 || j >= T {
				continue
			}
			w := g.K[(f*n.W+k)*n.D : (f*n.W+k+1)*n.D]
			for d, xv := range n.vector(ids[j]) {
				w[d] += dh * xv
			}
		}
	}
}

// dequantize returns every vector of tab as float32, as the model's rows
// see them (int8 × scale).
func dequantize(tab *vectors.Table) [][]float32 {
	out := make([][]float32, tab.Len())
	flat := make([]float32, tab.Len()*tab.Dims())
	for id := range out {
		v := flat[id*tab.Dims() : (id+1)*tab.Dims()]
		tab.AddTo(v, int32(id), 1)
		out[id] = v
	}
	return out
}

// tableWords returns the table words of text under norm (at most
// maxWords, when positive) and the term's weight, linear.Coverage.
func tableWords(tab *vectors.Table, norm linear.Normalization, buf []byte, text string, maxWords int) ([]int32, float32, []byte) {
	buf = norm.Append(buf[:0], []byte(text))
	ids, words := linear.TableWords(nil, tab, buf)
	r := linear.Coverage(len(ids), words)
	if maxWords > 0 && len(ids) > maxWords {
		ids = ids[:maxWords:maxWords]
	}
	return ids, r, buf
}

// fitConv fits the phrase term on exs (the rows the linear part was fitted
// on) with the linear part's loss weights and class balance, by Adam on
// the weighted mean log loss of the term alone, or, with
// ConvConfig.Residual, of the term added to that share of lin's log-odds.
func fitConv(exs []Example, cfg *Config, tab *vectors.Table, lin *linear.Model) *convNet {
	cc := cfg.Conv
	n := &convNet{W: cc.Width, F: cc.Filters, D: tab.Dims(), vec: dequantize(tab)}
	rows := make([]convRow, 0, len(exs))
	var wpos, wneg [N]float64
	var buf []byte
	// Per-set intercepts (Config.SetBias), numbered across categories;
	// like the linear part's, they are fitted and left out of the term.
	var group [N][]int32
	var first [N]int32
	sets := 0
	for c := range N {
		if cfg.SetBias[c] {
			var k int
			group[c], k = setGroups(exs, c)
			first[c] = int32(sets)
			sets += k
		}
	}
	for i := range exs {
		// A text without a word of the table gets no term (see
		// linear.ConvTerm): it teaches the term nothing.
		var r convRow
		if r.ids, r.r, buf = tableWords(tab, cfg.Normalization, buf, exs[i].Text, cc.MaxWords); len(r.ids) == 0 {
			continue
		}
		if len(cc.Residual) == N && lin != nil {
			var p [N]float32
			lin.Scores([]byte(exs[i].Text), &p)
			for c := range N {
				r.off[c] = float32(cc.Residual[c]) * logit32(p[c])
			}
		}
		for c := range N {
			r.set[c] = -1
			if group[c] != nil && group[c][i] >= 0 {
				r.set[c] = first[c] + group[c][i]
			}
			r.y[c] = exs[i].Target[c]
			r.a[c] = float32(cfg.weight(&exs[i], c))
			if r.y[c] >= 0.5 {
				wpos[c] += float64(r.a[c])
			} else {
				wneg[c] += float64(r.a[c])
			}
		}
		rows = append(rows, r)
	}
	for c := range N {
		if wpos[c] > 0 && wneg[c] > 0 && cfg.PosBalance != 0 {
			s := float32(math.Pow(wneg[c]/wpos[c], cfg.PosBalance))
			for i := range rows {
				if rows[i].y[c] >= 0.5 {
					rows[i].a[c] *= s
				}
			}
		}
	}
	// Normalize the loss by the mean weight of a row, so that the
	// learning rate means the same whatever the weights.
	var tw float64
	for i := range rows {
		for c := range N {
			tw += float64(rows[i].a[c])
		}
	}
	tw = max(tw/float64(max(len(rows), 1)), 1e-9)

	rng := rand.New(rand.NewPCG(cc.Seed, 0x9e3779b97f4a7c15))
	n.K = make([]float32, n.F*n.W*n.D)
	n.B = make([]float32, n.F)
	n.V = make([]float32, N*n.F)
	n.C = make([]float32, N)
	ks := math.Sqrt(2 / float64(n.W*n.D))
	for i := range n.K {
		n.K[i] = float32(rng.NormFloat64() * ks)
	}
	vs := math.Sqrt(1 / float64(n.F))
	for i := range n.V {
		n.V[i] = float32(rng.NormFloat64() * vs)
	}
	for c := range N {
		n.C[c] = -2
	}
	setBias := make([]float32, sets)
	params := [][]float32{n.K, n.B, n.V, n.C, setBias}
	m1 := make([][]float32, len(params))
	m2 := make([][]float32, len(params))
	for j, p := range params {
		m1[j], m2[j] = make([]float32, len(p)), make([]float32, len(p))
	}
	grads := make([]*convGrad, convWorkers)
	for w := range grads {
		grads[w] = n.newGrad(sets)
	}
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	batch := max(cc.Batch, 1)
	step := 0
	var avg [][]float32
	avgN := 0
	if cc.Average {
		avg = make([][]float32, len(params))
		for j, p := range params {
			avg[j] = make([]float32, len(p))
		}
	}
	for epoch := range cc.Epochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for b0 := 0; b0 < len(order); b0 += batch {
			b1 := min(b0+batch, len(order))
			var wg sync.WaitGroup
			for w := range convWorkers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					g := grads[w]
					g.zero()
					h, acc := make([]float32, n.F), make([]float32, n.F)
					arg := make([]int32, n.F)
					for k := b0 + w; k < b1; k += convWorkers {
						r := &rows[order[k]]
						z := n.forward(r.ids, h, arg, acc)
						var dz [N]float32
						for c := range N {
							if r.a[c] != 0 {
								off, k := r.off[c], r.set[c]
								if k >= 0 {
									off += setBias[k]
								}
								// The model adds r·z: the gradient of
								// the loss in z is r times that in r·z.
								d := r.a[c] * (sigmoid32(off+r.r*z[c]) - r.y[c]) / float32(tw)
								dz[c] = r.r * d
								if k >= 0 {
									g.S[k] += d
								}
							}
						}
						n.backward(r.ids, h, arg, dz, g)
					}
				}()
			}
			wg.Wait()
			step++
			bc1 := 1 - math.Pow(0.9, float64(step))
			bc2 := 1 - math.Pow(0.999, float64(step))
			inv := 1 / float32(b1-b0)
			for j, p := range params {
				g0, g1 := gradPart(grads[0], j), gradPart(grads[1], j)
				lr := cc.LR
				if j == len(params)-1 {
					lr *= setBiasLR
				}
				for i := range p {
					gv := (g0[i]+g1[i])*inv + float32(cc.L2)*p[i]
					m1[j][i] = 0.9*m1[j][i] + 0.1*gv
					m2[j][i] = 0.999*m2[j][i] + 0.001*gv*gv
					p[i] -= float32(lr * (float64(m1[j][i]) / bc1) / (math.Sqrt(float64(m2[j][i])/bc2) + 1e-8))
				}
			}
			if avg != nil && epoch == cc.Epochs-1 {
				avgN++
				for j, p := range params {
					for i, v := range p {
						avg[j][i] += (v - avg[j][i]) / float32(avgN)
					}
				}
			}
		}
	}
	if avg != nil && avgN > 0 {
		for j, p := range params {
			copy(p, avg[j])
		}
	}
	return n
}

// setBiasLR scales the learning rate of the per-set intercepts: Adam
// moves a parameter by about the learning rate a step, and a set's
// intercept has a set's base rate to cover (a few units of log-odds)
// before the filters learn the set's register words in its place.
const setBiasLR = 10

func gradPart(g *convGrad, j int) []float32 {
	switch j {
	case 0:
		return g.K
	case 1:
		return g.B
	case 2:
		return g.V
	case 3:
		return g.C
	}
	return g.S
}

func sigmoid32(z float32) float32 { return float32(1 / (1 + math.Exp(-float64(z)))) }

// scales returns each filter's quantization unit (linear.ConvTerm.Scale):
// the largest |row| over every word of the table and every offset, over
// 127, so that no row is clamped.
func (n *convNet) scales() []float32 {
	var mu sync.Mutex
	top := make([]float64, n.F)
	var wg sync.WaitGroup
	for w := range convWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := make([]float64, n.F)
			for id := w; id < len(n.vec); id += convWorkers {
				x := n.vec[id]
				for f := range n.F {
					for k := range n.W {
						kern := n.K[(f*n.W+k)*n.D : (f*n.W+k+1)*n.D]
						var s float32
						for d, xv := range x {
							s += kern[d] * xv
						}
						local[f] = max(local[f], math.Abs(float64(s)))
					}
				}
			}
			mu.Lock()
			for f := range top {
				top[f] = max(top[f], local[f])
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	out := make([]float32, n.F)
	for f, m := range top {
		out[f] = float32(max(m, 1e-6) / 127)
	}
	return out
}

// term returns the fitted net as a model's phrase term, its read-out for
// category c scaled by blend[c].
func (n *convNet) term(blend [N]float64) *linear.ConvTerm {
	t := &linear.ConvTerm{
		Width: n.W, Filters: n.F,
		Kernel: append([]float32(nil), n.K...),
		FBias:  append([]float32(nil), n.B...),
		Scale:  n.scales(),
	}
	for c := range N {
		b := float32(blend[c])
		t.Const[c] = b * n.C[c]
		t.Out[c] = make([]float32, n.F)
		for f := range n.F {
			t.Out[c][f] = b * n.V[c*n.F+f]
		}
	}
	return t
}

// chooseBlends picks, per category, the blend of the phrase term by the
// objective Medium is calibrated with (bestMedium: the best mean per-set
// F1 that keeps every benign set's false positives under BenignFPR) over
// development items scored window by window (the worst window counts)
// with base's log-odds plus blend × the term's.
func chooseBlends(base *linear.Model, n *convNet, dev []Example, cfg *Config, tab *vectors.Table) [N]float64 {
	var best [N]float64
	if len(cfg.Conv.Fixed) == N {
		copy(best[:], cfg.Conv.Fixed)
		return best
	}
	cands := cfg.Conv.Blends
	if len(cands) == 0 {
		return best
	}
	type win struct{ lin, conv [N]float32 }
	items := make([][]win, len(dev))
	var wg sync.WaitGroup
	for w := range convWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var ws []Window
			var buf []byte
			h, acc := make([]float32, n.F), make([]float32, n.F)
			arg := make([]int32, n.F)
			for i := w; i < len(dev); i += convWorkers {
				text := []byte(dev[i].Text)
				ws = Windows(ws[:0], text)
				for _, w := range ws {
					var p [N]float32
					base.Scores(text[w.From:w.End], &p)
					var ids []int32
					var r float32
					ids, r, buf = tableWords(tab, cfg.Normalization, buf, string(text[w.From:w.End]), 0)
					var x win
					if len(ids) > 0 {
						x.conv = n.forward(ids, h, arg, acc)
						for c := range N {
							x.conv[c] *= r
						}
					}
					for c := range N {
						x.lin[c] = logit32(p[c])
					}
					items[i] = append(items[i], x)
				}
			}
		}()
	}
	wg.Wait()
	for c := range N {
		bestF := -1.0
		for _, b := range cands {
			negBy := map[string][]float64{}
			posBy := map[string][]float64{}
			for i := range dev {
				if !dev[i].Hard(c) || len(items[i]) == 0 {
					continue
				}
				top := float32(math.Inf(-1))
				for _, x := range items[i] {
					top = max(top, x.lin[c]+float32(b)*x.conv[c])
				}
				p := 1 / (1 + math.Exp(-float64(top)))
				if dev[i].Positive(c) {
					posBy[dev[i].Dataset] = append(posBy[dev[i].Dataset], p)
				} else {
					negBy[dev[i].Dataset] = append(negBy[dev[i].Dataset], p)
				}
			}
			_, f, ok := bestMediumF(negBy, posBy, cfg.Calibration.BenignFPR)
			if ok && f > bestF+1e-9 {
				bestF, best[c] = f, b
			}
		}
	}
	return best
}

func logit32(p float32) float32 {
	p = min(max(p, 1e-7), 1-1e-7)
	return float32(math.Log(float64(p) / (1 - float64(p))))
}
