package train

import (
	"math"
	"slices"
)

// Scored is one (score, label) pair for binary metrics.
type Scored struct {
	Score    float64
	Positive bool
}

// AveragePrecision is the area under the precision-recall curve taken at
// every distinct score (as scikit-learn computes it): Σ (R_k − R_{k−1})·P_k.
// Tied scores form one threshold, so a coarse score (a severity) is not
// credited for an arbitrary order among ties. NaN without positives.
func AveragePrecision(xs []Scored) float64 {
	s := slices.Clone(xs)
	slices.SortStableFunc(s, func(a, b Scored) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	var pos int
	for _, x := range s {
		if x.Positive {
			pos++
		}
	}
	if pos == 0 {
		return math.NaN()
	}
	var ap float64
	tp, seen, prevR := 0, 0, 0.0
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && s[j].Score == s[i].Score {
			if s[j].Positive {
				tp++
			}
			j++
		}
		seen += j - i
		r := float64(tp) / float64(pos)
		ap += (r - prevR) * float64(tp) / float64(seen)
		prevR = r
		i = j
	}
	return ap
}

// Binary holds confusion counts at one threshold and the derived rates.
type Binary struct {
	TP, FP, FN, TN int
}

// Count counts xs with Score ≥ thr as predicted positive.
func Count(xs []Scored, thr float64) Binary {
	var b Binary
	for _, x := range xs {
		b.Add(x.Score >= thr, x.Positive)
	}
	return b
}

// Add counts one decision: pred is the classifier's, pos the label.
func (b *Binary) Add(pred, pos bool) {
	switch {
	case pred && pos:
		b.TP++
	case pred:
		b.FP++
	case pos:
		b.FN++
	default:
		b.TN++
	}
}

// Precision is TP/(TP+FP), NaN when nothing was predicted.
func (b Binary) Precision() float64 { return ratio(b.TP, b.TP+b.FP) }

// Recall is TP/(TP+FN), NaN without positives.
func (b Binary) Recall() float64 { return ratio(b.TP, b.TP+b.FN) }

// FPR is FP/(FP+TN), NaN without negatives.
func (b Binary) FPR() float64 { return ratio(b.FP, b.FP+b.TN) }

// F1 is the harmonic mean of precision and recall.
func (b Binary) F1() float64 {
	return ratio(2*b.TP, 2*b.TP+b.FP+b.FN)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}
