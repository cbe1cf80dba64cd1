package train

import (
	"slices"
	"strings"
	"testing"
)

func TestSwapGroups(t *testing.T) {
	in := "Muslims and MUSLIMS: a muslim neighbour, jewish food; muslims again."
	out, ok := SwapGroups(in, "k1")
	if !ok {
		t.Fatal("nothing swapped")
	}
	again, _ := SwapGroups(in, "k1")
	if out != again {
		t.Fatal("not deterministic")
	}
	w := strings.FieldsFunc(out, func(r rune) bool { return !('a' <= r|0x20 && r|0x20 <= 'z') })
	if len(w) != 10 {
		t.Fatalf("word count changed: %d words", len(w))
	}
	plural := strings.ToLower(w[0])
	if plural == "muslims" || !slices.Contains(swapClasses[0], plural) {
		t.Errorf("plural noun replaced by %q", w[0])
	}
	if w[0] != strings.ToUpper(plural[:1])+plural[1:] || w[2] != strings.ToUpper(plural) || w[8] != plural {
		t.Errorf("one word not replaced the same way in its case: %q %q %q", w[0], w[2], w[8])
	}
	if w[4] == "muslim" || !slices.Contains(swapClasses[1], w[4]) {
		t.Errorf("noun-or-adjective replaced by %q", w[4])
	}
	if w[6] == "jewish" || !slices.Contains(swapClasses[2], w[6]) {
		t.Errorf("adjective replaced by %q", w[6])
	}
	for _, k := range []string{"a", "b", "c", "d", "e", "f"} {
		if o, _ := SwapGroups(in, k); o != out {
			return // another key gives another group
		}
	}
	t.Error("every key gives the same replacement")
}

func TestSwapGroupsLeavesOtherText(t *testing.T) {
	for _, s := range []string{"", "a white shirt and black shoes", "trans-Atlantic flight", "womenswear", "gayety", "muslimé"} {
		if out, ok := SwapGroups(s, "k"); ok || out != s {
			t.Errorf("text of %d bytes changed", len(s))
		}
	}
}

func TestWithSwaps(t *testing.T) {
	exs := []Example{
		{Dataset: "d", ID: "1", Text: "gays are fine", Target: [N]float32{1, 0, 0, 0}, Weight: [N]float32{1, 1, 0, 2}},
		{Dataset: "d", ID: "2", Text: "no group here", Weight: [N]float32{1, 1, 1, 1}},
	}
	out := withSwaps(exs, 0.5)
	if len(out) != 3 {
		t.Fatalf("%d rows, want 3", len(out))
	}
	r := out[2]
	if r.ID != "1#g" || r.Target != exs[0].Target || r.Weight != [N]float32{0.5, 0.5, 0, 1} || r.Text == exs[0].Text {
		t.Errorf("copy: id %q target %v weight %v", r.ID, r.Target, r.Weight)
	}
}
