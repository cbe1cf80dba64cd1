package analyzer_test

import (
	"bytes"
	"sync"
	"testing"
	"time"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/extract"
)

// slowClassifier wraps testCls and sleeps on segments that hold "slow", so a
// deadline shorter than the sleep is always overrun (a sleep never ends early).
type slowClassifier struct{ sleep time.Duration }

func (c slowClassifier) Classify(dst []classifiers.Finding, text []byte) []classifiers.Finding {
	if bytes.Contains(text, []byte("slow")) {
		time.Sleep(c.sleep)
	}
	return testCls.Classify(dst, text)
}

type recordObserver struct {
	mu    sync.Mutex
	stats []analyzer.SegmentStats
}

func (o *recordObserver) SegmentAnalyzed(s analyzer.SegmentStats) {
	o.mu.Lock()
	o.stats = append(o.stats, s)
	o.mu.Unlock()
}

// TestSegmentDeadline checks both fail modes: a late segment is reported
// blocking in every enabled category under fail-closed (even with nothing
// detected, and the watermark stops before it), and with the classifier's own
// result under fail-open. Segments on time are unaffected; the observer sees
// every segment with its source, length and lateness.
func TestSegmentDeadline(t *testing.T) {
	chunks := []string{"Fine text. ", "A slow line. ", "After that. "}
	tests := []struct {
		name     string
		deadline time.Duration
		mode     analyzer.FailMode
		want     string
		late     int
	}{
		{"no deadline", 0, analyzer.FailClosed, "W 0/0 11\nW 0/0 24\nW 0/0 36\n", 0},
		{"on time", time.Hour, analyzer.FailClosed, "W 0/0 11\nW 0/0 24\nW 0/0 36\n", 0},
		{"fail-closed", time.Millisecond, analyzer.FailClosed, "W 0/0 11\nR 0/0 [11,24) block=true sev=0000\n", 1},
		{"fail-open", time.Millisecond, analyzer.FailOpen, "W 0/0 11\nW 0/0 24\nW 0/0 36\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obs := &recordObserver{}
			a, err := analyzer.New(slowClassifier{sleep: 5 * time.Millisecond},
				analyzer.WithSegmentDeadline(tt.deadline, tt.mode), analyzer.WithObserver(obs),
				analyzer.WithContextBytes(0)) // only the segment that holds "slow" is slow
			if err != nil {
				t.Fatal(err)
			}
			s := a.NewSession()
			var evs []analyzer.Event
			for _, c := range chunks {
				if evs, err = s.Process(evs, "Chatcompletion", "COMPLETION", chunk(0, c)); err != nil {
					t.Fatal(err)
				}
			}
			evs = s.Finish(evs)
			if got := render(evs); got != tt.want {
				t.Errorf("events:\n%s\nwant:\n%s", got, tt.want)
			}
			for _, e := range evs {
				if e.Kind != analyzer.KindResult {
					continue
				}
				if !e.DeadlineExceeded {
					t.Errorf("result %d..%d without DeadlineExceeded", e.Start, e.End)
				}
				for _, c := range a.Enabled() {
					if !e.Categories[c].Blocking {
						t.Errorf("fail-closed result not blocking in %v", c)
					}
				}
			}
			if len(obs.stats) != len(chunks) {
				t.Fatalf("observer saw %d segments, want %d", len(obs.stats), len(chunks))
			}
			late, total := 0, 0
			for _, st := range obs.stats {
				if st.Source != extract.Completion || st.Took <= 0 || st.FailMode != tt.mode {
					t.Errorf("stats %+v", st)
				}
				total += st.Bytes
				if st.Late {
					late++
				}
			}
			if late != tt.late || total != 36 {
				t.Errorf("late %d, bytes %d; want %d late, 36 bytes", late, total, tt.late)
			}
		})
	}
}

func TestParseFailMode(t *testing.T) {
	for in, want := range map[string]analyzer.FailMode{"closed": analyzer.FailClosed, "fail-open": analyzer.FailOpen, "OPEN": analyzer.FailOpen} {
		if got, ok := analyzer.ParseFailMode(in); !ok || got != want {
			t.Errorf("ParseFailMode(%q) = %v, %v", in, got, ok)
		}
	}
	if _, ok := analyzer.ParseFailMode("maybe"); ok {
		t.Error("ParseFailMode accepted maybe")
	}
	if _, err := analyzer.New(testCls, analyzer.WithSegmentDeadline(-time.Second, analyzer.FailOpen)); err == nil {
		t.Error("negative deadline accepted")
	}
}
