package analyzer_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/extract"
)

// wordClassifier is a test classifier: it reports every occurrence of its
// words with their category and severity. Words may contain spaces.
type wordClassifier map[string]classifiers.Finding

func (w wordClassifier) Classify(dst []classifiers.Finding, text []byte) []classifiers.Finding {
	for word, f := range w {
		for i := 0; ; {
			j := bytes.Index(text[i:], []byte(word))
			if j < 0 {
				break
			}
			f.Start, f.End = i+j, i+j+len(word)
			dst = append(dst, f)
			i += j + 1
		}
	}
	return dst
}

var testCls = wordClassifier{
	"stab":         {Category: classifiers.Violence, Severity: 4, Rule: "t:stab"},
	"meh":          {Category: classifiers.Hate, Severity: 1, Rule: "t:meh"},
	"split phrase": {Category: classifiers.SelfHarm, Severity: 3, Rule: "t:split"},
}

func newAnalyzer(t *testing.T, opts ...analyzer.Option) *analyzer.Analyzer {
	t.Helper()
	a, err := analyzer.New(testCls, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func chunk(index int, s string) []byte {
	return fmt.Appendf(nil, `{"choices":[{"index":%d,"delta":{"content":%q}}]}`, index, s)
}

// render writes events compactly for comparisons.
func render(evs []analyzer.Event) string {
	var b strings.Builder
	for _, e := range evs {
		switch e.Kind {
		case analyzer.KindWatermark:
			fmt.Fprintf(&b, "W %s/%d %d\n", e.Key.MessageID, e.Key.ContentIndex, e.End)
		case analyzer.KindResult:
			if e.NoModel {
				fmt.Fprintf(&b, "R %s/%d nomodel\n", e.Key.MessageID, e.Key.ContentIndex)
				continue
			}
			fmt.Fprintf(&b, "R %s/%d [%d,%d) block=%v sev=", e.Key.MessageID, e.Key.ContentIndex, e.Start, e.End, e.Blocking)
			for _, c := range e.Categories {
				fmt.Fprintf(&b, "%d", c.Severity)
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func TestWatermarkAndResults(t *testing.T) {
	a := newAnalyzer(t)
	s := a.NewSession()
	var evs []analyzer.Event
	var err error
	for _, c := range []string{"Fine text. ", "A meh line. ", "We stab here. ", "After that."} {
		evs, err = s.Process(evs, "Chatcompletion", "COMPLETION", chunk(0, c))
		if err != nil {
			t.Fatal(err)
		}
	}
	evs = s.Finish(evs)
	want := "W 0/0 11\n" +
		"R 0/0 [11,23) block=false sev=1000\n" +
		"W 0/0 23\n" +
		"R 0/0 [23,37) block=true sev=0040\n"
	if got := render(evs); got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
	}
}

func TestSafeSegmentsBeforeBlockingInOneRequestAreWatermarked(t *testing.T) {
	s := newAnalyzer(t).NewSession()
	evs, err := s.Process(nil, "Completion", "PROMPT", []byte(`{"prompt":"One. Two. We stab. Three. "}`))
	if err != nil {
		t.Fatal(err)
	}
	evs = s.Finish(evs)
	want := "R 0/0 [10,19) block=true sev=0040\nW 0/0 10\n"
	if got := render(evs); got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
	}
}

func TestThresholdsAndDisabledCategories(t *testing.T) {
	a := newAnalyzer(t,
		analyzer.WithCategory(classifiers.Violence, analyzer.CategoryConfig{Enabled: true, BlockAt: analyzer.RiskNever}),
		analyzer.WithCategory(classifiers.Hate, analyzer.CategoryConfig{Enabled: true, BlockAt: analyzer.RiskLow}),
		analyzer.WithCategory(classifiers.SelfHarm, analyzer.CategoryConfig{Enabled: false, BlockAt: analyzer.RiskMedium}),
	)
	if got := len(a.Enabled()); got != 3 {
		t.Fatalf("enabled %d", got)
	}
	s := a.NewSession()
	evs, err := s.Process(nil, "Completion", "PROMPT", []byte(`{"prompt":"We stab. A split phrase. A meh one. Rest."}`))
	if err != nil {
		t.Fatal(err)
	}
	evs = s.Finish(evs)
	want := "R 0/0 [0,9) block=false sev=0040\n" +
		"R 0/0 [25,36) block=true sev=1000\n" +
		"W 0/0 25\n"
	if got := render(evs); got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
	}
}

// TestPhraseAcrossSegmentBorder checks that a phrase cut by the size cap is
// still found, and reported in the segment that holds its end.
func TestPhraseAcrossSegmentBorder(t *testing.T) {
	a := newAnalyzer(t, analyzer.WithMaxSegmentBytes(16))
	s := a.NewSession()
	text := "aaaa bbbb cccc split phrase dddd"
	evs, err := s.Process(nil, "Completion", "PROMPT", []byte(`{"prompt":"`+text+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	evs = s.Finish(evs)
	var found bool
	for _, e := range evs {
		if e.Kind == analyzer.KindResult && e.Categories[classifiers.SelfHarm].Severity == 3 {
			found = true
			if end := strings.Index(text, "split phrase") + len("split phrase"); e.Start >= end || e.End < end {
				t.Errorf("result [%d,%d) does not hold the phrase end %d", e.Start, e.End, end)
			}
		}
	}
	if !found {
		t.Errorf("phrase across segments not found:\n%s", render(evs))
	}
}

// TestContextStart checks where a segment's context begins: n bytes
// before the segment, never before the text, never inside a UTF-8
// TestRealtimeChangedInstructionsAreNotAnalyzedTwice: instructions that
// change start a new version of the item; the server's echo and later
// repeats of them add nothing, so neither the text nor the analysis grows
// with the number of session.update events.
func TestRealtimeChangedInstructionsAreNotAnalyzedTwice(t *testing.T) {
	s := newAnalyzer(t).NewSession()
	update := func(typ, instructions string) string {
		return fmt.Sprintf(`{"type":%q,"session":{"instructions":%q}}`, typ, instructions)
	}
	var got strings.Builder
	for _, instructions := range []string{"Be brief. ", "Be kind. We stab. "} {
		for i := range 4 {
			for _, p := range []struct{ typ, source string }{{"session.update", "PROMPT"}, {"session.updated", "COMPLETION"}} {
				evs, err := s.Process(nil, "Realtime", p.source, []byte(update(p.typ, instructions)))
				if err != nil {
					t.Fatal(err)
				}
				if (i > 0 || p.source == "COMPLETION") && len(evs) > 0 {
					t.Fatalf("repeat %d of the same instructions gave events:\n%s", i, render(evs))
				}
				got.WriteString(render(evs))
			}
		}
	}
	got.WriteString(render(s.Finish(nil)))
	// "Be brief. " [0,10), then "Be kind. We stab. " [10,28), each once.
	want := "W instructions/6000000 10\nR instructions/6000000 [19,28) block=true sev=0040\nW instructions/6000000 19\n"
	if got.String() != want {
		t.Errorf("events:\n%s\nwant:\n%s", got.String(), want)
	}
}

func TestErrorsLeaveStateUnchanged(t *testing.T) {
	tests := []struct {
		name         string
		api, source  string
		payload      string
		want         error
		mustNotMatch string
	}{
		{"unknown api", "Embeddings", "PROMPT", `{}`, analyzer.ErrUnknownAPI, ""},
		{"unknown source", "Completion", "SYSTEM", `{}`, analyzer.ErrUnknownSource, ""},
		{"not json", "Completion", "PROMPT", `{"prompt": "secret words`, extract.ErrInvalidJSON, "secret"},
		{"bad shape", "Completion", "PROMPT", `{"prompt": {"x": "secret words"}}`, extract.ErrShape, "secret"},
		{"too large", "Completion", "PROMPT", `{"prompt":"` + strings.Repeat("x", 2000) + `"}`, analyzer.ErrTooLarge, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newAnalyzer(t, analyzer.WithMaxPayloadBytes(1024)).NewSession()
			evs, err := s.Process(nil, "Completion", "PROMPT", []byte(`{"prompt":"Kept text"}`))
			if err != nil {
				t.Fatal(err)
			}
			n := len(evs)
			evs, err = s.Process(evs, tt.api, tt.source, []byte(tt.payload))
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if tt.mustNotMatch != "" && strings.Contains(err.Error(), tt.mustNotMatch) {
				t.Errorf("error message leaks payload text")
			}
			if len(evs) != n {
				t.Errorf("failed request added events")
			}
			evs = s.Finish(evs)
			if got := render(evs); got != "W 0/0 9\n" {
				t.Errorf("after error, finish gave:\n%s", got)
			}
		})
	}
}

func TestStreamLimits(t *testing.T) {
	s := newAnalyzer(t, analyzer.WithMaxItems(2)).NewSession()
	if _, err := s.Process(nil, "Chatcompletion", "COMPLETION", []byte(`{"choices":[{"index":0,"delta":{"content":"a"}},{"index":1,"delta":{"content":"b"}}]}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Process(nil, "Chatcompletion", "COMPLETION", chunk(2, "c")); !errors.Is(err, analyzer.ErrLimit) {
		t.Errorf("third item: err = %v, want ErrLimit", err)
	}
	s = newAnalyzer(t, analyzer.WithMaxStreamTextBytes(1024)).NewSession()
	if _, err := s.Process(nil, "Chatcompletion", "COMPLETION", chunk(0, strings.Repeat("x", 1000))); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Process(nil, "Chatcompletion", "COMPLETION", chunk(0, strings.Repeat("x", 100))); !errors.Is(err, analyzer.ErrLimit) {
		t.Errorf("text over limit: err = %v, want ErrLimit", err)
	}
}

func TestInvalidConfig(t *testing.T) {
	off := analyzer.CategoryConfig{Enabled: false, BlockAt: analyzer.RiskMedium}
	for name, opts := range map[string][]analyzer.Option{
		"tiny segment":   {analyzer.WithMaxSegmentBytes(4)},
		"negative ctx":   {analyzer.WithContextBytes(-1)},
		"negative min":   {analyzer.WithMinSegmentBytes(-1)},
		"min over cap":   {analyzer.WithMaxSegmentBytes(64), analyzer.WithMinSegmentBytes(65)},
		"tiny payload":   {analyzer.WithMaxPayloadBytes(10)},
		"zero items":     {analyzer.WithMaxItems(0)},
		"bad threshold":  {analyzer.WithCategory(classifiers.Hate, analyzer.CategoryConfig{Enabled: true, BlockAt: analyzer.RiskNone})},
		"all categories": {analyzer.WithCategory(0, off), analyzer.WithCategory(1, off), analyzer.WithCategory(2, off), analyzer.WithCategory(3, off)},
	} {
		if _, err := analyzer.New(testCls, opts...); !errors.Is(err, analyzer.ErrConfig) {
			t.Errorf("%s: err = %v, want ErrConfig", name, err)
		}
	}
	if _, err := analyzer.New(nil); !errors.Is(err, analyzer.ErrConfig) {
		t.Errorf("nil classifier: err = %v", err)
	}
}

// TestChunkingInvariance feeds the same text whole, rune by rune and in random
// chunks and expects the same results and the same final watermark.
func TestChunkingInvariance(t *testing.T) {
	for _, min := range []int{0, 40} {
		t.Run(fmt.Sprint("min=", min), func(t *testing.T) { checkChunkingInvariance(t, analyzer.WithMinSegmentBytes(min)) })
	}
}

// recorder is testCls that also records every window it is given, so
// that tests can check what the classifier saw, not only what it found.
type recorder struct{ windows *strings.Builder }

func (r recorder) Classify(dst []classifiers.Finding, text []byte) []classifiers.Finding {
	r.windows.Write(text)
	r.windows.WriteByte(0)
	return testCls.Classify(dst, text)
}

// checkChunkingInvariance is TestChunkingInvariance for an analyzer with
// the segment cap 64 and opt. The text is long enough (about 12 KB) that
// a chunked stream forgets the text before its current segment's context
// several times, while the whole text in one chunk is cut and classified
// before anything is forgotten: the windows the classifier sees must be
// the same.
func checkChunkingInvariance(t *testing.T, opt analyzer.Option) {
	text := strings.Repeat(strings.Repeat("Calm words here. ", 10)+"We stab now!\nThen meh 日本語。"+
		strings.Repeat("longword ", 200)+"a split phrase end", 6)
	run := func(chunks []string) string {
		var windows strings.Builder
		a, err := analyzer.New(recorder{&windows}, analyzer.WithMaxSegmentBytes(64), opt)
		if err != nil {
			t.Fatal(err)
		}
		s := a.NewSession()
		var evs []analyzer.Event
		for _, c := range chunks {
			var err error
			evs, err = s.Process(evs, "Chatcompletion", "COMPLETION", chunk(0, c))
			if err != nil {
				t.Fatal(err)
			}
		}
		evs = s.Finish(evs)
		var results []analyzer.Event
		last := 0
		for _, e := range evs {
			if e.Kind == analyzer.KindResult {
				results = append(results, e)
			} else {
				if e.End <= last {
					t.Fatalf("watermark went from %d to %d", last, e.End)
				}
				last = e.End
			}
		}
		return render(results) + fmt.Sprint("final ", last, " windows ", windows.String())
	}
	whole := run([]string{text})
	var runes []string
	for _, r := range text {
		runes = append(runes, string(r))
	}
	if got := run(runes); got != whole {
		t.Errorf("rune by rune:\n%s\nwhole:\n%s", got, whole)
	}
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 7))
		var chunks []string
		for i := 0; i < len(text); {
			j := min(len(text), i+1+rng.IntN(30))
			for j < len(text) && !utf8.RuneStart(text[j]) {
				j++
			}
			chunks = append(chunks, text[i:j])
			i = j
		}
		if got := run(chunks); got != whole {
			t.Fatalf("seed %d:\n%s\nwhole:\n%s", seed, got, whole)
		}
	}
}

// TestRealtimeVersionsReadAsOneText changes long Realtime instructions
// several times, repeating each version (the server's echo, a prefix of
// it, the client sending it again): the classifier must see the same
// windows, and the results must have the same offsets, as for the
// versions' text sent once as one chat message, although the session
// lets go of each version before the current one.
func TestRealtimeVersionsReadAsOneText(t *testing.T) {
	var versions []string
	for i := range 4 {
		versions = append(versions, fmt.Sprintf("Version %d. ", i)+strings.Repeat(fmt.Sprintf("Calm words %d here. ", i), 300)+"We stab now! ")
	}
	run := func(api string, payloads []string) (string, string) {
		var windows strings.Builder
		a, err := analyzer.New(recorder{&windows}, analyzer.WithMaxSegmentBytes(64))
		if err != nil {
			t.Fatal(err)
		}
		s := a.NewSession()
		var evs []analyzer.Event
		for _, p := range payloads {
			if evs, err = s.Process(evs, api, "PROMPT", []byte(p)); err != nil {
				t.Fatal(err)
			}
		}
		var results strings.Builder
		for _, e := range s.Finish(evs) {
			if e.Kind == analyzer.KindResult {
				fmt.Fprintf(&results, "[%d,%d) %v\n", e.Start, e.End, e.Categories)
			}
		}
		return windows.String(), results.String()
	}
	var updates []string
	for _, v := range versions {
		for _, instructions := range []string{v, v, v[:100], v} {
			updates = append(updates, fmt.Sprintf(`{"type":"session.update","session":{"instructions":%q}}`, instructions))
		}
	}
	gotWindows, gotResults := run("Realtime", updates)
	wantWindows, wantResults := run("Chatcompletion", []string{string(chatMessage(strings.Join(versions, "")))})
	if gotResults != wantResults {
		t.Errorf("results:\n%s\nwant:\n%s", gotResults, wantResults)
	}
	if gotWindows != wantWindows {
		t.Errorf("the classifier saw %d bytes of windows, want %d, or other ones", len(gotWindows), len(wantWindows))
	}
}

func chatMessage(text string) []byte {
	return fmt.Appendf(nil, `{"messages":[{"role":"user","content":%q}]}`, text)
}

// TestMinSegmentBytes checks that sentences shorter than the minimum join
// the next one: the harmful sentence's result then starts where the short
// harmless ones before it start, and the watermark stops there.
func TestMinSegmentBytes(t *testing.T) {
	text := "Hi. Calm. We stab now. Calm words here."
	for _, tt := range []struct{ min, start int }{{0, strings.Index(text, "We")}, {12, 0}} {
		s := newAnalyzer(t, analyzer.WithMinSegmentBytes(tt.min)).NewSession()
		evs, err := s.Process(nil, "Completion", "PROMPT", []byte(`{"prompt":"`+text+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		evs = s.Finish(evs)
		var got []string
		for _, e := range evs {
			if e.Kind == analyzer.KindResult {
				got = append(got, fmt.Sprintf("result [%d,%d)", e.Start, e.End))
			} else {
				got = append(got, fmt.Sprintf("watermark %d", e.End))
			}
		}
		want := []string{fmt.Sprintf("result [%d,%d)", tt.start, strings.Index(text, "Calm words"))}
		if tt.start > 0 {
			want = append(want, fmt.Sprintf("watermark %d", tt.start))
		}
		if !slices.Equal(got, want) {
			t.Errorf("min %d: %v, want %v", tt.min, got, want)
		}
	}
}

func TestNoModelReportedOnce(t *testing.T) {
	s := newAnalyzer(t).NewSession()
	p := []byte(`{"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"u"}}]}]}`)
	evs, err := s.Process(nil, "Chatcompletion", "PROMPT", p)
	if err != nil {
		t.Fatal(err)
	}
	evs, err = s.Process(evs, "Chatcompletion", "PROMPT", p)
	if err != nil {
		t.Fatal(err)
	}
	if got := render(s.Finish(evs)); got != "R 0/0 nomodel\n" {
		t.Errorf("events:\n%s", got)
	}
}
