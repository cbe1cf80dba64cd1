package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/openrai/raiserver/client"
)

// errModel wraps a failure of the model (upstream or scripted).
var errModel = errors.New("model failed")

// answerResult is how one moderated answer ended. err is nil when the whole
// answer was released; blocked says the content filter cut it off (block
// says where, never what).
type answerResult struct {
	err       error
	blocked   bool
	block     *client.Block
	verdict   *client.Verdict
	unchecked bool // some text was released unchecked (fail-open)
	started   bool // the model stream and the gate were open and onStart ran
}

// filterResults is the content_filter_results of the answer (choice 0).
func (r *answerResult) filterResults() client.ContentFilterResults {
	if r.verdict == nil {
		return client.ContentFilterResults{}
	}
	return r.verdict.Choice(0).ContentFilterResults()
}

// runAnswer streams the model's answer to body through a Gate and calls
// onText with each piece of choice 0's content as the content filter
// releases it. onStart (if not nil) runs once the model has accepted the
// request and the gate is open, before any text: a streaming handler writes
// its headers there, so that a model that refuses the request (an upstream
// 401 or 429) still gets a plain HTTP error. One goroutine reads the model
// and feeds the gate; this one writes releases. runAnswer returns when the
// answer is complete, cut off, or failed; the model is stopped (its context
// cancelled) before it returns.
func (b *backend) runAnswer(ctx context.Context, body []byte, onStart func() error, onText func(string) error) answerResult {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := b.model.Stream(ctx, body)
	if err != nil {
		return answerResult{err: fmt.Errorf("%w: %w", errModel, err)}
	}
	g, err := b.guard.NewGate(ctx, client.Chat)
	if err != nil {
		stream.Close()
		return answerResult{err: err}
	}
	if onStart != nil {
		if err := onStart(); err != nil {
			stream.Close()
			g.Close()
			return answerResult{err: fmt.Errorf("%w: %w", errClientGone, err)}
		}
	}
	modelErr := make(chan error, 1)
	go func() { modelErr <- feed(stream, g) }()
	defer func() {
		cancel()
		g.Close()
		<-modelErr
	}()

	res := answerResult{started: true}
	for {
		r, err := g.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			var be *client.BlockedError
			if errors.As(err, &be) {
				res.blocked, res.block = true, &be.Block
			}
			res.err, res.verdict = err, g.Verdict()
			return res
		}
		res.unchecked = res.unchecked || r.Unchecked
		if r.Item.MessageID != "0" || r.Item.ContentIndex != 0 {
			continue // refusals and tool-call arguments are not shown by the chat protocols
		}
		if err := onText(r.Text); err != nil {
			res.err = fmt.Errorf("%w: %w", errClientGone, err)
			return res
		}
	}
	res.verdict = g.Verdict()
	// The gate is drained; the model goroutine has closed it or is closing.
	select {
	case err := <-modelErr:
		modelErr <- err // for the deferred receive
		res.err = err
	case <-ctx.Done():
		res.err = ctx.Err()
	}
	return res
}

// feed reads the model's chunks into the gate until the model ends, the
// gate stops (a block, or the service is gone), or the context ends. It
// always half-closes the gate and closes the model stream, and returns the
// model's error, if any.
func feed(stream ChunkStream, g *client.Gate) error {
	defer stream.Close()
	defer g.CloseSend()
	for {
		chunk, err := stream.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: %w", errModel, err)
		}
		if upstreamError(chunk) {
			return fmt.Errorf("%w: an error event in the stream", errModel)
		}
		if err := g.Send(chunk); err != nil {
			if errors.Is(err, client.ErrRejected) {
				continue // not a chunk the service reads (the gate keeps going)
			}
			return nil // stopped: Recv says why
		}
	}
}

// upstreamError reports a stream event that is an error object, as OpenAI
// sends when a stream fails midway.
func upstreamError(chunk []byte) bool {
	var probe struct {
		Error json.RawMessage `json:"error"`
	}
	return json.Unmarshal(chunk, &probe) == nil && len(probe.Error) > 0 && string(probe.Error) != "null"
}
