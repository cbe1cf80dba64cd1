package ensemble_test

import (
	"bufio"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/ensemble"
	"github.com/openrai/raiserver/classifiers/linear/train"
)

// counterSpeech is written for this test: messages that name a hateful
// claim about a group to reject it, or negate it. The rules read them as
// holds, so the default policy does not block them, whatever the model says.
var counterSpeech = []string{
	"Women are not too emotional to lead, that idea is outdated.",
	"It's a stereotype that Asians are bad drivers.",
	"My uncle keeps saying immigrants are criminals and it is simply not true",
	"Muslims aren't terrorists.",
	"Calling trans people predators is transphobic.",
	"I don't think Jews are greedy, that's an old antisemitic lie.",
	"Saying that Sikhs are filthy is hateful.",
	"If you call Hindus parasites, you're the problem.",
	"Stop spreading lies that Latinos are thieves.",
	"Nobody should ever say lesbians are subhuman.",
	"It's wrong to say Catholics should not be allowed to teach.",
	"I don't hate Arabs.",
	"Refugees are such lovely people.",
	"My neighbours are Sikhs.",
	"I grew up with Hindus.",
	"We should celebrate Latinos.",
	"Let's protect Arabs.",
	"We should hire more Sikhs.",
	"We must help Latinos find housing.",
	"Catholics were persecuted in Elizabethan England.",
	"Hindus deserve a voice in parliament.",
	"Disabled people face barriers at work.",
}

// TestDefaultCounterSpeechNotBlocked: counter-speech and negated claims get
// no finding at MEDIUM or above. Failures name the sentence by index.
func TestDefaultCounterSpeechNotBlocked(t *testing.T) {
	checkDefault(t, "counter-speech", counterSpeech, 2)
}

// deserveRights is written for this test: a group deserving respect or
// equal rights, which the rules read as a hold.
var deserveRights = []string{
	"Trans people deserve respect.",
	"Gay people deserve equal rights.",
	"Muslims deserve equal treatment at work.",
}

// TestDefaultDeserveRightsNotBlocked: such statements get no finding at
// MEDIUM or above. Failures name the sentence by index.
func TestDefaultDeserveRightsNotBlocked(t *testing.T) {
	checkDefault(t, "deserve-rights", deserveRights, 2)
}

// TestDefaultIdentityProbes runs the default ensemble over
// testdata/identity_probes.tsv, a held-out set of short messages naming
// identity groups (hand-written for this project by an author who saw
// neither the training rows nor the rules; its text was never used to
// write rules or training rows, and only its counts are looked at:
// docs/classifiers-model.md), and checks how much it blocks as HATE: benign messages
// (self-descriptions, support, facts, questions, counter-speech,
// accounts of discrimination, negated claims) and hateful ones. The
// bounds are the shipped stack's result with a little slack, so a change
// that makes either side worse fails here; the counts per kind are logged
// (counts only, never text).
func TestDefaultIdentityProbes(t *testing.T) {
	const (
		maxBenignBlocked = 0.12 // shipped: 23/221
		minHateBlocked   = 0.66 // shipped: 79/111
	)
	var rows []probeRow
	eachLine(t, "testdata/identity_probes.tsv", func(ln int, line string) {
		p := strings.SplitN(line, "\t", 3)
		if len(p) != 3 || (p[0] != "benign" && p[0] != "hate") {
			t.Fatalf("testdata/identity_probes.tsv:%d: want label<TAB>kind<TAB>text", ln)
		}
		rows = append(rows, probeRow{p[0], p[1], p[2]})
	})
	checkHateProbe(t, rows, maxBenignBlocked, minHateBlocked)
}

// TestDefaultFunctionalHate runs the default ensemble over
// testdata/functional_hate.tsv: hand-written sentences of one linguistic
// function each (hate: strong emotion, a negative attribute, a
// dehumanising comparison, a threat, a normative statement, a pronoun
// reference, a negated positive, a question, an opinion, a spelling
// variation; benign: a neutral or positive mention, counter-speech, a
// negated claim, abuse of a non-protected target, profanity), each
// template filled with ten groups. The hold rules of 2026-11-26 were
// written from the frames it found blocked, so it is a regression test,
// not a held-out measure (that is TestDefaultIdentityProbes). The bounds
// are the shipped stack's result with a little slack; counts per kind are
// logged.
func TestDefaultFunctionalHate(t *testing.T) {
	const (
		maxBenignBlocked = 0.06 // shipped: 5/162
		minHateBlocked   = 0.93 // shipped: 356/370
	)
	var groups [][2]string
	var rows []probeRow
	eachLine(t, "testdata/functional_hate.tsv", func(ln int, line string) {
		p := strings.Split(line, "\t")
		switch {
		case len(p) == 3 && p[0] == "group":
			groups = append(groups, [2]string{p[1], p[2]})
			return
		case len(p) != 2:
			t.Fatalf("testdata/functional_hate.tsv:%d: want group<TAB>lower<TAB>Sentence or kind<TAB>template", ln)
		}
		side, kind, ok := strings.Cut(p[0], "/")
		if !ok || (side != "benign" && side != "hate") {
			t.Fatalf("testdata/functional_hate.tsv:%d: kind %q is not benign/… or hate/…", ln, p[0])
		}
		if !strings.Contains(p[1], "{g}") && !strings.Contains(p[1], "{G}") {
			rows = append(rows, probeRow{side, kind, p[1]})
			return
		}
		for _, g := range groups {
			rows = append(rows, probeRow{side, kind, strings.NewReplacer("{g}", g[0], "{G}", g[1]).Replace(p[1])})
		}
	})
	if len(groups) == 0 {
		t.Fatal("no groups")
	}
	checkHateProbe(t, rows, maxBenignBlocked, minHateBlocked)
}

// eachLine calls fn with each line of the file at path that is neither
// empty nor a comment ("#"), and its line number.
func eachLine(t *testing.T, path string, fn func(ln int, line string)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for ln := 1; sc.Scan(); ln++ {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			fn(ln, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// probeRow is one message or item of a probe: its side ("benign", or the
// harm it holds), its kind and its text.
type probeRow struct{ side, kind, text string }

// checkHateProbe classifies rows with the default ensemble and checks how
// many of each side are blocked as HATE (checkProbeRates).
func checkHateProbe(t *testing.T, rows []probeRow, maxBenign, minHate float64) {
	t.Helper()
	total, blocked := countBlocked(t, rows, false, func(probeRow) []classifiers.Category {
		return []classifiers.Category{classifiers.Hate}
	})
	checkProbeRates(t, total, blocked, "hate", maxBenign, minHate)
}

// checkProbeRates logs, per kind ("side/kind" keys), how many rows were
// blocked (counts only, never text), and fails when more than maxBenign of
// the "benign" rows or fewer than minHarm of the harm side's rows are
// blocked. With harm "" the probe has no harmful side.
func checkProbeRates(t *testing.T, total, blocked map[string]int, harm string, maxBenign, minHarm float64) {
	t.Helper()
	for _, k := range slices.Sorted(maps.Keys(total)) {
		if strings.Contains(k, "/") {
			t.Logf("%-22s blocked %3d of %3d", k, blocked[k], total[k])
		}
	}
	if total["benign"] == 0 || (harm != "" && total[harm] == 0) {
		t.Fatalf("no benign or no %s rows", harm)
	}
	b := float64(blocked["benign"]) / float64(total["benign"])
	t.Logf("benign blocked %d/%d (%.3f)", blocked["benign"], total["benign"], b)
	if b > maxBenign {
		t.Errorf("benign rows blocked: %.3f, want <= %.2f", b, maxBenign)
	}
	if harm == "" {
		return
	}
	h := float64(blocked[harm]) / float64(total[harm])
	t.Logf("%s blocked %d/%d (%.3f)", harm, blocked[harm], total[harm], h)
	if h < minHarm {
		t.Errorf("%s rows blocked: %.3f, want >= %.2f", harm, h, minHarm)
	}
}

// allCategories are the four categories: a benign row must be blocked in
// none of them.
var allCategories = []classifiers.Category{classifiers.Hate, classifiers.Sexual, classifiers.Violence, classifiers.SelfHarm}

// countBlocked classifies rows with the default ensemble and counts, per
// side and per side/kind, the rows and those blocked (MEDIUM or above) in
// one of the categories cats gives for the row. With windowed, each row is
// scored as the server scores an item (train.Windows: segment by segment
// with the context before it; a finding that ends in the context belongs
// to the window before, the worst window counting); without, as one text.
func countBlocked(t *testing.T, rows []probeRow, windowed bool, cats func(probeRow) []classifiers.Category) (total, blocked map[string]int) {
	t.Helper()
	return countAt(t, rows, windowed, 2, cats)
}

// countAt is countBlocked for a server that blocks at severity minSev
// (a category's blockAt).
func countAt(t *testing.T, rows []probeRow, windowed bool, minSev uint8, cats func(probeRow) []classifiers.Category) (total, blocked map[string]int) {
	t.Helper()
	c, err := ensemble.Default()
	if err != nil {
		t.Fatal(err)
	}
	total, blocked = map[string]int{}, map[string]int{}
	var dst []classifiers.Finding
	var ws []train.Window
	for _, r := range rows {
		text := []byte(r.text)
		want := cats(r)
		ws = append(ws[:0], train.Window{End: len(text)})
		if windowed {
			ws = train.Windows(ws[:0], text)
		}
		hit := false
		for _, w := range ws {
			dst = c.Classify(dst[:0], text[w.From:w.End])
			for _, f := range dst {
				hit = hit || (w.From+f.End > w.Start && f.Severity >= minSev && slices.Contains(want, f.Category))
			}
		}
		for _, k := range []string{r.side, r.side + "/" + r.kind} {
			total[k]++
			if hit {
				blocked[k]++
			}
		}
	}
	return total, blocked
}
