package vectors_test

import (
	"bytes"
	"fmt"
	"math"

	"github.com/openrai/raiserver/classifiers/vectors"
)

// Mean-pool the vectors of a text's words, weighting each by log(Rank) as
// an IDF proxy, and compare two texts by cosine.
func Example() {
	t, err := vectors.Default()
	if err != nil {
		panic(err)
	}
	pool := func(text string) []float32 {
		sum := make([]float32, t.Dims())
		for _, w := range bytes.Fields(bytes.ToLower([]byte(text))) {
			if id, ok := t.Lookup(w); ok {
				t.AddTo(sum, id, float32(math.Log(1+float64(t.Rank(id))/100)))
			}
		}
		return sum
	}
	cos := func(a, b []float32) float64 {
		var ab, aa, bb float64
		for i := range a {
			ab += float64(a[i]) * float64(b[i])
			aa += float64(a[i]) * float64(a[i])
			bb += float64(b[i]) * float64(b[i])
		}
		return ab / math.Sqrt(aa*bb)
	}
	rain := pool("Heavy rain is expected on Tuesday")
	storm := pool("A storm will bring showers this week")
	recipe := pool("Whisk the eggs with sugar and butter")
	fmt.Println(cos(rain, storm) > cos(rain, recipe))

	id, ok := t.Lookup([]byte("weather"))
	fmt.Println(ok, t.Dims(), len(t.Vector(id)), t.Rank(id) < t.Rank(int32(t.Len()-1)))
	// Output:
	// true
	// true 100 100 true
}
