package client

import (
	"context"
	"errors"
	"fmt"
	"io"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
)

// tally collects a stream's events into per-item results. It is not safe for
// concurrent use; the Gate guards it with its mutex.
type tally struct {
	items map[Item]*ItemResult
	order []*ItemResult
	block *Block // the first blocking finding, in arrival order
	done  *raiv1.Completion
}

func newTally() *tally { return &tally{items: map[Item]*ItemResult{}} }

func (t *tally) item(it Item) *ItemResult {
	if r, ok := t.items[it]; ok {
		return r
	}
	r := &ItemResult{Item: it}
	t.items[it] = r
	t.order = append(t.order, r)
	return r
}

func sourceOf(s raiv1.SourceType) Source {
	switch s {
	case raiv1.SourceType_PROMPT:
		return Prompt
	case raiv1.SourceType_COMPLETION:
		return Completion
	}
	return Source(s.String())
}

func categoryOf(c raiv1.HarmCategory) Category {
	switch c {
	case raiv1.HarmCategory_HATE:
		return Hate
	case raiv1.HarmCategory_SEXUAL:
		return Sexual
	case raiv1.HarmCategory_VIOLENCE:
		return Violence
	case raiv1.HarmCategory_SELF_HARM:
		return SelfHarm
	}
	return 0
}

// add records one event. It returns the item a result or watermark was
// about, and the Block when the event is the stream's first blocking result.
func (t *tally) add(ev *raiv1.AnalyzeResponse) (r *ItemResult, first *Block) {
	switch e := ev.GetEvent().(type) {
	case *raiv1.AnalyzeResponse_AnalysisResult:
		o := e.AnalysisResult.GetOffset()
		r = t.item(Item{Source: sourceOf(o.GetSourceType()), MessageID: o.GetMessageId(), ContentIndex: int(o.GetContentIndex())})
		f := Finding{Start: int(o.GetStartOffset()), End: int(o.GetEndOffset())}
		for _, tr := range e.AnalysisResult.GetHarmCategoryTaskResults() {
			if tr.GetResult() == raiv1.Result_NoModel {
				f.NoModel = true
				continue
			}
			hc := tr.GetHarmCategoryTaskResult()
			if p := f.Categories.ptr(categoryOf(hc.GetHarmCategory())); p != nil {
				p.Severity = max(p.Severity, int(hc.GetSeverity()))
				p.Blocking = p.Blocking || tr.GetIsBlocking()
			}
		}
		r.Findings = append(r.Findings, f)
		r.Categories.merge(&f.Categories)
		r.NoModel = r.NoModel || f.NoModel
		if c, sev, ok := f.Categories.worstBlocking(); ok && !r.Blocked {
			r.Blocked = true
			if t.block == nil {
				t.block = &Block{Item: r.Item, Start: f.Start, End: f.End, Category: c, Severity: sev}
				first = t.block
			}
		}
	case *raiv1.AnalyzeResponse_Watermark:
		w := e.Watermark
		r = t.item(Item{Source: sourceOf(w.GetSourceType()), MessageID: w.GetMessageId(), ContentIndex: int(w.GetContentIndex())})
		r.Watermark = max(r.Watermark, int(w.GetOffset()))
	case *raiv1.AnalyzeResponse_Completion:
		t.done = e.Completion
	}
	return r, first
}

// verdict returns a Verdict that shares nothing with t.
func (t *tally) verdict() *Verdict {
	v := &Verdict{Items: make([]ItemResult, len(t.order))}
	for i, r := range t.order {
		v.Items[i] = *r
		v.Items[i].Findings = append([]Finding(nil), r.Findings...)
	}
	v.summarize()
	if t.block != nil {
		b := *t.block
		v.Block = &b
	}
	return v
}

// run sends payloads on one stream, half-closes and tallies every event. It
// returns nil when the stream ended with END_OF_STREAM and status OK, else
// an error wrapping ErrRejected or ErrUnavailable (or ctx's error, wrapped
// in ErrUnavailable: the caller tells its own context from the deadline).
func (c *Client) run(ctx context.Context, t *tally, api API, source Source, payloads [][]byte) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := c.rpc.Analyze(ctx)
	if err != nil {
		return endError(nil, err)
	}
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		for _, p := range payloads {
			r := &raiv1.AnalyzeRequest{SourceType: string(source), ApiName: string(api), Payload: string(p)}
			if stream.Send(r) != nil {
				return // the stream ended; Recv says why
			}
		}
		_ = stream.CloseSend()
	}()
	defer func() { cancel(); <-sent }()
	for {
		ev, err := stream.Recv()
		if err != nil {
			return endError(t.done, err)
		}
		t.add(ev)
	}
}

// endError turns the end of a stream (its Completion, if one came, and the
// status Recv returned) into nil, ErrRejected or ErrUnavailable.
func endError(done *raiv1.Completion, err error) error {
	if done != nil {
		switch done.GetEndReason() {
		case raiv1.EndReason_END_REASON_END_OF_STREAM:
			if errors.Is(err, io.EOF) {
				return nil
			}
		case raiv1.EndReason_END_REASON_INVALID_ARGUMENT, raiv1.EndReason_END_REASON_RESOURCE_EXHAUSTED:
			return fmt.Errorf("%w: %s", ErrRejected, done.GetErrorDescription())
		default:
			return fmt.Errorf("%w: stream ended: %s: %s", ErrUnavailable, done.GetEndReason(), done.GetErrorDescription())
		}
	}
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("%w: stream ended without a Completion", ErrUnavailable)
	}
	switch status.Code(err) {
	case codes.InvalidArgument, codes.ResourceExhausted:
		return fmt.Errorf("%w: %s", ErrRejected, status.Convert(err).Message())
	}
	return fmt.Errorf("%w: %w", ErrUnavailable, err)
}
