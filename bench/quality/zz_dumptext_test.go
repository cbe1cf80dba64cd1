package main

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/openrai/raiserver/classifiers/linear/train"
)

func TestZZText(t *testing.T) {
	ids := os.Getenv("ZZTXT")
	if ids == "" {
		t.Skip()
	}
	corpus, _ := train.LoadShared("../../../shared/data")
	var b strings.Builder
	for _, s := range strings.Fields(ids) {
		i, _ := strconv.Atoi(s)
		b.WriteString(strings.ReplaceAll(corpus.Examples[i].Text, "\n", " ") + "\n")
	}
	os.WriteFile("/tmp/pr/rows.txt", []byte(b.String()), 0o600)
}
