package train

import (
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/linear"
	"github.com/openrai/raiserver/classifiers/vectors"
)

// Config holds every hyperparameter of a training run. It is recorded in
// the manifest.
type Config struct {
	Features      linear.Features      `json:"features"`
	Normalization linear.Normalization `json:"normalization"`
	// L2 is the ridge penalty λ/2·‖w‖² added to the weighted mean log loss
	// (the bias is not penalized).
	L2 float64 `json:"l2"`
	// L2Category, where not 0, replaces L2 for a category (HATE, SEXUAL,
	// VIOLENCE, SELF_HARM), so that each head is regularized as its own
	// held-out measurement asks (docs/classifiers-model.md, "L2 per
	// category").
	L2Category [N]float64 `json:"l2_category,omitzero"`
	// MaxIter bounds L-BFGS iterations per category; Tol stops earlier when
	// the largest gradient component falls below it.
	MaxIter int     `json:"max_iter"`
	Tol     float64 `json:"tol"`
	// History is the number of L-BFGS correction pairs kept.
	History int `json:"history"`
	// OffensiveWeight scales Davidson "offensive language" rows (soft HATE
	// targets); SyntheticWeight scales hand-written examples.
	OffensiveWeight float32 `json:"offensive_weight"`
	SyntheticWeight float32 `json:"synthetic_weight"`
	// PosBalance is the class-weighting exponent: positives of a category
	// are weighted by (negative weight / positive weight)^PosBalance, so 0
	// is no re-weighting and 1 is full balance.
	PosBalance float64 `json:"pos_balance"`
	// SetBalance is the data-set balancing exponent per category (HATE,
	// SEXUAL, VIOLENCE, SELF_HARM; nil or 0 for none): every row of a data
	// set other than the hand-written one is weighted by (n_ref / n_set)^
	// SetBalance[c], where n_set is the set's number of training rows and
	// n_ref the median over the sets, so large sets stop deciding what
	// the model learns about every domain.
	SetBalance []float64 `json:"set_balance,omitempty"`
	setScale   [N]map[string]float64
	// SetBias, per category (HATE, SEXUAL, VIOLENCE, SELF_HARM), gives
	// each data set that holds at least setBiasMin hard positives and as
	// many hard negatives of the category in training (the hand-written
	// examples aside) an intercept of its own in that category's fit,
	// which the shipped model leaves out: a set's base rate and annotation
	// policy (how much of "offensive" its annotators called hate) go into
	// its intercept instead of into the weights of the words that happen
	// to be common in that set's register. The calibration reads the
	// thresholds afterwards, on scores without them.
	SetBias [N]bool `json:"set_bias,omitzero"`
	// SpacedWeight adds, for every training example, a twin written with
	// its letters spaced out ("k i l l"), which normalization joins into
	// one long word, at this weight relative to the original (0: none).
	// It teaches the model the word-internal n-grams that survive the
	// join, for robustness to letter-spacing evasion.
	SpacedWeight float32 `json:"spaced_weight"`
	// WindowNegatives adds, for every example longer than one server
	// window, each window (segment and context, as the analyzer classifies
	// it) as a negative row for the categories the example is a hard
	// negative for, at weight w/√k for k windows: every sentence of a benign
	// post is benign, and the server scores sentences, not posts.
	WindowNegatives bool `json:"window_negatives"`
	// ShortNegatives, when above 0, adds for every example that is a hard
	// negative in all four categories one short fragment of it (1 to 6
	// words, chosen by a hash of its ID) as a negative row at this weight
	// relative to the example's: chat holds many texts of a few words,
	// which the training rows (posts and sentences) barely hold, and on
	// which the pooled word vectors of one or two words ("him") decide
	// alone.
	ShortNegatives float32 `json:"short_negatives,omitempty"`
	// Implied, when above 0, adds for every training example that is a
	// hard HATE positive each of its Implied statements (what its
	// annotators wrote that it implies of a group, SBIC's stereotypes) as
	// a HATE positive row, at this weight times the example's over the
	// square root of the number of statements (they paraphrase each
	// other); the other categories are unknown for them. They are written
	// in the plain words that coded and sarcastic posts avoid, and say
	// what such posts mean.
	Implied float32 `json:"implied,omitempty"`
	// Vectors adds the pooled word vectors of classifiers/vectors (mean
	// and IDF-weighted mean, see linear.VectorTerm) as dense features
	// beside the hashed ones.
	Vectors bool `json:"vectors"`
	// VectorScale is the standard deviation of each dense column after
	// standardization; 0 means 1/√(2·Dims), which gives the block the unit
	// mean squared norm of a row's hashed part. Smaller values regularize
	// the vector term more (the L2 penalty is the same for every weight).
	// The default, 0.025, was the best of 0.2, 0.07, 0.025 and 0.01 on the
	// development rows (docs/classifiers-model.md).
	VectorScale float64 `json:"vector_scale,omitempty"`
	// Conv, when not nil, adds the phrase term (linear.ConvTerm) over the
	// word vectors, fitted after the linear part; it needs Vectors.
	Conv *ConvConfig `json:"conv,omitempty"`
	// Calibration sets the severity thresholds from the development split.
	Calibration Calibration `json:"calibration"`
}

// Calibration gives the severity thresholds as false-positive rates on the
// development negatives of each category (High also per data set), and
// the veto threshold as the
// share of development positives the model may veto.
type Calibration struct {
	LowFPR    float64 `json:"low_fpr"`
	MediumFPR float64 `json:"medium_fpr"`
	HighFPR   float64 `json:"high_fpr"`
	// HighDomainFPR bounds High per data set: at most this share of any
	// one set's development negatives reaches High.
	HighDomainFPR float64 `json:"high_domain_fpr"`
	VetoMiss      float64 `json:"veto_miss"`
	// BenignFPR bounds Medium from below: at most this share of any benign
	// development set's rows reaches it (see Calibrate).
	BenignFPR float64 `json:"benign_fpr"`
	// LowBenignFPR bounds Low from below in the same way: at most this
	// share of any benign development set's rows reaches LOW.
	LowBenignFPR float64 `json:"low_benign_fpr,omitempty"`
	// UpperStep, when > 1, calibrates severities 4 and 5 (High4, High5)
	// the way High is, with both of High's false-positive bounds divided
	// by UpperStep for 4 and by UpperStep² for 5: each step up is reached
	// by that many times fewer negatives. 0 leaves them out.
	UpperStep float64 `json:"upper_step,omitempty"`
	// IdentityBenign adds, for HATE, one more benign set to those that
	// bound Medium and Low: the benign sets' development rows that name
	// an identity group (linear.NamesIdentity), pooled. Hate is an attack
	// on such a group, so these rows are HATE's hardest benign traffic
	// (encyclopedia text, assistant instructions, therapy questions and
	// harassment reports that mention women, Muslims, gay people, …), and
	// no whole set is made of them.
	IdentityBenign bool `json:"identity_benign,omitempty"`
}

// DefaultConfig is the configuration of the shipped model.
func DefaultConfig() Config {
	return Config{
		Features:        linear.Features{Bits: 16, MinN: 4, MaxN: 4, Words: true, Bigrams: true, Long: 8, Cross: true, Request: true},
		Normalization:   linear.NormV1,
		L2:              1e-5,
		MaxIter:         300,
		Tol:             1e-6,
		History:         10,
		OffensiveWeight: 0.3,
		SyntheticWeight: 2,
		PosBalance:      0.5,
		SpacedWeight:    1,
		WindowNegatives: true,
		Vectors:         true,
		VectorScale:     0.025,
		Conv: &ConvConfig{Width: 3, Filters: 64, Epochs: 4, LR: 2e-3, L2: 1e-4, Batch: 64, Seed: 1, MaxWords: 96,
			Blends: []float64{0, 0.25, 0.5, 0.75, 1}},
		Calibration: Calibration{LowFPR: 0.05, MediumFPR: 0.01, HighFPR: 0.002, HighDomainFPR: 0.03, VetoMiss: 0.05, BenignFPR: 0.01, LowBenignFPR: 0.02, UpperStep: 4},
	}
}

// Result is a trained model with its optimizer record.
type Result struct {
	Model      *linear.Model
	Iterations [N]int
	Loss       [N]float64
	// GradMax is the largest gradient component at the end (convergence).
	GradMax [N]float64
	// ConvBlend is the weight of the phrase term per category (Config.Conv).
	ConvBlend [N]float64
	// Conv is the fitted phrase term before quantization (nil without
	// Config.Conv), for ConvConfig.From.
	Conv *ConvNet
}

// sparse is a CSR matrix of normalized feature vectors, with an optional
// dense block of pooled word vectors after the hashed columns.
type sparse struct {
	rowPtr []int
	idx    []uint32
	val    []float64
	// dd is the width of the dense block (0: none); drow[i] is row i's
	// row in dense, or -1 when the row has no word of the table.
	dd    int
	drow  []int32
	dense []float32
	// mu and sd scale the dense columns: column j holds
	// (pool_j - mu_j) / sd_j.
	mu, sd []float64
}

func (s *sparse) rows() int { return len(s.rowPtr) - 1 }

// featurize builds the feature matrix of exs exactly as linear.Model sees
// them: normalized text, hashed features, each occurrence worth
// 1/sqrt(number of occurrences + Features.Prior), duplicates summed.
func featurize(exs []Example, f linear.Features, norm linear.Normalization) *sparse {
	s := &sparse{rowPtr: make([]int, 1, len(exs)+1)}
	var text []byte
	var feats []uint32
	for i := range exs {
		text = norm.Append(text[:0], []byte(exs[i].Text))
		feats = f.AppendFeatures(feats[:0], text)
		slices.Sort(feats)
		inv := 0.0
		if len(feats) > 0 {
			inv = float64(float32(f.Scale(len(feats))))
		}
		for j := 0; j < len(feats); {
			k := j
			for k < len(feats) && feats[k] == feats[j] {
				k++
			}
			s.idx = append(s.idx, feats[j])
			s.val = append(s.val, float64(k-j)*inv)
			j = k
		}
		s.rowPtr = append(s.rowPtr, len(s.idx))
	}
	return s
}

// addVectors fills X's dense block with the standardized pools of exs
// (linear.Pool over the normalized text), columns centred and scaled to
// variance scale² over the rows that have a word of the table (scale 0:
// 1/(2·Dims)); rows with none keep 0, as the model's term is 0 for them.
func addVectors(X *sparse, exs []Example, norm linear.Normalization, tab *vectors.Table, scale float64) {
	if scale <= 0 {
		scale = 1 / math.Sqrt(float64(2*tab.Dims()))
	}
	d := tab.Dims()
	X.dd = 2 * d
	X.drow = make([]int32, len(exs))
	mean, idf := make([]float32, d), make([]float32, d)
	var text []byte
	for i := range exs {
		text = norm.Append(text[:0], []byte(exs[i].Text))
		if linear.Pool(tab, text, mean, idf) == 0 {
			X.drow[i] = -1
			continue
		}
		X.drow[i] = int32(len(X.dense) / X.dd)
		X.dense = append(X.dense, mean...)
		X.dense = append(X.dense, idf...)
	}
	n := len(X.dense) / X.dd
	X.mu, X.sd = make([]float64, X.dd), make([]float64, X.dd)
	if n == 0 {
		for j := range X.sd {
			X.sd[j] = 1
		}
		return
	}
	for r := range n {
		for j, v := range X.dense[r*X.dd : (r+1)*X.dd] {
			X.mu[j] += float64(v)
		}
	}
	for j := range X.mu {
		X.mu[j] /= float64(n)
	}
	for r := range n {
		for j, v := range X.dense[r*X.dd : (r+1)*X.dd] {
			e := float64(v) - X.mu[j]
			X.sd[j] += e * e
		}
	}
	for j := range X.sd {
		X.sd[j] = math.Sqrt(X.sd[j] / float64(n))
		if X.sd[j] < 1e-6 {
			X.sd[j] = 1
		}
		X.sd[j] /= scale
	}
	for r := range n {
		row := X.dense[r*X.dd : (r+1)*X.dd]
		for j := range row {
			row[j] = float32((float64(row[j]) - X.mu[j]) / X.sd[j])
		}
	}
}

// vectorTerm turns the fitted weights of the standardized dense columns
// (u[c], 2×Dims each) into the model's term over raw pools.
func vectorTerm(X *sparse, u [N][]float64, tab *vectors.Table) *linear.VectorTerm {
	d := tab.Dims()
	v := &linear.VectorTerm{Words: tab.Len(), Dims: d}
	for c := range N {
		v.Mean[c], v.IDF[c] = make([]float32, d), make([]float32, d)
		var k float64
		for j := range X.dd {
			w := u[c][j] / X.sd[j]
			k -= w * X.mu[j]
			if j < d {
				v.Mean[c][j] = float32(w)
			} else {
				v.IDF[c][j-d] = float32(w)
			}
		}
		v.Const[c] = float32(k)
	}
	return v
}

// l2 returns the L2 penalty of category c's head.
func (cfg *Config) l2(c int) float64 {
	if l := cfg.L2Category[c]; l != 0 {
		return l
	}
	return cfg.L2
}

// weight returns the loss weight of example e for category c under cfg,
// before class balancing.
func (cfg *Config) weight(e *Example, c int) float64 {
	w := float64(e.Weight[c])
	switch {
	case e.Dataset == "davidson" && e.Kind == "class1":
		w *= float64(cfg.OffensiveWeight)
	case e.Dataset == "synthetic":
		w *= float64(cfg.SyntheticWeight)
	}
	if d, ok := DatasetByName(e.Dataset); ok && e.Dataset != "synthetic" && d.Weight > 0 {
		w *= float64(d.Weight)
	}
	if f, ok := cfg.setScale[c][e.Dataset]; ok {
		w *= f
	}
	return w
}

// setScales returns the SetBalance factor of every data set in exs but
// the hand-written one: (median rows per set / the set's rows)^p.
func setScales(exs []Example, p float64) map[string]float64 {
	n := map[string]int{}
	for i := range exs {
		if exs[i].Dataset != "synthetic" {
			n[exs[i].Dataset]++
		}
	}
	if len(n) == 0 {
		return nil
	}
	sizes := make([]int, 0, len(n))
	for _, k := range n {
		sizes = append(sizes, k)
	}
	slices.Sort(sizes)
	ref := float64(sizes[len(sizes)/2])
	out := make(map[string]float64, len(n))
	for d, k := range n {
		out[d] = math.Pow(ref/float64(k), p)
	}
	return out
}

// convAbsentRounds is the number of fixed-point rounds for ConvTerm.Absent.
const convAbsentRounds = 3

// Train fits the model on exs (all of them: the caller chooses the split)
// and calibrates its thresholds on dev. The result depends only on the
// inputs and cfg: the optimizer is deterministic full-batch L-BFGS, each
// category is fitted by one goroutine in a fixed order of operations.
func Train(exs, dev []Example, cfg Config) (*Result, error) {
	if len(exs) == 0 {
		return nil, errors.New("train: no examples")
	}
	if cfg.History <= 0 || cfg.MaxIter <= 0 {
		return nil, errors.New("train: History and MaxIter must be positive")
	}
	if cfg.Conv != nil && !cfg.Vectors {
		return nil, errors.New("train: the phrase term (Conv) needs Vectors")
	}
	for c, p := range cfg.SetBalance {
		if c < N && p != 0 {
			cfg.setScale[c] = setScales(exs, p)
		}
	}
	if cfg.WindowNegatives {
		exs = withWindows(exs)
	}
	if cfg.ShortNegatives > 0 {
		exs = withShort(exs, cfg.ShortNegatives)
	}
	if cfg.Implied > 0 {
		exs = withImplied(exs, cfg.Implied)
	}
	// The phrase term is fitted on these rows: letter-spaced twins
	// normalize to words the vector table does not hold.
	base := exs
	if cfg.SpacedWeight > 0 {
		exs = withSpaced(exs, cfg.SpacedWeight)
	}
	X := featurize(exs, cfg.Features, cfg.Normalization)
	var tab *vectors.Table
	if cfg.Vectors {
		var err error
		if tab, err = vectors.Default(); err != nil {
			return nil, fmt.Errorf("train: word vectors: %w", err)
		}
		addVectors(X, exs, cfg.Normalization, tab, cfg.VectorScale)
	}
	hashed := 1 << cfg.Features.Bits
	dim := hashed + X.dd
	res := &Result{}
	var ws [N][]float64
	var bs [N]float64
	var wg sync.WaitGroup
	for c := range N {
		wg.Add(1)
		go func() {
			defer wg.Done()
			y := make([]float64, len(exs))
			a := make([]float64, len(exs))
			var wpos, wneg float64
			for i := range exs {
				y[i] = float64(exs[i].Target[c])
				a[i] = cfg.weight(&exs[i], c)
				if y[i] >= 0.5 {
					wpos += a[i]
				} else {
					wneg += a[i]
				}
			}
			if wpos > 0 && wneg > 0 && cfg.PosBalance != 0 {
				s := math.Pow(wneg/wpos, cfg.PosBalance)
				for i := range a {
					if y[i] >= 0.5 {
						a[i] *= s
					}
				}
			}
			p := &problem{X: X, y: y, a: a, l2: cfg.l2(c), dim: dim, hashed: hashed}
			if cfg.SetBias[c] {
				p.group, p.groups = setGroups(exs, c)
			}
			x, it, f, gm := lbfgs(p, dim+1+p.groups, cfg.MaxIter, cfg.History, cfg.Tol)
			ws[c], bs[c], res.Iterations[c], res.Loss[c], res.GradMax[c] = x[:dim], x[dim], it, f, gm
		}()
	}
	wg.Wait()
	params := linear.Params{
		Features:      cfg.Features,
		Normalization: cfg.Normalization,
		Weights:       make([][N]float32, hashed),
	}
	if cfg.Vectors {
		var u [N][]float64
		for c := range N {
			u[c] = ws[c][hashed:]
		}
		params.Vectors = vectorTerm(X, u, tab)
	}
	for c := range N {
		params.Bias[c] = float32(bs[c])
		for j := range hashed {
			params.Weights[j][c] = float32(ws[c][j])
		}
		params.Thresholds[c] = linear.Thresholds{Veto: 0, Low: 0.5, Medium: 0.7, High: 0.9}
	}
	m, err := linear.New(params)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	if cfg.Conv != nil {
		var net *convNet
		if from := cfg.Conv.From; from != nil {
			if from.n.W != cfg.Conv.Width || from.n.F != cfg.Conv.Filters || from.n.D != tab.Dims() {
				return nil, fmt.Errorf("train: the reused phrase term has width %d, %d filters over %d dimensions; the configuration wants %d, %d over %d",
					from.n.W, from.n.F, from.n.D, cfg.Conv.Width, cfg.Conv.Filters, tab.Dims())
			}
			net = &convNet{W: from.n.W, F: from.n.F, D: from.n.D, K: from.n.K, B: from.n.B, V: from.n.V, C: from.n.C, vec: dequantize(tab)}
		} else {
			net = fitConv(base, &cfg, tab, m)
		}
		res.Conv = &ConvNet{n: net}
		res.ConvBlend = chooseBlends(m, net, dev, &cfg, tab)
		term := net.term(res.ConvBlend)
		params.Conv = term
		with, err := linear.New(params)
		if err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
		// Absent: where a text the term cannot read (r = 0) reaches
		// Medium exactly when the model without the term would. Every
		// text with r < 1 gets part of Absent, which moves Medium, so a
		// few rounds of the fixed point Absent = logit(Medium with it) −
		// logit(Medium without the term) (it moves Medium by about the
		// mean 1-r times the change, well under 1: it converges).
		if len(dev) > 0 {
			alone := Calibrate(m, dev, cfg.Calibration)
			for range convAbsentRounds {
				cur := Calibrate(with, dev, cfg.Calibration)
				for c := range N {
					if res.ConvBlend[c] != 0 {
						term.Absent[c] = logit32(cur[c].Medium) - logit32(alone[c].Medium)
					}
				}
				if with, err = linear.New(params); err != nil {
					return nil, fmt.Errorf("train: %w", err)
				}
			}
		}
		m = with
	}
	params.Thresholds = Calibrate(m, dev, cfg.Calibration)
	if res.Model, err = linear.New(params); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	return res, nil
}

// Probabilities scores every example with m the way the server scores an
// item: the largest probability over its windows (Windows).
func Probabilities(m *linear.Model, exs []Example) [][N]float32 {
	out := make([][N]float32, len(exs))
	var ws []Window
	for i := range exs {
		text := []byte(exs[i].Text)
		ws = Windows(ws[:0], text)
		for _, w := range ws {
			var p [N]float32
			m.Scores(text[w.From:w.End], &p)
			for c := range N {
				out[i][c] = max(out[i][c], p[c])
			}
		}
	}
	return out
}

// withWindows returns exs followed by the window rows of WindowNegatives.
func withWindows(exs []Example) []Example {
	out := append([]Example(nil), exs...)
	var ws []Window
	for _, e := range exs {
		if len(e.Text) <= 200 {
			continue
		}
		ws = Windows(ws[:0], []byte(e.Text))
		if len(ws) < 2 {
			continue
		}
		scale := float32(1 / math.Sqrt(float64(len(ws))))
		for k, w := range ws {
			r := Example{Dataset: e.Dataset, ID: e.ID + "#w" + strconv.Itoa(k), Kind: e.Kind, Text: e.Text[w.From:w.End]}
			any := false
			for c := range N {
				if e.Negative(c) {
					r.Weight[c], any = e.Weight[c]*scale, true
				}
			}
			if any {
				out = append(out, r)
			}
		}
	}
	return out
}

// withShort returns exs followed by the short fragments of ShortNegatives.
func withShort(exs []Example, weight float32) []Example {
	out := append([]Example(nil), exs...)
	for _, e := range exs {
		if !e.Benign() {
			continue
		}
		words := strings.Fields(e.Text)
		if len(words) < 2 {
			continue
		}
		h := fnv.New64a()
		h.Write([]byte(e.Dataset + "/" + e.ID))
		x := h.Sum64()
		n := 1 + int(x%6)
		if n >= len(words) {
			n = len(words) - 1
		}
		at := int((x >> 8) % uint64(len(words)-n+1))
		r := Example{Dataset: e.Dataset, ID: e.ID + "#s", Kind: e.Kind, Text: strings.Join(words[at:at+n], " ")}
		for c := range N {
			r.Weight[c] = e.Weight[c] * weight
		}
		out = append(out, r)
	}
	return out
}

// withImplied returns exs followed by the implied statements of Implied.
func withImplied(exs []Example, weight float32) []Example {
	out := append([]Example(nil), exs...)
	for _, e := range exs {
		if len(e.Implied) == 0 || !e.Positive(hate) {
			continue
		}
		w := e.Weight[hate] * weight / float32(math.Sqrt(float64(len(e.Implied))))
		for i, t := range e.Implied {
			r := Example{Dataset: e.Dataset, ID: fmt.Sprintf("%s#i%d", e.ID, i), Kind: "implied", Text: t}
			r.pos(w, hate)
			out = append(out, r)
		}
	}
	return out
}

// Calibrate sets each category's thresholds from the development examples
// with hard labels for it, scored the way the server scores items
// (Probabilities: the worst window).
//
// Medium, the default blocking point, maximizes the mean F1 over the data
// sets whose development rows hold at least minCalibNegatives negatives and
// minCalibPositives positives of the category, so that no one large set
// (or its base rate) decides, subject to a ceiling on false positives in
// every benign set (development rows that are all negative for the
// category, such as assistant instructions, encyclopedia text, benign
// look-alike requests and therapy questions; at least minBenignRows of
// them; not a set labelled per author, Dataset.PerUser): at most BenignFPR
// of any of them reaches Medium. Low is the
// (1-LowFPR)-quantile of all development negatives, raised so that at most
// LowBenignFPR of any benign set reaches it (the model alone reports LOW
// there, so LOW must stay rare on ordinary traffic), and High the (1-HighFPR)-quantile raised to keep each set's
// negatives under HighDomainFPR; both are then kept on their side of
// Medium. With too few development examples it falls back to the
// quantiles alone.
func Calibrate(m *linear.Model, dev []Example, cal Calibration) [N]linear.Thresholds {
	return calibrate(Probabilities(m, dev), dev, cal)
}

// calibrate is Calibrate on the probabilities of dev, given.
func calibrate(probs [][N]float32, dev []Example, cal Calibration) [N]linear.Thresholds {
	var out [N]linear.Thresholds
	for c := range N {
		negBy := map[string][]float64{}
		posBy := map[string][]float64{}
		var neg, pos []float64
		for i := range dev {
			p := float64(probs[i][c])
			switch {
			case dev[i].Negative(c):
				neg = append(neg, p)
				negBy[dev[i].Dataset] = append(negBy[dev[i].Dataset], p)
			case dev[i].Positive(c):
				pos = append(pos, p)
				posBy[dev[i].Dataset] = append(posBy[dev[i].Dataset], p)
			}
		}
		t := linear.Thresholds{Veto: 0.02, Low: 0.5, Medium: 0.7, High: 0.9}
		var upper [2]float32 // High4, High5 before ordering
		if len(neg) >= minCalibNegatives {
			slices.Sort(neg)
			t.Low = float32(quantile(neg, 1-cal.LowFPR))
			t.Medium = float32(quantile(neg, 1-cal.MediumFPR))
			// highAt is High's rule with both bounds divided by div.
			highAt := func(div float64) float32 {
				h := float32(quantile(neg, 1-cal.HighFPR/div))
				for _, xs := range negBy {
					if len(xs) >= minCalibNegatives {
						slices.Sort(xs)
						h = max(h, float32(quantile(xs, 1-cal.HighDomainFPR/div)))
					}
				}
				return h
			}
			t.High = highAt(1)
			if cal.UpperStep > 1 {
				upper = [2]float32{highAt(cal.UpperStep), highAt(cal.UpperStep * cal.UpperStep)}
			}
			// The benign sets that bound Medium and Low; for HATE with
			// IdentityBenign also their rows that name an identity group,
			// pooled as one more benign set.
			ceilBy := negBy
			if cal.IdentityBenign && classifiers.Category(c) == classifiers.Hate {
				ceilBy = maps.Clone(negBy)
				for i, ok := range BenignNamingIdentity(dev) {
					if ok {
						ceilBy[identityBenignSet] = append(ceilBy[identityBenignSet], float64(probs[i][c]))
					}
				}
			}
			if mt, ok := bestMedium(ceilBy, posBy, cal.BenignFPR); ok {
				t.Medium = mt
			}
			if cal.LowBenignFPR > 0 {
				t.Low = max(t.Low, float32(benignCeiling(ceilBy, posBy, cal.LowBenignFPR)))
			}
		}
		if len(pos) >= 10 {
			slices.Sort(pos)
			t.Veto = float32(quantile(pos, cal.VetoMiss))
		}
		// Keep the order 0 ≤ Veto ≤ Low ≤ Medium ≤ High ≤ 1, nudging each
		// cut just above the score it was read from, so that a negative
		// scoring exactly the quantile is not flagged.
		t.Medium = nextUp(t.Medium)
		t.Low = min(nextUp(t.Low), t.Medium)
		t.High = min(max(nextUp(t.High), t.Medium), 1)
		if upper[0] > 0 {
			t.High4 = min(max(nextUp(upper[0]), t.High), 1)
			t.High5 = min(max(nextUp(upper[1]), t.High4), 1)
		}
		t.Veto = min(t.Veto, t.Low)
		out[c] = t
	}
	return out
}

// BenignNamingIdentity marks the rows of exs that are benign text naming
// an identity group: negative for HATE, in a data set with no HATE
// positive among exs, and naming a group (linear.NamesIdentity). It is the
// one definition of those rows for calibration (Calibration.IdentityBenign)
// and for the quality bench's probe.
func BenignNamingIdentity(exs []Example) []bool {
	h := int(classifiers.Hate)
	hatePos := map[string]bool{}
	for i := range exs {
		if exs[i].Positive(h) {
			hatePos[exs[i].Dataset] = true
		}
	}
	out := make([]bool, len(exs))
	for i := range exs {
		e := &exs[i]
		out[i] = !hatePos[e.Dataset] && e.Negative(h) && linear.NamesIdentity(e.Text)
	}
	return out
}

// identityBenignSet names the pooled rows of the benign sets that name an
// identity group (Calibration.IdentityBenign).
const identityBenignSet = "benign rows naming an identity group"

// minCalibPositives is the fewest development positives of one data set
// for its F1 to take part in choosing Medium.
const minCalibPositives = 20

// minBenignRows is the fewest development rows of a benign set for it to
// bound Medium: in a smaller set the 1% quantile is its top row or two.
const minBenignRows = 200

// bestMedium returns the threshold that maximizes the mean per-set F1 over
// the sets with enough positives and negatives, among the thresholds that
// keep every benign set's false-positive rate at most benignFPR.
func bestMedium(negBy, posBy map[string][]float64, benignFPR float64) (float32, bool) {
	thr, _, ok := bestMediumF(negBy, posBy, benignFPR)
	return thr, ok
}

// bestMediumF is bestMedium that also returns the mean per-set F1 there.
func bestMediumF(negBy, posBy map[string][]float64, benignFPR float64) (float32, float64, bool) {
	type set struct{ pos, neg []float64 }
	var labelled []set
	names := make([]string, 0, len(negBy))
	for d := range negBy {
		names = append(names, d)
	}
	slices.Sort(names)
	for _, d := range names {
		ns, ps := negBy[d], posBy[d]
		if len(ps) >= minCalibPositives && len(ns) >= minCalibNegatives {
			slices.Sort(ns)
			slices.Sort(ps)
			labelled = append(labelled, set{ps, ns})
		}
	}
	if len(labelled) == 0 {
		return 0, 0, false
	}
	ceiling := benignCeiling(negBy, posBy, benignFPR)
	best, bestF := float32(0), -1.0
	for k := 1; k < 400; k++ {
		thr := float64(k) / 400
		if thr <= ceiling {
			continue
		}
		var sum float64
		for _, s := range labelled {
			tp := len(s.pos) - countBelow(s.pos, thr)
			fp := len(s.neg) - countBelow(s.neg, thr)
			fn := len(s.pos) - tp
			if tp > 0 {
				sum += 2 * float64(tp) / float64(2*tp+fp+fn)
			}
		}
		if f := sum / float64(len(labelled)); f > bestF {
			best, bestF = float32(thr), f
		}
	}
	return best, bestF, bestF >= 0
}

// benignCeiling is the least threshold at which at most share of every
// benign set's rows (no positives, at least minBenignRows negatives, not
// labelled per author) reach it: the largest of their (1-share)-quantiles.
func benignCeiling(negBy, posBy map[string][]float64, share float64) float64 {
	var ceiling float64
	for d, ns := range negBy {
		if ds, _ := DatasetByName(d); ds.PerUser {
			continue // labelled per author: not a benign set (Dataset.PerUser)
		}
		if len(posBy[d]) == 0 && len(ns) >= minBenignRows {
			ns = slices.Clone(ns)
			slices.Sort(ns)
			ceiling = max(ceiling, quantile(ns, 1-share))
		}
	}
	return ceiling
}

// countBelow returns how many of sorted xs are < thr.
func countBelow(xs []float64, thr float64) int {
	i, _ := slices.BinarySearch(xs, thr)
	return i
}

// minCalibNegatives is the fewest development negatives of one data set
// that take part in calibration.
const minCalibNegatives = 30

func nextUp(v float32) float32 { return math.Nextafter32(v, 2) }

// quantile returns the q-quantile of sorted xs (nearest rank, upper).
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	i := int(math.Ceil(q*float64(len(xs)))) - 1
	return xs[min(max(i, 0), len(xs)-1)]
}

// problem is one category's weighted, L2-regularized logistic regression.
// Its weights are the hashed buckets, then X's dense columns from hashed.
type problem struct {
	X      *sparse
	y, a   []float64
	l2     float64
	dim    int
	hashed int
	sumA   float64
	// group[i] is the index of row i's own intercept (Config.SetBias),
	// or -1; the intercepts follow the bias in x, groups of them.
	group  []int32
	groups int
}

// setBiasMin is the number of hard positives and of hard negatives of a
// category a data set needs in training for an intercept of its own.
const setBiasMin = 50

// setBiasL2 scales the L2 penalty of the per-set intercepts
// (Config.SetBias) against the weights': an intercept is on every row of
// its set, so under the same penalty it and a word on most of the set's
// rows would share the set's base rate about equally; under a hundredth
// the intercept takes it.
const setBiasL2 = 0.01

// setGroups returns, for category c, the intercept index of every row of
// exs (-1 for none) and the number of intercepts: one per data set, in
// order of first appearance, with at least setBiasMin hard positives and
// hard negatives of c, the hand-written examples aside.
func setGroups(exs []Example, c int) ([]int32, int) {
	pos, neg := map[string]int{}, map[string]int{}
	for i := range exs {
		switch {
		case exs[i].Positive(c):
			pos[exs[i].Dataset]++
		case exs[i].Negative(c):
			neg[exs[i].Dataset]++
		}
	}
	index := map[string]int32{}
	group := make([]int32, len(exs))
	n := 0
	for i := range exs {
		d := exs[i].Dataset
		k, ok := index[d]
		if !ok {
			k = -1
			if d != "synthetic" && pos[d] >= setBiasMin && neg[d] >= setBiasMin {
				k = int32(n)
				n++
			}
			index[d] = k
		}
		group[i] = k
	}
	return group, n
}

// eval returns the objective at x and writes its gradient to g.
func (p *problem) eval(x, g []float64) float64 {
	if p.sumA == 0 {
		for _, v := range p.a {
			p.sumA += v
		}
		if p.sumA == 0 {
			p.sumA = 1
		}
	}
	clear(g)
	w, b := x[:p.dim], x[p.dim]
	var f float64
	X := p.X
	for i := range X.rows() {
		ai := p.a[i]
		if ai == 0 {
			continue
		}
		z := b
		for k := X.rowPtr[i]; k < X.rowPtr[i+1]; k++ {
			z += w[X.idx[k]] * X.val[k]
		}
		var drow []float32
		if X.dd > 0 && X.drow[i] >= 0 {
			r := int(X.drow[i])
			drow = X.dense[r*X.dd : (r+1)*X.dd]
			wd := w[p.hashed : p.hashed+X.dd]
			for j, v := range drow {
				z += wd[j] * float64(v)
			}
		}
		gi := -1
		if p.group != nil && p.group[i] >= 0 {
			gi = p.dim + 1 + int(p.group[i])
			z += x[gi]
		}
		f += ai * (softplus(z) - p.y[i]*z)
		d := ai * (sigmoid(z) - p.y[i])
		if gi >= 0 {
			g[gi] += d
		}
		for k := X.rowPtr[i]; k < X.rowPtr[i+1]; k++ {
			g[X.idx[k]] += d * X.val[k]
		}
		if drow != nil {
			gd := g[p.hashed : p.hashed+X.dd]
			for j, v := range drow {
				gd[j] += d * float64(v)
			}
		}
		g[p.dim] += d
	}
	inv := 1 / p.sumA
	f *= inv
	var reg float64
	for j := range p.dim {
		g[j] = g[j]*inv + p.l2*w[j]
		reg += w[j] * w[j]
	}
	g[p.dim] *= inv
	for j := p.dim + 1; j < len(x); j++ {
		g[j] = g[j]*inv + setBiasL2*p.l2*x[j]
		reg += setBiasL2 * x[j] * x[j]
	}
	return f + 0.5*p.l2*reg
}

func softplus(z float64) float64 {
	if z > 0 {
		return z + math.Log1p(math.Exp(-z))
	}
	return math.Log1p(math.Exp(z))
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// lbfgs minimizes p from x = 0 with limited-memory BFGS and a backtracking
// Armijo line search. It is sequential and deterministic.
func lbfgs(p *problem, n, maxIter, hist int, tol float64) (x []float64, iters int, f, gmax float64) {
	x = make([]float64, n)
	g := make([]float64, n)
	f = p.eval(x, g)
	type pair struct {
		s, y []float64
		rho  float64
	}
	var mem []pair
	d := make([]float64, n)
	xn := make([]float64, n)
	gn := make([]float64, n)
	alpha := make([]float64, hist)
	for iters = 0; iters < maxIter; iters++ {
		if maxAbs(g) < tol {
			break
		}
		// Two-loop recursion: d = -H g.
		for i := range d {
			d[i] = -g[i]
		}
		for k := len(mem) - 1; k >= 0; k-- {
			alpha[k] = mem[k].rho * dot(mem[k].s, d)
			axpy(-alpha[k], mem[k].y, d)
		}
		if len(mem) > 0 {
			last := mem[len(mem)-1]
			gamma := dot(last.s, last.y) / dot(last.y, last.y)
			for i := range d {
				d[i] *= gamma
			}
		} else {
			s := 1 / math.Sqrt(dot(g, g))
			for i := range d {
				d[i] *= s
			}
		}
		for k := range mem {
			beta := mem[k].rho * dot(mem[k].y, d)
			axpy(alpha[k]-beta, mem[k].s, d)
		}
		gd := dot(g, d)
		if gd >= 0 { // not a descent direction: restart from steepest descent
			mem = mem[:0]
			for i := range d {
				d[i] = -g[i]
			}
			gd = dot(g, d)
		}
		step := 1.0
		var fn float64
		ok := false
		for range 40 {
			for i := range x {
				xn[i] = x[i] + step*d[i]
			}
			fn = p.eval(xn, gn)
			if fn <= f+1e-4*step*gd {
				ok = true
				break
			}
			step *= 0.5
		}
		if !ok {
			break
		}
		var pr pair
		if len(mem) == hist {
			pr = mem[0]
			mem = append(mem[:0], mem[1:]...)
		} else {
			pr = pair{s: make([]float64, n), y: make([]float64, n)}
		}
		for i := range x {
			pr.s[i] = xn[i] - x[i]
			pr.y[i] = gn[i] - g[i]
		}
		sy := dot(pr.s, pr.y)
		x, xn = xn, x
		g, gn = gn, g
		done := math.Abs(f-fn) <= 1e-12*math.Max(1, math.Abs(f))
		f = fn
		if sy > 1e-12 {
			pr.rho = 1 / sy
			mem = append(mem, pr)
		}
		if done {
			iters++
			break
		}
	}
	return x, iters, f, maxAbs(g)
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func axpy(alpha float64, x, y []float64) {
	for i := range x {
		y[i] += alpha * x[i]
	}
}

func maxAbs(v []float64) float64 {
	var m float64
	for _, x := range v {
		m = math.Max(m, math.Abs(x))
	}
	return m
}

// withSpaced returns exs followed by a letter-spaced twin of each example,
// weighted by w.
func withSpaced(exs []Example, w float32) []Example {
	out := make([]Example, 0, 2*len(exs))
	out = append(out, exs...)
	for _, e := range exs {
		e.ID += "#spaced"
		e.Text = LetterSpaced(e.Text)
		for c := range e.Weight {
			e.Weight[c] *= w
		}
		out = append(out, e)
	}
	return out
}

// LetterSpaced puts a space between the letters of every word of s
// ("kill it" → "k i l l i t"), the evasion the spaced twins model.
func LetterSpaced(s string) string {
	var b strings.Builder
	b.Grow(2 * len(s))
	prevWord := false
	for _, r := range s {
		word := unicode.IsLetter(r) || unicode.IsDigit(r)
		if word && prevWord {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
		prevWord = word
	}
	return b.String()
}
