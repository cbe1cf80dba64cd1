package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/linear"
	"github.com/openrai/raiserver/classifiers/linear/train"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		if errors.Is(err, train.ErrNoData) {
			fmt.Fprintln(os.Stderr, "rai-train: skipped:", err)
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "rai-train:", err)
		os.Exit(1)
	}
}

// Manifest records how the weights were made. It holds no text.
type Manifest struct {
	Command string       `json:"command"`
	GoArch  string       `json:"goarch"`
	Config  train.Config `json:"config"`
	// NormFingerprint is train.NormalizationFingerprint at training time.
	NormFingerprint string                `json:"normalization_fingerprint"`
	Inputs          []train.File          `json:"inputs"`
	Split           string                `json:"split"`
	Counts          map[string]splitCount `json:"counts"`
	Iterations      [linear.N]int         `json:"iterations"`
	Loss            [linear.N]train.Num   `json:"loss"`
	GradMax         [linear.N]float64     `json:"grad_max"`
	// ConvBlend is the weight of the phrase term per category (config.conv), chosen on the dev rows.
	ConvBlend [linear.N]float64 `json:"conv_blend,omitempty"`
	// ConvFrom is the phrase term reused with -conv-load (its file and
	// checksum), when the term was not fitted in this run.
	ConvFrom     *fileInfo               `json:"conv_from,omitempty"`
	Thresholds   map[string][]float32    `json:"thresholds"`
	DevMetrics   train.Report            `json:"dev_metrics"`
	TrainMetrics train.Report            `json:"train_metrics"`
	LODO         map[string]train.Report `json:"leave_one_dataset_out,omitempty"`
	Weights      weightsInfo             `json:"weights"`
	// Vectors identifies the word-vector table of a model with a vector
	// term (Config.Vectors): the model loads only with this table.
	Vectors *vectorsInfo `json:"vectors,omitempty"`
}

// fileInfo names an input file by path and SHA-256.
type fileInfo struct {
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
}

type vectorsInfo struct {
	File   string `json:"file"` // relative to the repository root
	SHA256 string `json:"sha256"`
	Words  int    `json:"words"`
	Dims   int    `json:"dims"`
}

// vectorsFile is the table vectors.Default embeds.
const vectorsFile = "classifiers/vectors/data/glove100.bin.gz"

type splitCount struct {
	Train     int            `json:"train"`
	Dev       int            `json:"dev"`
	Positives map[string]int `json:"train_positives"`
	Negatives map[string]int `json:"train_negatives"`
}

type weightsInfo struct {
	File    string `json:"file"`
	Bytes   int    `json:"bytes"`
	SHA256  string `json:"sha256"`
	Nonzero int    `json:"nonzero_rows"`
}

func run(args []string, stdout io.Writer) error {
	root := train.RepoRoot()
	def := train.DefaultConfig()
	fs := flag.NewFlagSet("rai-train", flag.ContinueOnError)
	dataDir := fs.String("data", filepath.Join(root, "..", "shared", "data"), "folder of the public data sets (empty: none)")
	synth := fs.String("synthetic", strings.Join([]string{
		filepath.Join(root, "cmd", "rai-train", "synthetic.tsv"),
		filepath.Join(root, "cmd", "rai-train", "synthetic-sexual-context.tsv"),
		filepath.Join(root, "cmd", "rai-train", "synthetic-prose-violence.tsv"),
		filepath.Join(root, "cmd", "rai-train", "synthetic-prose-sexual.tsv"),
		filepath.Join(root, "cmd", "rai-train", "synthetic-prose-everyday.tsv"),
	}, ","), "hand-written examples, TSV files, comma-separated (empty: none)")
	outDir := fs.String("out", filepath.Join(root, "classifiers", "linear", "model"), "output folder for weights.bin.gz and MANIFEST.json")
	bits := fs.Uint("bits", uint(def.Features.Bits), "log2 of the hash buckets")
	minN := fs.Uint("minn", uint(def.Features.MinN), "shortest character n-gram (0: none)")
	maxN := fs.Uint("maxn", uint(def.Features.MaxN), "longest character n-gram")
	words := fs.Bool("words", def.Features.Words, "word unigram features")
	bigrams := fs.Bool("bigrams", def.Features.Bigrams, "word bigram features")
	cross := fs.Bool("cross", def.Features.Cross, "anchor crosses: every word crossed with each anchor class present (group, second person, first person)")
	request := fs.Bool("request-cross", def.Features.Request, "with -cross, a fourth anchor class: words that mark a request to an assistant (how, write, give, steps, please, …)")
	prior := fs.Uint("prior", uint(def.Features.Prior), "pseudo-count of features: each of n features weighs 1/sqrt(n + prior), shrinking short texts towards the bias (0: 1/sqrt(n), as shipped; at most 255)")
	length := fs.Bool("length", def.Features.Length, "a feature for the number of words of a text of at most six words (Features.Length)")
	long := fs.Uint("long", uint(def.Features.Long), "words of at most this many bytes get only their edge n-grams (0: all n-grams for every word)")
	norm := fs.Uint("norm", uint(def.Normalization), "text normalization (0 ASCII lowercase, 1 classifiers/internal/normalize)")
	l2 := fs.Float64("l2", def.L2, "L2 penalty")
	l2Cat := fs.String("l2-category", "", "per category HATE,SEXUAL,VIOLENCE,SELF_HARM (e.g. 1e-5,3e-6,3e-6,3e-6), the L2 penalty of that head instead of -l2 (0: -l2)")
	maxIter := fs.Int("maxiter", def.MaxIter, "L-BFGS iterations per category")
	offensive := fs.Float64("offensive", float64(def.OffensiveWeight), "weight of Davidson offensive rows (soft HATE targets)")
	synthW := fs.Float64("synthweight", float64(def.SyntheticWeight), "weight of hand-written examples")
	posBal := fs.Float64("posbalance", def.PosBalance, "class-weighting exponent (0 none, 1 balanced)")
	setBias := fs.String("set-bias", "", "per category HATE,SEXUAL,VIOLENCE,SELF_HARM (e.g. 1,0,0,0): 1 gives every data set with at least 50 positives and 50 negatives of the category an intercept of its own while training, left out of the shipped model (Config.SetBias)")
	setBal := fs.String("set-balance", "", "data-set balancing exponents for HATE,SEXUAL,VIOLENCE,SELF_HARM (e.g. 0,0.5,0.5,0.5): rows of a set weighted by (median set rows / set rows)^x (0 none)")
	spaced := fs.Float64("spaced", float64(def.SpacedWeight), "weight of letter-spaced twins of the training rows (0: none)")
	calib := fs.String("calibration", "", "comma-separated hand-written TSV files (kind<TAB>text) of harmless texts that only bound the calibration, as a benign development set: never trained on")
	exclude := fs.String("exclude", "", "comma-separated data sets to leave out entirely (davidson, toxigen, xstest, sst, synthetic), for held-out evaluation")
	lodo := fs.Bool("lodo", false, "also train leave-one-dataset-out models and report their metrics on the left-out data set")
	lodoDir := fs.String("lodo-out", "", "with -lodo: also write each leave-one-dataset-out model to DIR/<dataset>.bin.gz (for go run ./bench/quality -lodo DIR)")
	lodoSets := fs.String("lodo-sets", "davidson,toxigen,hatexplain,sbic,implicit_hate,toxic_spans", "with -lodo: the trainable data sets to leave out, one at a time")
	benignFPR := fs.Float64("benign-fpr", def.Calibration.BenignFPR, "calibration: the largest share of any benign set's dev rows at or above Medium")
	lowFPR := fs.Float64("low-fpr", def.Calibration.LowFPR, "calibration: the share of all dev negatives at or above Low (before the benign bound)")
	lowBenignFPR := fs.Float64("low-benign-fpr", def.Calibration.LowBenignFPR, "calibration: the largest share of any benign set's dev rows at or above Low")
	identityBenign := fs.Bool("identity-benign", def.Calibration.IdentityBenign, "calibration: for HATE, also bound Medium and Low by the benign sets' rows that name an identity group, pooled")
	windows := fs.Bool("windows", def.WindowNegatives, "add the server windows of long benign texts as negative rows")
	short := fs.Float64("short", float64(def.ShortNegatives), "weight of a short fragment (1 to 6 words) of every benign training row, added as a negative row (0: none)")
	implied := fs.Float64("implied", float64(def.Implied), "weight of the statements SBIC's annotators wrote of what a hateful training post implies of a group, each added as a HATE positive row (0: none)")
	vecs := fs.Bool("vectors", def.Vectors, "add pooled word vectors (classifiers/vectors: mean and IDF-weighted mean) as features")
	vecScale := fs.Float64("vecscale", def.VectorScale, "standard deviation of each standardized word-vector column (0: 1/sqrt(2·dims), the unit norm of the hashed part)")
	conv := fs.Bool("conv", def.Conv != nil, "add the phrase term (a convolution over the word vectors; needs -vectors)")
	convFilters := fs.Int("conv-filters", def.Conv.Filters, "phrase term: filters")
	convEpochs := fs.Int("conv-epochs", def.Conv.Epochs, "phrase term: epochs of Adam")
	convL2 := fs.Float64("conv-l2", def.Conv.L2, "phrase term: L2 penalty")
	convAverage := fs.Bool("conv-average", def.Conv.Average, "phrase term: keep the mean of the weights over the last epoch (Polyak averaging)")
	convSeed := fs.Uint64("conv-seed", def.Conv.Seed, "phrase term: seed of the initial weights and the order of the rows")
	convResidual := fs.String("conv-residual", "", "phrase term: per category HATE,SEXUAL,VIOLENCE,SELF_HARM (e.g. 0,1,1,1), fit it on the linear part's residual: the linear part's log-odds times this number added to the term's in its loss (0: the term alone)")
	convSave := fs.String("conv-save", "", "also write the fitted phrase term's float weights to `FILE` (for -conv-load)")
	convLoad := fs.String("conv-load", filepath.Join(root, "classifiers", "linear", "model", "phrase-term.gob"), "reuse the phrase term in `FILE` (written by -conv-save) instead of fitting one, so that a change to the rows is measured without a new draw of the term (default: the shipped model's; empty: fit one); the -lodo models still fit their own, which must not see their left-out set")
	convBlend := fs.String("conv-blend", "", "phrase term: fixed blends for HATE,SEXUAL,VIOLENCE,SELF_HARM (e.g. 1,0,1,0.25) instead of choosing them on the dev rows")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg := def
	if *prior > 255 {
		return fmt.Errorf("-prior %d: at most 255", *prior)
	}
	cfg.Features = linear.Features{Bits: uint8(*bits), MinN: uint8(*minN), MaxN: uint8(*maxN), Words: *words, Bigrams: *bigrams, Long: uint8(*long), Cross: *cross, Request: *request, Length: *length, Prior: uint8(*prior)}
	cfg.Normalization = linear.Normalization(*norm)
	cfg.L2, cfg.MaxIter = *l2, *maxIter
	if *l2Cat != "" {
		ls, err := perCategory("-l2-category", *l2Cat, 1)
		if err != nil {
			return err
		}
		cfg.L2Category = [linear.N]float64(ls)
	}
	cfg.OffensiveWeight, cfg.SyntheticWeight, cfg.PosBalance = float32(*offensive), float32(*synthW), *posBal
	if *setBal != "" {
		sb, err := perCategory("-set-balance", *setBal, 2)
		if err != nil {
			return err
		}
		cfg.SetBalance = sb
	}
	if *setBias != "" {
		sb, err := perCategory("-set-bias", *setBias, 1)
		if err != nil {
			return err
		}
		for c, v := range sb {
			cfg.SetBias[c] = v != 0
		}
	}
	cfg.SpacedWeight = float32(*spaced)
	cfg.WindowNegatives = *windows
	cfg.ShortNegatives = float32(*short)
	cfg.Implied = float32(*implied)
	cfg.Calibration.BenignFPR = *benignFPR
	cfg.Calibration.LowFPR = *lowFPR
	cfg.Calibration.LowBenignFPR = *lowBenignFPR
	cfg.Calibration.IdentityBenign = *identityBenign
	cfg.Vectors = *vecs
	cfg.VectorScale = *vecScale
	cfg.Conv = nil
	var convFrom *fileInfo
	if *conv {
		cc := *def.Conv
		cc.Filters, cc.Epochs, cc.L2, cc.Seed, cc.Average = *convFilters, *convEpochs, *convL2, *convSeed, *convAverage
		if *convResidual != "" {
			rs, err := perCategory("-conv-residual", *convResidual, 4)
			if err != nil {
				return err
			}
			cc.Residual = rs
		}
		if *convBlend != "" {
			bs, err := perCategory("-conv-blend", *convBlend, 1)
			if err != nil {
				return err
			}
			cc.Fixed = bs
		}
		if *convLoad != "" {
			data, err := os.ReadFile(*convLoad)
			if err != nil {
				return err
			}
			if cc.From, err = train.ReadConvNet(bytes.NewReader(data)); err != nil {
				return fmt.Errorf("%s: %w", *convLoad, err)
			}
			sum := sha256.Sum256(data)
			name := *convLoad
			if rel, err := filepath.Rel(root, name); err == nil && filepath.IsLocal(rel) {
				name = filepath.ToSlash(rel)
			}
			convFrom = &fileInfo{File: name, SHA256: hex.EncodeToString(sum[:])}
		}
		cfg.Conv = &cc
	} else if *convSave != "" {
		return errors.New("-conv-save needs -conv")
	}

	corpus := &train.Corpus{}
	if *dataDir != "" {
		c, err := train.LoadShared(*dataDir)
		if err != nil {
			return err
		}
		corpus = c
	}
	for _, path := range strings.Split(*synth, ",") {
		if path = strings.TrimSpace(path); path == "" {
			continue
		}
		if err := corpus.AddSynthetic(path, "synthetic/"+filepath.Base(path)); err != nil {
			return err
		}
	}
	for _, path := range strings.Split(*calib, ",") {
		if path = strings.TrimSpace(path); path == "" {
			continue
		}
		if err := corpus.AddCalibration(path, "calibration/"+filepath.Base(path)); err != nil {
			return err
		}
	}
	if len(corpus.Examples) == 0 {
		return errors.New("no examples")
	}
	if *exclude != "" {
		drop := map[string]bool{}
		for _, d := range strings.Split(*exclude, ",") {
			drop[strings.TrimSpace(d)] = true
		}
		corpus.Examples = filter(corpus.Examples, func(e train.Example) bool { return !drop[e.Dataset] })
	}
	// Training rows and calibration rows (train.Split).
	tr, dev := train.Split(corpus.Examples)
	fmt.Fprintf(stdout, "rows: %d train, %d dev\n", len(tr), len(dev))
	res, err := train.Train(tr, dev, cfg)
	if err != nil {
		return err
	}
	if *convSave != "" && res.Conv != nil {
		f, err := os.Create(*convSave)
		if err != nil {
			return err
		}
		_, werr := res.Conv.WriteTo(f)
		if err := errors.Join(werr, f.Close()); err != nil {
			return err
		}
	}
	m := res.Model
	var buf bytes.Buffer
	if _, err := m.WriteTo(&buf); err != nil {
		return err
	}
	if err := os.MkdirAll(*outDir, 0o755); err != nil {
		return err
	}
	sum := sha256.Sum256(buf.Bytes())
	man := Manifest{
		Command:         commandLine(args),
		GoArch:          runtime.GOARCH,
		Config:          cfg,
		NormFingerprint: train.NormalizationFingerprint(cfg.Normalization),
		Inputs:          corpus.Files,
		Split:           "dev when FNV-1a-64(row id) mod 5 == 0, else train; ids are dataset:row-key; train rows only from trainable sets; dev rows of every set but the probes, and every row of a -calibration file, calibrate",
		Counts:          counts(tr, dev),
		Iterations:      res.Iterations,
		GradMax:         res.GradMax,
		ConvBlend:       res.ConvBlend,
		ConvFrom:        convFrom,
		Thresholds:      map[string][]float32{},
		DevMetrics:      train.Evaluate(m, dev),
		TrainMetrics:    train.Evaluate(m, tr),
		Weights: weightsInfo{File: "weights.bin.gz", Bytes: buf.Len(), SHA256: hex.EncodeToString(sum[:]),
			Nonzero: nonzero(m)},
	}
	if v := m.Params().Vectors; v != nil {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(vectorsFile)))
		if err != nil {
			return fmt.Errorf("word vectors: %w", err)
		}
		s := sha256.Sum256(b)
		man.Vectors = &vectorsInfo{File: vectorsFile, SHA256: hex.EncodeToString(s[:]), Words: v.Words, Dims: v.Dims}
	}
	for c := range linear.N {
		man.Loss[c] = train.Num(res.Loss[c])
		t := m.Params().Thresholds[c]
		ts := []float32{t.Veto, t.Low, t.Medium, t.High}
		if t.High4 != 0 {
			ts = append(ts, t.High4, t.High5)
		}
		man.Thresholds[classifiers.Category(c).String()] = ts
	}
	if *lodo {
		man.LODO = map[string]train.Report{}
		for _, name := range strings.Split(*lodoSets, ",") {
			d, ok := train.DatasetByName(strings.TrimSpace(name))
			if !ok || !d.Trainable {
				return fmt.Errorf("-lodo-sets: %q is not a trainable data set", name)
			}
			keep := func(e train.Example) bool { return e.Dataset != d.Name }
			lcfg := cfg
			if cfg.Conv != nil && cfg.Conv.From != nil {
				// A reused term has seen the left-out set: fit one without it.
				cc := *cfg.Conv
				cc.From = nil
				lcfg.Conv = &cc
			}
			r, err := train.Train(filter(tr, keep), filter(dev, keep), lcfg)
			if err != nil {
				return err
			}
			out := filter(corpus.Examples, func(e train.Example) bool { return e.Dataset == d.Name })
			if len(out) > 0 {
				man.LODO[d.Name] = train.Evaluate(r.Model, out)
			}
			if *lodoDir != "" {
				var b bytes.Buffer
				if _, err := r.Model.WriteTo(&b); err != nil {
					return err
				}
				if err := os.MkdirAll(*lodoDir, 0o755); err != nil {
					return err
				}
				if err := os.WriteFile(filepath.Join(*lodoDir, d.Name+".bin.gz"), b.Bytes(), 0o644); err != nil {
					return err
				}
			}
			fmt.Fprintf(stdout, "lodo %s done\n", d.Name)
		}
	}
	js, err := json.MarshalIndent(man, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(*outDir, "weights.bin.gz"), buf.Bytes(), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(*outDir, "MANIFEST.json"), append(js, '\n'), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "weights: %d bytes, sha256 %s\n", buf.Len(), man.Weights.SHA256[:16])
	for c := range linear.N {
		name := classifiers.Category(c).String()
		cm := man.DevMetrics.Overall[name]
		fmt.Fprintf(stdout, "dev %-9s pos %4d neg %5d  AP %.3f  P %.3f R %.3f (at medium)  iters %d\n",
			name, cm.Positives, cm.Negatives, float64(cm.AP), float64(cm.Precision), float64(cm.Recall), res.Iterations[c])
	}
	return nil
}

func filter(exs []train.Example, keep func(train.Example) bool) []train.Example {
	var out []train.Example
	for _, e := range exs {
		if keep(e) {
			out = append(out, e)
		}
	}
	return out
}

func nonzero(m *linear.Model) int {
	n := 0
	for _, r := range m.Params().Weights {
		if r != [linear.N]float32{} {
			n++
		}
	}
	return n
}

func counts(tr, dev []train.Example) map[string]splitCount {
	out := map[string]splitCount{}
	get := func(d string) splitCount {
		s, ok := out[d]
		if !ok {
			s = splitCount{Positives: map[string]int{}, Negatives: map[string]int{}}
		}
		return s
	}
	for i := range tr {
		s := get(tr[i].Dataset)
		s.Train++
		for c := range linear.N {
			name := classifiers.Category(c).String()
			if tr[i].Positive(c) {
				s.Positives[name]++
			} else if tr[i].Negative(c) {
				s.Negatives[name]++
			}
		}
		out[tr[i].Dataset] = s
	}
	for i := range dev {
		s := get(dev[i].Dataset)
		s.Dev++
		out[dev[i].Dataset] = s
	}
	return out
}

// commandLine renders the invocation with paths made relative to the
// repository root, so the manifest does not depend on where it was cloned.
func commandLine(args []string) string {
	root := train.RepoRoot()
	parts := []string{"go run ./cmd/rai-train"}
	for _, a := range args {
		if k, v, ok := strings.Cut(a, "="); ok && filepath.IsAbs(v) {
			if rel, err := filepath.Rel(root, v); err == nil {
				a = k + "=" + filepath.ToSlash(rel)
			}
		}
		parts = append(parts, a)
	}
	return strings.Join(slices.Clip(parts), " ")
}

// perCategory parses a flag's comma-separated number per category (HATE,
// SEXUAL, VIOLENCE, SELF_HARM), each in [0, most].
func perCategory(flag, s string, most float64) ([]float64, error) {
	fields := strings.Split(s, ",")
	if len(fields) != linear.N {
		return nil, fmt.Errorf("%s: want %d comma-separated numbers", flag, linear.N)
	}
	out := make([]float64, linear.N)
	for i, f := range fields {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || v < 0 || v > most {
			return nil, fmt.Errorf("%s: %q is not a number in [0, %g]", flag, f, most)
		}
		out[i] = v
	}
	return out, nil
}
