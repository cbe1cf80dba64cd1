package main

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/openrai/raiserver/classifiers/ensemble"
	"github.com/openrai/raiserver/classifiers/linear/train"
)

// ZZSET=name[,name] ZZNEG=1: count the rules of blocking findings on negatives.
func TestZZRules(t *testing.T) {
	sets := os.Getenv("ZZSET")
	if sets == "" {
		t.Skip()
	}
	corpus, _ := train.LoadShared("../../../shared/data")
	e, _ := ensemble.Default()
	cnt := map[string]int{}
	ids := map[string][]int{}
	for i := range corpus.Examples {
		x := &corpus.Examples[i]
		if !strings.Contains(","+sets+",", ","+x.Dataset+",") {
			continue
		}
		for _, f := range e.Classify(nil, []byte(x.Text)) {
			c := int(f.Category)
			if f.Severity < 2 || !x.Negative(c) {
				continue
			}
			k := f.Category.String() + " " + f.Rule
			cnt[k]++
			ids[k] = append(ids[k], i)
		}
	}
	var ks []string
	for k := range cnt {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(a, b int) bool { return cnt[ks[a]] > cnt[ks[b]] })
	for _, k := range ks {
		fmt.Printf("%4d %s %v\n", cnt[k], k, ids[k][:min(len(ids[k]), 6)])
	}
}
