package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/openrai/raiserver/classifiers/vectors"
)

// fakePackage writes a tarball laid out like the npm package, with made-up
// words and vectors, and returns its path.
func fakePackage(t *testing.T, words []string, mutate func(map[string]any)) string {
	t.Helper()
	vecs := map[string][]float64{}
	for i, w := range words {
		v := make([]float64, dims+2)
		var s float64
		for d := range dims {
			v[d] = math.Sin(float64(i*dims+d)) / 2
			s += v[d] * v[d]
		}
		v[dims], v[dims+1] = math.Sqrt(s), float64(i)
		vecs[w] = v
	}
	doc := map[string]any{
		"precision": 8, "l2NormIndex": dims, "wordIndex": dims + 1, "size": len(words),
		"dimensions": dims, "words": words, "vectors": vecs, "unkVector": make([]float64, dims+2),
	}
	if mutate != nil {
		mutate(doc)
	}
	js, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, f := range []struct {
		name string
		body []byte
	}{{"package/package.json", []byte("{}")}, {jsonPath, js}} {
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: 0o644, Size: int64(len(f.body))}); err != nil {
			t.Fatal(err)
		}
		tw.Write(f.body)
	}
	tw.Close()
	zw.Close()
	p := filepath.Join(t.TempDir(), "pkg.tgz")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadSourceAndChoose(t *testing.T) {
	words := []string{"the", ",", "alpha", "Bravo", "charlie-delta", "1990", "echo", "fox's", "golf", "hotel"}
	src, info, err := readSource(fakePackage(t, words, nil))
	if err != nil {
		t.Fatal(err)
	}
	if !info.IndexVerified || info.Words != len(words) || info.JSONSHA256 == "" {
		t.Fatalf("info %+v", info)
	}
	var sel selection
	es := choose(src, 4, []string{"hotel", "1990", "missing", "alpha"}, &sel)
	var got []string
	var ranks []int
	for _, e := range es {
		got = append(got, e.Word)
		ranks = append(ranks, e.Rank)
		if len(e.Vector) != dims {
			t.Fatalf("%s: %d numbers", e.Word, len(e.Vector))
		}
	}
	// Shape: the, alpha, charlie-delta, echo are the first four; fox's and
	// golf would be next; 1990 and hotel come from the keep list.
	want := []string{"the", "alpha", "charlie-delta", "1990", "echo", "hotel"}
	wantRanks := []int{1, 3, 5, 6, 7, 10}
	if !slices.Equal(got, want) || !slices.Equal(ranks, wantRanks) {
		t.Fatalf("chose %v ranks %v, want %v %v", got, ranks, want, wantRanks)
	}
	if sel.ShapedWords != 7 || sel.KeepAdded != 2 || sel.KeepMissing != 1 || sel.RankOfTopNEnd != 7 || sel.MaxRank != 10 {
		t.Errorf("selection %+v", sel)
	}
	tb, err := vectors.Build(dims, 31, es)
	if err != nil {
		t.Fatal(err)
	}
	if id, ok := tb.Lookup([]byte("echo")); !ok || tb.Rank(id) != 7 {
		t.Errorf("echo: id %d ok %v", id, ok)
	}
	q := measure(es, tb, 31, 6)
	if q.PerVector.SelfCosineMin < 0.99 || q.PerVector.PairCosAbsErrMax > 0.05 {
		t.Errorf("quantization error %+v", q.PerVector)
	}
}

func TestReadSourceRejectsOtherLayouts(t *testing.T) {
	words := []string{"alpha", "bravo"}
	for name, mutate := range map[string]func(map[string]any){
		"other dims":    func(d map[string]any) { d["dimensions"] = 50 },
		"index moved":   func(d map[string]any) { d["wordIndex"] = 0 },
		"size differs":  func(d map[string]any) { d["size"] = 3 },
		"vector absent": func(d map[string]any) { delete(d["vectors"].(map[string][]float64), "bravo") },
		"wrong index": func(d map[string]any) {
			d["vectors"].(map[string][]float64)["bravo"][dims+1] = 0
		},
	} {
		if _, _, err := readSource(fakePackage(t, words, mutate)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
