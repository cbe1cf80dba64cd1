package main

import (
	"fmt"
	"io"
	"sort"
	"text/tabwriter"

	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/linear/train"
)

// leakCell counts, for one data set and an ordered pair of categories
// (a, b), the eval rows that are positive for a and hard-negative for b,
// and how many of them the classifier blocked for b: text about one harm
// reported as another.
type leakCell struct {
	set      string
	a, b     int
	rows, bl int
}

// leakCells returns every non-empty cell, per data set and pooled over
// the sets (set "all").
func (r *result) leakCells() []leakCell {
	var out []leakCell
	pooled := map[[2]int]*leakCell{}
	for _, d := range train.Datasets {
		for a := range n {
			for b := range n {
				if a == b {
					continue
				}
				x := leakCell{set: d.Name, a: a, b: b}
				for i := range r.exs {
					e := &r.exs[i]
					if e.Dataset != d.Name || !isEval(e) || !e.Positive(a) || !e.Negative(b) {
						continue
					}
					x.rows++
					if r.v[i].sev[b] >= blockAt {
						x.bl++
					}
				}
				if x.rows == 0 {
					continue
				}
				out = append(out, x)
				p := pooled[[2]int{a, b}]
				if p == nil {
					p = &leakCell{set: "all", a: a, b: b}
					pooled[[2]int{a, b}] = p
				}
				p.rows += x.rows
				p.bl += x.bl
			}
		}
	}
	keys := make([][2]int, 0, len(pooled))
	for k := range pooled {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i][0] < keys[j][0] || keys[i][0] == keys[j][0] && keys[i][1] < keys[j][1]
	})
	for _, k := range keys {
		out = append(out, *pooled[k])
	}
	return out
}

// printLeaks prints the leak matrix: per data set and pooled, among eval
// rows positive for A and hard-negative for B, the share blocked for B.
func (r *result) printLeaks(w io.Writer) {
	fmt.Fprintln(w, "cross-category leaks, eval rows: positive for A, hard-negative for B, share blocked for B:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "data set\tA\tB\trows\tblocked B\tshare\t")
	for _, x := range r.leakCells() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t\n", x.set, classifiers.Category(x.a), classifiers.Category(x.b), x.rows, x.bl, f3(ratio(x.bl, x.rows)))
	}
	tw.Flush()
	fmt.Fprintln(w)
}
