package train

import (
	"math"
	"sort"
	"strconv"

	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/linear"
)

// CategoryMetrics are one category's metrics on a set of examples with hard
// labels for it. The operating point is the Medium threshold (severity ≥ 2,
// blocking by default).
type CategoryMetrics struct {
	Positives int `json:"positives"`
	Negatives int `json:"negatives"`
	AP        Num `json:"ap"`
	Precision Num `json:"precision"`
	Recall    Num `json:"recall"`
	F1        Num `json:"f1"`
	FPR       Num `json:"fpr"`
}

// Num is a metric that is written to JSON rounded to 4 decimals, and as
// null when it is undefined (NaN).
type Num float64

// MarshalJSON implements json.Marshaler.
func (n Num) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(n)) || math.IsInf(float64(n), 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, math.Round(float64(n)*10000)/10000, 'f', -1, 64), nil
}

// Report holds metrics by category, overall and per dataset.
type Report struct {
	Rows      int                                   `json:"rows"`
	Overall   map[string]CategoryMetrics            `json:"overall"`
	ByDataset map[string]map[string]CategoryMetrics `json:"by_dataset"`
}

// Evaluate scores exs with m and measures each category against the hard
// labels. NaN metrics (no positives, no negatives) are left out.
func Evaluate(m *linear.Model, exs []Example) Report {
	probs := Probabilities(m, exs)
	thr := m.Params().Thresholds
	r := Report{Rows: len(exs), Overall: map[string]CategoryMetrics{}, ByDataset: map[string]map[string]CategoryMetrics{}}
	datasets := map[string]bool{}
	for i := range exs {
		datasets[exs[i].Dataset] = true
	}
	names := make([]string, 0, len(datasets))
	for d := range datasets {
		names = append(names, d)
	}
	sort.Strings(names)
	for c := range N {
		cat := classifiers.Category(c).String()
		if cm, ok := metricsFor(exs, probs, c, float64(thr[c].Medium), ""); ok {
			r.Overall[cat] = cm
		}
		for _, d := range names {
			if cm, ok := metricsFor(exs, probs, c, float64(thr[c].Medium), d); ok {
				if r.ByDataset[d] == nil {
					r.ByDataset[d] = map[string]CategoryMetrics{}
				}
				r.ByDataset[d][cat] = cm
			}
		}
	}
	return r
}

func metricsFor(exs []Example, probs [][N]float32, c int, thr float64, dataset string) (CategoryMetrics, bool) {
	var xs []Scored
	for i := range exs {
		if dataset != "" && exs[i].Dataset != dataset {
			continue
		}
		if exs[i].Hard(c) {
			xs = append(xs, Scored{Score: float64(probs[i][c]), Positive: exs[i].Positive(c)})
		}
	}
	if len(xs) == 0 {
		return CategoryMetrics{}, false
	}
	b := Count(xs, thr)
	cm := CategoryMetrics{
		Positives: b.TP + b.FN, Negatives: b.FP + b.TN,
		AP: Num(AveragePrecision(xs)), Precision: Num(b.Precision()), Recall: Num(b.Recall()),
		F1: Num(b.F1()), FPR: Num(b.FPR()),
	}
	return cm, true
}
