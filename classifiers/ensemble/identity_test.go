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
		minHateBlocked   = 0.66 // shipped: 78/111
	)
	c, err := ensemble.Default()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("testdata/identity_probes.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	total := map[string]int{}
	blocked := map[string]int{}
	var dst []classifiers.Finding
	sc := bufio.NewScanner(f)
	for ln := 1; sc.Scan(); ln++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p := strings.SplitN(line, "\t", 3)
		if len(p) != 3 || (p[0] != "benign" && p[0] != "hate") {
			t.Fatalf("testdata/identity_probes.tsv:%d: want label<TAB>kind<TAB>text", ln)
		}
		total[p[0]]++
		total[p[0]+"/"+p[1]]++
		dst = c.Classify(dst[:0], []byte(p[2]))
		for _, x := range dst {
			if x.Category == classifiers.Hate && x.Severity >= 2 {
				blocked[p[0]]++
				blocked[p[0]+"/"+p[1]]++
				break
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	kinds := slices.Sorted(maps.Keys(total))
	for _, k := range kinds {
		if strings.Contains(k, "/") {
			t.Logf("%-18s HATE blocked %3d of %3d", k, blocked[k], total[k])
		}
	}
	if total["benign"] == 0 || total["hate"] == 0 {
		t.Fatal("no benign or no hate rows")
	}
	b := float64(blocked["benign"]) / float64(total["benign"])
	h := float64(blocked["hate"]) / float64(total["hate"])
	t.Logf("benign blocked %d/%d (%.3f), hate blocked %d/%d (%.3f)", blocked["benign"], total["benign"], b, blocked["hate"], total["hate"], h)
	if b > maxBenignBlocked {
		t.Errorf("benign identity messages blocked as HATE: %.3f, want <= %.2f", b, maxBenignBlocked)
	}
	if h < minHateBlocked {
		t.Errorf("hateful identity messages blocked as HATE: %.3f, want >= %.2f", h, minHateBlocked)
	}
}
