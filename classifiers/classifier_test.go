package classifiers_test

import (
	"testing"

	"github.com/openrai/raiserver/classifiers"
)

func TestCategoryNames(t *testing.T) {
	for c := range classifiers.NumCategories {
		got, ok := classifiers.ParseCategory(c.String())
		if !ok || got != c {
			t.Errorf("ParseCategory(%q) = %v, %v", c.String(), got, ok)
		}
	}
	for _, tt := range []struct {
		in   string
		want classifiers.Category
		ok   bool
	}{
		{"hate", classifiers.Hate, true},
		{"Sexual", classifiers.Sexual, true},
		{"VIOLENCE", classifiers.Violence, true},
		{"self-harm", classifiers.SelfHarm, true},
		{"self harm", classifiers.SelfHarm, true},
		{"selfharm", classifiers.SelfHarm, true},
		{"spam", 0, false},
		{"", 0, false},
	} {
		got, ok := classifiers.ParseCategory(tt.in)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("ParseCategory(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	if s := classifiers.NumCategories.String(); s != "UNKNOWN" {
		t.Errorf("out of range category prints %q", s)
	}
}
