package main

import (
	"bufio"
	"fmt"
	"os"
	"testing"

	"github.com/openrai/raiserver/classifiers/linear/train"
)

func TestZZDump(t *testing.T) {
	out := os.Getenv("ZZDUMP")
	if out == "" {
		t.Skip()
	}
	corpus, err := train.LoadShared("../../../shared/data")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := newScorer("ensemble")
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.Create(out)
	w := bufio.NewWriter(f)
	for i := range corpus.Examples {
		e := &corpus.Examples[i]
		v := sc.score([]byte(e.Text))
		fmt.Fprintf(w, "%d\t%s\t%s", i, e.Dataset, e.ID)
		for c := range n {
			l := "-"
			if e.Positive(c) {
				l = "P"
			} else if e.Negative(c) {
				l = "N"
			}
			fmt.Fprintf(w, "\t%s%d", l, v.sev[c])
		}
		fmt.Fprintln(w)
	}
	w.Flush()
	f.Close()
}
