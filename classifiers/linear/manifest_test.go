package linear_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"

	"github.com/openrai/raiserver/classifiers/linear"
	"github.com/openrai/raiserver/classifiers/linear/train"
)

// TestShippedModelMatchesNormalization fails when classifiers/internal/normalize has
// changed since the shipped model was trained: the model would then see
// text differently from how it was trained.
func TestShippedModelMatchesNormalization(t *testing.T) {
	b, err := os.ReadFile("model/MANIFEST.json")
	if err != nil {
		t.Fatal(err)
	}
	var man struct {
		Fingerprint string `json:"normalization_fingerprint"`
		Weights     struct {
			SHA256 string `json:"sha256"`
		} `json:"weights"`
	}
	if err := json.Unmarshal(b, &man); err != nil {
		t.Fatal(err)
	}
	w, err := os.ReadFile("model/weights.bin.gz")
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(w); hex.EncodeToString(sum[:]) != man.Weights.SHA256 {
		t.Fatal("model/weights.bin.gz does not match model/MANIFEST.json: commit both from one rai-train run")
	}
	m, err := linear.Default()
	if err != nil {
		t.Fatal(err)
	}
	if got := train.NormalizationFingerprint(m.Params().Normalization); got != man.Fingerprint {
		t.Fatalf("text normalization changed since the shipped model was trained (fingerprint %.12s, manifest %.12s): "+
			"retrain with `go run ./cmd/rai-train -lodo` (needs ../shared/data) and commit classifiers/linear/model",
			got, man.Fingerprint)
	}
}
