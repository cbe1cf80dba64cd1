package extract_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/openrai/raiserver/extract"
)

// Pieces are written one a line as
//
//	<P|C> <messageId>/<contentIndex> [full] (nomodel | len=N | "exact text")
//
// with reserved content indices by name (refusal, tool+N, func, audio,
// toolout, instr, suffix, image+N) and an empty messageId as "".
// Failure messages show texts only as lengths (see redact).

var reserved = []struct {
	name string
	base int
	sub  bool
}{
	{"refusal", extract.IndexRefusal, false},
	{"tool", extract.IndexToolCall, true},
	{"func", extract.IndexFunctionCall, false},
	{"audio", extract.IndexAudio, false},
	{"toolout", extract.IndexToolOutput, false},
	{"instr", extract.IndexInstructions, false},
	{"suffix", extract.IndexSuffix, false},
	{"image", extract.IndexImage, true},
}

func indexName(ci int) string {
	for _, r := range reserved {
		if r.sub && ci >= r.base && ci < r.base+extract.IndexLimit {
			return r.name + "+" + strconv.Itoa(ci-r.base)
		}
		if !r.sub && ci == r.base {
			return r.name
		}
	}
	return strconv.Itoa(ci)
}

func parseIndex(t testing.TB, s string) int {
	t.Helper()
	name, sub, hasSub := strings.Cut(s, "+")
	for _, r := range reserved {
		if r.name == name {
			n := 0
			if hasSub {
				var err error
				if n, err = strconv.Atoi(sub); err != nil {
					t.Fatalf("bad index %q", s)
				}
			}
			return r.base + n
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("bad index %q", s)
	}
	return n
}

func keyString(k extract.Key) string {
	src := "P"
	if k.Source == extract.Completion {
		src = "C"
	}
	id := k.MessageID
	if id == "" {
		id = `""`
	}
	return fmt.Sprintf("%s %s/%s", src, id, indexName(k.ContentIndex))
}

// render writes one piece; with redact, texts appear as their length only.
func render(p extract.Piece, redact bool) string {
	var b strings.Builder
	b.WriteString(keyString(p.Key))
	if p.Full {
		b.WriteString(" full")
	}
	switch {
	case p.NoModel:
		b.WriteString(" nomodel")
		if p.Text != "" {
			b.WriteString(" WITH TEXT")
		}
	case redact:
		fmt.Fprintf(&b, " len=%d", len(p.Text))
	default:
		b.WriteString(" " + strconv.Quote(p.Text))
	}
	return b.String()
}

// want is one expected piece: an exact text, a text length, or NoModel.
type want struct {
	key     extract.Key
	full    bool
	noModel bool
	exact   bool
	text    string
	n       int
}

func parseWant(t testing.TB, spec string) []want {
	t.Helper()
	var ws []want
	for _, line := range strings.Split(strings.TrimSpace(spec), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		var w want
		f := strings.SplitN(line, " ", 3)
		if len(f) < 3 {
			t.Fatalf("bad want line %q", line)
		}
		switch f[0] {
		case "P":
			w.key.Source = extract.Prompt
		case "C":
			w.key.Source = extract.Completion
		default:
			t.Fatalf("bad source in %q", line)
		}
		id, ci, ok := strings.Cut(f[1], "/")
		if !ok {
			t.Fatalf("bad key in %q", line)
		}
		if id == `""` {
			id = ""
		}
		w.key.MessageID, w.key.ContentIndex = id, parseIndex(t, ci)
		rest := f[2]
		if r, ok := strings.CutPrefix(rest, "full "); ok {
			w.full, rest = true, r
		}
		switch {
		case rest == "nomodel":
			w.noModel = true
		case strings.HasPrefix(rest, "len="):
			n, err := strconv.Atoi(rest[4:])
			if err != nil {
				t.Fatalf("bad length in %q", line)
			}
			w.n = n
		default:
			s, err := strconv.Unquote(rest)
			if err != nil {
				t.Fatalf("bad text in %q", line)
			}
			w.exact, w.text, w.n = true, s, len(s)
		}
		ws = append(ws, w)
	}
	return ws
}

func (w want) matches(p extract.Piece) bool {
	if p.Key != w.key || p.Full != w.full || p.NoModel != w.noModel {
		return false
	}
	if w.noModel {
		return p.Text == ""
	}
	if w.exact {
		return p.Text == w.text
	}
	return len(p.Text) == w.n
}

func (w want) render() string {
	return render(extract.Piece{Key: w.key, Full: w.full, NoModel: w.noModel, Text: strings.Repeat("x", w.n)}, true)
}

// checkPieces compares got with the spec, reporting keys, flags and lengths
// only, never texts.
func checkPieces(t testing.TB, got []extract.Piece, spec string) {
	t.Helper()
	ws := parseWant(t, spec)
	ok := len(got) == len(ws)
	for i := 0; ok && i < len(ws); i++ {
		ok = ws[i].matches(got[i])
	}
	if ok {
		return
	}
	var b strings.Builder
	for i := range max(len(got), len(ws)) {
		g, w := "-", "-"
		mark := "  "
		if i < len(got) {
			g = render(got[i], true)
		}
		if i < len(ws) {
			w = ws[i].render()
		}
		if i >= len(got) || i >= len(ws) || !ws[i].matches(got[i]) {
			mark = "! "
			if i < len(got) && i < len(ws) && g == w {
				g += " (text differs)"
			}
		}
		fmt.Fprintf(&b, "%s%-40s want %s\n", mark, g, w)
	}
	t.Errorf("pieces differ (got | want):\n%s", b.String())
}
