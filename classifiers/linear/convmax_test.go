package linear

import (
	"math/rand/v2"
	"testing"
	"unsafe"
)

// convMaxRef is the definition convMax and convMaxGo implement, one filter
// and one position at a time: h[f] = max(0, max_p bias[f] + Σ_k
// row(p+k)[k·F+f]).
func convMaxRef(h, bias []int16, rows []*int8, width int) {
	F := len(h)
	for f := range F {
		best := 0
		for p := 0; p+width <= len(rows); p++ {
			s := int(bias[f])
			for k := range width {
				s += int(*(*int8)(unsafe.Add(unsafe.Pointer(rows[p+k]), k*F+f)))
			}
			best = max(best, s)
		}
		h[f] = int16(best)
	}
}

// TestConvMaxMatchesRef checks the portable kernel (SWAR) and convMax (the
// assembly where it runs) against convMaxRef on random rows, on rows at the
// extreme sums, and with filter counts that leave a tail of fewer than
// eight.
func TestConvMaxMatchesRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, F := range []int{1, 5, 8, 13, 32, 64, 128, 192, 256} {
		for W := 1; W <= maxConvWidth; W++ {
			for T := 0; T <= 40; T += 1 + rng.IntN(5) {
				// kind 0: random rows and biases; 1: every row +127 and
				// the largest bias; 2: every row −127 and the smallest.
				for kind := range 3 {
					word := func() int8 { return int8(rng.IntN(2*convRowMax+1) - convRowMax) }
					b := func() int16 { return int16(rng.IntN(2*convBiasMax+1) - convBiasMax) }
					switch kind {
					case 1:
						word = func() int8 { return convRowMax }
						b = func() int16 { return convBiasMax }
					case 2:
						word = func() int8 { return -convRowMax }
						b = func() int16 { return -convBiasMax }
					}
					words := make([][]int8, T)
					for j := range words {
						words[j] = make([]int8, W*F)
						for i := range words[j] {
							words[j][i] = word()
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
						bias[f] = b()
					}
					want := make([]int16, F)
					convMaxRef(want, bias, rows, W)
					for name, kernel := range map[string]func(h, bias []int16, rows []*int8, width int){
						"convMaxGo": convMaxGo, "convMax": convMax,
					} {
						got := make([]int16, F)
						for f := range got {
							got[f] = int16(f + 1) // the kernel must overwrite
						}
						kernel(got, bias, rows, W)
						for f := range want {
							if got[f] != want[f] {
								t.Fatalf("%s F=%d W=%d T=%d kind %d: filter %d is %v, want %v", name, F, W, T, kind, f, got[f], want[f])
							}
						}
					}
				}
			}
		}
	}
}
