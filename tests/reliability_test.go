package tests

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/classifiers"
	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
)

// long selects the reliability suite's long mode (60 s of load, a million
// one-byte chunks also under the race detector). Short mode is the default.
var long = flag.Bool("long", false, "run the reliability suite's long mode")

// script is the request sequence of one stream.
type script []*raiv1.AnalyzeRequest

// sentences is the text the scripts are made of: calm text, and a few
// sentences the default stack reports (so that streams carry results and
// blocked watermarks too). Tests never print them.
var sentences = []string{
	"The weather is mild today and we walk along the river. ",
	"Please summarize the meeting notes in three bullet points.\n",
	"Ünïcödé text: 日本語のテキスト。絵文字 👩‍👩‍👧 ok. ",
	"The quarterly report shows steady growth in every region. ",
	"Can you recommend a good book about the history of science?\n",
	threat + " ",
	"I hate mondays, but the coffee helps. ",
	"Then they should all be shot for what they did. ",
}

// chunks cuts text into 1 to max-byte pieces at rune starts.
func chunks(rng *rand.Rand, text string, max int) []string {
	var out []string
	for i := 0; i < len(text); {
		j := min(i+1+rng.IntN(max), len(text))
		for j < len(text) && text[j]&0xC0 == 0x80 {
			j++
		}
		out = append(out, text[i:j])
		i = j
	}
	return out
}

func text(rng *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(sentences[rng.IntN(len(sentences))])
	}
	return b.String()
}

// randomScript builds a stream that mixes 1 to 3 conversations of random
// APIs: chat requests and chunk streams (with text-free chunks between),
// legacy completions, Realtime events (deltas, done events, items) and image
// generation.
func randomScript(rng *rand.Rand) script {
	var s script
	for range 1 + rng.IntN(3) {
		switch rng.IntN(5) {
		case 0: // chat request with an image part
			s = append(s, req("PROMPT", "Chatcompletion", `{"model":"gpt-4o","messages":[{"role":"system","content":`+jsonString(text(rng, 1))+
				`},{"role":"user","content":[{"type":"text","text":`+jsonString(text(rng, 2))+`},{"type":"image_url","image_url":{"url":"https://example.com/a.png"}}]}]}`))
		case 1: // chat completion chunks of two choices
			for i, c := range chunks(rng, text(rng, 3), 40) {
				s = append(s, req("COMPLETION", "Chatcompletion", chatChunk(i%2, c)))
				if rng.IntN(8) == 0 {
					s = append(s, req("COMPLETION", "Chatcompletion", `{"id":"c","object":"chat.completion.chunk","usage":{"total_tokens":1},"obfuscation":"x"}`))
				}
			}
			s = append(s, req("COMPLETION", "Chatcompletion", `{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`))
		case 2: // legacy completions
			s = append(s, req("PROMPT", "Completion", `{"prompt":[`+jsonString(text(rng, 1))+`,`+jsonString(text(rng, 1))+`],"suffix":"end"}`))
			for _, c := range chunks(rng, text(rng, 2), 30) {
				s = append(s, req("COMPLETION", "Completion", `{"choices":[{"index":0,"text":`+jsonString(c)+`}]}`))
			}
		case 3: // Realtime: user item, streamed model output, done events
			resp, item := fmt.Sprintf("resp_%d", rng.IntN(1000)), fmt.Sprintf("item_%d", rng.IntN(1000))
			s = append(s, req("PROMPT", "Realtime", `{"type":"conversation.item.create","item":{"id":"msg_`+item+`","type":"message","role":"user","content":[{"type":"input_text","text":`+jsonString(text(rng, 1))+`}]}}`))
			s = append(s, req("COMPLETION", "Realtime", `{"type":"response.output_item.added","response_id":"`+resp+`","item":{"id":"`+item+`","type":"message","role":"assistant","content":[]}}`))
			full := text(rng, 2)
			for _, c := range chunks(rng, full, 25) {
				s = append(s, req("COMPLETION", "Realtime", `{"type":"response.output_audio_transcript.delta","item_id":"`+item+`","content_index":0,"delta":`+jsonString(c)+`}`))
			}
			s = append(s, req("COMPLETION", "Realtime", `{"type":"response.output_audio_transcript.done","response_id":"`+resp+`","item_id":"`+item+`","content_index":0,"transcript":`+jsonString(full)+`}`))
			s = append(s, req("COMPLETION", "Realtime", `{"type":"response.done","response":{"id":"`+resp+`","status":"completed"}}`))
		case 4: // image generation request and response
			s = append(s, req("PROMPT", "Imagegeneration", `{"model":"gpt-image-1","prompt":`+jsonString(text(rng, 1))+`}`))
			s = append(s, req("COMPLETION", "Imagegeneration", `{"created":1,"data":[{"revised_prompt":`+jsonString(text(rng, 1))+`,"b64_json":"AAAA"}]}`))
		}
	}
	return s
}

// categoryNames maps classifier categories to their wire names.
var categoryNames = map[classifiers.Category]string{
	classifiers.Hate: "HATE", classifiers.Sexual: "SEXUAL", classifiers.Violence: "VIOLENCE", classifiers.SelfHarm: "SELF_HARM",
}

// expected returns the events a stream of s must carry before its
// Completion, as event lines (see eventLine): the analyzer run directly,
// with Finish when the client half-closes.
func expected(a *analyzer.Analyzer, s script, finish bool) ([]string, error) {
	sess := a.NewSession()
	var evs, all []analyzer.Event
	for i, r := range s {
		var err error
		if evs, err = sess.Process(evs[:0], r.GetApiName(), r.GetSourceType(), []byte(r.GetPayload())); err != nil {
			return nil, fmt.Errorf("request %d: %w", i, err)
		}
		all = append(all, evs...)
	}
	if finish {
		all = sess.Finish(all)
	}
	out := make([]string, 0, len(all))
	for i := range all {
		e := &all[i]
		src := raiv1.SourceType(e.Key.Source).String()
		if e.Kind == analyzer.KindWatermark {
			out = append(out, fmt.Sprintf("W %s/%s/%d %d", src, e.Key.MessageID, e.Key.ContentIndex, e.End))
			continue
		}
		var cats []string
		for _, c := range a.Enabled() {
			r := e.Categories[c]
			switch {
			case e.NoModel:
				cats = append(cats, categoryNames[c]+":nomodel")
			default:
				cats = append(cats, fmt.Sprintf("%s:%d:%t", categoryNames[c], r.Severity, r.Blocking))
			}
		}
		out = append(out, fmt.Sprintf("R %s/%s/%d [%d,%d) %s", src, e.Key.MessageID, e.Key.ContentIndex, e.Start, e.End, strings.Join(cats, " ")))
	}
	return out, nil
}

// eventLine renders a wire event like expected does: offsets, keys,
// severities, never text.
func eventLine(ev *raiv1.AnalyzeResponse) string {
	switch {
	case ev.GetWatermark() != nil:
		w := ev.GetWatermark()
		return fmt.Sprintf("W %s/%s/%d %d", w.GetSourceType(), w.GetMessageId(), w.GetContentIndex(), w.GetOffset())
	case ev.GetAnalysisResult() != nil:
		r := ev.GetAnalysisResult()
		o := r.GetOffset()
		var cats []string
		for _, c := range r.GetHarmCategoryTaskResults() {
			h := c.GetHarmCategoryTaskResult()
			if c.GetResult() == raiv1.Result_NoModel {
				cats = append(cats, h.GetHarmCategory().String()+":nomodel")
				continue
			}
			cats = append(cats, fmt.Sprintf("%s:%d:%t", h.GetHarmCategory(), h.GetSeverity(), c.GetIsBlocking()))
		}
		return fmt.Sprintf("R %s/%s/%d [%d,%d) %s", o.GetSourceType(), o.GetMessageId(), o.GetContentIndex(), o.GetStartOffset(), o.GetEndOffset(), strings.Join(cats, " "))
	case ev.GetCompletion() != nil:
		return "C " + ev.GetCompletion().GetEndReason().String()
	}
	return "?"
}

// checkTranscript compares a stream's events with the expected lines and
// its end (one Completion with reason, last) and checks SPEC's invariants.
// It returns the first problem, or nil.
func checkTranscript(tr transcript, want []string, reason raiv1.EndReason, code codes.Code) error {
	if status.Code(tr.err) != code {
		return fmt.Errorf("status %v, want %v", status.Code(tr.err), code)
	}
	if len(tr.events) == 0 || tr.events[len(tr.events)-1].GetCompletion() == nil {
		return fmt.Errorf("%d events, the last is not a Completion", len(tr.events))
	}
	if got := tr.events[len(tr.events)-1].GetCompletion().GetEndReason(); got != reason {
		return fmt.Errorf("end reason %v, want %v", got, reason)
	}
	body := tr.events[:len(tr.events)-1]
	if len(body) != len(want) {
		return fmt.Errorf("%d events before the Completion, want %d (lost or duplicated events)", len(body), len(want))
	}
	for i, ev := range body {
		if ev.GetCompletion() != nil {
			return fmt.Errorf("event %d: a second Completion", i)
		}
		if got := eventLine(ev); got != want[i] {
			return fmt.Errorf("event %d: %q, want %q", i, got, want[i])
		}
	}
	if errs := tr.invariantErrors(nil); len(errs) > 0 {
		return errors.New(errs[0])
	}
	return nil
}

// stream runs s on one stream without half-closing when halfClose is false,
// and collects every event until the server ends it. Unlike ts.run it can
// run on any goroutine: it reports problems as errors.
func stream(ctx context.Context, c raiv1.AnalysisServiceClient, s script, halfClose bool) (transcript, error) {
	st, err := c.Analyze(ctx)
	if err != nil {
		return transcript{}, err
	}
	sendErr := make(chan error, 1)
	go func() {
		for _, r := range s {
			if err := st.Send(r); err != nil {
				sendErr <- nil // the server ended the stream; Recv says why
				return
			}
		}
		if halfClose {
			sendErr <- st.CloseSend()
			return
		}
		sendErr <- nil
	}()
	var tr transcript
	for {
		ev, err := st.Recv()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				tr.err = err
			}
			break
		}
		tr.events = append(tr.events, ev)
	}
	return tr, <-sendErr
}

// liveHeap returns the bytes of live heap objects after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func mib(n uint64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// scripts returns n random scripts and their expected events (with Finish).
func scripts(t testing.TB, a *analyzer.Analyzer, seed uint64, n int) ([]script, [][]string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 16))
	ss := make([]script, n)
	want := make([][]string, n)
	for i := range ss {
		ss[i] = randomScript(rng)
		var err error
		if want[i], err = expected(a, ss[i], true); err != nil {
			t.Fatalf("script %d: %v", i, err)
		}
	}
	return ss, want
}
