package extract

import (
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// slowDepth is the obvious version of depth: encoding/json's tokenizer.
func slowDepth(t *testing.T, doc string) int {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(doc))
	d, deepest := 0, 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return deepest
		}
		if err != nil {
			t.Fatalf("bad test document: %v", err)
		}
		switch tok {
		case json.Delim('['), json.Delim('{'):
			d++
			deepest = max(deepest, d)
		case json.Delim(']'), json.Delim('}'):
			d--
		}
	}
}

// randomDoc builds a random JSON value with strings full of brackets,
// quotes and backslashes.
func randomDoc(r *rand.Rand, level int) string {
	strs := []string{`"a"`, `"[{"`, `"\\"`, `"\"["`, `"\\\"{"`, `"}]"`, `""`, `"\\\\["`}
	switch k := r.IntN(4); {
	case level > 6 || k == 0:
		return strs[r.IntN(len(strs))]
	case k == 1:
		return "1"
	case k == 2:
		parts := make([]string, r.IntN(4))
		for i := range parts {
			parts[i] = randomDoc(r, level+1)
		}
		return "[" + strings.Join(parts, ",") + "]"
	default:
		parts := make([]string, r.IntN(4))
		for i := range parts {
			parts[i] = strs[r.IntN(len(strs))] + ":" + randomDoc(r, level+1)
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
}

func TestDepthMatchesTokenizer(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		doc := randomDoc(r, 0)
		want := slowDepth(t, doc)
		if got := scanDepth([]byte(doc), 1<<30); got != want {
			t.Fatalf("document %d: depth %d, tokenizer says %d", i, got, want)
		}
		// The limit check: a limit of want passes, want-1 fails.
		if got := depth([]byte(doc), want); got > want {
			t.Fatalf("document %d: depth %d over limit %d", i, got, want)
		}
		if want >= 1 {
			if got := depth([]byte(doc), want-1); got <= want-1 {
				t.Fatalf("document %d: depth %d passes limit %d", i, got, want-1)
			}
		}
	}
}
