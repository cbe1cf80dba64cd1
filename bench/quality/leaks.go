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
// (a, b), the eval rows positive for a and how many of them the classifier
// blocked for b: text about one harm reported as another. neg are the rows
// hard-negative for b (a leak for certain); unk the rows the set says
// nothing about b for (an upper bound: some may hold b too).
type leakCell struct {
	set             string
	a, b            int
	neg, negBlocked int
	unk, unkBlocked int
}

// leakCells returns every non-empty cell, per data set and pooled over
// the sets (set "all"), pooled cells last.
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
					if e.Dataset != d.Name || !isEval(e) || !e.Positive(a) || e.Positive(b) {
						continue
					}
					blocked := r.v[i].sev[b] >= blockAt
					switch {
					case e.Negative(b):
						x.neg++
						if blocked {
							x.negBlocked++
						}
					case !e.Hard(b):
						x.unk++
						if blocked {
							x.unkBlocked++
						}
					}
				}
				if x.neg+x.unk == 0 {
					continue
				}
				out = append(out, x)
				p := pooled[[2]int{a, b}]
				if p == nil {
					p = &leakCell{set: "all", a: a, b: b}
					pooled[[2]int{a, b}] = p
				}
				p.neg += x.neg
				p.negBlocked += x.negBlocked
				p.unk += x.unk
				p.unkBlocked += x.unkBlocked
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
// rows positive for A (and not for B), the share blocked for B, on the
// rows labelled negative for B and on the rows the set does not label for
// B.
func (r *result) printLeaks(w io.Writer) {
	fmt.Fprintln(w, "cross-category leaks, eval rows positive for A and not for B: share blocked for B,")
	fmt.Fprintln(w, "  among rows labelled negative for B (leaks) and rows without a label for B (upper bound):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "data set\tA\tB\tB-negative rows\tblocked B\tshare\tB-unlabelled rows\tblocked B\tshare\t")
	for _, x := range r.leakCells() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t%d\t%d\t%s\t\n", x.set, classifiers.Category(x.a), classifiers.Category(x.b),
			x.neg, x.negBlocked, f3(ratio(x.negBlocked, x.neg)), x.unk, x.unkBlocked, f3(ratio(x.unkBlocked, x.unk)))
	}
	tw.Flush()
	fmt.Fprintln(w)
}
