package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/linear/train"
)

// blockAtLevels are the blocking thresholds a server can be configured
// with (categories.X.blockAt; NEVER blocks nothing): a row is blocked in
// a category when its severity there is at least the level's.
var blockAtLevels = []struct {
	name string
	sev  uint8
}{{"LOW", 1}, {"MEDIUM", 2}, {"HIGH", 3}}

// maxListed is how many row ids of each kind (benign blocked, harmful
// passed) the report of -rows lists per category.
const maxListed = 20

// printOperatingPoints prints, per category, what each blockAt would do
// on the rows sel selects that carry a label for the category: precision,
// recall and F1 of "blocked", the share of the negatives blocked, and
// average precision (by severity, as a client sees it, and by score).
func printOperatingPoints(w io.Writer, exs []train.Example, v []verdict, sel func(*train.Example) bool) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "category\tblockAt\tpos\tneg\tprecision\trecall\tF1\tnegatives blocked\tAP\tAP score\t")
	for c := range n {
		var a apPair
		for i := range exs {
			if sel(&exs[i]) && exs[i].Hard(c) {
				a.add(v[i], c, exs[i].Positive(c))
			}
		}
		ap, apScore := a.severity(), a.score()
		for k, l := range blockAtLevels {
			b := train.Count(a.sev, float64(l.sev))
			name := l.name
			if l.sev == blockAt {
				name += " (default)"
			}
			aps := "\t"
			if k == 0 {
				aps = f3(ap) + "\t" + f3(apScore)
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t\n", classifiers.Category(c), name, b.TP+b.FN, b.FP+b.TN,
				f3(b.Precision()), f3(b.Recall()), f3(b.F1()), f3(ratio(b.FP, b.FP+b.TN)), aps)
		}
	}
	tw.Flush()
}

// printRows is the report of -rows: the operating points of every
// blockAt on the user's rows, how many rows benign in all four
// categories are blocked and how many harmful rows are blocked in a
// category they are labelled with (at the default blockAt), and the ids
// (file:line) of the rows each category gets wrong at the default, so
// that they can be read in the file. It never prints a row's text.
func (r *result) printRows(w io.Writer, file string) {
	fmt.Fprintf(w, "== %s on %s: %s\n", r.name, file, r.describe)
	fmt.Fprintf(w, "%d rows, each scored as the server scores an item (segments of at least %d bytes with %d bytes of context, the worst segment counting); a row counts for a category when its label says yes or no there\n\n", r.rows, minSegmentBytes, contextBytes)
	all := func(*train.Example) bool { return true }
	printOperatingPoints(w, r.exs, r.v, all)
	fmt.Fprintln(w)
	benign, benignBlocked, harmful, harmfulBlocked := 0, 0, 0, 0
	for i := range r.exs {
		e := &r.exs[i]
		switch {
		case e.Benign():
			benign++
			if r.v[i].anyAt(blockAt) {
				benignBlocked++
			}
		case e.Harmful():
			harmful++
			if blocksLabel(e, r.v[i]) {
				harmfulBlocked++
			}
		}
	}
	fmt.Fprintf(w, "at the default blockAt (MEDIUM): rows benign in all four blocked in any category %d of %d (%s); harmful rows blocked in a labelled category %d of %d (%s)\n",
		benignBlocked, benign, f3(ratio(benignBlocked, benign)), harmfulBlocked, harmful, f3(ratio(harmfulBlocked, harmful)))
	wrong := false
	for c := range n {
		var fp, fn []string
		for i := range r.exs {
			e := &r.exs[i]
			blocked := r.v[i].sev[c] >= blockAt
			switch {
			case blocked && e.Negative(c):
				fp = append(fp, e.ID)
			case !blocked && e.Positive(c):
				fn = append(fn, e.ID)
			}
		}
		if len(fp)+len(fn) > 0 {
			wrong = true
			fmt.Fprintf(w, "%s: blocked though labelled no: %s; not blocked though labelled yes: %s\n", classifiers.Category(c), listIDs(fp), listIDs(fn))
		}
	}
	if !wrong {
		fmt.Fprintln(w, "rows wrong at the default blockAt: none")
	}
	fmt.Fprintln(w)
}

// listIDs joins up to maxListed ids and says how many more there are.
func listIDs(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	if len(ids) <= maxListed {
		return strings.Join(ids, " ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(ids[:maxListed], " "), len(ids)-maxListed)
}
