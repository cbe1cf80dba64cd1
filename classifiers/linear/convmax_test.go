package linear

import (
	"math/rand/v2"
	"testing"
)

// TestConvMaxMatchesGo checks convMax (the assembly where it runs) against
// convMaxGo on random rows, down to the extreme sums.
func TestConvMaxMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, F := range []int{8, 32, 64, 128, 192} {
		for W := 1; W <= maxConvWidth; W++ {
			for T := 1; T <= 40; T += 1 + rng.IntN(5) {
				words := make([][]int8, T)
				for j := range words {
					words[j] = make([]int8, W*F)
					for i := range words[j] {
						words[j][i] = int8(rng.IntN(2*convRowMax+1) - convRowMax)
					}
				}
				zero := make([]int8, W*F)
				var rows []*int8
				for range W - 1 {
					rows = append(rows, &zero[0])
				}
				for j := range words {
					rows = append(rows, &words[j][0])
				}
				for range W - 1 {
					rows = append(rows, &zero[0])
				}
				bias := make([]int16, F)
				for f := range bias {
					bias[f] = int16(rng.IntN(2*convBiasMax+1) - convBiasMax)
				}
				want, got := make([]int16, F), make([]int16, F)
				acc := make([]int16, F)
				convMaxGo(want, acc, bias, rows, W)
				for f := range got {
					got[f] = int16(f) // convMax must overwrite
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
