package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/openrai/raiserver/classifiers/ensemble"
	"github.com/openrai/raiserver/classifiers/linear/train"
)

// ZZRULE=name: per dataset, negatives and positives where the rule gives a blocking finding.
func TestZZRule1(t *testing.T) {
	rule := os.Getenv("ZZRULE")
	if rule == "" {
		t.Skip()
	}
	corpus, _ := train.LoadShared("../../../shared/data")
	e, _ := ensemble.Default()
	neg, pos, unl := map[string]int{}, map[string]int{}, map[string]int{}
	var negIDs []int
	for i := range corpus.Examples {
		x := &corpus.Examples[i]
		for _, f := range e.Classify(nil, []byte(x.Text)) {
			if f.Rule != rule || f.Severity < 2 {
				continue
			}
			c := int(f.Category)
			switch {
			case x.Negative(c):
				neg[x.Dataset]++
				negIDs = append(negIDs, i)
			case x.Positive(c):
				pos[x.Dataset]++
			default:
				unl[x.Dataset]++
			}
			break
		}
	}
	fmt.Println("neg", neg)
	fmt.Println("pos", pos)
	fmt.Println("unl", unl)
	fmt.Println("negIDs", negIDs[:min(30, len(negIDs))])
}
