package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/openrai/raiserver/classifiers/linear"
	"github.com/openrai/raiserver/classifiers/linear/train"
)

// TestReproducible trains twice on the placeholder data in testdata (made-up
// words, same layout as ../shared/data) and wants byte-identical outputs.
func TestReproducible(t *testing.T) {
	args := func(out string) []string {
		return []string{"-data", "testdata/data", "-synthetic", "testdata/synthetic.tsv",
			"-out", out, "-bits", "12", "-maxiter", "40", "-lodo"}
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
// and compares bytes with classifiers/linear/model/weights.bin.gz. It takes
// about a minute, so it runs only with RAI_TRAIN_REPRODUCE=1.
func TestShippedModelReproduces(t *testing.T) {
	if os.Getenv("RAI_TRAIN_REPRODUCE") == "" {
		t.Skip("set RAI_TRAIN_REPRODUCE=1 to retrain the shipped model and compare bytes")
	}
	root := train.RepoRoot()
	if _, err := os.Stat(filepath.Join(root, "..", "shared", "data")); err != nil {
		t.Skip("../shared/data is absent: nothing to retrain from")
	}
	out := t.TempDir()
	if err := run([]string{"-out", out}, io.Discard); err != nil {
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

// TestConvBlendFlag: -conv-blend fixes the phrase term's blends, recorded
// in the manifest, and rejects a malformed list.
func TestConvBlendFlag(t *testing.T) {
	out := t.TempDir()
	args := []string{"-data", "testdata/data", "-synthetic", "testdata/synthetic.tsv",
		"-out", out, "-bits", "12", "-maxiter", "20", "-conv-epochs", "1", "-conv-blend", "1,0,0.5,0.25"}
	if err := run(args, io.Discard); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(out, "MANIFEST.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		ConvBlend [linear.N]float64 `json:"conv_blend"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if want := [linear.N]float64{1, 0, 0.5, 0.25}; m.ConvBlend != want {
		t.Errorf("conv_blend = %v, want %v", m.ConvBlend, want)
	}
	for _, bad := range []string{"1,0,1", "1,0,1,x", "1,0,1,2"} {
		args := []string{"-data", "testdata/data", "-out", t.TempDir(), "-conv-blend", bad}
		if err := run(args, io.Discard); err == nil {
			t.Errorf("-conv-blend %s: no error", bad)
		}
	}
}

// TestSyntheticFiles: the hand-written files parse, and -synthetic takes
// several files, each recorded in the manifest's inputs.
func TestSyntheticFiles(t *testing.T) {
	for _, name := range []string{"synthetic.tsv", "synthetic-counselling.tsv", "synthetic-identity.tsv"} {
		var c train.Corpus
		if err := c.AddSynthetic(name, "synthetic/"+name); err != nil {
			t.Fatal(err)
		}
		if len(c.Examples) < 100 {
			t.Errorf("%s: %d rows", name, len(c.Examples))
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
