package lexicon

import (
	"errors"
	"strings"
	"testing"
)

func TestParseTargetFlags(t *testing.T) {
	class := func(string) (int, error) { return 0, nil }
	rs, err := parseRules("t", strings.NewReader("a\tviolence\t3\tstrong,other\tX Y\nb\tself_harm\t3\tself\tX\n"), class)
	if err != nil {
		t.Fatal(err)
	}
	if rs[0].tgt != tgtOther || rs[1].tgt != tgtSelf {
		t.Errorf("targets %d, %d; want %d, %d", rs[0].tgt, rs[1].tgt, tgtOther, tgtSelf)
	}
	for _, bad := range []string{
		"a\tviolence\t3\tself,other\tX\n", // both
		"a\t-\tsuppress\tself\t!X\n",      // not a finding rule
		"a\tviolence\t-2\tother\tX\n",     // a modifier
	} {
		if _, err := parseRules("t", strings.NewReader(bad), class); !errors.Is(err, ErrSyntax) {
			t.Errorf("parseRules(%q) = %v, want ErrSyntax", bad, err)
		}
	}
}

// TestRuleClassTableFull: a literal word that no longer fits the class
// table is reported as such, not as an unknown class.
func TestRuleClassTableFull(t *testing.T) {
	b := &builder{classIdx: map[string]int{}, nclass: maxClasses}
	_, err := b.ruleClass("word")
	if !errors.Is(err, ErrClass) || !strings.Contains(err.Error(), "more than") {
		t.Fatalf("ruleClass on a full table = %v, want ErrClass naming the limit", err)
	}
	if _, err := b.ruleClass("NO_SUCH_CLASS"); !errors.Is(err, ErrClass) {
		t.Fatalf("ruleClass(unknown) = %v, want ErrClass", err)
	}
}

// TestParseTermsTwice: a term listed twice for one category is an error
// naming both lines; the same term in two categories is not.
func TestParseTermsTwice(t *testing.T) {
	_, err := parseTerms("t", strings.NewReader("kill\tviolence\t1\nkill\tviolence\t2\n"), "lex")
	if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "t:2") || !strings.Contains(err.Error(), "line 1") {
		t.Fatalf("parseTerms(twice) = %v, want ErrSyntax naming lines 2 and 1", err)
	}
	if _, err := parseTerms("t", strings.NewReader("kill\tviolence\t1\nkill\thate\t1\n"), "lex"); err != nil {
		t.Fatalf("parseTerms(two categories) = %v", err)
	}
}

// TestMaskEveryWord: set, has, meets and or see every class index up to
// maxClasses (meets and or are written out word by word; a word they
// skipped made every class in it invisible to the rules).
func TestMaskEveryWord(t *testing.T) {
	for i := range maxClasses {
		var a, b, c mask
		a.set(i)
		b.set(i)
		if !a.has(i) || !a.meets(&b) {
			t.Fatalf("class %d: has %v, meets %v", i, a.has(i), a.meets(&b))
		}
		c.or(&a)
		if !c.has(i) {
			t.Fatalf("class %d: lost by or", i)
		}
		var d mask
		d.set((i + 1) % maxClasses)
		if a.meets(&d) {
			t.Fatalf("class %d meets class %d", i, (i+1)%maxClasses)
		}
	}
}

// TestParseClassesIncludes: "+ A, B" adds the members and products of
// classes defined before; naming an undefined or later class, or a
// comment glued to a member line, is a syntax error.
func TestParseClassesIncludes(t *testing.T) {
	defs, err := parseClasses("t", strings.NewReader("[A]\nx, y\n[B]\nz\n= A B\n[C]\nw\n+ A, B\n"))
	if err != nil {
		t.Fatal(err)
	}
	c := defs[2]
	if strings.Join(c.words, ",") != "w,x,y,z" || len(c.cross) != 1 || c.cross[0] != [2]string{"A", "B"} {
		t.Errorf("C = %v, %v; want words w,x,y,z and the product A B", c.words, c.cross)
	}
	for _, bad := range []string{
		"[A]\nx\n+ B\n[B]\ny\n", // B is defined later
		"[A]\nx\n+ A\n",         // itself
		"[A]\nx\n[B]\n+ \n",     // no name
		"[A]\nx, y # a note\n",  // a glued comment
	} {
		if _, err := parseClasses("t", strings.NewReader(bad)); !errors.Is(err, ErrSyntax) {
			t.Errorf("%q: err %v, want ErrSyntax", bad, err)
		}
	}
}

// TestParseReportOnlyHold: a hold rule may have no "!" slot (it only
// reports); a suppress rule may not.
func TestParseReportOnlyHold(t *testing.T) {
	class := func(string) (int, error) { return 0, nil }
	rs, err := parseRules("t", strings.NewReader("a\tviolence\thold\t-\tX ^Y\n"), class)
	if err != nil {
		t.Fatal(err)
	}
	if !rs[0].hold || rs[0].act != actSuppress {
		t.Errorf("hold %v act %d, want a hold in the suppress pass", rs[0].hold, rs[0].act)
	}
	for _, s := range rs[0].slots {
		if s.target {
			t.Error("a report-only hold has a target slot")
		}
	}
	if _, err := parseRules("t", strings.NewReader("a\t-\tsuppress\t-\tX Y\n"), class); !errors.Is(err, ErrSyntax) {
		t.Errorf("suppress without a '!' slot: %v, want ErrSyntax", err)
	}
}
