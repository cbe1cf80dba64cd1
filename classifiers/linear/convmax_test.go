package linear

import (
	"math/rand/v2"
	"testing"
)

// TestConvMaxMatchesGo checks convMax (the assembly where it runs) against
// convMaxGo, bit for bit, on random rows.
func TestConvMaxMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, F := range []int{8, 32, 64, 96, 128} {
		for W := 1; W <= maxConvWidth; W++ {
			for T := 1; T <= 40; T += 1 + rng.IntN(5) {
				words := make([][]float32, T)
				for j := range words {
					words[j] = make([]float32, W*F)
					for i := range words[j] {
						words[j][i] = float32(rng.NormFloat64())
					}
				}
				zero := make([]float32, W*F)
				var rows []*float32
				for range W - 1 {
					rows = append(rows, &zero[0])
				}
				for j := range words {
					rows = append(rows, &words[j][0])
				}
				for range W - 1 {
					rows = append(rows, &zero[0])
				}
				bias := make([]float32, F)
				for f := range bias {
					bias[f] = float32(rng.NormFloat64())
				}
				want, got := make([]float32, F), make([]float32, F)
				acc := make([]float32, F)
				convMaxGo(want, acc, bias, rows, W)
				for f := range got {
					got[f] = float32(f) // convMax must overwrite
				}
				convMax(got, acc, bias, rows, W)
				for f := range want {
					if got[f] != want[f] {
						t.Fatalf("F=%d W=%d T=%d: filter %d is %v, want %v", F, W, T, f, got[f], want[f])
					}
				}
			}
		}
	}
}
