package linear

import (
	"bytes"
	_ "embed" // for the shipped weights
	"sync"
)

//go:embed model/weights.bin.gz
var defaultWeights []byte

var loadDefault = sync.OnceValues(func() (*Model, error) {
	return Load(bytes.NewReader(defaultWeights))
})

// Default returns the model shipped with the package (model/weights.bin.gz,
// trained by cmd/rai-train as recorded in model/MANIFEST.json). It is loaded
// once and shared; the first call decodes about 4 MB.
func Default() (*Model, error) { return loadDefault() }
