package vectors

import (
	"bytes"
	_ "embed" // for the shipped table
	"sync"
)

//go:embed data/glove100.bin.gz
var defaultTable []byte

var loadDefault = sync.OnceValues(func() (*Table, error) {
	return Load(bytes.NewReader(defaultTable))
})

// Default returns the table shipped with the package (data/glove100.bin.gz,
// made by cmd/rai-vectors as recorded in data/MANIFEST.json). It is loaded
// once, on the first call, and shared.
func Default() (*Table, error) { return loadDefault() }
