package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/linear"
	"github.com/openrai/raiserver/classifiers/linear/train"
)

// TestReproducible trains twice on the placeholder data in testdata (made-up
// words, same layout as ../shared/data), with a phrase term fitted afresh
// and one leave-one-dataset-out model (one is enough for the path, and
// each costs a training: under -race this test was most of the package's
// eight minutes), and wants byte-identical outputs.
func TestReproducible(t *testing.T) {
	args := func(out string) []string {
		return []string{"-data", "testdata/data", "-synthetic", "testdata/synthetic.tsv",
			"-out", out, "-bits", "12", "-maxiter", "40", "-lodo", "-lodo-sets", "davidson", "-conv-load", ""}
	}
	a, b := t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		if err := run(args(dir), io.Discard); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"weights.bin.gz", "MANIFEST.json"} {
		x, err := os.ReadFile(filepath.Join(a, name))
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(filepath.Join(b, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "MANIFEST.json" { // the command lines name different -out folders
			x, y = withoutCommand(t, x), withoutCommand(t, y)
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between two runs", name)
		}
	}
	f, err := os.Open(filepath.Join(a, "weights.bin.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := linear.Load(f)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Params().Features.Bits; got != 12 {
		t.Errorf("bits = %d, want 12", got)
	}
}

func TestMissingData(t *testing.T) {
	err := run([]string{"-data", filepath.Join(t.TempDir(), "absent"), "-out", t.TempDir()}, io.Discard)
	if !errors.Is(err, train.ErrNoData) {
		t.Fatalf("run = %v, want ErrNoData", err)
	}
}

func withoutCommand(t *testing.T, js []byte) []byte {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(js, &m); err != nil {
		t.Fatal(err)
	}
	if _, ok := m["command"]; !ok {
		t.Fatal("manifest has no command")
	}
	delete(m, "command")
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestShippedModelReproduces retrains the shipped model from ../shared/data
// with the flags its manifest's command records and compares bytes with
// classifiers/linear/model/weights.bin.gz. It takes
// about a minute, so it runs only with RAI_TRAIN_REPRODUCE=1.
func TestShippedModelReproduces(t *testing.T) {
	if os.Getenv("RAI_TRAIN_REPRODUCE") == "" {
		t.Skip("set RAI_TRAIN_REPRODUCE=1 to retrain the shipped model and compare bytes")
	}
	root := train.RepoRoot()
	if _, err := os.Stat(filepath.Join(root, "..", "shared", "data")); err != nil {
		t.Skip("../shared/data is absent: nothing to retrain from")
	}
	args, err := manifestArgs(filepath.Join(root, "classifiers", "linear", "model", "MANIFEST.json"), root)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if err := run(append(args, "-out", out), io.Discard); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(out, "weights.bin.gz"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(root, "classifiers", "linear", "model", "weights.bin.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("retrained weights differ from the shipped ones")
	}
}

// TestConvBlendFlag: -conv-blend fixes the phrase term's blends, and
// -conv-residual, -conv-average and -conv-seed set its training, all
// recorded in the manifest; a malformed list is rejected.
func TestConvBlendFlag(t *testing.T) {
	out := t.TempDir()
	args := []string{"-data", "testdata/data", "-synthetic", "testdata/synthetic.tsv",
		"-out", out, "-bits", "12", "-maxiter", "20", "-conv-epochs", "1", "-conv-load", "", "-conv-blend", "1,0,0.5,0.25",
		"-conv-residual", "0,1,0,0.5", "-conv-average", "-conv-seed", "7"}
	if err := run(args, io.Discard); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(out, "MANIFEST.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		ConvBlend [linear.N]float64 `json:"conv_blend"`
		Config    struct {
			Conv train.ConvConfig `json:"conv"`
		} `json:"config"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if want := [linear.N]float64{1, 0, 0.5, 0.25}; m.ConvBlend != want {
		t.Errorf("conv_blend = %v, want %v", m.ConvBlend, want)
	}
	if cc := m.Config.Conv; !slices.Equal(cc.Residual, []float64{0, 1, 0, 0.5}) || !cc.Average || cc.Seed != 7 {
		t.Errorf("conv config residual %v, average %v, seed %d; want [0 1 0 0.5], true, 7", cc.Residual, cc.Average, cc.Seed)
	}
	for _, bad := range [][2]string{{"-conv-blend", "1,0,1"}, {"-conv-blend", "1,0,1,x"}, {"-conv-blend", "1,0,1,2"}, {"-conv-residual", "1,1,1"}, {"-conv-residual", "1,1,1,-1"}} {
		args := []string{"-data", "testdata/data", "-out", t.TempDir(), bad[0], bad[1]}
		if err := run(args, io.Discard); err == nil {
			t.Errorf("%s %s: no error", bad[0], bad[1])
		}
	}
}

// TestL2CategoryFlag: -l2-category sets each head's L2 penalty, recorded
// in the manifest; a head given a weaker penalty fits its training rows
// more closely (a lower training loss), the others are unchanged; a
// malformed list is rejected.
func TestL2CategoryFlag(t *testing.T) {
	base := []string{"-data", "testdata/data", "-synthetic", "testdata/synthetic.tsv", "-bits", "12", "-maxiter", "40", "-conv=false", "-l2", "1e-3"}
	outA, outB := t.TempDir(), t.TempDir()
	if err := run(append(base, "-out", outA), io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := run(append(base, "-out", outB, "-l2-category", "0,1e-6,0,0"), io.Discard); err != nil {
		t.Fatal(err)
	}
	type manifest struct {
		Loss   [linear.N]float64 `json:"loss"`
		Config struct {
			L2         float64           `json:"l2"`
			L2Category [linear.N]float64 `json:"l2_category"`
		} `json:"config"`
	}
	read := func(dir string) manifest {
		raw, err := os.ReadFile(filepath.Join(dir, "MANIFEST.json"))
		if err != nil {
			t.Fatal(err)
		}
		var m manifest
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	a, b := read(outA), read(outB)
	if want := [linear.N]float64{0, 1e-6, 0, 0}; b.Config.L2Category != want || b.Config.L2 != 1e-3 {
		t.Errorf("manifest l2 %g, l2_category %v; want 1e-3, %v", b.Config.L2, b.Config.L2Category, want)
	}
	if b.Loss[1] >= a.Loss[1] {
		t.Errorf("SEXUAL loss %g with L2 1e-6, %g with 1e-3: want lower", b.Loss[1], a.Loss[1])
	}
	for _, c := range []int{0, 2, 3} {
		if a.Loss[c] != b.Loss[c] {
			t.Errorf("category %d: loss %g, %g; want the same (its L2 did not change)", c, a.Loss[c], b.Loss[c])
		}
	}
	for _, bad := range []string{"1e-5,1e-5,1e-5", "1e-5,x,0,0", "1e-5,2,0,0"} {
		if err := run([]string{"-data", "testdata/data", "-out", t.TempDir(), "-l2-category", bad}, io.Discard); err == nil {
			t.Errorf("-l2-category %s: no error", bad)
		}
	}
}

// TestConvSaveLoad: -conv-save writes the fitted phrase term, -conv-load
// reuses it (the same rows then give the same weights, and the manifest
// names the file and its checksum), and with -lodo the left-out models
// fit their own term.
func TestConvSaveLoad(t *testing.T) {
	dir := t.TempDir()
	term := filepath.Join(dir, "term.gob")
	base := []string{"-data", "testdata/data", "-synthetic", "testdata/synthetic.tsv", "-bits", "12", "-maxiter", "20", "-conv-epochs", "1", "-conv-load", ""}
	outA, outB := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := run(append(base, "-out", outA, "-conv-save", term), io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := run(append(base, "-out", outB, "-conv-load", term), io.Discard); err != nil {
		t.Fatal(err)
	}
	a, errA := os.ReadFile(filepath.Join(outA, "weights.bin.gz"))
	b, errB := os.ReadFile(filepath.Join(outB, "weights.bin.gz"))
	if err := errors.Join(errA, errB); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("weights with the reused term differ from those with the fitted one")
	}
	raw, err := os.ReadFile(filepath.Join(outB, "MANIFEST.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		ConvFrom *struct{ File, SHA256 string } `json:"conv_from"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if m.ConvFrom == nil || m.ConvFrom.File != term || len(m.ConvFrom.SHA256) != 64 {
		t.Errorf("manifest conv_from = %+v", m.ConvFrom)
	}
	if err := run(append(base, "-out", t.TempDir(), "-conv-load", term, "-lodo", "-lodo-sets", "davidson"), io.Discard); err != nil {
		t.Errorf("-conv-load with -lodo: %v", err)
	}
}

// TestSyntheticFiles: the hand-written files parse, and -synthetic takes
// several files, each recorded in the manifest's inputs.
func TestSyntheticFiles(t *testing.T) {
	for _, name := range []string{"synthetic.tsv", "synthetic-sexual-context.tsv", "synthetic-counselling.tsv", "synthetic-identity.tsv", "synthetic-requests.tsv", "synthetic-prose-violence.tsv", "synthetic-prose-sexual.tsv", "synthetic-prose-everyday.tsv"} {
		var c train.Corpus
		if err := c.AddSynthetic(name, "synthetic/"+name); err != nil {
			t.Fatal(err)
		}
		if len(c.Examples) < 100 {
			t.Errorf("%s: %d rows", name, len(c.Examples))
		}
		// The SEXUAL context rows teach the SEXUAL head only: negative
		// there, unknown (no weight) in the other three categories.
		if name == "synthetic-sexual-context.tsv" {
			for i, e := range c.Examples {
				if !e.Negative(int(classifiers.Sexual)) || e.Hard(int(classifiers.Hate)) || e.Hard(int(classifiers.Violence)) || e.Hard(int(classifiers.SelfHarm)) {
					t.Errorf("%s: row %d is not SEXUAL-negative only", name, i)
				}
			}
		}
	}
	out := t.TempDir()
	args := []string{"-data", "testdata/data", "-synthetic", "testdata/synthetic.tsv,synthetic-counselling.tsv",
		"-out", out, "-bits", "12", "-maxiter", "20", "-conv=false"}
	if err := run(args, io.Discard); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(out, "MANIFEST.json"))
	if err != nil {
		t.Fatal(err)
	}
	var man struct {
		Inputs []train.File `json:"inputs"`
	}
	if err := json.Unmarshal(raw, &man); err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, f := range man.Inputs {
		found[f.Path] = true
	}
	for _, want := range []string{"synthetic/synthetic.tsv", "synthetic/synthetic-counselling.tsv"} {
		if !found[want] {
			t.Errorf("manifest inputs lack %s: %+v", want, man.Inputs)
		}
	}
}

// manifestArgs returns the flags of the command a manifest records
// ("go run ./cmd/rai-train -flag value …"), with the values that name a
// file or directory under root made absolute, and without -out.
func manifestArgs(path, root string) ([]string, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m struct {
		Command string `json:"command"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	rest, ok := strings.CutPrefix(m.Command, "go run ./cmd/rai-train")
	if !ok {
		return nil, fmt.Errorf("manifest command %q is not a run of ./cmd/rai-train", m.Command)
	}
	var args []string
	fields := strings.Fields(rest)
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if f == "-out" || f == "--out" {
			i++
			continue
		}
		if strings.HasPrefix(f, "-out=") || strings.HasPrefix(f, "--out=") {
			continue
		}
		if !strings.HasPrefix(f, "-") {
			if _, err := os.Stat(filepath.Join(root, f)); err == nil {
				f = filepath.Join(root, f)
			}
		}
		args = append(args, f)
	}
	return args, nil
}

func TestManifestArgs(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "MANIFEST.json")
	if err := os.WriteFile(filepath.Join(dir, "extra.tsv"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`{"command": "go run ./cmd/rai-train -conv-blend 1,0,0.5,0 -out classifiers/linear/model -synthetic extra.tsv"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := manifestArgs(path, dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"-conv-blend", "1,0,0.5,0", "-synthetic", filepath.Join(dir, "extra.tsv")}
	if !slices.Equal(got, want) {
		t.Errorf("manifestArgs = %q, want %q", got, want)
	}
	if err := os.WriteFile(path, []byte(`{"command": "python train.py"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := manifestArgs(path, dir); err == nil {
		t.Error("a command that is not a run of rai-train was accepted")
	}
}
