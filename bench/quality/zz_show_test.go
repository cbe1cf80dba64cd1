package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/openrai/raiserver/classifiers/linear/train"
)

func TestZZShow(t *testing.T) {
	ids := os.Getenv("ZZIDX")
	if ids == "" {
		t.Skip()
	}
	corpus, _ := train.LoadShared("../../../shared/data")
	for _, s := range strings.Fields(ids) {
		i, _ := strconv.Atoi(s)
		fmt.Printf("%d %s: %.300q\n", i, corpus.Examples[i].Dataset, corpus.Examples[i].Text)
	}
}
