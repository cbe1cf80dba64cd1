package train

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/openrai/raiserver/analyzer"
)

// The rows below are made up for these tests, in each data set's layout.

func TestLoadHateXplainMajority(t *testing.T) {
	data := "id,annotators,rationales,post_tokens,masked_tokens,unmasked_sentence,masked_sentence\n" +
		`a,"{'label': [0, 0, 1], 'annotator_id': [1, 2, 3]}",[],[],[],first post,x` + "\n" +
		`b,"{'label': [1, 1, 2], 'annotator_id': [1, 2, 3]}",[],[],[],second post,x` + "\n" +
		`c,"{'label': [2, 2, 0], 'annotator_id': [1, 2, 3]}",[],[],[],third post,x` + "\n"
	exs, err := loadHateXplain([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(exs) != 3 {
		t.Fatalf("%d rows", len(exs))
	}
	if !exs[0].Positive(hate) || exs[0].Kind != "hate" {
		t.Errorf("majority hate: %+v", exs[0].Target)
	}
	for c := range N {
		if !exs[1].Negative(c) {
			t.Errorf("majority normal should be negative for category %d", c)
		}
	}
	if !exs[2].Weak || exs[2].Hard(hate) || exs[2].Target[hate] != float32(1)/3 {
		t.Errorf("majority offensive should be a weak soft HATE target of 1/3: %+v weak=%v", exs[2].Target, exs[2].Weak)
	}
}

func TestLoadSBICInvertedColumn(t *testing.T) {
	data := ",post,targetMinority,targetCategory,targetStereotype,whoTarget,intentYN,sexYN,offensiveYN,dataSource,hasBiasedImplication\n" +
		"0,one,,,,,1,0,1.0,x,0\n" + // offensive, implies bias against a group
		"1,two,,,,,1,0,1.0,x,1\n" + // offensive, no group implication
		"2,three,,,,,0,0.66,0.0,x,1\n" // not offensive, sexual
	exs, err := loadSBIC([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if !exs[0].Positive(hate) {
		t.Error("hasBiasedImplication 0 marks bias: HATE positive")
	}
	if exs[1].Hard(hate) {
		t.Error("offensive without a group implication: HATE unknown")
	}
	if !exs[2].Negative(hate) || !exs[2].Positive(sexual) || !exs[2].Negative(violence) {
		t.Errorf("not offensive, lewd: %+v %+v", exs[2].Target, exs[2].Weight)
	}
}

// TestLoadSBICImplied: a group-implying post keeps its annotators'
// statements, each once and without notes on what the post does; other
// posts keep none.
func TestLoadSBICImplied(t *testing.T) {
	data := ",post,targetMinority,targetCategory,targetStereotype,whoTarget,intentYN,sexYN,offensiveYN,dataSource,hasBiasedImplication\n" +
		`0,one,,,"[""group a are trait b"", ""Group A are trait b"", ""makes light of c"", ""d"", ""group a do e""]",,1,0,1.0,x,0` + "\n" +
		`1,two,,,"[""group a are trait b""]",,1,0,1.0,x,1` + "\n"
	exs, err := loadSBIC([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := exs[0].Implied, []string{"group a are trait b", "group a do e"}; !slices.Equal(got, want) {
		t.Errorf("implied statements %q, want %q", got, want)
	}
	if exs[1].Implied != nil {
		t.Errorf("a post without a group implication keeps %d statements, want none", len(exs[1].Implied))
	}
}

func TestMapCatQA(t *testing.T) {
	tests := []struct {
		cat, sub string
		pos      []int
		neg      bool // negative for all four
	}{
		{"Hate/Harass/Violence", "Racial or ethnic hate", []int{hate}, false},
		{"Hate/Harass/Violence", "Gender-based violence", []int{hate, violence}, false},
		{"Physical Harm", "Self-harm", []int{selfHarm}, false},
		{"Adult Content", "Erotic text", []int{sexual}, false},
		{"Child Abuse", "Online predation", []int{sexual}, false},
		{"Malware Viruses", "Trojans", nil, true},
		{"Physical Harm", "Unsafe practices", nil, false},
	}
	for _, tc := range tests {
		var e Example
		mapCatQA(&e, tc.cat, tc.sub)
		for c := range N {
			want := slices.Contains(tc.pos, c)
			if e.Positive(c) != want {
				t.Errorf("%s/%s: category %d positive = %v, want %v", tc.cat, tc.sub, c, e.Positive(c), want)
			}
			if tc.neg && !e.Negative(c) {
				t.Errorf("%s/%s: category %d should be negative", tc.cat, tc.sub, c)
			}
		}
		if len(tc.pos) == 0 && !tc.neg && e.Weight != [N]float32{} {
			t.Errorf("%s/%s: should carry no label, got weights %v", tc.cat, tc.sub, e.Weight)
		}
	}
}

func TestPyStrings(t *testing.T) {
	got := pyStrings(`['first one', "it's second", 'with \'quote\'', '', 'last']`)
	want := []string{"first one", "it's second", "with 'quote'", "last"}
	if !slices.Equal(got, want) {
		t.Fatalf("pyStrings = %q, want %q", got, want)
	}
	if got := pyStrings(`['cut off`); len(got) != 0 {
		t.Fatalf("unterminated list = %q", got)
	}
}

func TestDatasetPolicy(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range Datasets {
		if seen[d.Name] {
			t.Errorf("%s listed twice", d.Name)
		}
		seen[d.Name] = true
		if d.Trainable && d.Weight <= 0 {
			t.Errorf("%s trains with weight %v", d.Name, d.Weight)
		}
		if d.Probe && d.Trainable {
			t.Errorf("%s is a probe and trainable", d.Name)
		}
	}
	// The sets ../shared/data/README.md marks "development and evaluation
	// only" must never train the shipped model.
	for _, name := range []string{"dynahate", "gab_hate", "olid", "sdcnl", "safecity", "counsel_chat"} {
		if d, ok := DatasetByName(name); !ok || d.Trainable {
			t.Errorf("%s must be development-only", name)
		}
	}
}

// TestWindowsTileText checks the windows against the analyzer's rule:
// segments tile the text in order, each with at most the context bytes
// (DefaultContextBytes for Windows) starting at a rune, and a larger
// context never starts later.
func TestWindowsTileText(t *testing.T) {
	texts := []string{
		"",
		"One short sentence.",
		strings.Repeat("Ein Satz mit Ümlauten und 日本語の文。 ", 80),
		strings.Repeat("word ", 700),
	}
	for i, text := range texts {
		if d, w := Windows(nil, []byte(text)), WindowsContext(nil, []byte(text), analyzer.DefaultContextBytes); !slices.Equal(d, w) {
			t.Fatalf("text %d: Windows differs from WindowsContext with the default", i)
		}
		var prev []Window
		for _, n := range []int{0, 1, 32, analyzer.DefaultContextBytes, 4096} {
			ws := WindowsContext(nil, []byte(text), n)
			end := 0
			for j, w := range ws {
				if w.Start != end || w.End <= w.Start {
					t.Fatalf("text %d, context %d: window %+v does not follow %d", i, n, w, end)
				}
				if w.Start-w.From > n || w.From > w.Start {
					t.Fatalf("text %d, context %d: context of %+v", i, n, w)
				}
				if !utf8.RuneStart(text[w.From]) && w.From < len(text) {
					t.Fatalf("text %d, context %d: context starts inside a rune: %+v", i, n, w)
				}
				if prev != nil && w.From > prev[j].From {
					t.Fatalf("text %d, context %d: window %+v starts after %+v", i, n, w, prev[j])
				}
				end = w.End
			}
			if end != len(text) {
				t.Fatalf("text %d, context %d: windows end at %d of %d", i, n, end, len(text))
			}
			if len(text) > 2000 && len(ws) < 2 {
				t.Fatalf("text %d: %d bytes in one window", i, len(text))
			}
			prev = ws
		}
	}
}

func TestBestMedium(t *testing.T) {
	// Two labelled sets: positives high, negatives low, overlapping in
	// [0.4, 0.6]. A benign set puts 1 in 100 rows at 0.7 and the rest at
	// 0.1: at most 1% may reach Medium, so Medium must be above 0.1 but
	// may be below 0.7.
	var posA, negA, posB, negB, benign []float64
	for i := range 50 {
		posA = append(posA, 0.5+float64(i)/100)  // 0.50 … 0.99
		negA = append(negA, 0.1+float64(i)/100)  // 0.10 … 0.59
		posB = append(posB, 0.45+float64(i)/100) // 0.45 … 0.94
		negB = append(negB, 0.05+float64(i)/100) // 0.05 … 0.54
	}
	for i := range 200 {
		if i < 2 {
			benign = append(benign, 0.7)
		} else {
			benign = append(benign, 0.1)
		}
	}
	negBy := map[string][]float64{"a": negA, "b": negB, "benign": benign}
	posBy := map[string][]float64{"a": posA, "b": posB}
	thr, ok := bestMedium(negBy, posBy, 0.01)
	if !ok || thr <= 0.1 || thr > 0.6 {
		t.Fatalf("Medium = %v, %v; want in (0.1, 0.6]", thr, ok)
	}
	// A strict ceiling: no benign row may reach Medium.
	strict, ok := bestMedium(negBy, posBy, 0)
	if !ok || strict <= 0.7 {
		t.Fatalf("with no benign row allowed, Medium = %v, want above 0.7", strict)
	}
	if _, ok := bestMedium(map[string][]float64{"benign": benign}, nil, 0.01); ok {
		t.Fatal("no labelled set: want no threshold")
	}
}
